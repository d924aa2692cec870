#include <deal.II/base/mpi.h>

#include <hydrostat/driver/time_loop.h>
#include <hydrostat/io/progress.h>

#include <iomanip>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  TimeLoop::TimeLoop(StepSolver &steps, TimeStepControl &stepping, RunOutput &output, Checkpoint &checkpoint,
                     TimerOutput &timer, const ConditionalOStream &out)
    : steps(steps)
    , stepping(stepping)
    , output(output)
    , checkpoint(checkpoint)
    , timer(timer)
    , out(out)
  {}

  TimeLoop::Outcome TimeLoop::run(const Options &options, const std::chrono::steady_clock::time_point wall_start)
  {
    const State     &state     = steps.state();
    const Assembler &assembler = steps.assembler();
    unsigned int     step      = 0;
    double           dt        = stepping.time_step;
    if (options.resume)
      {
        std::tie(step, dt) = checkpoint.load();
        out << "Resuming at step " << step << ", t = " << state.time() << " s" << std::endl;
      }
    else
      {
        output.write_fields(0, false, assembler, state, timer);
        output.write_rows(0, 0.0, 0, state, steps.energy_balance(), assembler);
      }
    out << "Time stepping to t = " << stepping.end_time << " s (" << (steps.dynamic() ? "Newmark" : "quasi-static")
        << ", dt = " << stepping.time_step << " s; Newton converges to |R| <= max("
        << steps.newton_control().residual_absolute << " N, " << steps.newton_control().residual_relative << " f_ref))"
        << std::endl;

    // The estimate of the time left counts the time loop of this run only; the set-up time lets a
    // run resumed in pieces be timed by its steps alone (benchmarks/contact_cost.py --pieces).
    const auto loop_start = std::chrono::steady_clock::now();
    out << "Set up in " << std::fixed << std::setprecision(2)
        << std::chrono::duration<double>(loop_start - wall_start).count() << " s" << std::defaultfloat
        << std::setprecision(6) << std::endl;
    auto           last_checkpoint = loop_start;
    ProgressReport progress(state.time(), stepping.end_time, options.quiet || output.quiet);
    while (state.time() < stepping.end_time * (1 - 1e-12))
      {
        const double remaining = stepping.end_time - state.time();
        const double taken     = steps.advance(std::min(dt, remaining));
        ++step;
        // Grow back towards the nominal step after a cut-back.
        dt = std::max(stepping.minimum_step, stepping.next_step(taken, steps.newton().iterations()));
        const auto          now           = std::chrono::steady_clock::now();
        const double        wall          = std::chrono::duration<double>(now - wall_start).count();
        const NewtonSolver &newton_solver = steps.newton();
        if (progress.due(state.time(), std::chrono::duration<double>(now - loop_start).count()))
          out << "step " << std::setw(5) << step << "  t = " << scientific(state.time())
              << " s  dt = " << scientific(taken, 2) << " s  Newton " << std::setw(2) << newton_solver.iterations()
              << "  |R| " << scientific(newton_solver.residuals().back(), 2) << "  linear its "
              << newton_solver.last_linear_iterations() << "  wall " << std::fixed << std::setprecision(1) << wall
              << " s  " << progress.text() << std::defaultfloat << std::setprecision(6) << std::endl;
        const bool finished = state.time() >= stepping.end_time * (1 - 1e-12);
        output.write_rows(step, taken, newton_solver.iterations(), state, steps.energy_balance(), assembler);
        output.write_fields(step, finished, assembler, state, timer);

        // One collective decision: a signal on any rank, or a checkpoint due by steps or wall time.
        const double minutes = std::chrono::duration<double>(now - last_checkpoint).count() / 60;
        const double stop    = Utilities::MPI::max(options.stop && *options.stop ? 1.0 : 0.0, assembler.comm());
        const bool   due     = (output.checkpoint_interval > 0 && step % output.checkpoint_interval == 0) ||
                         (output.checkpoint_minutes > 0 &&
                          Utilities::MPI::max(minutes, assembler.comm()) >= output.checkpoint_minutes);
        if (!finished && (due || stop > 0))
          {
            checkpoint.save(step, dt, out, timer);
            last_checkpoint = std::chrono::steady_clock::now();
          }
        if (!finished && stop > 0)
          {
            out << "Stopped by a signal at step " << step << ", t = " << state.time() << " s: continue with --resume"
                << std::endl;
            timer.print_summary();
            return Outcome::interrupted;
          }
      }
    const EnergyBalance::Quantities &q = steps.energy_balance();
    out << "Finished at t = " << state.time() << " s after " << step << " steps; energies [J]: kinetic "
        << q.kinetic_energy << ", strain " << q.strain_energy << ", external work " << q.external_work
        << ", active work " << q.active_work << ", dissipated " << q.dissipated_energy << " (numerical "
        << q.numerical_dissipation << "), balance " << q.balance() << std::endl;
    if (!output.csv_path().empty())
      out << "Time series: " << output.csv_path() << std::endl;
    if (output.paraview)
      out << "ParaView: " << output.directory << "/" << output.base_name << ".pvd" << std::endl;
    timer.print_summary();
    return Outcome::finished;
  }
} // namespace hydrostat
