#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/driver/simulation.h>
#include <hydrostat/driver/terms.h>
#include <hydrostat/io/checkpoint_files.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// (subsections, entry, value) of one parameter.
    using ParameterChange = std::tuple<std::vector<std::string>, std::string, std::string>;

    /// Every parameter as a ShortPRM text, with the given entries changed; prm is left as it was.
    std::string parameters_with_changes(ParameterHandler &prm, std::vector<ParameterChange> changes)
    {
      const auto exchange = [&prm](ParameterChange &change) {
        auto &[path, entry, value] = change;
        for (const std::string &subsection : path)
          prm.enter_subsection(subsection);
        const std::string old = prm.get(entry);
        prm.set(entry, value);
        value = old;
        for (unsigned int k = 0; k < path.size(); ++k)
          prm.leave_subsection();
      };
      std::for_each(changes.begin(), changes.end(), exchange);
      std::ostringstream text;
      prm.print_parameters(text, ParameterHandler::ShortPRM);
      std::for_each(changes.rbegin(), changes.rend(), exchange);
      return text.str();
    }
  } // namespace

  void Simulation::declare_parameters(ParameterHandler &prm)
  {
    MeshSource::declare_parameters(prm);
    TissueMaterials::declare_parameters(prm);
    DirichletConstraints::declare_parameters(prm);
    Formulation::declare_parameters(prm);
    NewmarkIntegrator::declare_parameters(prm);
    NewtonControl::declare_parameters(prm);
    TimeStepControl::declare_parameters(prm);
    LinearSolver::declare_parameters(prm);
    MuscleGroups::declare_parameters(prm);
    for (const TermType &type : term_types())
      type.declare_parameters(prm);
    prm.enter_subsection("Initial conditions");
    prm.declare_entry("Velocity", "0; 0; 0", Patterns::Anything(),
                      "Initial velocity [m/s], three expressions of x, y, z (t = 0).");
    prm.leave_subsection();
    RunOutput::declare_parameters(prm);
    TrackingController::declare_parameters(prm);
  }

  Simulation::Simulation(ParameterHandler &prm, MPI_Comm comm, std::ostream &out)
    : comm(comm)
    , pcout(out, Utilities::MPI::this_mpi_process(comm) == 0)
    , timer(comm, pcout, TimerOutput::never, TimerOutput::wall_times)
    , triangulation(comm)
  {
    mesh_source.parse_parameters(prm);
    parts.materials.parse_parameters(prm);
    parts.constraints.parse_parameters(prm);
    parts.formulation.parse_parameters(prm);
    parts.newmark.parse_parameters(prm);
    parts.newton.parse_parameters(prm);
    parts.stepping.parse_parameters(prm);
    parts.linear_solver.parse_parameters(prm);
    parts.muscles.parse_parameters(prm);
    assembler =
      std::make_unique<Assembler>(triangulation, parts.formulation, parts.materials, parts.newmark.dynamic(), timer);
    const TermSetup setup{parts.materials, parts.muscles, parts.formulation, parts.newmark.dynamic()};
    for (const TermType &type : term_types())
      for (auto &term : type.create(prm, setup))
        assembler->add_term(std::move(term));
    prm.enter_subsection("Initial conditions");
    initial_velocity = std::make_unique<SpaceTimeFunction>(prm.get("Velocity"), 3, "Initial conditions/Velocity");
    prm.leave_subsection();
    output.parse_parameters(prm);
    if (auto controls = TrackingController::parse_parameters(prm, parts.muscles); controls.enabled)
      {
        require(
          output.checkpoint_interval == 0 && output.checkpoint_minutes == 0,
          "Parameters 'Output/Checkpoint interval' and 'Checkpoint wall interval': an inverse run (Inverse/Enabled "
          "= true) writes no checkpoints yet; set them to 0.");
        inverse = std::make_unique<TrackingController>(
          std::move(controls), parts.muscles, output.directory + "/" + output.base_name + "_inverse.csv", comm, pcout);
        replay = replay_parameters(prm);
      }

    // A checkpoint is resumed with the same parameters; the output directory may differ (a run
    // directory copied or moved before it resumes), and so may the end time (a run continued
    // beyond the end it had).
    parameter_hash =
      fnv1a(parameters_with_changes(prm, {{{"Output"}, "Directory", ""}, {{"Time stepping"}, "End time", "0"}}));

    const Term *unsymmetric = assembler->unsymmetric_term();
    require(parts.linear_solver.solver() != LinearSolver::SolverType::cg || !unsymmetric,
            "Parameter 'Linear solver/Solver type' = CG needs a symmetric tangent, but " +
              (unsymmetric ? unsymmetric->name() : "") + " makes it unsymmetric: choose GMRES or direct.");
    require(!parts.linear_solver.block_preconditioner() ||
              (parts.formulation.type == Formulation::Type::three_field &&
               parts.linear_solver.solver() != LinearSolver::SolverType::cg),
            "Parameter 'Linear solver/Preconditioner' = block works on the pressure of the three-field element with "
            "GMRES: set 'Finite element/Formulation' = three-field and 'Linear solver/Solver type' = GMRES, or "
            "Preconditioner = AMG.");
    energy = std::make_unique<EnergyBalance>(parts.newmark);
    steps  = std::make_unique<StepSolver>(*assembler, parts, state, *energy, timer, pcout);
    steps->set_controller(inverse.get());
    checkpoint = std::make_unique<Checkpoint>(
      Checkpoint::Parts{parts.stepping, steps->statistics(), state, *energy, *assembler, output}, parameter_hash);
  }

  Simulation::~Simulation()
  {
    parts.linear_solver.release_factorization(); // before the tangent it factorised goes
  }

  void Simulation::setup()
  {
    TimerOutput::Scope scope(timer, "setup");
    mesh_source.create(triangulation);
    print_materials();
    steps->setup();
    const DoFHandler<3> &dof_handler = assembler->dof_handler();
    output.setup(dof_handler);

    pcout << "Mesh: " << triangulation.n_global_active_cells() << " cells, " << dof_handler.n_dofs()
          << " displacement DoFs (Q" << parts.formulation.degree << ", "
          << (parts.formulation.type == Formulation::Type::three_field ? "three-field" : "displacement")
          << " formulation) on " << Utilities::MPI::n_mpi_processes(comm) << " MPI rank(s); linear solver "
          << parts.linear_solver.description() << std::endl;
    if (parts.linear_solver.block_preconditioner() && parts.formulation.degree == 1 &&
        parts.linear_solver.checkerboard_correction())
      {
        const auto families = assembler->pressure_blocks()->n_checkerboard_families();
        pcout << "Block preconditioner: checkerboard correction on " << families << " families of 8 sibling cells ("
              << 800.0 * families / triangulation.n_global_active_cells() << " % of the cells)"
              << (families == 0 ? "; without families (an unrefined mesh: set Mesh/Global refinements >= 1) the "
                                  "GMRES iterations of the Q1 element grow with the mesh" :
                                  "")
              << std::endl;
      }
    for (const auto &term : assembler->terms())
      if (!term->report().empty())
        pcout << term->report() << std::endl;
    if (inverse)
      pcout << inverse->report() << std::endl;
    steps->start(*initial_velocity);
  }

  void Simulation::print_materials()
  {
    const auto                   volumes = MeshSource::material_volumes(triangulation);
    std::set<types::material_id> used;
    for (const auto &[id, volume] : volumes)
      used.insert(id);
    parts.materials.check_used(used);
    for (const types::material_id id : used)
      {
        pcout << parts.materials.describe(id) << std::endl;
        for (const std::string &warning : parts.materials.warnings(id))
          pcout << warning << std::endl;
        // Without mass the dynamic tangent has no inertia and a0 = M⁻¹(...) has no M.
        require(!parts.newmark.dynamic() || parts.materials[id].density > 0,
                "Parameter 'Materials/Material " + std::to_string(id) +
                  "/Density' is 0, but Time integration/Mode = dynamic needs mass: give the tissue its "
                  "density (e.g. 1050 kg/m^3) or use Mode = quasi-static.");
      }
    pcout << MeshSource::volume_report(volumes)
          << MeshSource::share_report(volumes, mesh_source.parameters().intended_shares) << std::flush;
  }

  Simulation::Outcome Simulation::run(const RunOptions &options)
  {
    const auto wall_start = std::chrono::steady_clock::now();
    require(!options.resume || !inverse, "--resume: an inverse run (Inverse/Enabled = true) cannot be resumed yet.");
    setup();
    const Outcome outcome =
      TimeLoop(*steps, parts.stepping, output, *checkpoint, timer, pcout).run(options, wall_start);
    if (inverse && outcome == Outcome::finished)
      {
        const std::string path = output.directory + "/" + output.base_name + "_replay.prm";
        if (Utilities::MPI::this_mpi_process(comm) == 0)
          std::ofstream(path) << replay;
        MPI_Barrier(comm); // the replay exists on every rank's return
        pcout << inverse->summary() << std::endl << "Replay: " << path << std::endl;
      }
    return outcome;
  }

  std::string Simulation::replay_parameters(ParameterHandler &prm) const
  {
    // The inverse run off, its exciters read from its table.
    std::vector<ParameterChange> changes{{{"Inverse"}, "Enabled", "false"},
                                         {{"Output"}, "Directory", output.directory + "/replay"}};
    for (unsigned int g = 0; g < parts.muscles.n_groups(); ++g)
      if (parts.muscles.controlled(g))
        {
          const std::vector<std::string> activation{"Muscles", "Group " + std::to_string(g + 1), "Activation"};
          changes.push_back({activation, "Source", "table"});
          changes.push_back({activation, "Table file", inverse->csv_path()});
          changes.push_back({activation, "Table column", parts.muscles.name(g)});
        }
    std::ostringstream text;
    text << "# The inverse run of " << output.directory << " replayed forward: the same case with the activations it\n"
         << "# found (" << inverse->csv_path() << ") as tables:\n"
         << "#   hydrostat " << output.directory << "/" << output.base_name << "_replay.prm\n"
         << parameters_with_changes(prm, std::move(changes));
    return text.str();
  }
} // namespace hydrostat
