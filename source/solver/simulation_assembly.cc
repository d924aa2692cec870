// Assembly of Simulation: the residual and tangent of theory.md eq. (4) cell by cell, from the
// kernels of cell_kernels.h, and the mass matrix of the initial acceleration (eq. (50)). The cell
// work (assemble_cell) and the global addition (copy_local_to_global) are separate, with all
// per-cell buffers in ScratchData and all results in CopyData, as deal.II's WorkStream wants them.
#include <deal.II/fe/fe_values.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/solver/cell_kernels.h>
#include <hydrostat/solver/simulation.h>

#include <cmath>

namespace hydrostat
{
  using namespace dealii;

  struct Simulation::ScratchData
  {
    ScratchData(const FiniteElement<3> &fe, const Quadrature<3> &quadrature, const Quadrature<2> &face_quadrature,
                const Formulation &formulation)
      : fe_values(fe, quadrature, update_values | update_gradients | update_quadrature_points | update_JxW_values)
      , fe_face_values(fe, face_quadrature,
                       update_values | update_gradients | update_quadrature_points | update_normal_vectors |
                         update_JxW_values)
      , three_field(formulation, quadrature)
      , face_stiffness(fe.n_dofs_per_cell(), fe.n_dofs_per_cell())
    {
      for (dealii::Vector<double> *v : {&u, &u_n, &v_n, &a_n, &a, &v})
        v->reinit(fe.n_dofs_per_cell());
    }

    /// Cell values of the trial state u₊ (@p u) and the accepted state; a₊ and v₊ from u₊ by the
    /// coefficients @p c (theory.md eq. (46)); F, J, Ḟ at the quadrature points.
    void reinit(const DoFHandler<3>::active_cell_iterator &cell, const NewmarkIntegrator::Coefficients &c,
                const Simulation::Vector &u_ghost, const Simulation::Vector &u_n_ghost,
                const Simulation::Vector &v_n_ghost, const Simulation::Vector &a_n_ghost)
    {
      fe_values.reinit(cell);
      shapes.reinit(fe_values);
      cell->get_dof_values(u_ghost, u);
      cell->get_dof_values(u_n_ghost, u_n);
      cell->get_dof_values(v_n_ghost, v_n);
      cell->get_dof_values(a_n_ghost, a_n);
      for (unsigned int i = 0; i < u.size(); ++i)
        {
          const double du = u[i] - u_n[i];
          a[i]            = c.a_u * du - c.a_v * v_n[i] - c.a_a * a_n[i];
          v[i]            = c.v_u * du + c.v_v * v_n[i] + c.v_a * a_n[i];
        }
      kinematics.reinit(fe_values, u, v);
    }

    FEValues<3>               fe_values;
    FEFaceValues<3>           fe_face_values;
    CellShapes                shapes;
    CellKinematics            kinematics, face_kinematics;
    ThreeFieldCell            three_field;
    dealii::Vector<double>    u, u_n, v_n, a_n, a, v; // cell DoF values: trial u₊, accepted state, a₊, v₊
    dealii::Vector<double>    j, p;                   // three-field cell fields of the iterate (CondensedFields)
    std::vector<Tensor<1, 3>> a_q, v_q;               // a₊, v₊ at the points (inertia of a dynamic run)
    std::vector<Tensor<1, 3>> v_face;                 // v₊ at the face points (water drag)
    std::vector<std::shared_ptr<MusclePoint>> muscle; // the cell's muscle data, per point
    FullMatrix<double>                        face_stiffness;
  };

  struct Simulation::CopyData
  {
    CopyData(const unsigned int n_dofs, const unsigned int n_p)
      : matrix(n_dofs, n_dofs)
      , residual(n_dofs)
      , rhs(n_dofs)
      , internal(n_dofs)
      , external(n_dofs)
      , cell_constraint(n_dofs)
      , K_up(n_dofs, n_p)
      , dofs(n_dofs)
    {}

    DoFHandler<3>::active_cell_iterator  cell;
    bool                                 inverted = false;
    std::string                          bad_input;          // a load that is not finite (InputError message)
    FullMatrix<double>                   matrix;             // tangent (condensed unless blocks)
    dealii::Vector<double>               residual, rhs;      // f_int − f_ext and its negative
    dealii::Vector<double>               internal, external; // f_int (with inertia), f_ext
    dealii::Vector<double>               cell_constraint;    // the condensed cell residuals, part of internal
    FullMatrix<double>                   K_up, C, M;         // three-field blocks (PressureBlocks)
    double                               mu_hat = 0, diagonal_mean = 0; // scales of PressureBlocks::add_cell
    std::vector<types::global_dof_index> dofs;
  };

