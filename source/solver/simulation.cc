#include <deal.II/base/exceptions.h>
#include <deal.II/base/function.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/sparsity_tools.h>
#include <deal.II/numerics/data_out.h>
#include <deal.II/numerics/vector_tools.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/io/checkpoint_files.h>
#include <hydrostat/solver/cell_kernels.h>
#include <hydrostat/solver/simulation.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <set>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// A SpaceTimeFunction at a fixed time, seen as a deal.II Function (for interpolation).
    class FunctionAtTime : public Function<3>
    {
    public:
      FunctionAtTime(const SpaceTimeFunction &f, const double t)
        : Function<3>(3)
        , f(f)
        , t(t)
      {}
      double value(const Point<3> &p, const unsigned int c) const override { return f.value(p, t, c); }

    private:
      const SpaceTimeFunction &f;
      const double             t;
    };

    std::vector<Point<3>> parse_points(const std::string &text)
    {
      std::vector<Point<3>> points;
      for (const std::string &entry : Utilities::split_string_list(text, ';'))
        {
          const auto xyz = Utilities::split_string_list(entry, ',');
          require(xyz.size() == 3, "Parameter 'Output/Probe points': \"" + entry +
                                     "\" is not three comma-separated coordinates (x, y, z; points separated by ';').");
          const auto v = Utilities::string_to_double(xyz);
          points.emplace_back(v[0], v[1], v[2]);
        }
      return points;
    }

    /// Whether vertex @p v of @p cell is the point @p p of a point constraint (to 1e-6 of the cell's size).
    bool is_vertex_at(const CellAccessor<3> &cell, const unsigned int v, const Point<3> &p)
    {
      return cell.vertex(v).distance(p) < 1e-6 * cell.diameter();
    }

    /// Every point constraint must sit on a mesh vertex (is_vertex_at()): one that matches none
    /// would hold nothing, and the run would go on with the rigid motions it was meant to remove,
    /// or with the wrong point held.
    void require_vertices_at(const std::vector<BoundaryConditions::PointConstraint> &points,
                             const Triangulation<3> &triangulation, const MPI_Comm comm)
    {
      for (const auto &point : points)
        {
          double nearest = std::numeric_limits<double>::max();
          bool   found   = false;
          for (const auto &cell : triangulation.active_cell_iterators())
            if (cell->is_locally_owned())
              for (const unsigned int v : cell->vertex_indices())
                {
                  nearest = std::min(nearest, cell->vertex(v).distance(point.position));
                  found   = found || is_vertex_at(*cell, v, point.position);
                }
          if (Utilities::MPI::max(int(found), comm) == 0)
            {
              std::ostringstream message;
              message << "Parameter 'Boundary conditions/Point constraints': no mesh vertex at (" << point.position
                      << ") m; the nearest is " << Utilities::MPI::min(nearest, comm)
                      << " m away. Give the coordinates of a vertex, in metres (after Mesh/Scale).";
              require(false, message.str());
            }
        }
    }
  } // namespace

  void Simulation::declare_parameters(ParameterHandler &prm)
  {
    MeshSource::declare_parameters(prm);
    TissueMaterials::declare_parameters(prm);
    BoundaryConditions::declare_parameters(prm);
    WaterDrag::declare_parameters(prm);
    Formulation::declare_parameters(prm);
    NewmarkIntegrator::declare_parameters(prm);
    NewtonControl::declare_parameters(prm);
    TimeStepControl::declare_parameters(prm);
    LinearSolver::declare_parameters(prm);
    MuscleGroups::declare_parameters(prm);
    MuscleTendonElements::declare_parameters(prm);
    prm.enter_subsection("Initial conditions");
    prm.declare_entry("Velocity", "0; 0; 0", Patterns::Anything(),
                      "Initial velocity [m/s], three expressions of x, y, z (t = 0).");
    prm.leave_subsection();
    prm.enter_subsection("Output");
    prm.declare_entry("Directory", "output", Patterns::Anything(), "Directory for all output files.");
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
    OutputFields::declare_parameters(prm);
    prm.leave_subsection();
  }

  Simulation::Simulation(ParameterHandler &prm, MPI_Comm comm, std::ostream &out)
    : comm(comm)
    , pcout(out, Utilities::MPI::this_mpi_process(comm) == 0)
    , timer(comm, pcout, TimerOutput::never, TimerOutput::wall_times)
    , triangulation(comm)
    , dof_handler(triangulation)
  {
    mesh_source.parse_parameters(prm);
    materials.parse_parameters(prm);
    boundary_conditions.parse_parameters(prm);
    water_drag.parse_parameters(prm);
    formulation.parse_parameters(prm);
    newmark.parse_parameters(prm);
    newton.parse_parameters(prm);
    newton_solver = std::make_unique<NewtonSolver>(newton, pcout);
    stepping.parse_parameters(prm);
    linear_solver.parse_parameters(prm);
    muscles.parse_parameters(prm);
    muscle_tendon_units.parse_parameters(prm);
    prm.enter_subsection("Initial conditions");
    initial_velocity = std::make_unique<SpaceTimeFunction>(prm.get("Velocity"), 3, "Initial conditions/Velocity");
    prm.leave_subsection();
    prm.enter_subsection("Output");
    output.directory           = prm.get("Directory");
    output.base_name           = prm.get("Base name");
    output.interval            = prm.get_integer("Interval");
    output.paraview            = prm.get_bool("ParaView");
    output.probe_points        = parse_points(prm.get("Probe points"));
    output.checkpoint_interval = prm.get_integer("Checkpoint interval");
    output.checkpoint_minutes  = prm.get_double("Checkpoint wall interval");
    output.quiet               = prm.get("Verbosity") == "quiet";
    output_fields.parse_parameters(prm);
    prm.leave_subsection();
    // A checkpoint is resumed with the same parameters; the output directory may differ (a run
    // directory copied or moved before it resumes).
    std::ostringstream all_parameters;
    prm.enter_subsection("Output");
    prm.set("Directory", "");
    prm.leave_subsection();
    prm.print_parameters(all_parameters, ParameterHandler::ShortPRM);
    prm.enter_subsection("Output");
    prm.set("Directory", output.directory);
    prm.leave_subsection();
    parameter_hash = fnv1a(all_parameters.str());
    require(linear_solver.solver() != LinearSolver::SolverType::cg || !boundary_conditions.has_follower_loads(),
            "Parameter 'Linear solver/Solver type' = CG needs a symmetric tangent, but a follower pressure load "
            "makes it unsymmetric: choose GMRES or direct.");
    require(!water_drag.enabled() || newmark.dynamic(),
            "Parameter 'Water drag/Boundary ids' is set, but drag needs the velocity of a dynamic run: set 'Time "
            "integration/Mode' = dynamic, or leave 'Water drag/Boundary ids' empty.");
    require(linear_solver.solver() != LinearSolver::SolverType::cg || !water_drag.enabled(),
            "Parameter 'Linear solver/Solver type' = CG needs a symmetric tangent, but water drag makes it "
            "unsymmetric: choose GMRES or direct.");
    require(!linear_solver.block_preconditioner() || (formulation.type == Formulation::Type::three_field &&
                                                      linear_solver.solver() != LinearSolver::SolverType::cg),
            "Parameter 'Linear solver/Preconditioner' = block works on the pressure of the three-field element with "
            "GMRES: set 'Finite element/Formulation' = three-field and 'Linear solver/Solver type' = GMRES, or "
            "Preconditioner = AMG.");
  }

  Simulation::~Simulation()
  {
    linear_solver.release_factorization(); // before the tangent it factorised goes
    dof_handler.clear();
  }

  void Simulation::setup()
  {
    TimerOutput::Scope scope(timer, "setup");
    mesh_source.create(triangulation);
    std::set<types::material_id> used;
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        used.insert(cell->material_id());
    used = Utilities::MPI::compute_set_union(used, comm);
    materials.check_used(used);
    for (const types::material_id id : used)
      {
        const TissueLaw   &law = *materials[id].law;
        std::ostringstream constants;
        law.print_constants(constants);
        pcout << "Material " << int(id) << ": " << constants.str() << " -> mu = " << law.shear_modulus()
              << " Pa, nu = " << law.poisson_ratio() << ", density = " << materials[id].density << " kg/m^3"
              << std::endl;
        // Without mass the dynamic tangent has no inertia and a0 = M⁻¹(...) has no M.
        require(!newmark.dynamic() || materials[id].density > 0,
                "Parameter 'Materials/Material " + std::to_string(id) +
                  "/Density' is 0, but Time integration/Mode = dynamic needs mass: give the tissue its "
                  "density (e.g. 1050 kg/m^3) or use Mode = quasi-static.");
      }
    print_material_volumes();
    setup_dofs();
    if (newton.automatic_absolute_residual)
      {
        newton.residual_absolute = round_off_residual();
        newton_solver            = std::make_unique<NewtonSolver>(newton, pcout);
      }
    require_vertices_at(boundary_conditions.point_constraints(), triangulation, comm);
    setup_muscles();
    set_initial_conditions();
  }

  double Simulation::round_off_residual() const
  {
    // The pressure is known to about K ε (it is K times a volume change computed from F), a nodal
    // force to K ε h²: R cannot be converged below ε √(Σ (M h²)²); 100 times that is the floor
    // (theory.md eq. (52a)). M = K + 4μ/3 also covers compressible tissue.
    double sum = 0;
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          const TissueLaw &law = *materials[cell->material_id()].law;
          const double     M   = law.bulk_modulus() + 4.0 / 3.0 * law.shear_modulus();
          const double     h   = cell->diameter();
          sum += Utilities::fixed_power<2>(M * h * h);
        }
    return 100 * std::numeric_limits<double>::epsilon() * std::sqrt(Utilities::MPI::sum(sum, comm));
  }

  void Simulation::print_material_volumes()
  {
    const auto volumes = MeshSource::material_volumes(triangulation);
    double     total   = 0;
    for (const auto &[id, volume] : volumes)
      total += volume;
    pcout << "Volume: " << total << " m^3";
    for (const auto &[id, volume] : volumes)
      pcout << (id == volumes.begin()->first ? " (" : ", ") << "material " << int(id) << ": " << 100.0 * volume / total
            << " %";
    pcout << (volumes.size() > 0 ? ")" : "") << std::endl;
    pcout << MeshSource::share_report(volumes, mesh_source.parameters().intended_shares) << std::flush;
  }

  void Simulation::setup_muscles()
  {
    FEValues<3>  fe_values(*fe, *quadrature, update_quadrature_points);
    unsigned int n_muscle_points = 0;
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          muscle_points.initialize(cell, quadrature->size());
          const auto points = muscle_points.get_data(cell);
          for (unsigned int q = 0; q < quadrature->size(); ++q)
            {
              points[q]->groups = muscles.point_data(fe_values.quadrature_point(q), cell->material_id());
              n_muscle_points += !points[q]->groups.empty();
            }
        }
    if (muscles.n_groups() > 0)
      pcout << "Muscles: " << muscles.n_groups() << " group(s) at " << Utilities::MPI::sum(n_muscle_points, comm)
            << " quadrature points" << std::endl;
  }

  void Simulation::setup_dofs()
  {
    fe              = std::make_unique<FESystem<3>>(FE_Q<3>(formulation.degree), 3);
    quadrature      = std::make_unique<QGauss<3>>(formulation.degree + 1);
    face_quadrature = std::make_unique<QGauss<2>>(formulation.degree + 1);
    dof_handler.distribute_dofs(*fe);
    linear_solver.choose(dof_handler.n_dofs(), formulation.type == Formulation::Type::three_field);
    owned_dofs = dof_handler.locally_owned_dofs();
    DoFTools::extract_locally_relevant_dofs(dof_handler, relevant_dofs);

    for (unsigned int id = 0; id < TissueMaterials::max_ids; ++id)
      small_strain_tangent.push_back(
        materials.defined(id) ? materials[id].law->nominal_response(unit_symmetric_tensor<3>()).A : Tensor<4, 3>());

    Vector zero;
    reinit_vector(zero);
    Vector                    zero_ghost(owned_dofs, relevant_dofs, comm);
    AffineConstraints<double> constraints, unused;
    make_constraints(zero_ghost, 0.0, constraints, unused);
    DynamicSparsityPattern dsp(relevant_dofs);
    DoFTools::make_sparsity_pattern(dof_handler, dsp, constraints, false);
    // Units couple the DoFs of two cells: located here because the pattern needs them.
    muscle_tendon_units.setup(dof_handler);
    muscle_tendon_units.add_sparsity(dsp, constraints);
    SparsityTools::distribute_sparsity_pattern(dsp, owned_dofs, comm, relevant_dofs);
    tangent.reinit(owned_dofs, owned_dofs, dsp, comm);
    if (linear_solver.block_preconditioner())
      pressure_blocks.setup(dof_handler, owned_dofs, formulation.degree, comm);
    if (formulation.type == Formulation::Type::three_field)
      condensed_fields.reinit(triangulation.n_active_cells(), formulation.n_pressure_functions(), fe->n_dofs_per_cell(),
                              newton.iterate_cell_fields);

    for (Vector *v : {&u_n, &v_n, &a_n, &f_ext_n, &cell_constraint_residual})
      reinit_vector(*v);
    for (Vector *v : {&u_n_ghost, &v_n_ghost, &a_n_ghost})
      v->reinit(owned_dofs, relevant_dofs, comm);
    if (!output.probe_points.empty())
      probes = std::make_unique<PointProbes>(dof_handler, output.probe_points);

    pcout << "Mesh: " << triangulation.n_global_active_cells() << " cells, " << dof_handler.n_dofs()
          << " displacement DoFs (Q" << formulation.degree << ", "
          << (formulation.type == Formulation::Type::three_field ? "three-field" : "displacement")
          << " formulation) on " << Utilities::MPI::n_mpi_processes(comm) << " MPI rank(s); linear solver "
          << linear_solver.description() << std::endl;
    if (linear_solver.block_preconditioner() && formulation.degree == 1 && linear_solver.checkerboard_correction())
      {
        const auto families = pressure_blocks.n_checkerboard_families();
        pcout << "Block preconditioner: checkerboard correction on " << families << " families of 8 sibling cells ("
              << 800.0 * families / triangulation.n_global_active_cells() << " % of the cells)"
              << (families == 0 ? "; without families (an unrefined mesh: set Mesh/Global refinements >= 1) the "
                                  "GMRES iterations of the Q1 element grow with the mesh" :
                                  "")
              << std::endl;
      }
  }

  void Simulation::make_constraints(const Vector &u_ghosted, const double t, AffineConstraints<double> &inhomogeneous,
                                    AffineConstraints<double> &homogeneous) const
  {
    std::map<types::global_dof_index, double> values;
    std::string                               bad_input;
    for (const auto &constraint : boundary_conditions.constraints())
      {
        const std::vector<bool> mask(constraint.components.begin(), constraint.components.end());
        VectorTools::interpolate_boundary_values(MappingQ1<3>(), dof_handler, constraint.boundary_id,
                                                 FunctionAtTime(*constraint.displacement, t), values,
                                                 ComponentMask(mask));
        for (const auto &[dof, value] : values)
          if (!std::isfinite(value) && bad_input.empty())
            bad_input = "Parameter '" + constraint.displacement->parameter() + "': \"" +
                        constraint.displacement->expression() + "\" is not finite on boundary id " +
                        std::to_string(constraint.boundary_id) + " at t = " + std::to_string(t) +
                        " s: change the expression so that it is finite there (a division by zero, a log or "
                        "sqrt of a negative number).";
      }
    require_on_all_ranks(bad_input, comm);
    for (const auto &point : boundary_conditions.point_constraints())
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (!cell->is_artificial())
          for (const unsigned int v : cell->vertex_indices())
            if (is_vertex_at(*cell, v, point.position))
              for (unsigned int c = 0; c < 3; ++c)
                if (point.components[c])
                  values[cell->vertex_dof_index(v, c)] = 0.0;

    for (AffineConstraints<double> *constraints : {&inhomogeneous, &homogeneous})
      {
        constraints->clear();
        constraints->reinit(relevant_dofs);
      }
    for (const auto &[dof, value] : values)
      {
        inhomogeneous.add_line(dof);
        inhomogeneous.set_inhomogeneity(dof, value - u_ghosted[dof]);
        homogeneous.add_line(dof);
      }
    inhomogeneous.close();
    homogeneous.close();
  }

  void Simulation::set_initial_conditions()
  {
    current_time = 0;
    u_n          = 0;
    VectorTools::interpolate(MappingQ1<3>(), dof_handler, FunctionAtTime(*initial_velocity, 0.0), v_n);
    u_n_ghost = u_n;
    v_n_ghost = v_n;
    a_n       = 0;
    a_n_ghost = a_n;
    if (newmark.dynamic())
      {
        // M a0 = f_ext(0) − f_int(u0) − C v0 (theory.md eq. (50)): the residual of the accepted
        // state with a = 0, v = v0; accelerations of constrained DoFs are taken as zero.
        AffineConstraints<double> inhomogeneous, homogeneous;
        make_constraints(u_n_ghost, 0.0, inhomogeneous, homogeneous);
        Vector residual;
        reinit_vector(residual);
        const StepEvaluation initial{current_time, 0.0, {0.0, 0.0, 0.0, 0.0, 1.0, 0.0}};
        require(assemble(initial, u_n, residual, nullptr, nullptr, homogeneous, homogeneous),
                "The initial mesh has an element with J <= 0: check the mesh file or Mesh parameters.");
        assemble_mass_matrix(tangent, homogeneous);
        residual *= -1.0;
        linear_solver.solve(tangent, a_n, residual, dof_handler, &timer);
        homogeneous.distribute(a_n);
        a_n_ghost = a_n;
      }
    update_global_quantities(true);
  }
} // namespace hydrostat
