#pragma once

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/timer.h>

#include <hydrostat/driver/checkpoint.h>
#include <hydrostat/driver/run_output.h>
#include <hydrostat/integration/step_solver.h>

#include <chrono>
#include <csignal>

namespace hydrostat
{
  /**
   * The time loop of a run: steps of StepSolver to the end time with the step sizes of
   * TimeStepControl, a progress line per step (io/progress), the output of RunOutput, and
   * checkpoints when they are due or a signal asks for one.
   */
  class TimeLoop
  {
  public:
    /// How the command line drives the loop.
    struct Options
    {
      /// Continue from the newest complete checkpoint in the output directory.
      bool resume = false;
      /// Report progress at every 10 % only (as Output/Verbosity = quiet).
      bool quiet = false;
      /// Non-zero (set by a signal handler on any rank) stops the run at the end of the current
      /// step with a checkpoint.
      const volatile std::sig_atomic_t *stop = nullptr;
    };
    enum class Outcome
    {
      finished,
      interrupted
    };

    TimeLoop(StepSolver &steps, TimeStepControl &stepping, RunOutput &output, Checkpoint &checkpoint,
             dealii::TimerOutput &timer, const dealii::ConditionalOStream &out);

    /// From the initial state (or the checkpoint) to the end time; @p wall_start for the log.
    Outcome run(const Options &options, const std::chrono::steady_clock::time_point wall_start);

  private:
    StepSolver                       &steps;
    TimeStepControl                  &stepping;
    RunOutput                        &output;
    Checkpoint                       &checkpoint;
    dealii::TimerOutput              &timer;
    const dealii::ConditionalOStream &out;
  };
} // namespace hydrostat