  Simulation::StepEvaluation Simulation::step_to(const double dt) const
  {
    return {current_time + dt, dt, newmark.coefficients(dt)};
  }

  bool Simulation::evaluate(const Vector &u, const double dt, Vector &residual, Matrix *system)
  {
    Vector u_ghost(owned_dofs, relevant_dofs, comm);
    u_ghost = u;
    AffineConstraints<double> inhomogeneous, homogeneous;
    make_constraints(u_ghost, current_time + dt, inhomogeneous, homogeneous);
    Vector rhs;
    reinit_vector(rhs);
    return assemble(step_to(dt), u, residual, system, system ? &rhs : nullptr, homogeneous, homogeneous);
  }

  bool Simulation::assemble(const StepEvaluation &step, const Vector &u, Vector &residual, Matrix *system, Vector *rhs,
                            const AffineConstraints<double> &inhomogeneous,
                            const AffineConstraints<double> &homogeneous)
  {
    TimerOutput::Scope scope(timer, "assembly");
    Vector             u_ghost(owned_dofs, relevant_dofs, comm);
    u_ghost                  = u;
    residual                 = 0;
    cell_constraint_residual = 0;
    if (system)
      {
        *system = 0;
        *rhs    = 0;
      }
    const bool blocks = system && linear_solver.block_preconditioner();
    if (blocks)
      pressure_blocks.zero();

    ScratchData scratch(*fe, *quadrature, *face_quadrature, formulation);
    CopyData    copy(fe->n_dofs_per_cell(), formulation.n_pressure_functions());
    bool        inverted = false;
    std::string bad_input;
    double      force_scale_sq = 0;
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          assemble_cell(cell, step, u_ghost, system != nullptr, scratch, copy);
          if (copy.inverted || !copy.bad_input.empty())
            {
              inverted  = copy.inverted;
              bad_input = copy.bad_input;
              break;
            }
          force_scale_sq += copy.internal.norm_sqr() + copy.external.norm_sqr();
          copy_local_to_global(copy, inhomogeneous, homogeneous, residual, system, rhs, blocks);
        }

