// The Assembler's cell loop: the residual and tangent of theory.md eq. (4) as the sum of the terms,
// the energies of an accepted state and the cells of the output fields, all from one preparation
// of a cell (reinit_cell).
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/sparsity_tools.h>

#include <hydrostat/assembly/assembler.h>
#include <hydrostat/base/errors.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// Σ_i d_i φ̃_i at the points with the shapes that carry the mass, @p mass: FEValues' own sum
    /// where they are the cell's shapes (unchanged from before the modified mass).
    void mass_values(const FEValuesBase<3> &fe_values, const CellShapes &shapes, const CellShapes &mass,
                     const dealii::Vector<double> &local, std::vector<Tensor<1, 3>> &values)
    {
      if (&mass == &shapes)
        vector_values(fe_values, local, values);
      else
        vector_values(mass, local, values);
    }
  } // namespace

  struct Assembler::ScratchData
  {
    ScratchData(const FiniteElement<3> &fe, const Quadrature<3> &quadrature, const Quadrature<2> &face_quadrature,
                const Formulation &formulation)
      : fe_values(fe, quadrature, update_values | update_gradients | update_quadrature_points | update_JxW_values)
      , fe_face_values(fe, face_quadrature,
                       update_values | update_gradients | update_quadrature_points | update_normal_vectors |
                         update_JxW_values)
      , three_field(formulation, quadrature)
    {
      for (dealii::Vector<double> *v : {&u, &u_n, &v_n, &a_n, &a, &v})
        v->reinit(fe.n_dofs_per_cell());
    }

    FEValues<3>               fe_values;
    FEFaceValues<3>           fe_face_values;
    CellShapes                shapes, moved_shapes; // moved: the mass of massless nodes moved (eq. (72))
    const CellShapes         *mass = &shapes;       // the shapes that carry the mass
    CellKinematics            kinematics, face_kinematics;
    ThreeFieldCell            three_field;
    bool                      has_three_field = false, iterated = false;
    dealii::Vector<double>    u, u_n, v_n, a_n, a, v; // cell DoF values: trial u₊, accepted state, a₊, v₊
    dealii::Vector<double>    j, p;                   // three-field cell fields of the iterate (CondensedFields)
    std::vector<Tensor<1, 3>> a_q, v_q;               // a₊, v₊ at the points (dynamic runs)
    std::vector<Tensor<1, 3>> u_face, v_face;         // u₊, v₊ (dynamic runs) at the face points
  };

  struct Assembler::CopyData
  {
    CopyData(const unsigned int n_dofs, const unsigned int n_p)
      : contribution(n_dofs)
      , residual(n_dofs)
      , rhs(n_dofs)
      , cell_constraint(n_dofs)
      , K_up(n_dofs, n_p)
      , dofs(n_dofs)
    {}

    CellIterator                         cell;
    bool                                 inverted = false;
    CellContribution                     contribution;
    dealii::Vector<double>               residual, rhs;   // f_int − f_ext and its negative
    dealii::Vector<double>               cell_constraint; // the condensed cell residuals, part of internal
    FullMatrix<double>                   K_up, C, M;      // three-field blocks (PressureBlocks)
    double                               mu_hat = 0, diagonal_mean = 0; // scales of PressureBlocks::add_cell
    std::vector<types::global_dof_index> dofs;
  };

  Assembler::Assembler(parallel::distributed::Triangulation<3> &triangulation, const Formulation &formulation,
                       const TissueMaterials &materials, const bool dynamic, TimerOutput &timer)
    : communicator(triangulation.get_communicator())
    , triangulation(triangulation)
    , element(formulation)
    , tissues(materials)
    , point_velocities(dynamic)
    , timer(timer)
    , dofs(triangulation)
  {}

  Assembler::~Assembler() { dofs.clear(); }

  void Assembler::add_term(std::unique_ptr<Term> term)
  {
    if (term->on_cells())
      cell_terms.push_back(term.get());
    term_list.push_back(std::move(term));
  }

  const Term *Assembler::unsymmetric_term() const
  {
    for (const auto &term : term_list)
      if (!term->symmetric())
        return term.get();
    return nullptr;
  }

  void Assembler::distribute_dofs()
  {
    fe              = std::make_unique<FESystem<3>>(FE_Q<3>(element.degree), 3);
    cell_quadrature = std::make_unique<QGauss<3>>(element.degree + 1);
    face_quadrature = std::make_unique<QGauss<2>>(element.degree + 1);
    dofs.distribute_dofs(*fe);
    owned = dofs.locally_owned_dofs();
    DoFTools::extract_locally_relevant_dofs(dofs, relevant);
    for (const auto &term : term_list)
      term->setup(dofs, *cell_quadrature);
    move_mass_off_massless_boundaries();
  }

  void Assembler::move_mass_off_massless_boundaries()
  {
    const Term *moving      = nullptr;
    const auto  is_massless = [&](const types::boundary_id id) {
      for (const auto &term : term_list)
        if (term->massless_boundary(id))
          {
            moving = term.get();
            return true;
          }
      return false;
    };
    std::vector<types::global_dof_index> face_dofs(fe->n_dofs_per_face()), cell_dofs(fe->n_dofs_per_cell()), found;
    for (const auto &cell : dofs.active_cell_iterators())
      if (!cell->is_artificial())
        for (const unsigned int f : cell->face_indices())
          if (cell->face(f)->at_boundary() && is_massless(cell->face(f)->boundary_id()))
            {
              cell->face(f)->get_dof_indices(face_dofs);
              found.insert(found.end(), face_dofs.begin(), face_dofs.end());
            }
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    massless = IndexSet(dofs.n_dofs());
    massless.add_indices(found.begin(), found.end());
    massless.compress();
    mass_targets.clear();
    mass_carriers.clear();
    if (Utilities::MPI::max(massless.n_elements(), communicator) == 0)
      return;

    // A massless node's mass goes to the node of its component that mirrors it across the cell, in
    // as few of the directions in which it lies on a face of the cell as give a node with mass:
    // the node opposite a face node, the opposite corner of an edge of two massless faces.
    const std::vector<Point<3>>    &support = fe->get_unit_support_points();
    const std::vector<unsigned int> mirrors{1, 2, 4, 3, 5, 6, 7}; // sets of directions, fewest first
    std::string                     error;
    mass_targets.assign(triangulation.n_active_cells(), {});
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          cell->get_dof_indices(cell_dofs);
          std::vector<unsigned int> target(cell_dofs.size());
          bool                      moved = false;
          for (unsigned int i = 0; i < cell_dofs.size(); ++i)
            {
              target[i] = i;
              if (!massless.is_element(cell_dofs[i]))
                continue;
              moved = true;
              for (const unsigned int directions : mirrors)
                {
                  Point<3> mirror   = support[i];
                  bool     on_faces = true;
                  for (unsigned int d = 0; d < 3; ++d)
                    if (directions & (1u << d))
                      {
                        on_faces  = on_faces && std::abs(mirror[d] - 0.5) > 0.49;
                        mirror[d] = 1 - mirror[d];
                      }
                  for (unsigned int j = 0; on_faces && j < cell_dofs.size() && target[i] == i; ++j)
                    if (fe->system_to_component_index(j).first == fe->system_to_component_index(i).first &&
                        support[j].distance(mirror) < 1e-10 && !massless.is_element(cell_dofs[j]))
                      target[i] = j;
                  if (target[i] != i)
                    break;
                }
              if (target[i] == i && error.empty())
                {
                  std::ostringstream where;
                  where << cell->center();
                  error = "The modified mass of " + moving->name() +
                          " needs a node with mass across each cell from its boundaries, but the cell at (" +
                          where.str() +
                          ") m has such boundaries on opposite sides: refine the mesh across the "
                          "body or set 'Contact/Modified mass' = false.";
                }
            }
          for (unsigned int i = 0; i < cell_dofs.size(); ++i)
            if (target[i] != i && owned.is_element(cell_dofs[i]))
              mass_carriers.emplace_back(cell_dofs[i], cell_dofs[target[i]]);
          if (moved)
            mass_targets[cell->active_cell_index()] = std::move(target);
        }
    require_on_all_ranks(error, communicator);
    std::sort(mass_carriers.begin(), mass_carriers.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    mass_carriers.erase(std::unique(mass_carriers.begin(), mass_carriers.end(),
                                    [](const auto &a, const auto &b) { return a.first == b.first; }),
                        mass_carriers.end());
  }

  void Assembler::follow_mass_carriers(Vector &x, const Vector *origin) const
  {
    if (mass_targets.empty())
      return;
    Vector ghost(owned, relevant, communicator);
    ghost = x;
    for (const auto &[massless_dof, carrier] : mass_carriers)
      x[massless_dof] = origin ? (*origin)[massless_dof] + ghost[carrier] - (*origin)[carrier] : ghost[carrier];
    x.compress(VectorOperation::insert);
  }

  const CellShapes &Assembler::mass_shapes(const CellIterator &cell, const CellShapes &shapes, CellShapes &buffer) const
  {
    if (mass_targets.empty() || mass_targets[cell->active_cell_index()].empty())
      return shapes;
    buffer = shapes;
    buffer.move_onto(mass_targets[cell->active_cell_index()]);
    return buffer;
  }

  void Assembler::setup_system(const AffineConstraints<double> &constraints, const bool pressure_blocks,
                               const bool iterate_cell_fields)
  {
    pattern_constraints.clear();
    pattern_constraints.copy_from(constraints);
    make_tangent();
    blocks = pressure_blocks;
    if (blocks)
      pressure_block_data.setup(dofs, owned, element.degree, communicator);
    if (element.type == Formulation::Type::three_field)
      cell_fields.reinit(triangulation.n_active_cells(), element.n_pressure_functions(), fe->n_dofs_per_cell(),
                         iterate_cell_fields);
    constraint_residual.reinit(owned, communicator);
  }

  void Assembler::make_tangent()
  {
    IndexSet rows = relevant;
    for (const auto &term : term_list)
      term->add_rows(rows);
    DynamicSparsityPattern dsp(rows);
    DoFTools::make_sparsity_pattern(dofs, dsp, pattern_constraints, false);
    for (const auto &term : term_list)
      term->add_sparsity(dsp, pattern_constraints);
    SparsityTools::distribute_sparsity_pattern(dsp, owned, communicator, rows);
    system_matrix.reinit(owned, owned, dsp, communicator);
  }

  bool Assembler::update_couplings(const Vector &u, const std::function<void()> &release)
  {
    TimerOutput::Scope scope(timer, "couplings");
    Vector             u_ghost(owned, relevant, communicator);
    u_ghost      = u;
    bool changed = false;
    for (const auto &term : term_list)
      changed = term->update_couplings(u_ghost) || changed;
    if (changed)
      {
        release();
        make_tangent();
      }
    return changed;
  }

  template <typename OfTerm>
  double Assembler::smallest_over_terms(const OfTerm &of_term) const
  {
    double limit = std::numeric_limits<double>::infinity();
    for (const auto &term : term_list)
      limit = std::min(limit, of_term(*term));
    return Utilities::MPI::min(limit, communicator);
  }

  double Assembler::predictor_horizon(const State &state) const
  {
    return smallest_over_terms([&](const Term &term) { return term.predictor_horizon(state); });
  }

  double Assembler::update_fraction(const Vector &u, const Vector &du) const
  {
    return smallest_over_terms([&](const Term &term) { return term.update_fraction(u, du); });
  }

  double Assembler::augmentation_resolution() const
  {
    return smallest_over_terms([](const Term &term) { return term.augmentation_resolution(); });
  }

  bool Assembler::reinit_cell(const CellIterator &cell, const Step &step, const Vector &u_ghost, const State &accepted,
                              ScratchData &scratch) const
  {
    const NewmarkIntegrator::Coefficients &c = step.c;
    scratch.fe_values.reinit(cell);
    scratch.shapes.reinit(scratch.fe_values);
    scratch.mass = &mass_shapes(cell, scratch.shapes, scratch.moved_shapes);
    cell->get_dof_values(u_ghost, scratch.u);
    cell->get_dof_values(accepted.u_ghosted(), scratch.u_n);
    cell->get_dof_values(accepted.v_ghosted(), scratch.v_n);
    cell->get_dof_values(accepted.a_ghosted(), scratch.a_n);
    for (unsigned int i = 0; i < scratch.u.size(); ++i)
      {
        const double du = scratch.u[i] - scratch.u_n[i];
        scratch.a[i]    = c.a_u * du - c.a_v * scratch.v_n[i] - c.a_a * scratch.a_n[i];
        scratch.v[i]    = c.v_u * du + c.v_v * scratch.v_n[i] + c.v_a * scratch.a_n[i];
      }
    scratch.kinematics.reinit(scratch.fe_values, scratch.u, scratch.v);
    if (scratch.kinematics.inverted())
      return false;
    // J̃, p̃ of the three-field element: the Newton iterate's (CondensedFields) or projected from u.
    scratch.has_three_field = element.type == Formulation::Type::three_field;
    scratch.iterated        = scratch.has_three_field && cell_fields.iterating();
    if (scratch.iterated)
      {
        cell_fields.values(cell->active_cell_index(), scratch.j, scratch.p);
        scratch.three_field.reinit(scratch.fe_values, scratch.kinematics.J, *tissues[cell->material_id()].law,
                                   scratch.j, scratch.p);
      }
    else if (scratch.has_three_field)
      scratch.three_field.reinit(scratch.fe_values, scratch.kinematics.J, *tissues[cell->material_id()].law);
    if (point_velocities)
      {
        mass_values(scratch.fe_values, scratch.shapes, *scratch.mass, scratch.a, scratch.a_q);
        mass_values(scratch.fe_values, scratch.shapes, *scratch.mass, scratch.v, scratch.v_q);
      }
    return true;
  }

  CellState Assembler::state_of(const CellIterator &cell, const Step &step, const ScratchData &scratch) const
  {
    return {cell,
            scratch.fe_values,
            scratch.shapes,
            *scratch.mass,
            scratch.kinematics,
            scratch.a_q,
            scratch.v_q,
            scratch.has_three_field ? &scratch.three_field : nullptr,
            step};
  }

  bool Assembler::assemble(const Step &step, const Vector &u, const State &accepted, Vector &residual, Matrix *system,
                           Vector *rhs, const AffineConstraints<double> &inhomogeneous,
                           const AffineConstraints<double> &homogeneous)
  {
    TimerOutput::Scope scope(timer, "assembly");
    Vector             u_ghost(owned, relevant, communicator);
    u_ghost             = u;
    residual            = 0;
    constraint_residual = 0;
    if (system)
      {
        *system = 0;
        *rhs    = 0;
      }
    if (system && blocks)
      pressure_block_data.zero();

    ScratchData scratch(*fe, *cell_quadrature, *face_quadrature, element);
    CopyData    copy(fe->n_dofs_per_cell(), element.n_pressure_functions());
    bool        inverted = false;
    std::string bad_input;
    double      force_scale_sq = 0;
    non_finite.clear();
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          assemble_cell(cell, step, u_ghost, accepted, system != nullptr, scratch, copy);
          if (copy.inverted || !copy.contribution.bad_input.empty())
            {
              inverted  = copy.inverted;
              bad_input = copy.contribution.bad_input;
              break;
            }
          // A cell whose f_int or f_ext is not finite has a force scale that is not finite.
          const double cell_scale_sq = copy.contribution.internal.norm_sqr() + copy.contribution.external.norm_sqr();
          if (non_finite.empty() && !std::isfinite(cell_scale_sq))
            non_finite = locate_non_finite(cell, step, scratch);
          force_scale_sq += cell_scale_sq;
          copy_local_to_global(copy, inhomogeneous, homogeneous, residual, system, rhs);
        }

    require_on_all_ranks(bad_input, communicator);
    const SystemState  state{u_ghost, accepted, step, inhomogeneous, homogeneous};
    SystemContribution out{residual, system, rhs};
    for (const auto &term : term_list)
      term->add_to_system(state, out);
    residual.compress(VectorOperation::add);
    if (cell_fields.iterating())
      constraint_residual.compress(VectorOperation::add);
    if (system)
      {
        system->compress(VectorOperation::add);
        rhs->compress(VectorOperation::add);
      }
    if (system && blocks)
      pressure_block_data.compress();
    scale = std::sqrt(Utilities::MPI::sum(force_scale_sq, communicator));
    return !Utilities::MPI::logical_or(inverted, communicator);
  }

  void Assembler::assemble_control_derivatives(const Step &step, const Vector &u, const State &accepted,
                                               const ControlColumns &columns, std::vector<Vector> &derivatives,
                                               const AffineConstraints<double> &homogeneous)
  {
    TimerOutput::Scope scope(timer, "assembly");
    Vector             u_ghost(owned, relevant, communicator);
    u_ghost = u;
    for (Vector &derivative : derivatives)
      derivative = 0;
    ScratchData                          scratch(*fe, *cell_quadrature, *face_quadrature, element);
    std::vector<dealii::Vector<double>>  local(derivatives.size(), dealii::Vector<double>(fe->n_dofs_per_cell()));
    std::vector<types::global_dof_index> cell_dofs(fe->n_dofs_per_cell());
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          AssertThrow(reinit_cell(cell, step, u_ghost, accepted, scratch),
                      ExcMessage("The control derivatives are evaluated at a state with J <= 0."));
          for (dealii::Vector<double> &column : local)
            column = 0;
          const CellState cell_state = state_of(cell, step, scratch);
          for (unsigned int q = 0; q < scratch.shapes.JxW.size(); ++q)
            for (const Term *term : cell_terms)
              term->add_control_derivatives(cell_state, q, columns, local);
          cell->get_dof_indices(cell_dofs);
          for (unsigned int k = 0; k < derivatives.size(); ++k)
            homogeneous.distribute_local_to_global(local[k], cell_dofs, derivatives[k]);
        }
    for (Vector &derivative : derivatives)
      derivative.compress(VectorOperation::add);
  }

  void Assembler::assemble_cell(const CellIterator &cell, const Step &step, const Vector &u_ghost,
                                const State &accepted, const bool with_tangent, ScratchData &scratch, CopyData &copy)
  {
    CellContribution &out = copy.contribution;
    copy.cell             = cell;
    out.bad_input.clear();
    cell->get_dof_indices(copy.dofs);
    copy.inverted = !reinit_cell(cell, step, u_ghost, accepted, scratch);
    if (copy.inverted)
      return;
    out.with_tangent = with_tangent;
    out.matrix       = 0;
    out.internal     = 0;
    out.external     = 0;
    out.mass         = 0;
    copy.K_up        = 0;

    const CellState cell_state = state_of(cell, step, scratch);
    const bool      coupling   = scratch.has_three_field && (with_tangent || scratch.iterated);
    for (unsigned int q = 0; q < scratch.shapes.JxW.size(); ++q)
      {
        for (const Term *term : cell_terms)
          term->add_point(cell_state, q, out);
        if (coupling)
          scratch.three_field.add_coupling(scratch.shapes, q, scratch.kinematics.J[q],
                                           transpose(invert(scratch.kinematics.F[q])), copy.K_up);
      }
    if (scratch.has_three_field)
      condense_three_field(cell, scratch.iterated, with_tangent, scratch, copy);
    add_faces(cell, step, scratch, [&](const Term &) -> CellContribution & { return out; });
    copy.residual = out.internal;
    copy.residual -= out.external;
    if (with_tangent)
      {
        copy.rhs = copy.residual;
        copy.rhs *= -1.0;
      }
  }

  std::string Assembler::locate_non_finite(const CellIterator &cell, const Step &step, ScratchData &scratch) const
  {
    // Each term alone on the cell (its points, then its faces), without the tangent.
    std::map<const Term *, CellContribution> alone;
    for (const auto &term : term_list)
      alone.emplace(term.get(), CellContribution(fe->n_dofs_per_cell()));
    const CellState cell_state = state_of(cell, step, scratch);
    for (const Term *term : cell_terms)
      for (unsigned int q = 0; q < scratch.shapes.JxW.size(); ++q)
        term->add_point(cell_state, q, alone.at(term));
    add_faces(cell, step, scratch, [&](const Term &term) -> CellContribution & { return alone.at(&term); });
    std::ostringstream where;
    where << " in the cell at (" << cell->center() << ") m, material id " << cell->material_id();
    for (const auto &term : term_list)
      {
        const CellContribution &out = alone.at(term.get());
        if (!std::isfinite(out.internal.l2_norm() + out.external.l2_norm()))
          return term->name() + " is not finite" + where.str();
      }
    return "the three-field element's cell equations are not finite" + where.str();
  }

  void Assembler::add_faces(const CellIterator &cell, const Step &step, ScratchData &scratch,
                            const std::function<CellContribution &(const Term &)> &target) const
  {
    for (const auto &term : term_list)
      for (const unsigned int f : cell->face_indices())
        if (cell->face(f)->at_boundary() && term->on_boundary(cell->face(f)->boundary_id()))
          {
            scratch.fe_face_values.reinit(cell, f);
            scratch.face_kinematics.reinit(scratch.fe_face_values, scratch.u);
            vector_values(scratch.fe_face_values, scratch.u, scratch.u_face);
            if (point_velocities)
              vector_values(scratch.fe_face_values, scratch.v, scratch.v_face);
            const FaceState face_state{
              cell, f, scratch.fe_face_values, scratch.face_kinematics, scratch.u_face, scratch.v_face, step};
            term->add_face(face_state, target(*term));
          }
  }

  void Assembler::condense_three_field(const CellIterator &cell, const bool iterated, const bool with_tangent,
                                       ScratchData &scratch, CopyData &copy)
  {
    ThreeFieldCell   &cell_3f = scratch.three_field;
    CellContribution &out     = copy.contribution;
    copy.cell_constraint      = 0;
    if (iterated)
      {
        cell_3f.add_condensed_residual(copy.K_up, copy.cell_constraint);
        out.internal += copy.cell_constraint;
      }
    if (!with_tangent)
      return;
    cell_fields.record(cell->active_cell_index(), cell_3f, copy.K_up);
    if (blocks)
      {
        // Uncondensed for the block preconditioner; μ̂ adds the Newmark mass at the cell scale,
        // ρ a_u h² (PressureBlocks).
        cell_3f.pressure_compliance(copy.C);
        copy.M             = cell_3f.M;
        const double h     = cell->diameter();
        copy.mu_hat        = tissues[cell->material_id()].law->shear_modulus() + out.mass * h * h;
        copy.diagonal_mean = out.matrix.trace() / out.matrix.m();
      }
    else
      cell_3f.condense(copy.K_up, out.matrix);
  }

  void Assembler::copy_local_to_global(const CopyData &copy, const AffineConstraints<double> &inhomogeneous,
                                       const AffineConstraints<double> &homogeneous, Vector &residual, Matrix *system,
                                       Vector *rhs)
  {
    homogeneous.distribute_local_to_global(copy.residual, copy.dofs, residual);
    if (cell_fields.iterating())
      homogeneous.distribute_local_to_global(copy.cell_constraint, copy.dofs, constraint_residual);
    if (!system)
      return;
    inhomogeneous.distribute_local_to_global(copy.contribution.matrix, copy.rhs, copy.dofs, *system, *rhs);
    if (blocks)
      pressure_block_data.add_cell(copy.cell, copy.dofs, copy.K_up, copy.C, copy.M, copy.mu_hat, copy.diagonal_mean,
                                   inhomogeneous);
  }

  void Assembler::assemble_mass_matrix(Matrix &mass, const AffineConstraints<double> &constraints) const
  {
    TimerOutput::Scope scope(timer, "assembly");
    mass = 0;
    FEValues<3>        fe_values(*fe, *cell_quadrature, update_values | update_gradients | update_JxW_values);
    CellShapes         shapes, moved;
    const unsigned int n_dofs = fe->n_dofs_per_cell();
    FullMatrix<double> cell_mass(n_dofs, n_dofs);
    std::vector<types::global_dof_index> cell_dofs(n_dofs);
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          shapes.reinit(fe_values);
          const CellShapes &carrying = mass_shapes(cell, shapes, moved);
          cell_mass                  = 0;
          for (unsigned int q = 0; q < shapes.JxW.size(); ++q)
            add_mass(carrying, q, tissues[cell->material_id()].density, cell_mass);
          cell->get_dof_indices(cell_dofs);
          constraints.distribute_local_to_global(cell_mass, cell_dofs, mass);
        }
    mass.compress(VectorOperation::add);
    for (const auto i : massless)
      if (owned.is_element(i) && !constraints.is_constrained(i))
        mass.set(i, i, 1.0);
    mass.compress(VectorOperation::insert);
  }

  double Assembler::mass_product(const Vector &x, const Vector &y) const
  {
    Vector x_ghost(owned, relevant, communicator), y_ghost(owned, relevant, communicator);
    x_ghost = x;
    y_ghost = y;
    FEValues<3>               fe_values(*fe, *cell_quadrature,
                                        update_values | update_JxW_values |
                                          (mass_targets.empty() ? update_default : update_gradients));
    CellShapes                shapes, moved;
    dealii::Vector<double>    x_local(fe->n_dofs_per_cell()), y_local(fe->n_dofs_per_cell());
    std::vector<Tensor<1, 3>> x_q, y_q;
    double                    sum = 0;
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          cell->get_dof_values(x_ghost, x_local);
          cell->get_dof_values(y_ghost, y_local);
          const CellShapes *carrying = &shapes;
          if (!mass_targets.empty() && !mass_targets[cell->active_cell_index()].empty())
            {
              shapes.reinit(fe_values);
              carrying = &mass_shapes(cell, shapes, moved);
            }
          mass_values(fe_values, shapes, *carrying, x_local, x_q);
          mass_values(fe_values, shapes, *carrying, y_local, y_q);
          const double rho = tissues[cell->material_id()].density;
          for (unsigned int q = 0; q < x_q.size(); ++q)
            sum += rho * (x_q[q] * y_q[q]) * fe_values.JxW(q);
        }
    return Utilities::MPI::sum(sum, communicator);
  }

  void Assembler::energies(const State &accepted, Energies &out)
  {
    // Every term at the accepted state (theory.md eq. (62)): stored terms give their energies and
    // the forces of their non-conservative parts, the others their whole force, booked by work().
    const Step                    step   = Step::accepted(accepted.time());
    const unsigned int            n_dofs = fe->n_dofs_per_cell();
    ScratchData                   scratch(*fe, *cell_quadrature, *face_quadrature, element);
    CellEnergy                    stored(n_dofs);
    std::vector<CellContribution> by_work(4, CellContribution(n_dofs)); // indexed by Work
    const std::vector<Vector *>   targets{nullptr, &out.external, &out.dissipated, &out.active};
    for (Vector *v : {&out.external, &out.dissipated, &out.active})
      v->reinit(owned, communicator);
    dealii::Vector<double>               force(n_dofs);
    std::vector<types::global_dof_index> cell_dofs(n_dofs);
    AffineConstraints<double>            none;
    none.close();
    double kinetic = 0, strain = 0, volume = 0;
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          AssertThrow(reinit_cell(cell, step, accepted.u_ghosted(), accepted, scratch),
                      ExcMessage("An accepted state with an inverted element"));
          const CellState cell_state = state_of(cell, step, scratch);
          stored.strain              = 0;
          for (dealii::Vector<double> *v : {&stored.external, &stored.dissipated, &stored.active})
            *v = 0;
          for (CellContribution &c : by_work)
            c.internal = c.external = 0;
          // The kinetic energy ½ ∫ ρ0 v·v dV of the state (in a quasi-static run: of the
          // backward-difference velocity, outside the balance).
          const double rho = tissues[cell->material_id()].density;
          mass_values(scratch.fe_values, scratch.shapes, *scratch.mass, scratch.v, scratch.v_q);
          for (unsigned int q = 0; q < scratch.shapes.JxW.size(); ++q)
            {
              const double JxW = scratch.shapes.JxW[q];
              kinetic += 0.5 * rho * scratch.v_q[q] * scratch.v_q[q] * JxW;
              volume += scratch.kinematics.J[q] * JxW;
              for (const Term *term : cell_terms)
                if (term->work() == Work::stored)
                  term->add_point_energy(cell_state, q, stored);
                else
                  term->add_point(cell_state, q, by_work[static_cast<unsigned int>(term->work())]);
            }
          add_faces(cell, step, scratch, [&](const Term &term) -> CellContribution & {
            Assert(term.work() != Work::stored, ExcMessage("a face term books its work by its force"));
            return by_work[static_cast<unsigned int>(term.work())];
          });
          strain += stored.strain;
          cell->get_dof_indices(cell_dofs);
          for (const Work work : {Work::external, Work::dissipated, Work::active})
            {
              const unsigned int k = static_cast<unsigned int>(work);
              force                = by_work[k].external;
              force -= by_work[k].internal;
              force += work == Work::external   ? stored.external :
                       work == Work::dissipated ? stored.dissipated :
                                                  stored.active;
              none.distribute_local_to_global(force, cell_dofs, *targets[k]);
            }
        }
    // Terms on the whole system: their residual is an internal force, −R acts on the body.
    Vector residual(owned, communicator);
    for (const auto &term : term_list)
      if (term->work() != Work::stored)
        {
          residual = 0;
          SystemContribution contribution{residual, nullptr, nullptr};
          term->add_to_system({accepted.u_ghosted(), accepted, step, none, none}, contribution);
          residual.compress(VectorOperation::add);
          targets[static_cast<unsigned int>(term->work())]->add(-1.0, residual);
        }
    for (Vector *v : {&out.external, &out.dissipated, &out.active})
      v->compress(VectorOperation::add);
    out.kinetic = Utilities::MPI::sum(kinetic, communicator);
    out.strain  = Utilities::MPI::sum(strain, communicator);
    out.volume  = Utilities::MPI::sum(volume, communicator);
  }

  void Assembler::for_each_cell(const State &accepted, const std::function<void(const CellState &)> &f) const
  {
    const Step  step = Step::accepted(accepted.time());
    ScratchData scratch(*fe, *cell_quadrature, *face_quadrature, element);
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          reinit_cell(cell, step, accepted.u_ghosted(), accepted, scratch);
          f(state_of(cell, step, scratch));
        }
  }
} // namespace hydrostat
