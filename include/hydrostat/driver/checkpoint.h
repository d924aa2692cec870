#pragma once

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/timer.h>

#include <hydrostat/assembly/assembler.h>
#include <hydrostat/assembly/energy_balance.h>
#include <hydrostat/driver/run_output.h>
#include <hydrostat/fem/state.h>
#include <hydrostat/integration/newton_control.h>
#include <hydrostat/integration/step_solver.h>

#include <cstdint>
#include <utility>

namespace hydrostat
{
  /**
   * Checkpoint and restart of a run: every rank packs the accepted state it owns — the State, the
   * energy balance, the three-field cell fields, each term's history (Term::save()), the step
   * control and counts, the ParaView files written — and CheckpointFiles stores it. The mesh and
   * its partition are rebuilt from the parameters, so a checkpoint is resumed on the same number
   * of ranks with the same parameters; the resumed run repeats the uninterrupted one bit for bit.
   */
  class Checkpoint
  {
  public:
    /// What a checkpoint holds (references to the run's own objects).
    struct Parts
    {
      TimeStepControl        &stepping;
      StepSolver::Statistics &statistics;
      State                  &state;
      EnergyBalance          &energy;
      Assembler              &assembler;
      RunOutput              &output;
    };

    Checkpoint(const Parts &parts, const std::uint64_t parameter_hash);

    /// Writes the checkpoint of the accepted state at @p step, @p dt the size of the next step.
    void save(const unsigned int step, const double dt, const dealii::ConditionalOStream &out,
              dealii::TimerOutput &timer) const;
    /// After setup(): restores the newest complete checkpoint; returns its step and next step size.
    std::pair<unsigned int, double> load();

  private:
    Parts         parts;
    std::uint64_t parameter_hash; // of every parameter: a checkpoint is resumed with the same ones
  };
} // namespace hydrostat
