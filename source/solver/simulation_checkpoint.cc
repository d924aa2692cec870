// Checkpoint and restart of Simulation: every rank packs the accepted state it owns (vectors,
// activation states at its quadrature points, its muscle–tendon units) and CheckpointFiles
// stores it. The mesh and its partition are rebuilt from the parameters, so a checkpoint is
// resumed on the same number of ranks with the same parameters; the resumed run repeats the
// uninterrupted one bit for bit.
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/io/checkpoint_files.h>
#include <hydrostat/solver/simulation.h>

#include <chrono>
#include <iomanip>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    constexpr std::uint32_t format = 4; // of the rank files; changes when their content does

    void read_owned(BinaryReader &in, Simulation::Vector &v)
    {
      const std::vector<double> values = in.get_vector();
      if (values.size() != v.locally_owned_size())
        in.fail("its vectors do not fit this mesh");
      std::copy(values.begin(), values.end(), v.begin());
    }
  } // namespace

  void Simulation::save_checkpoint(const unsigned int step, const double dt)
  {
    TimerOutput::Scope scope(timer, "checkpoint");
    const auto         start = std::chrono::steady_clock::now();
    BinaryWriter       out;
    out.put(format);
    out.put(step);
    out.put(current_time);
    out.put(dt);
    out.put(stepping); // with its memory of failed step sizes
    out.put(statistics);
    out.put(quantities);
    for (const Vector *v : {&u_n, &v_n, &a_n, &f_ext_n})
      out.put(std::vector<double>(v->begin(), v->end()));
    std::vector<double> activation; // q, γ per group and point, cells in the order of the mesh
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        for (const auto &point : muscle_points.get_data(cell))
          for (const auto &group : point->groups)
            activation.insert(activation.end(), {group.state.q, group.state.gamma});
    out.put(activation);
    out.put(condensed_fields.accepted_values(dof_handler));
    muscle_tendon_units.save(out);
    const ParaViewSeries::Records series = paraview ? paraview->written() : ParaViewSeries::Records();
    out.put(std::uint64_t(series.size()));
    for (const auto &[time, file] : series)
      {
        out.put(time);
        out.put(file);
      }

    const std::uint64_t bytes = CheckpointFiles(output.directory, parameter_hash, comm).write(step, out.data());
    const double        wall  = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::ostringstream  line;
    line << "Checkpoint at step " << step << " (t = " << current_time << " s): " << std::fixed << std::setprecision(2)
         << bytes / 1e6 << " MB in " << wall << " s";
    pcout << line.str() << std::endl;
  }

  std::pair<unsigned int, double> Simulation::load_checkpoint()
  {
    const auto [step, data]    = CheckpointFiles(output.directory, parameter_hash, comm).read_newest();
    double                  dt = 0;
    ParaViewSeries::Records series;
    std::string             problem;
    try
      {
        BinaryReader in(data, "'" + output.directory + "/checkpoint-" + Utilities::int_to_string(step, 5) + "'");
        if (in.get<std::uint32_t>() != format || in.get<unsigned int>() != step)
          in.fail("it was written by another version of hydrostat");
        current_time = in.get<double>();
        dt           = in.get<double>();
        stepping     = in.get<TimeStepControl>();
        statistics   = in.get<RunStatistics>();
        quantities   = in.get<GlobalQuantities>();
        for (Vector *v : {&u_n, &v_n, &a_n, &f_ext_n})
          read_owned(in, *v);
        const std::vector<double> activation = in.get_vector();
        std::size_t               k          = 0;
        for (const auto &cell : triangulation.active_cell_iterators())
          if (cell->is_locally_owned())
            for (const auto &point : muscle_points.get_data(cell))
              for (auto &group : point->groups)
                {
                  if (k + 2 > activation.size())
                    in.fail("its activation states do not fit this mesh");
                  group.state = {activation[k], activation[k + 1]};
                  k += 2;
                }
        if (k != activation.size())
          in.fail("its activation states do not fit this mesh");
        if (!condensed_fields.set_accepted_values(dof_handler, in.get_vector()))
          in.fail("its three-field cell values do not fit this mesh");
        muscle_tendon_units.load(in);
        series.resize(in.get<std::uint64_t>());
        for (auto &[time, file] : series)
          {
            time = in.get<double>();
            file = in.get_string();
          }
        in.expect_end();
      }
    catch (const InputError &error)
      {
        problem = error.what();
      }
    // Every rank stops if one cannot read its part.
    if (Utilities::MPI::max(int(!problem.empty()), comm) == 1)
      throw InputError(problem.empty() ? "Another MPI rank could not read its part of the checkpoint." : problem);
    if (output.paraview)
      paraview = std::make_unique<ParaViewSeries>(output.directory, output.base_name, comm, series);
    u_n_ghost         = u_n;
    v_n_ghost         = v_n;
    a_n_ghost         = a_n;
    csv_continue_rows = step + 1; // rows 0 … step
    return {step, dt};
  }
} // namespace hydrostat
