#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/driver/run_output.h>
#include <hydrostat/driver/terms.h>

namespace hydrostat
{
  using namespace dealii;

  void RunOutput::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Output");
    prm.declare_entry("Directory", "", Patterns::FileName(Patterns::FileName::output),
                      "Directory for all output files; a relative path is taken from the folder of the case "
                      "file that sets it (from the working directory if given with --set). Empty: "
                      "output/<the case file's name without .prm> in the working directory, so that a copied "
                      "case never writes into its original's folder (output/solution for a case built in code).");
    prm.declare_entry("Base name", "solution", Patterns::Anything(), "Stem of the output file names.");
    prm.declare_entry("Interval", "1", Patterns::Integer(1), "Write ParaView output every N steps (and at the end).");
    prm.declare_entry("ParaView", "true", Patterns::Bool(), "Write the PVD/PVTU/VTU series.");
    prm.declare_entry("Probe points", "", Patterns::Anything(),
                      "Reference points [m] whose position, displacement and velocity go to <base>.csv every "
                      "step: 'x, y, z' entries separated by ';'.");
    prm.declare_entry("Checkpoint interval", "0", Patterns::Integer(0),
                      "Write a checkpoint (for --resume) every N steps; 0: none. The newest two are kept in "
                      "<Directory>/checkpoint-<step>/; SIGTERM or SIGUSR1 also writes one and stops the run.");
    prm.declare_entry("Checkpoint wall interval", "0", Patterns::Double(0.0),
                      "Also write a checkpoint when this many minutes of wall time have passed since the last "
                      "one; 0: none.");
    prm.declare_entry("Verbosity", "normal", Patterns::Selection("normal|quiet"),
                      "normal: a progress line per step; quiet: at the start, every 10 % and the end.");
    OutputFields::declare_parameters(prm, term_field_selectors());
    prm.leave_subsection();
  }

  void RunOutput::parse_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Output");
    directory           = prm.get("Directory").empty() ? std::string("output/solution") : prm.get("Directory");
    base_name           = prm.get("Base name");
    interval            = prm.get_integer("Interval");
    paraview            = prm.get_bool("ParaView");
    probe_points        = PointProbes::parse(prm.get("Probe points"), "Output/Probe points");
    checkpoint_interval = prm.get_integer("Checkpoint interval");
    checkpoint_minutes  = prm.get_double("Checkpoint wall interval");
    quiet               = prm.get("Verbosity") == "quiet";
    fields.parse_parameters(prm, term_field_selectors());
    prm.leave_subsection();
  }

  void RunOutput::setup(const DoFHandler<3> &dof_handler)
  {
    if (!probe_points.empty())
      probes = std::make_unique<PointProbes>(dof_handler, probe_points, "Output/Probe points");
  }

  std::vector<Tensor<1, 3>> RunOutput::probe_displacements(const State &state) const
  {
    return probes ? probes->values(state.u_ghosted()) : std::vector<Tensor<1, 3>>();
  }

  std::vector<Tensor<1, 3>> RunOutput::probe_velocities(const State &state) const
  {
    return probes ? probes->values(state.v_ghosted()) : std::vector<Tensor<1, 3>>();
  }

  void RunOutput::write_rows(const unsigned int step, const double dt, const unsigned int newton_iterations,
                             const State &state, const EnergyBalance::Quantities &q, const Assembler &assembler)
  {
    if (!csv)
      {
        std::vector<std::string> columns{
          "step",          "time",         "dt",     "newton_iterations", "kinetic_energy", "strain_energy",
          "external_work", "total_energy", "volume", "dissipated_energy", "active_work",    "numerical_dissipation",
          "energy_balance"};
        for (unsigned int k = 0; k < probe_points.size(); ++k)
          for (const std::string quantity : {"x", "y", "z", "ux", "uy", "uz", "vx", "vy", "vz"})
            columns.push_back("p" + std::to_string(k) + "_" + quantity);
        csv =
          std::make_unique<CsvSeries>(directory + "/" + base_name + ".csv", columns, assembler.comm(), continue_rows);
      }
    std::vector<double> row{double(step),
                            state.time(),
                            dt,
                            double(newton_iterations),
                            q.kinetic_energy,
                            q.strain_energy,
                            q.external_work,
                            q.kinetic_energy + q.strain_energy - q.external_work,
                            q.volume,
                            q.dissipated_energy,
                            q.active_work,
                            q.numerical_dissipation,
                            q.balance()};
    const auto          displacements = probe_displacements(state);
    const auto          velocities    = probe_velocities(state);
    for (unsigned int k = 0; k < probe_points.size(); ++k)
      {
        for (unsigned int d = 0; d < 3; ++d)
          row.push_back(probe_points[k][d] + displacements[k][d]);
        for (unsigned int d = 0; d < 3; ++d)
          row.push_back(displacements[k][d]);
        for (unsigned int d = 0; d < 3; ++d)
          row.push_back(velocities[k][d]);
      }
    csv->write_row(row);

    for (const auto &term : assembler.terms())
      if (!term->series_name().empty())
        {
          auto &series_csv = term_csv[term->series_name()];
          if (!series_csv)
            {
              std::vector<std::string> columns{"step", "time"};
              for (const std::string &column : term->series_columns())
                columns.push_back(column);
              series_csv = std::make_unique<CsvSeries>(directory + "/" + base_name + "_" + term->series_name() + ".csv",
                                                       columns, assembler.comm(), continue_rows);
            }
          std::vector<double> values{double(step), state.time()};
          for (const double value : term->series_values())
            values.push_back(value);
          series_csv->write_row(values);
        }
  }

  void RunOutput::write_fields(const unsigned int step, const bool last, const Assembler &assembler, const State &state,
                               TimerOutput &timer)
  {
    if (!paraview || (step % interval != 0 && !last))
      return;
    TimerOutput::Scope scope(timer, "output");
    if (!series)
      series = std::make_unique<ParaViewSeries>(directory, base_name, assembler.comm());
    DataOut<3> data_out;
    fields.add_to(data_out, assembler, state);
    data_out.build_patches(assembler.formulation().degree);
    series->write(data_out, state.time(), step);
  }

  void RunOutput::resume(const unsigned int step, const ParaViewSeries::Records &records, MPI_Comm comm)
  {
    if (paraview)
      series = std::make_unique<ParaViewSeries>(directory, base_name, comm, records);
    continue_rows = step + 1; // rows 0 … step
  }

  ParaViewSeries::Records RunOutput::written() const { return series ? series->written() : ParaViewSeries::Records(); }
} // namespace hydrostat