    require_on_all_ranks(bad_input, comm);
    muscle_tendon_units.assemble(u_ghost, u_n_ghost, v_n_ghost, a_n_ghost, step.c, step.t, step.dt, inhomogeneous,
                                 homogeneous, residual, system, rhs);
    residual.compress(VectorOperation::add);
    if (condensed_fields.iterating())
      cell_constraint_residual.compress(VectorOperation::add);
    if (system)
      {
        system->compress(VectorOperation::add);
        rhs->compress(VectorOperation::add);
      }
    if (blocks)
      pressure_blocks.compress();
    force_scale = std::sqrt(Utilities::MPI::sum(force_scale_sq, comm));
    return !Utilities::MPI::logical_or(inverted, comm);
  }

  void Simulation::assemble_cell(const DoFHandler<3>::active_cell_iterator &cell, const StepEvaluation &step,
                                 const Vector &u_ghost, const bool with_tangent, ScratchData &scratch, CopyData &copy)
  {
    const NewmarkIntegrator::Coefficients &c = step.c;
    scratch.reinit(cell, c, u_ghost, u_n_ghost, v_n_ghost, a_n_ghost);
    copy.cell = cell;
    copy.bad_input.clear();
    cell->get_dof_indices(copy.dofs);
    const CellKinematics &kinematics = scratch.kinematics;
    copy.inverted                    = kinematics.inverted();
    if (copy.inverted)
      return;

    const auto         &tissue      = materials[cell->material_id()];
    const double        rho         = tissue.density;
    const bool          dynamic     = newmark.dynamic();
    const double        alpha_M     = dynamic ? newmark.mass_damping() : 0.0;
    const double        mass        = dynamic ? rho * (c.a_u + alpha_M * c.v_u) : 0.0; // ∂(inertia)/∂u₊
    const bool          three_field = formulation.type == Formulation::Type::three_field;
    ThreeFieldCell     &cell_3f     = scratch.three_field;
    FullMatrix<double> *K           = with_tangent ? &copy.matrix : nullptr;
    copy.matrix                     = 0;
    copy.internal                   = 0;
    copy.external                   = 0;
    copy.K_up                       = 0;
    const bool iterated             = three_field && reinit_three_field(cell, scratch);
    if (dynamic)
      {
        vector_values(scratch.fe_values, scratch.a, scratch.a_q);
        vector_values(scratch.fe_values, scratch.v, scratch.v_q);
      }
    scratch.muscle = muscle_points.get_data(cell);

    for (unsigned int q = 0; q < scratch.shapes.JxW.size(); ++q)
      {
        const Point<3>            &X        = scratch.fe_values.quadrature_point(q);
        const NominalStressTangent response = point_response(cell, q, step, scratch);
        add_stress_divergence(scratch.shapes, q, response.P, response.A, copy.internal, K);

        if (dynamic)
          {
            add_volume_force(scratch.shapes, q, rho * (scratch.a_q[q] + alpha_M * scratch.v_q[q]), copy.internal);
            if (K)
              add_mass(scratch.shapes, q, mass, *K);
          }
        const SpaceTimeFunction &body = boundary_conditions.body_acceleration();
        const Tensor<1, 3>       g    = body.vector_value(X, step.t);
        if (!std::isfinite(g.norm_square()) && copy.bad_input.empty())
          copy.bad_input = body.check_finite(X, step.t);
        add_volume_force(scratch.shapes, q, rho * g, copy.external);
        if (three_field && (K || iterated))
          cell_3f.add_coupling(scratch.shapes, q, kinematics.J[q], transpose(invert(kinematics.F[q])), copy.K_up);
      }

    if (three_field)
      condense_three_field(cell, mass, iterated, with_tangent, scratch, copy);
    add_cell_face_loads(cell, step.t, scratch, copy, with_tangent);
    if (water_drag.enabled())
      add_cell_drag(cell, c.v_u, scratch, copy, with_tangent);
    copy.residual = copy.internal;
    copy.residual -= copy.external;
    if (with_tangent)
      {
        copy.rhs = copy.residual;
        copy.rhs *= -1.0;
      }
  }

  bool Simulation::reinit_three_field(const DoFHandler<3>::active_cell_iterator &cell, ScratchData &scratch)
  {
    const TissueLaw &law = *materials[cell->material_id()].law;
    if (!condensed_fields.iterating())
      {
        scratch.three_field.reinit(scratch.fe_values, scratch.kinematics.J, law);
        return false;
      }
    condensed_fields.values(cell->active_cell_index(), scratch.j, scratch.p);
    scratch.three_field.reinit(scratch.fe_values, scratch.kinematics.J, law, scratch.j, scratch.p);
    return true;
  }

  void Simulation::condense_three_field(const DoFHandler<3>::active_cell_iterator &cell, const double mass,
                                        const bool iterated, const bool with_tangent, ScratchData &scratch,
                                        CopyData &copy)
  {
    ThreeFieldCell &cell_3f = scratch.three_field;
    copy.cell_constraint    = 0;
    if (iterated)
      {
        cell_3f.add_condensed_residual(copy.K_up, copy.cell_constraint);
        copy.internal += copy.cell_constraint;
      }
    if (!with_tangent)
      return;
    condensed_fields.record(cell->active_cell_index(), cell_3f, copy.K_up);
    if (linear_solver.block_preconditioner())
      {
        // Uncondensed for the block preconditioner; μ̂ adds the Newmark mass at the cell scale,
        // ρ a_u h² (PressureBlocks).
        cell_3f.pressure_compliance(copy.C);
        copy.M             = cell_3f.M;
        const double h     = cell->diameter();
        copy.mu_hat        = materials[cell->material_id()].law->shear_modulus() + mass * h * h;
        copy.diagonal_mean = copy.matrix.trace() / copy.matrix.m();
      }
    else
      cell_3f.condense(copy.K_up, copy.matrix);
  }

  NominalStressTangent Simulation::point_response(const DoFHandler<3>::active_cell_iterator &cell, const unsigned int q,
                                                  const StepEvaluation &step, const ScratchData &scratch) const
  {
    // Tissue (isochoric + the formulation's volumetric part), muscle fibres, and the
    // stiffness-proportional damping β_K A0 : Ḟ (theory.md eq. (49)), linear in v₊.
    const TissueLaw     &law = *materials[cell->material_id()].law;
    const Tensor<2, 3>  &F   = scratch.kinematics.F[q];
    NominalStressTangent response;
    if (formulation.type == Formulation::Type::three_field)
      {
        auto [tau, Jc]           = law.isochoric_response(F);
        const auto [tau_v, Jc_v] = volumetric_response(scratch.kinematics.J[q], scratch.three_field.p_tilde[q], 0.0);
        response                 = nominal_from_kirchhoff(F, tau + tau_v, Jc + Jc_v);
      }
    else
      response = law.nominal_response(F);
    const auto &muscle = scratch.muscle[q]->groups;
    if (!muscle.empty())
      response += muscles.response(muscle, scratch.fe_values.quadrature_point(q), F, scratch.kinematics.F_dot[q],
                                   step.c.v_u, step.t, step.dt);
    const double beta_K = newmark.dynamic() ? newmark.stiffness_damping() : 0.0;
    if (beta_K != 0)
      {
        const Tensor<4, 3> &A0 = small_strain_tangent[cell->material_id()];
        response.P += beta_K * double_contract<2, 0, 3, 1>(A0, scratch.kinematics.F_dot[q]);
        response.A += (beta_K * step.c.v_u) * A0;
      }
    return response;
  }

  void Simulation::add_cell_face_loads(const DoFHandler<3>::active_cell_iterator &cell, const double t,
                                       ScratchData &scratch, CopyData &copy, const bool with_tangent) const
  {
    // Boundary loads enter the residual as −f and the tangent as −∂f/∂u (theory.md eqs. (4), (5)).
    for (const auto &face : cell->face_iterators())
      if (face->at_boundary())
        for (const auto &load : boundary_conditions.loads())
          if (face->boundary_id() == load.boundary_id)
            {
              scratch.fe_face_values.reinit(cell, face);
              scratch.face_kinematics.reinit(scratch.fe_face_values, scratch.u);
              scratch.face_stiffness = 0;
              add_face_load(load, scratch.fe_face_values, scratch.face_kinematics, t, copy.external,
                            with_tangent ? &scratch.face_stiffness : nullptr);
              if (with_tangent)
                copy.matrix.add(-1.0, scratch.face_stiffness);
              if (copy.bad_input.empty() && !std::isfinite(copy.external.l2_norm()))
                for (unsigned int q = 0; q < scratch.fe_face_values.n_quadrature_points && copy.bad_input.empty(); ++q)
                  copy.bad_input = load.value->check_finite(scratch.fe_face_values.quadrature_point(q), t);
            }
  }

  void Simulation::add_cell_drag(const DoFHandler<3>::active_cell_iterator &cell, const double v_u,
                                 ScratchData &scratch, CopyData &copy, const bool with_tangent) const
  {
    // Drag is a load: −f in the residual, −∂f/∂u in the tangent (theory.md eqs. (60), (61)).
    for (const auto &face : cell->face_iterators())
      if (face->at_boundary() && water_drag.acts_on(face->boundary_id()))
        {
          scratch.fe_face_values.reinit(cell, face);
          scratch.face_kinematics.reinit(scratch.fe_face_values, scratch.u);
          vector_values(scratch.fe_face_values, scratch.v, scratch.v_face);
          scratch.face_stiffness = 0;
          water_drag.add_face_force(scratch.fe_face_values, scratch.face_kinematics, scratch.v_face, v_u, copy.external,
                                    with_tangent ? &scratch.face_stiffness : nullptr);
          if (with_tangent)
            copy.matrix.add(-1.0, scratch.face_stiffness);
        }
  }

  void Simulation::copy_local_to_global(const CopyData &copy, const AffineConstraints<double> &inhomogeneous,
                                        const AffineConstraints<double> &homogeneous, Vector &residual, Matrix *system,
                                        Vector *rhs, const bool blocks)
  {
    homogeneous.distribute_local_to_global(copy.residual, copy.dofs, residual);
    if (condensed_fields.iterating())
      homogeneous.distribute_local_to_global(copy.cell_constraint, copy.dofs, cell_constraint_residual);
    if (!system)
      return;
    inhomogeneous.distribute_local_to_global(copy.matrix, copy.rhs, copy.dofs, *system, *rhs);
    if (blocks)
      pressure_blocks.add_cell(copy.cell, copy.dofs, copy.K_up, copy.C, copy.M, copy.mu_hat, copy.diagonal_mean,
                               inhomogeneous);
  }

  void Simulation::assemble_mass_matrix(Matrix &mass, const AffineConstraints<double> &constraints) const
  {
    TimerOutput::Scope scope(timer, "assembly");
    mass = 0;
    FEValues<3>        fe_values(*fe, *quadrature, update_values | update_gradients | update_JxW_values);
    CellShapes         shapes;
    const unsigned int n_dofs = fe->n_dofs_per_cell();
    FullMatrix<double> cell_mass(n_dofs, n_dofs);
    std::vector<types::global_dof_index> dofs(n_dofs);
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          shapes.reinit(fe_values);
          cell_mass = 0;
          for (unsigned int q = 0; q < shapes.JxW.size(); ++q)
            add_mass(shapes, q, materials[cell->material_id()].density, cell_mass);
          cell->get_dof_indices(dofs);
          constraints.distribute_local_to_global(cell_mass, dofs, mass);
        }
    mass.compress(VectorOperation::add);
  }
} // namespace hydrostat
