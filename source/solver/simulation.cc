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
#include <hydrostat/solver/cell_kernels.h>
#include <hydrostat/solver/simulation.h>

#include <cmath>
#include <iomanip>
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
          AssertThrow(xyz.size() == 3, ExcMessage("Parameter 'Output/Probe points': \"" + entry +
                                                  "\" is not three comma-separated coordinates."));
          const auto v = Utilities::string_to_double(xyz);
          points.emplace_back(v[0], v[1], v[2]);
        }
      return points;
    }

    /// Grad φ_i : A : Grad φ_j for vector shape functions with one nonzero component each.
    inline double contract(const Tensor<4, 3> &A, const unsigned int ci, const Tensor<1, 3> &gi, const unsigned int cj,
                           const Tensor<1, 3> &gj)
    {
      double sum = 0;
      for (unsigned int J = 0; J < 3; ++J)
        for (unsigned int L = 0; L < 3; ++L)
          sum += A[ci][J][cj][L] * gi[J] * gj[L];
      return sum;
    }
  } // namespace

  void Simulation::declare_parameters(ParameterHandler &prm)
  {
    MeshSource::declare_parameters(prm);
    TissueMaterials::declare_parameters(prm);
    BoundaryConditions::declare_parameters(prm);
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
    output.directory    = prm.get("Directory");
    output.base_name    = prm.get("Base name");
    output.interval     = prm.get_integer("Interval");
    output.paraview     = prm.get_bool("ParaView");
    output.probe_points = parse_points(prm.get("Probe points"));
    output_fields.parse_parameters(prm);
    prm.leave_subsection();
    AssertThrow(linear_solver.type() != "CG" || !boundary_conditions.has_follower_loads(),
                ExcMessage("Parameter 'Linear solver/Solver type' = CG needs a symmetric tangent, but a follower "
                           "pressure load makes it unsymmetric: choose GMRES or direct."));
    AssertThrow(!linear_solver.block_preconditioner() ||
                  (formulation.type == Formulation::Type::three_field && linear_solver.type() != "CG"),
                ExcMessage("Parameter 'Linear solver/Preconditioner' = block works on the pressure of the "
                           "three-field element with GMRES: set 'Finite element/Formulation' = three-field and "
                           "'Linear solver/Solver type' = GMRES, or Preconditioner = AMG."));
  }

  Simulation::~Simulation() { dof_handler.clear(); }

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
    setup_muscles();
    set_initial_conditions();
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

    for (Vector *v : {&u_n, &v_n, &a_n, &f_ext_n})
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
    for (const auto &constraint : boundary_conditions.constraints())
      {
        const std::vector<bool> mask(constraint.components.begin(), constraint.components.end());
        VectorTools::interpolate_boundary_values(MappingQ1<3>(), dof_handler, constraint.boundary_id,
                                                 FunctionAtTime(*constraint.displacement, t), values,
                                                 ComponentMask(mask));
      }
    for (const auto &point : boundary_conditions.point_constraints())
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (!cell->is_artificial())
          for (const unsigned int v : cell->vertex_indices())
            if (cell->vertex(v).distance(point.position) < 1e-6 * cell->diameter())
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
        // M a0 = f_ext(0) − f_int(u0) − C v0 (theory.md eq. (50)); accelerations of constrained
        // DoFs are taken as zero.
        AffineConstraints<double> inhomogeneous, homogeneous;
        make_constraints(u_n_ghost, 0.0, inhomogeneous, homogeneous);
        Vector residual, rhs;
        reinit_vector(residual);
        reinit_vector(rhs);
        const bool ok = assemble(u_n, 1.0, residual, &tangent, &rhs, homogeneous, homogeneous, true);
        AssertThrow(ok, ExcMessage("The initial mesh has an element with J <= 0."));
        Vector a0;
        reinit_vector(a0);
        linear_solver.solve(tangent, a0, rhs, dof_handler, &timer);
        homogeneous.distribute(a0);
        a_n       = a0;
        a_n_ghost = a_n;
      }
    update_global_quantities(true);
  }

  bool Simulation::evaluate(const Vector &u, const double dt, Vector &residual, Matrix *system)
  {
    Vector u_ghost(owned_dofs, relevant_dofs, comm);
    u_ghost = u;
    AffineConstraints<double> inhomogeneous, homogeneous;
    make_constraints(u_ghost, current_time + dt, inhomogeneous, homogeneous);
    Vector rhs;
    reinit_vector(rhs);
    return assemble(u, dt, residual, system, system ? &rhs : nullptr, homogeneous, homogeneous);
  }

  bool Simulation::assemble(const Vector &u, const double dt, Vector &residual, Matrix *system, Vector *rhs,
                            const AffineConstraints<double> &inhomogeneous,
                            const AffineConstraints<double> &homogeneous, const bool mass_only)
  {
    TimerOutput::Scope scope(timer, "assembly");
    Vector             u_ghost(owned_dofs, relevant_dofs, comm);
    u_ghost                           = u;
    residual                          = 0;
    const bool pressure_blocks_active = system && !mass_only && linear_solver.block_preconditioner();
    if (system)
      {
        *system = 0;
        *rhs    = 0;
      }
    if (pressure_blocks_active)
      pressure_blocks.zero();

    // Mass-only assembly (initial acceleration) evaluates everything at the current time.
    const double                          t         = mass_only ? current_time : current_time + dt;
    const double                          muscle_dt = mass_only ? 0.0 : dt;
    const NewmarkIntegrator::Coefficients c =
      mass_only ? NewmarkIntegrator::Coefficients{0, 0, 0, 0, 1, 0} : newmark.coefficients(dt);
    const bool         dynamic     = newmark.dynamic() || mass_only;
    const double       alpha_M     = newmark.dynamic() ? newmark.mass_damping() : 0.0;
    const double       beta_K      = newmark.dynamic() ? newmark.stiffness_damping() : 0.0;
    const bool         three_field = formulation.type == Formulation::Type::three_field;
    const unsigned int n_p         = formulation.n_pressure_functions();

    FEValues<3>               fe_values(*fe, *quadrature,
                                        update_values | update_gradients | update_quadrature_points | update_JxW_values);
    FEFaceValues<3>           fe_face_values(*fe, *face_quadrature,
                                             update_values | update_gradients | update_quadrature_points | update_normal_vectors |
                                               update_JxW_values);
    const unsigned int        n_dofs = fe->n_dofs_per_cell();
    const unsigned int        n_q    = quadrature->size();
    std::vector<unsigned int> component(n_dofs);
    for (unsigned int i = 0; i < n_dofs; ++i)
      component[i] = fe->system_to_component_index(i).first;

    FullMatrix<double>     cell_matrix(n_dofs, n_dofs), face_stiffness(n_dofs, n_dofs);
    dealii::Vector<double> cell_residual(n_dofs), cell_external(n_dofs), face_load(n_dofs), u_local(n_dofs),
      un_local(n_dofs), vn_local(n_dofs), an_local(n_dofs), a_local(n_dofs), v_local(n_dofs);
    std::vector<types::global_dof_index> dofs(n_dofs);
    CellKinematics                       kinematics, face_kinematics;
    ThreeFieldCell                       three_field_cell(formulation, *quadrature);
    const auto                          &F = kinematics.F, &F_dot = kinematics.F_dot;
    const auto                          &J   = kinematics.J;
    const auto                          &psi = three_field_cell.psi;
    const auto                          &M = three_field_cell.M, &M_inv = three_field_cell.M_inv;
    const auto                          &K_JJ = three_field_cell.K_JJ;
    FullMatrix<double>                   K_up(n_dofs, n_p), K_up_G(n_dofs, n_p), G(n_p, n_p), tmp(n_p, n_p);

    bool   inverted       = false;
    double force_scale_sq = 0;
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned() && !inverted)
        {
          fe_values.reinit(cell);
          cell->get_dof_indices(dofs);
          cell->get_dof_values(u_ghost, u_local);
          cell->get_dof_values(u_n_ghost, un_local);
          cell->get_dof_values(v_n_ghost, vn_local);
          cell->get_dof_values(a_n_ghost, an_local);
          for (unsigned int i = 0; i < n_dofs; ++i)
            {
              const double du = u_local[i] - un_local[i];
              a_local[i]      = c.a_u * du - c.a_v * vn_local[i] - c.a_a * an_local[i];
              v_local[i]      = c.v_u * du + c.v_v * vn_local[i] + c.v_a * an_local[i];
            }
          const auto         &tissue = materials[cell->material_id()];
          const Tensor<4, 3> &A0     = small_strain_tangent[cell->material_id()];
          const double        rho    = tissue.density;
          cell_matrix                = 0;
          cell_residual              = 0;
          cell_external              = 0;

          kinematics.reinit(fe_values, u_local, v_local);
          if (kinematics.inverted())
            {
              inverted = true;
              break;
            }
          if (three_field)
            {
              three_field_cell.reinit(fe_values, J, *tissue.law);
              K_up = 0;
            }

          for (unsigned int q = 0; q < n_q; ++q)
            {
              const double         JxW = fe_values.JxW(q);
              const Point<3>      &X   = fe_values.quadrature_point(q);
              NominalStressTangent response;
              if (three_field)
                {
                  auto [tau, Jc]           = tissue.law->isochoric_response(F[q]);
                  const auto [tau_v, Jc_v] = volumetric_response(J[q], three_field_cell.p_tilde[q], 0.0);
                  response                 = nominal_from_kirchhoff(F[q], tau + tau_v, Jc + Jc_v);
                }
              else
                response = tissue.law->nominal_response(F[q]);
              const auto &muscle = muscle_points.get_data(cell)[q]->groups;
              if (!muscle.empty())
                response += muscles.response(muscle, X, F[q], F_dot[q], c.v_u, t, muscle_dt);

              Tensor<1, 3> a_q, v_q;
              for (unsigned int i = 0; i < n_dofs; ++i)
                {
                  a_q[component[i]] += a_local[i] * fe_values.shape_value(i, q);
                  v_q[component[i]] += v_local[i] * fe_values.shape_value(i, q);
                }
              const Tensor<1, 3> inertia        = mass_only ? alpha_M * rho * v_q : rho * (a_q + alpha_M * v_q);
              const Tensor<1, 3> g              = boundary_conditions.body_acceleration().vector_value(X, t);
              const Tensor<2, 3> damping_stress = beta_K * double_contract<2, 0, 3, 1>(A0, F_dot[q]);
              const Tensor<2, 3> F_inv_T        = transpose(invert(F[q]));

              for (unsigned int i = 0; i < n_dofs; ++i)
                {
                  const unsigned int  ci = component[i];
                  const double        Ni = fe_values.shape_value(i, q);
                  const Tensor<1, 3> &gi = fe_values.shape_grad(i, q);
                  cell_residual[i] +=
                    ((response.P[ci] + damping_stress[ci]) * gi + (dynamic ? inertia[ci] : 0.0) * Ni) * JxW;
                  cell_external[i] += rho * g[ci] * Ni * JxW;
                  if (three_field)
                    for (unsigned int a = 0; a < n_p; ++a)
                      K_up(i, a) += J[q] * (F_inv_T[ci] * gi) * psi[q][a] * JxW;
                  if (!system)
                    continue;
                  for (unsigned int j = 0; j < n_dofs; ++j)
                    {
                      const unsigned int  cj = component[j];
                      const Tensor<1, 3> &gj = fe_values.shape_grad(j, q);
                      double              k  = 0;
                      if (!mass_only)
                        k = contract(response.A, ci, gi, cj, gj) + beta_K * c.v_u * contract(A0, ci, gi, cj, gj);
                      if (ci == cj)
                        k += (mass_only ? rho : rho * (c.a_u + alpha_M * c.v_u) * dynamic) * Ni *
                             fe_values.shape_value(j, q);
                      cell_matrix(i, j) += k * JxW;
                    }
                }
            }

          if (pressure_blocks_active) // three-field by the check in the constructor
            {
              // Uncondensed for the block preconditioner: C = G⁻¹ = M K_JJ⁻¹ M; μ̂ adds the
              // Newmark mass at the cell scale, ρ a_u h² (PressureBlocks).
              G.invert(K_JJ);
              M.mmult(tmp, G);
              tmp.mmult(G, M);
              const double h = cell->diameter();
              pressure_blocks.add_cell(cell, dofs, K_up, G, M,
                                       tissue.law->shear_modulus() + rho * (c.a_u + alpha_M * c.v_u) * dynamic * h * h,
                                       cell_matrix.trace() / n_dofs, inhomogeneous);
            }
          else if (three_field && system && !mass_only)
            {
              // K̄ = K_uu + K_up G K_upᵀ, G = M⁻¹ K_JJ M⁻¹.
              M_inv.mmult(tmp, K_JJ);
              tmp.mmult(G, M_inv);
              K_up.mmult(K_up_G, G);
              K_up_G.mTmult(cell_matrix, K_up, true);
            }

          // Boundary loads enter the residual as −f and the tangent as −∂f/∂u.
          for (const auto &face : cell->face_iterators())
            if (face->at_boundary())
              for (const auto &load : boundary_conditions.loads())
                if (face->boundary_id() == load.boundary_id)
                  {
                    fe_face_values.reinit(cell, face);
                    face_kinematics.reinit(fe_face_values, u_local);
                    face_load      = 0;
                    face_stiffness = 0;
                    add_face_load(load, fe_face_values, face_kinematics, t, face_load,
                                  system && !mass_only ? &face_stiffness : nullptr);
                    cell_external += face_load;
                    if (system && !mass_only)
                      cell_matrix.add(-1.0, face_stiffness);
                  }

          // The residual f_int − f_ext, and the scale of the forces it balances.
          force_scale_sq += cell_residual.norm_sqr() + cell_external.norm_sqr();
          cell_residual -= cell_external;
          homogeneous.distribute_local_to_global(cell_residual, dofs, residual);
          if (system)
            {
              cell_residual *= -1.0;
              inhomogeneous.distribute_local_to_global(cell_matrix, cell_residual, dofs, *system, *rhs);
            }
        }

    muscle_tendon_units.assemble(u_ghost, u_n_ghost, v_n_ghost, a_n_ghost, c, t, muscle_dt, mass_only, inhomogeneous,
                                 homogeneous, residual, system, rhs);
    residual.compress(VectorOperation::add);
    if (system)
      {
        system->compress(VectorOperation::add);
        rhs->compress(VectorOperation::add);
      }
    if (pressure_blocks_active)
      pressure_blocks.compress();
    force_scale = std::sqrt(Utilities::MPI::sum(force_scale_sq, comm));
    return !Utilities::MPI::logical_or(inverted, comm);
  }
} // namespace hydrostat
