#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/lac/vector.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/fem/cell_kernels.h>
#include <hydrostat/geometry/boundary_ids.h>
#include <hydrostat/physics/rigid_contact.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  void RigidContact::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Contact");
    prm.declare_entry("Penalty", "auto", Patterns::Anything(),
                      "Penalty epsilon [Pa/m] of the contact pressure per unit penetration; auto: Penalty factor * "
                      "3 mu / h with mu the shear modulus of the tissue and h the size of the cell. The augmented "
                      "Lagrangian updates make the answer independent of it.");
    prm.declare_entry("Penalty factor", "100", Patterns::Double(0), "Factor of the automatic penalty [-].");
    prm.declare_entry("Penetration tolerance", "0.001", Patterns::Double(0),
                      "Largest penetration left after the augmented-Lagrangian updates, as a fraction of the size "
                      "of the cell it is in [-]. With self-contact it also rounds the law's kink (theory.md eq. "
                      "(70a)), and a run's cost depends on it irregularly, not falling as it grows (theory.md "
                      "§15.5): time a short run before changing it.");
    prm.declare_entry("Maximum augmentations", "20", Patterns::Integer(0),
                      "Augmented-Lagrangian updates per time step at most (0: penalty contact); a step that "
                      "reaches the limit before the tolerance is accepted with a warning.");
    prm.declare_entry("Modified mass", "false", Patterns::Bool(),
                      "Dynamic runs: the nodes of the boundaries that can touch carry no mass, it moves to the "
                      "nodes across their cells (Khenous, Laborde & Renard 2008), so that an impact does not "
                      "chatter; needs two cells across the body between such boundaries and no muscle in the "
                      "cells at them.");
    for (unsigned int k = 1; k <= max_obstacles; ++k)
      {
        prm.enter_subsection("Obstacle " + std::to_string(k));
        RigidObstacle::declare_parameters(prm);
        prm.declare_entry("Boundary ids", "", Patterns::List(Patterns::Integer(0, 255)),
                          "Boundary ids of the body that can touch this obstacle; empty: all.");
        prm.declare_entry("Friction coefficient", "0", Patterns::Double(),
                          "Coulomb friction coefficient mu >= 0 [-] (0: frictionless); friction makes the tangent "
                          "unsymmetric (GMRES or direct).");
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  RigidContact::Controls RigidContact::read_controls(ParameterHandler &prm, const TermSetup &setup)
  {
    Controls controls;
    controls.penalty           = auto_or_number(prm.get("Penalty"), "Contact/Penalty", 0);
    controls.penalty_factor    = prm.get_double("Penalty factor");
    controls.tolerance         = prm.get_double("Penetration tolerance");
    controls.max_augmentations = prm.get_integer("Maximum augmentations");
    controls.modified_mass     = setup.dynamic && prm.get_bool("Modified mass");
    require(!controls.penalty || *controls.penalty > 0,
            "Parameter 'Contact/Penalty' = 0: give a penalty > 0 [Pa/m], or auto.");
    require(controls.penalty || controls.penalty_factor > 0,
            "Parameter 'Contact/Penalty factor' = 0: give a factor > 0 (default 100).");
    controls.muscles = &setup.muscles;
    return controls;
  }

  bool RigidContact::Controls::stop_augmenting(const double worst, const bool moving, const unsigned int augmentations,
                                               std::string &unsettled) const
  {
    unsettled.clear();
    if (worst <= tolerance && !moving)
      return true;
    if (augmentations < max_augmentations)
      return false;
    // Penalty contact (no updates asked for) has no tolerance to miss.
    if (max_augmentations > 0)
      {
        std::ostringstream text;
        text << "largest penetration " << std::setprecision(3) << worst << " of the cell size"
             << (moving ? " and partner faces still changing" : "") << " after " << max_augmentations
             << (max_augmentations == 1 ? " augmentation" : " augmentations")
             << " (parameter 'Contact/Penetration tolerance' = " << shortest_text(tolerance)
             << "): raise 'Contact/Maximum augmentations' or 'Contact/Penalty factor'";
        unsettled = text.str();
      }
    return true;
  }

  void RigidContact::check_massless_cells(const DoFHandler<3> &dof_handler, const Quadrature<3> &quadrature,
                                          const Controls &controls, const std::function<bool(unsigned int)> &massless,
                                          const std::string &parameter)
  {
    if (!controls.modified_mass || controls.muscles->n_groups() == 0)
      return;
    // The massless nodes' velocity is the trapezoidal rule's, undamped, and the force–velocity law
    // of muscle would see it (theory.md §15.6): no muscle point in a cell that has one.
    const Triangulation<3> &tria = dof_handler.get_triangulation();
    std::vector<bool>       on_massless_face(tria.n_vertices());
    for (const auto &cell : tria.active_cell_iterators())
      if (!cell->is_artificial())
        for (const unsigned int f : cell->face_indices())
          if (cell->face(f)->at_boundary() && massless(cell->face(f)->boundary_id()))
            for (const unsigned int v : cell->face(f)->vertex_indices())
              on_massless_face[cell->face(f)->vertex_index(v)] = true;
    const MappingQ1<3> mapping;
    FEValues<3>        fe_values(mapping, dof_handler.get_fe(), quadrature, update_quadrature_points);
    std::string        message;
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned() && message.empty())
        {
          const auto vertices = cell->vertex_indices();
          if (std::none_of(vertices.begin(), vertices.end(),
                           [&](const unsigned int v) { return on_massless_face[cell->vertex_index(v)]; }))
            continue;
          fe_values.reinit(cell);
          for (const Point<3> &X : fe_values.get_quadrature_points())
            if (const auto groups = controls.muscles->point_data(X, cell->material_id()); !groups.empty())
              {
                std::ostringstream where;
                where << cell->center();
                message = "Parameter 'Contact/Modified mass' = true: the cell at (" + where.str() +
                          ") m has a node on a boundary of '" + parameter + "' and holds muscle group '" +
                          controls.muscles->name(groups.front().group) +
                          "', whose force-velocity law would see the velocity of the massless node: keep muscle "
                          "away from the boundaries that touch, or set Modified mass false.";
                break;
              }
        }
    require_on_all_ranks(message, dof_handler.get_communicator());
  }

  std::vector<std::unique_ptr<Term>> RigidContact::create(ParameterHandler &prm, const TermSetup &setup)
  {
    std::vector<std::unique_ptr<Term>> terms;
    prm.enter_subsection("Contact");
    const Controls controls = read_controls(prm, setup);
    for (unsigned int k = 1; k <= max_obstacles; ++k)
      {
        const std::string path = "Contact/Obstacle " + std::to_string(k);
        prm.enter_subsection("Obstacle " + std::to_string(k));
        if (auto obstacle = RigidObstacle::parse(prm, path))
          {
            std::vector<unsigned int> ids;
            for (const int id : Utilities::string_to_int(Utilities::split_string_list(prm.get("Boundary ids"))))
              ids.push_back(static_cast<unsigned int>(id));
            const double friction = prm.get_double("Friction coefficient");
            require(friction >= 0, "Parameter '" + path + "/Friction coefficient' = " +
                                     prm.get("Friction coefficient") + ": give a coefficient >= 0 (0: frictionless).");
            terms.push_back(
              std::make_unique<RigidContact>(k, std::move(obstacle), ids, friction, controls, setup.materials));
          }
        prm.leave_subsection();
      }
    prm.leave_subsection();
    return terms;
  }

  RigidContact::RigidContact(const unsigned int index, std::unique_ptr<RigidObstacle> obstacle,
                             const std::vector<unsigned int> &boundary_ids, const double friction,
                             const Controls &controls, const TissueMaterials &materials)
    : index(index)
    , obstacle(std::move(obstacle))
    , boundary_ids(boundary_ids)
    , friction(friction)
    , controls(controls)
    , materials(materials)
  {}

  std::string RigidContact::name() const
  {
    return "contact with obstacle " + std::to_string(index) + " (" + obstacle->shape_name() + ")";
  }

  bool RigidContact::on_boundary(const unsigned int id) const
  {
    return boundary_ids.empty() || std::find(boundary_ids.begin(), boundary_ids.end(), id) != boundary_ids.end();
  }

  void RigidContact::setup(const DoFHandler<3> &dof_handler, const Quadrature<3> &quadrature)
  {
    comm = dof_handler.get_communicator();
    // The Assembler's face rule (its Gauss points), so that add_face() finds its points' multipliers.
    const FiniteElement<3> &fe = dof_handler.get_fe();
    face_quadrature            = std::make_unique<QGauss<2>>(fe.degree + 1);
    fe_face_values             = std::make_unique<FEFaceValues<3>>(fe, *face_quadrature,
                                                       update_values | update_gradients | update_quadrature_points |
                                                         update_normal_vectors | update_JxW_values);
    n_q                        = face_quadrature->size();

    for (const unsigned int id : boundary_ids)
      require_boundary_id(dof_handler.get_triangulation(), id, obstacle->path() + "/Boundary ids");
    check_massless_cells(
      dof_handler, quadrature, controls, [this](const unsigned int id) { return on_boundary(id); },
      obstacle->path() + "/Boundary ids");
    faces.clear();
    face_index.clear();
    penalty_min = std::numeric_limits<double>::max();
    penalty_max = 0;
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        for (const unsigned int f : cell->face_indices())
          if (cell->face(f)->at_boundary())
            {
              if (!on_boundary(cell->face(f)->boundary_id()))
                continue;
              const double h = cell->diameter();
              // ε = factor · 3μ/h: the stiffness E = 3μ of nearly incompressible tissue over the cell
              // size, so that a penetration of h/factor carries a pressure of about E (theory.md §15.2).
              const double penalty                          = controls.penalty ? *controls.penalty :
                                                                                 controls.penalty_factor * 3 *
                                                          materials[cell->material_id()].law->shear_modulus() / h;
              face_index[6 * cell->active_cell_index() + f] = faces.size();
              faces.push_back({cell, f, static_cast<unsigned int>(faces.size() * n_q), penalty, h});
              penalty_min = std::min(penalty_min, penalty);
              penalty_max = std::max(penalty_max, penalty);
            }
    penalty_min = Utilities::MPI::min(penalty_min, comm);
    penalty_max = Utilities::MPI::max(penalty_max, comm);
    multipliers.assign(faces.size() * n_q, 0.0);
    accepted.assign(faces.size() * n_q, PointRecord());
    // A point sticks where it is: its anchor starts at X (relative to the obstacle at t = 0).
    const Tensor<1, 3> origin = obstacle->placement(0.0).point;
    for (const Face &face : faces)
      {
        fe_face_values->reinit(face.cell, face.face_no);
        for (unsigned int q = 0; q < n_q; ++q)
          accepted[face.first + q].anchor = fe_face_values->quadrature_point(q) - origin;
      }
    sums = Totals();
  }

  std::string RigidContact::report() const
  {
    std::ostringstream text;
    text << "Contact with obstacle " << index << " (" << obstacle->shape_name() << "): penalty " << std::setprecision(3)
         << penalty_min;
    if (penalty_max > penalty_min * (1 + 1e-12))
      text << " to " << penalty_max;
    text << " Pa/m" << (controls.penalty ? "" : " (auto)");
    if (friction > 0)
      text << ", friction coefficient " << friction;
    text << ", penetration tolerance " << controls.tolerance << " of the cell size, at most "
         << controls.max_augmentations << " augmentations per step";
    return text.str();
  }

  const RigidContact::Face *RigidContact::face_of(const CellIterator &cell, const unsigned int face_no) const
  {
    const auto found = face_index.find(6 * cell->active_cell_index() + face_no);
    return found == face_index.end() ? nullptr : &faces[found->second];
  }

  template <typename Number>
  RigidContact::PointForce<Number> RigidContact::at(const Tensor<1, 3, Number>     &x,
                                                    const RigidObstacle::Placement &where, const double multiplier,
                                                    const PointRecord &record, const double penalty) const
  {
    // λ_N = max(0, λ̄ − ε g) along n (eq. (66)); with friction the trial traction −ε P (x − a) of
    // the anchor a, returned onto the Coulomb cone |t_T| ≤ μ λ_N (eq. (66b)).
    PointForce<Number> f{Number(0.0), {}, {}, obstacle->proximity(x, where)};
    const Number       trial = multiplier - penalty * f.proximity.gap;
    if (Sacado::ScalarValue<Number>::eval(trial) <= 0)
      return f;
    const Tensor<1, 3, Number> &n = f.proximity.normal;
    f.pressure                    = trial;
    f.force                       = f.pressure * n;
    if (friction > 0)
      {
        const Tensor<1, 3, Number> r = x - (where.point + record.anchor);
        f.tangential                 = -penalty * (r - (r * n) * n);
        const Number norm            = f.tangential.norm();
        const Number limit           = friction * f.pressure;
        if (Sacado::ScalarValue<Number>::eval(norm) > Sacado::ScalarValue<Number>::eval(limit))
          f.tangential *= limit / norm;
        f.force += f.tangential;
      }
    return f;
  }

  void RigidContact::add_face(const FaceState &face, CellContribution &out) const
  {
    const Face *contact = face_of(face.cell, face.face_no);
    Assert(contact && face.fe_values.n_quadrature_points == n_q, ExcInternalError());
    RigidObstacle::Placement where;
    try
      {
        where = obstacle->placement(face.step.t);
      }
    catch (const InputError &error)
      {
        if (out.bad_input.empty())
          out.bad_input = error.what();
        return;
      }
    // The contact force is a load: −f in the residual, K = −∂f/∂u = −∫ φ_i (∂h/∂x) φ_j dA on the
    // active points, ∂h/∂x by automatic differentiation of the point force (theory.md eq. (67)).
    const FEFaceValues<3>  &fe_values = face.fe_values;
    const FiniteElement<3> &fe        = fe_values.get_fe();
    const unsigned int      n_dofs    = fe.n_dofs_per_cell();
    Tensor<1, 3>            h;
    Tensor<2, 3>            k; // −∂h/∂x
    for (unsigned int q = 0; q < n_q; ++q)
      {
        const Tensor<1, 3> x      = fe_values.quadrature_point(q) + face.u[q];
        const unsigned int p      = contact->first + q;
        double             active = 0;
        if (out.with_tangent)
          {
            Tensor<1, 3, ContactAD> x_ad;
            for (unsigned int d = 0; d < 3; ++d)
              x_ad[d] = ContactAD(3, d, x[d]);
            const PointForce<ContactAD> f = at(x_ad, where, multipliers[p], accepted[p], contact->penalty);
            active                        = f.pressure.val();
            for (unsigned int a = 0; a < 3 && active > 0; ++a)
              {
                h[a] = f.force[a].val();
                for (unsigned int b = 0; b < 3; ++b)
                  k[a][b] = -f.force[a].dx(b);
              }
          }
        else
          {
            const PointForce<double> f = at(x, where, multipliers[p], accepted[p], contact->penalty);
            active                     = f.pressure;
            h                          = f.force;
          }
        if (active <= 0)
          continue;
        const double dA = fe_values.JxW(q);
        for (unsigned int i = 0; i < n_dofs; ++i)
          {
            const unsigned int ci = fe.system_to_component_index(i).first;
            const double       Ni = fe_values.shape_value(i, q);
            if (Ni == 0)
              continue;
            out.external[i] += h[ci] * Ni * dA;
            if (out.with_tangent)
              for (unsigned int j = 0; j < n_dofs; ++j)
                out.matrix(i, j) +=
                  Ni * k[ci][fe.system_to_component_index(j).first] * fe_values.shape_value(j, q) * dA;
          }
      }
  }

  template <typename F>
  void RigidContact::for_each_point(const TrilinosWrappers::MPI::Vector &u, const F &f)
  {
    dealii::Vector<double>    u_local(fe_face_values->get_fe().n_dofs_per_cell());
    std::vector<Tensor<1, 3>> u_q;
    CellKinematics            kinematics;
    for (const Face &face : faces)
      {
        fe_face_values->reinit(face.cell, face.face_no);
        face.cell->get_dof_values(u, u_local);
        vector_values(*fe_face_values, u_local, u_q);
        kinematics.reinit(*fe_face_values, u_local);
        for (unsigned int q = 0; q < n_q; ++q)
          f(face, q, Tensor<1, 3>(fe_face_values->quadrature_point(q)) + u_q[q], u_q[q], kinematics);
      }
  }

  bool RigidContact::augment(const TrilinosWrappers::MPI::Vector &u, const Step &step)
  {
    // Uzawa (theory.md eq. (68)): while some pressed point is farther from the surface than the
    // tolerance (penetrating, or pushing from a gap with a multiplier left from before), λ̄ ← λ_N
    // everywhere and solve again.
    const RigidObstacle::Placement where = obstacle->placement(step.t);
    double                         worst = 0; // |g| / h where λ_N > 0
    std::vector<double>            updated(multipliers.size());
    for_each_point(u, [&](const Face &face, const unsigned int q, const Tensor<1, 3> &x, const Tensor<1, 3> &,
                          const CellKinematics &) {
      const unsigned int       p = face.first + q;
      const PointForce<double> f = at(x, where, multipliers[p], accepted[p], face.penalty);
      updated[p]                 = f.pressure;
      if (f.pressure > 0)
        worst = std::max(worst, std::abs(f.proximity.gap) / face.size);
    });
    worst = Utilities::MPI::max(worst, comm);
    if (controls.stop_augmenting(worst, false, augmentations, shortfall))
      return false;
    multipliers = updated;
    ++augmentations;
    return true;
  }

  double RigidContact::augmentation_resolution() const { return controls.augmentation_resolution(faces); }

  void RigidContact::retry_step()
  {
    for (unsigned int k = 0; k < multipliers.size(); ++k)
      multipliers[k] = accepted[k].multiplier;
    augmentations = 0;
  }

  void RigidContact::commit(const State &state, const double)
  {
    // The accepted point states and the totals; the work of the contact force on the body by the
    // trapezoidal rule over the step (theory.md eq. (69)).
    const RigidObstacle::Placement where = obstacle->placement(state.time());
    Totals                         local;
    for_each_point(state.u_ghosted(), [&](const Face &face, const unsigned int q, const Tensor<1, 3> &x,
                                          const Tensor<1, 3> &u, const CellKinematics &kinematics) {
      const unsigned int       p      = face.first + q;
      PointRecord             &record = accepted[p];
      const PointForce<double> f      = at(x, where, multipliers[p], record, face.penalty);
      const double             dA     = fe_face_values->JxW(q);
      // da/dA = |J F^{-T} N|: the Cauchy pressure is λ_N dA/da.
      const double area_ratio =
        (kinematics.J[q] * transpose(invert(kinematics.F[q])) * fe_face_values->normal_vector(q)).norm();
      local.work += 0.5 * (record.force + f.force) * (u - record.u) * dA;
      local.force += f.force * dA;
      local.normal_force += f.pressure * dA;
      if (f.pressure > 0)
        local.area += area_ratio * dA;
      local.max_penetration = std::max(local.max_penetration, -f.proximity.gap);
      local.max_pressure    = std::max(local.max_pressure, f.pressure / area_ratio);
      // The new anchor: where the tangential spring is relaxed, a = x + t_T/ε (x itself out of
      // contact); its motion relative to the obstacle is the slip (eq. (66b)).
      const Tensor<1, 3> anchor = x + f.tangential / face.penalty - where.point;
      const double       slip   = f.pressure > 0 ? (anchor - record.anchor).norm() : 0.0;
      record = {multipliers[p], f.pressure / area_ratio, f.proximity.gap, record.slip + slip, f.force, u, anchor};
    });
    const double work = sums.work;
    for (unsigned int d = 0; d < 3; ++d)
      sums.force[d] = Utilities::MPI::sum(local.force[d], comm);
    sums.normal_force    = Utilities::MPI::sum(local.normal_force, comm);
    sums.area            = Utilities::MPI::sum(local.area, comm);
    sums.work            = work + Utilities::MPI::sum(local.work, comm);
    sums.max_penetration = Utilities::MPI::max(local.max_penetration, comm);
    sums.max_pressure    = Utilities::MPI::max(local.max_pressure, comm);
    sums.augmentations   = augmentations;
    augmentations        = 0;
  }

  std::vector<CellField> RigidContact::output_fields() const
  {
    const std::string      suffix = "_" + std::to_string(index);
    std::vector<CellField> fields = {{"contact_pressure" + suffix, "contact", 1, "Pa"},
                                     {"contact_gap" + suffix, "contact", 1, "m"}};
    if (friction > 0)
      fields.push_back({"contact_slip" + suffix, "contact", 1, "m"});
    return fields;
  }

  void RigidContact::output_values(const CellState &cell, double *values) const
  {
    // Means over the cell's contact faces; cells without one have no gap or slip (NaN) and no
    // pressure.
    double       pressure = 0, gap = 0, slip = 0;
    unsigned int n = 0;
    for (const unsigned int f : cell.cell->face_indices())
      if (const Face *face = face_of(cell.cell, f))
        for (unsigned int q = 0; q < n_q; ++q, ++n)
          {
            pressure += accepted[face->first + q].pressure;
            gap += accepted[face->first + q].gap;
            slip += accepted[face->first + q].slip;
          }
    const double none = std::numeric_limits<double>::quiet_NaN();
    values[0]         = n ? pressure / n : 0.0;
    values[1]         = n ? gap / n : none;
    if (friction > 0)
      values[2] = n ? slip / n : none;
  }

  std::string RigidContact::series_name() const { return "contact_" + std::to_string(index); }

  std::vector<std::string> RigidContact::series_columns() const
  {
    return {"force_x",      "force_y",         "force_z",      "normal_force", "contact_area",
            "contact_work", "max_penetration", "max_pressure", "augmentations"};
  }

  std::vector<double> RigidContact::series_values() const
  {
    return {sums.force[0], sums.force[1],        sums.force[2],     sums.normal_force,         sums.area,
            sums.work,     sums.max_penetration, sums.max_pressure, double(sums.augmentations)};
  }

  void RigidContact::save(BinaryWriter &out) const
  {
    std::vector<double> data;
    for (const PointRecord &r : accepted)
      data.insert(data.end(), {r.multiplier, r.pressure, r.gap, r.slip, r.force[0], r.force[1], r.force[2], r.u[0],
                               r.u[1], r.u[2], r.anchor[0], r.anchor[1], r.anchor[2]});
    out.put(data);
    out.put(sums);
  }

  void RigidContact::load(BinaryReader &in)
  {
    constexpr unsigned int    n_values = 13; // a PointRecord, in the order save() writes it
    const std::vector<double> data     = in.get_vector();
    if (data.size() != n_values * accepted.size())
      in.fail("contact with obstacle " + std::to_string(index) + " has another number of contact points");
    for (unsigned int k = 0; k < accepted.size(); ++k)
      {
        const double *r = data.data() + n_values * k;
        accepted[k]     = {r[0],
                           r[1],
                           r[2],
                           r[3],
                           Tensor<1, 3>({r[4], r[5], r[6]}),
                           Tensor<1, 3>({r[7], r[8], r[9]}),
                           Tensor<1, 3>({r[10], r[11], r[12]})};
        multipliers[k]  = r[0];
      }
    sums = in.get<Totals>();
  }
} // namespace hydrostat
