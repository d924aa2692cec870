#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/driver/checkpoint.h>
#include <hydrostat/io/checkpoint_files.h>

#include <chrono>
#include <iomanip>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    constexpr std::uint32_t format = 5; // of the rank files; changes when their content does
  }                                     // namespace

  Checkpoint::Checkpoint(const Parts &parts, const std::uint64_t parameter_hash)
    : parts(parts)
    , parameter_hash(parameter_hash)
  {}

  void Checkpoint::save(const unsigned int step, const double dt, const ConditionalOStream &out,
                        TimerOutput &timer) const
  {
    TimerOutput::Scope scope(timer, "checkpoint");
    const auto         start = std::chrono::steady_clock::now();
    BinaryWriter       data;
    data.put(format);
    data.put(step);
    data.put(dt);
    data.put(parts.stepping); // with its memory of failed step sizes
    data.put(parts.statistics);
    parts.state.save(data);
    parts.energy.save(data);
    data.put(parts.assembler.condensed_fields().accepted_values(parts.assembler.dof_handler()));
    for (const auto &term : parts.assembler.terms())
      term->save(data);
    const ParaViewSeries::Records series = parts.output.written();
    data.put(std::uint64_t(series.size()));
    for (const auto &[time, file] : series)
      {
        data.put(time);
        data.put(file);
      }

    const std::uint64_t bytes =
      CheckpointFiles(parts.output.directory, parameter_hash, parts.assembler.comm()).write(step, data.data());
    const double       wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream line;
    line << "Checkpoint at step " << step << " (t = " << parts.state.time() << " s): " << std::fixed
         << std::setprecision(2) << bytes / 1e6 << " MB in " << wall << " s";
    out << line.str() << std::endl;
  }

  std::pair<unsigned int, double> Checkpoint::load()
  {
    const MPI_Comm comm        = parts.assembler.comm();
    const auto [step, data]    = CheckpointFiles(parts.output.directory, parameter_hash, comm).read_newest();
    double                  dt = 0;
    ParaViewSeries::Records series;
    std::string             problem;
    try
      {
        BinaryReader in(data, "'" + parts.output.directory + "/checkpoint-" + Utilities::int_to_string(step, 5) + "'");
        if (in.get<std::uint32_t>() != format || in.get<unsigned int>() != step)
          in.fail("it was written by another version of hydrostat");
        dt = in.get<double>();
        // The end time is this run's: a run may be continued beyond the end it had.
        const double end_time   = parts.stepping.end_time;
        parts.stepping          = in.get<TimeStepControl>();
        parts.stepping.end_time = end_time;
        parts.statistics        = in.get<StepSolver::Statistics>();
        parts.state.load(in);
        parts.energy.load(in);
        if (!parts.assembler.condensed_fields().set_accepted_values(parts.assembler.dof_handler(), in.get_vector()))
          in.fail("its three-field cell values do not fit this mesh");
        for (const auto &term : parts.assembler.terms())
          term->load(in);
        series.resize(in.get<std::uint64_t>());
        for (auto &[time, file] : series)
          {
            time = in.get<double>();
            file = in.get_string();
          }
        in.expect_end();
        if (parts.state.time() > end_time * (1 + 1e-12))
          {
            throw InputError("Parameter 'Time stepping/End time' = " + shortest_text(end_time) +
                             " s is before the newest checkpoint's t = " + shortest_text(parts.state.time()) +
                             " s: give a later end time to continue the run (its output is kept).");
          }
      }
    catch (const InputError &error)
      {
        problem = error.what();
      }
    // Every rank stops if one cannot read its part.
    if (Utilities::MPI::max(int(!problem.empty()), comm) == 1)
      throw InputError(problem.empty() ? "Another MPI rank could not read its part of the checkpoint." : problem);
    parts.output.resume(step, series, comm);
    return {step, dt};
  }
} // namespace hydrostat
