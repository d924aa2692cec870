#include <deal.II/base/exceptions.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature.h>
#include <deal.II/base/utilities.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/grid/grid_tools.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/physics/muscle_tendon_units.h>

#include <map>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    std::string text(const Point<3> &X)
    {
      std::ostringstream s;
      s << X[0] << ", " << X[1] << ", " << X[2];
      return s.str();
    }

    Point<3> parse_point(const std::string &entry)
    {
      const auto v = Utilities::string_to_double(Utilities::split_string_list(entry, ','));
      return {v[0], v[1], v[2]};
    }

    /// The non-artificial active cells around @p X with the reference coordinates of X in each.
    std::vector<std::pair<DoFHandler<3>::active_cell_iterator, Point<3>>> cells_around(const DoFHandler<3> &dof_handler,
                                                                                       const Point<3>      &X)
    {
      const MappingQ1<3>                                                    mapping;
      std::vector<std::pair<DoFHandler<3>::active_cell_iterator, Point<3>>> found, visible;
      try
        {
          const auto first = GridTools::find_active_cell_around_point(mapping, dof_handler, X, {}, 1e-10);
          if (first.first.state() == IteratorState::valid)
            found = GridTools::find_all_active_cells_around_point(mapping, dof_handler, X, 1e-10, first);
        }
      catch (const std::exception &)
        {
          // Not in this rank's part of the mesh.
        }
      for (const auto &[cell, xi] : found)
        if (cell.state() == IteratorState::valid && !cell->is_artificial())
          visible.emplace_back(cell, GeometryInfo<3>::project_to_unit_cell(xi));
      return visible;
    }
  } // namespace

  void MuscleTendonUnits::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Muscle-tendon units");
    prm.declare_entry("Number of units", "0", Patterns::Integer(0, max_units),
                      "1D Hill-type muscle-tendon units in use: subsections Unit 1 ... Unit N.");
    for (unsigned int k = 1; k <= max_units; ++k)
      {
        prm.enter_subsection("Unit " + std::to_string(k));
        prm.declare_entry("Name", "mtu" + std::to_string(k), Patterns::Anything(),
                          "Name in the output (<base>_mtu.csv columns <name>_F_MTC, ...).");
        prm.declare_entry("First point", "0, 0, 0", Patterns::List(Patterns::Double(), 3, 3),
                          "Reference position [m] of the first attachment point; must lie in the mesh.");
        prm.declare_entry("Second point", "0, 0, 0", Patterns::List(Patterns::Double(), 3, 3),
                          "Reference position [m] of the second attachment point (in the mesh), or of the fixed "
                          "anchor if Fixed anchor = true.");
        prm.declare_entry("Fixed anchor", "false", Patterns::Bool(),
                          "true: the second point is fixed in space (need not lie in the mesh).");
        prm.declare_entry("Stimulation", "0", Patterns::Anything(),
                          "STIM in [0, 1] as an expression of t (x, y, z are the first point's reference position).");
        prm.enter_subsection("Hill");
        HillMuscleTendonUnit::declare_parameters(prm);
        prm.leave_subsection();
        prm.enter_subsection("Activation");
        ActivationDynamics::declare_parameters(prm);
        prm.leave_subsection();
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  void MuscleTendonUnits::parse_parameters(ParameterHandler &prm)
  {
    units.clear();
    prm.enter_subsection("Muscle-tendon units");
    const unsigned int n = prm.get_integer("Number of units");
    for (unsigned int k = 1; k <= n; ++k)
      {
        const std::string where = "Muscle-tendon units/Unit " + std::to_string(k);
        prm.enter_subsection("Unit " + std::to_string(k));
        try
          {
            auto unit         = std::make_unique<Unit>();
            unit->name        = prm.get("Name");
            unit->X_a         = parse_point(prm.get("First point"));
            unit->X_b         = parse_point(prm.get("Second point"));
            unit->anchored    = prm.get_bool("Fixed anchor");
            unit->stimulation = std::make_unique<SpaceTimeFunction>(prm.get("Stimulation"), 1, where + "/Stimulation");
            require(unit->X_a.distance(unit->X_b) > 0,
                    "Parameter '" + where + "/Second point' coincides with the first point.");
            prm.enter_subsection("Hill");
            unit->mtu = std::make_unique<HillMuscleTendonUnit>(HillMuscleTendonUnit::parse_parameters(prm));
            prm.leave_subsection();
            prm.enter_subsection("Activation");
            unit->dynamics = std::make_unique<ActivationDynamics>(ActivationDynamics::parse_parameters(prm));
            prm.leave_subsection();
            unit->integrator = std::make_unique<HillIntegrator>(*unit->mtu, *unit->dynamics);
            units.push_back(std::move(unit));
          }
        catch (const std::exception &error)
          {
            throw InputError("In subsection '" + where + "': " + message_of(error));
          }
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  std::vector<std::unique_ptr<Term>> MuscleTendonUnits::create(ParameterHandler &prm, const TermSetup &)
  {
    auto units = std::make_unique<MuscleTendonUnits>();
    units->parse_parameters(prm);
    std::vector<std::unique_ptr<Term>> terms;
    if (units->n_units() > 0)
      terms.push_back(std::move(units));
    return terms;
  }

  void MuscleTendonUnits::setup(const DoFHandler<3> &dof_handler, const Quadrature<3> &)
  {
    comm = dof_handler.get_triangulation().get_communicator();
    for (unsigned int k = 0; k < units.size(); ++k)
      {
        Unit             &unit  = *units[k];
        const std::string where = "Muscle-tendon units/Unit " + std::to_string(k + 1);
        unit.evaluated_here     = false;
        unit.dofs.clear();
        unit.component.clear();
        unit.N_a.clear();
        unit.N_b.clear();
        const Location location = locate(unit, where, dof_handler);
        set_initial_state(unit, where);
        if (location.owner == Utilities::MPI::this_mpi_process(comm))
          attach(unit, location, dof_handler.get_fe());
      }
  }

  MuscleTendonUnits::Location MuscleTendonUnits::locate(const Unit &unit, const std::string &where,
                                                        const DoFHandler<3> &dof_handler) const
  {
    const unsigned int rank  = Utilities::MPI::this_mpi_process(comm);
    const unsigned int ranks = Utilities::MPI::n_mpi_processes(comm);
    Location           location;
    // The unit lives on the lowest rank that owns a cell around the first point.
    location.around_a = cells_around(dof_handler, unit.X_a);
    location.owner    = ranks;
    for (const auto &[cell, xi] : location.around_a)
      if (cell->is_locally_owned())
        location.owner = rank;
    location.owner = Utilities::MPI::min(location.owner, comm);
    require(location.owner < ranks,
            "Parameter '" + where + "/First point' (" + text(unit.X_a) + ") lies outside the mesh.");

    // The second point: in the mesh somewhere, and visible (owned or ghost) on the owner.
    bool b_in_mesh = unit.anchored, b_visible = true;
    if (!unit.anchored)
      {
        location.around_b = cells_around(dof_handler, unit.X_b);
        for (const auto &[cell, xi] : location.around_b)
          b_in_mesh = b_in_mesh || cell->is_locally_owned();
        b_in_mesh = Utilities::MPI::logical_or(b_in_mesh, comm);
        if (rank == location.owner)
          b_visible = !location.around_b.empty();
      }
    require(b_in_mesh, "Parameter '" + where + "/Second point' (" + text(unit.X_b) +
                         ") lies outside the mesh (set Fixed anchor = true for a point in space).");
    b_visible = !Utilities::MPI::logical_or(!b_visible, comm);
    require(b_visible, "Muscle-tendon unit '" + unit.name + "' (" + where + "): its second point (" + text(unit.X_b) +
                         ") is not in the part of the mesh seen by MPI rank " + std::to_string(location.owner) +
                         ", which owns its first point; run on fewer MPI ranks (or attach closer points).");
    return location;
  }

  void MuscleTendonUnits::set_initial_state(Unit &unit, const std::string &where) const
  {
    const double l_0 = unit.X_a.distance(unit.X_b); // u = 0 at t = 0
    const double S_0 = unit.stimulation->value(unit.X_a, 0.0);
    try
      {
        unit.state = unit.integrator->initial_state(l_0, S_0);
      }
    catch (const std::exception &error)
      {
        throw InputError("Muscle-tendon unit '" + unit.name + "' (" + where +
                         "): no initial state at its reference length " + std::to_string(l_0) +
                         " m: " + message_of(error));
      }
    const auto &mtu = unit.integrator->mtu();
    unit.record     = {S_0,
                       unit.integrator->q(unit.state),
                       l_0 + mtu.parameters().l_offset,
                       0.0,
                       unit.state.l_CE,
                       0.0,
                       mtu.force_SEE(mtu.l_SEE(unit.state.l_CE, l_0))};
  }

  void MuscleTendonUnits::attach(Unit &unit, const Location &location, const FiniteElement<3> &fe) const
  {
    unit.evaluated_here = true;
    std::map<types::global_dof_index, unsigned int> local;
    const MappingQ1<3>                              mapping;
    const auto add_cell = [&](const DoFHandler<3>::active_cell_iterator &cell, const Point<3> &xi,
                              std::vector<double> &N) {
      FEValues<3> fe_values(mapping, fe, Quadrature<3>(xi), update_values);
      fe_values.reinit(cell);
      std::vector<types::global_dof_index> cell_dofs(fe.n_dofs_per_cell());
      cell->get_dof_indices(cell_dofs);
      for (unsigned int i = 0; i < cell_dofs.size(); ++i)
        {
          auto [it, inserted] = local.emplace(cell_dofs[i], unit.dofs.size());
          if (inserted)
            {
              unit.dofs.push_back(cell_dofs[i]);
              unit.component.push_back(fe.system_to_component_index(i).first);
              unit.N_a.push_back(0.0);
              unit.N_b.push_back(0.0);
            }
          N[it->second] = fe_values.shape_value(i, 0);
        }
    };
    // Prefer an owned cell: its DoF values are the ones this rank has for certain.
    const auto pick = [](const auto &around) {
      for (const auto &entry : around)
        if (entry.first->is_locally_owned())
          return entry;
      return around.front();
    };
    const auto [cell_a, xi_a] = pick(location.around_a);
    add_cell(cell_a, xi_a, unit.N_a);
    if (!unit.anchored)
      {
        const auto [cell_b, xi_b] = pick(location.around_b);
        add_cell(cell_b, xi_b, unit.N_b);
      }
  }

  void MuscleTendonUnits::add_sparsity(DynamicSparsityPattern &dsp, const AffineConstraints<double> &constraints) const
  {
    for (const auto &unit : units)
      if (unit->evaluated_here)
        constraints.add_entries_local_to_global(unit->dofs, dsp, false);
  }

  MuscleTendonUnits::Kinematics MuscleTendonUnits::kinematics(const Unit &unit, const std::vector<double> &u,
                                                              const std::vector<double> &v)
  {
    Tensor<1, 3> d = unit.X_a - unit.X_b;
    Kinematics   k;
    for (unsigned int i = 0; i < unit.dofs.size(); ++i)
      {
        const double B = unit.N_a[i] - unit.N_b[i];
        d[unit.component[i]] += B * u[i];
        k.w[unit.component[i]] += B * v[i];
      }
    k.length = d.norm();
    k.e      = d / k.length;
    k.rate   = k.w * k.e;
    return k;
  }

  void MuscleTendonUnits::add_to_system(const SystemState &state, SystemContribution &out) const
  {
    const Vector &u = state.u, &u_n = state.accepted.u_ghosted(), &v_n = state.accepted.v_ghosted(),
                 &a_n                        = state.accepted.a_ghosted();
    const NewmarkIntegrator::Coefficients &c = state.step.c;
    const double                           t = state.step.t, dt = state.step.dt;
    for (const auto &unit_ptr : units)
      if (unit_ptr->evaluated_here)
        {
          const Unit         &unit = *unit_ptr;
          const unsigned int  n    = unit.dofs.size();
          std::vector<double> u_local(n), v_local(n);
          for (unsigned int i = 0; i < n; ++i)
            {
              const auto dof = unit.dofs[i];
              u_local[i]     = u[dof];
              v_local[i]     = c.v_u * (u[dof] - u_n[dof]) + c.v_v * v_n[dof] + c.v_a * a_n[dof];
            }
          const Kinematics k = kinematics(unit, u_local, v_local);
          const auto       r =
            unit.integrator->advance(unit.state, k.length, k.rate, unit.stimulation->value(unit.X_a, t), dt);

          // R_i = F ∂ℓ/∂u_i with g_i = ∂ℓ/∂u_i = e_{c_i} B_i.
          dealii::Vector<double> local_residual(n);
          std::vector<double>    B(n), g(n);
          for (unsigned int i = 0; i < n; ++i)
            {
              B[i]              = unit.N_a[i] - unit.N_b[i];
              g[i]              = k.e[unit.component[i]] * B[i];
              local_residual[i] = r.F_MTC * g[i];
            }
          state.homogeneous.distribute_local_to_global(local_residual, unit.dofs, out.residual);
          if (!out.matrix)
            continue;

          // ∂(dl_MTC)/∂u_j = v_u g_j + B_j ((I − e⊗e) w)_{c_j}/ℓ;  ∂e/∂u_j = B_j (I − e⊗e)_{:,c_j}/ℓ.
          FullMatrix<double> local_matrix(n, n);
          const Tensor<2, 3> P  = unit_symmetric_tensor<3>() - outer_product(k.e, k.e);
          const Tensor<1, 3> Pw = P * k.w;
          for (unsigned int i = 0; i < n; ++i)
            for (unsigned int j = 0; j < n; ++j)
              {
                const unsigned int ci = unit.component[i], cj = unit.component[j];
                const double       d_rate = c.v_u * g[j] + B[j] * Pw[cj] / k.length;
                local_matrix(i, j) =
                  g[i] * (r.dF_dl * g[j] + r.dF_ddl * d_rate) + r.F_MTC * B[i] * B[j] * P[ci][cj] / k.length;
              }
          local_residual *= -1.0;
          state.inhomogeneous.distribute_local_to_global(local_matrix, local_residual, unit.dofs, *out.matrix,
                                                         *out.rhs);
        }
  }

  void MuscleTendonUnits::commit(const State &state, const double dt)
  {
    const Vector &u = state.u_ghosted(), &v = state.v_ghosted();
    const double  t = state.time();
    for (const auto &unit_ptr : units)
      if (unit_ptr->evaluated_here)
        {
          Unit               &unit = *unit_ptr;
          const unsigned int  n    = unit.dofs.size();
          std::vector<double> u_local(n), v_local(n);
          for (unsigned int i = 0; i < n; ++i)
            {
              u_local[i] = u[unit.dofs[i]];
              v_local[i] = v[unit.dofs[i]];
            }
          const Kinematics k    = kinematics(unit, u_local, v_local);
          const double     STIM = unit.stimulation->value(unit.X_a, t);
          const auto       r    = unit.integrator->advance(unit.state, k.length, k.rate, STIM, dt);
          unit.state            = r.state;
          unit.record = {STIM, r.q, k.length + unit.mtu->parameters().l_offset, k.rate, r.state.l_CE, r.v, r.F_MTC};
        }
  }

  std::vector<MuscleTendonUnits::Record> MuscleTendonUnits::records() const
  {
    std::vector<double> values(7 * units.size(), 0.0);
    for (unsigned int k = 0; k < units.size(); ++k)
      if (units[k]->evaluated_here)
        {
          const Record &r      = units[k]->record;
          const double  row[7] = {r.STIM, r.q, r.l_MTC, r.dl_MTC, r.l_CE, r.v_CE, r.F_MTC};
          std::copy(row, row + 7, values.begin() + 7 * k);
        }
    std::vector<double> sums(values.size());
    Utilities::MPI::sum(values, comm, sums);
    std::vector<Record> result(units.size());
    for (unsigned int k = 0; k < units.size(); ++k)
      {
        const double *r = sums.data() + 7 * k;
        result[k]       = {r[0], r[1], r[2], r[3], r[4], r[5], r[6]};
      }
    return result;
  }

  void MuscleTendonUnits::save(BinaryWriter &out) const
  {
    for (const auto &unit : units)
      {
        out.put(unit->evaluated_here);
        if (unit->evaluated_here)
          {
            out.put(unit->state);
            out.put(unit->record);
          }
      }
  }

  void MuscleTendonUnits::load(BinaryReader &in)
  {
    for (const auto &unit : units)
      {
        if (in.get<bool>() != unit->evaluated_here)
          in.fail("muscle-tendon unit '" + unit->name + "' was evaluated on another rank");
        if (unit->evaluated_here)
          {
            unit->state  = in.get<HillState>();
            unit->record = in.get<Record>();
          }
      }
  }

  std::vector<std::string> MuscleTendonUnits::series_columns() const
  {
    std::vector<std::string> columns;
    for (const auto &unit : units)
      for (const char *quantity : {"_STIM", "_q", "_l_MTC", "_dl_MTC", "_l_CE", "_v_CE", "_F_MTC"})
        columns.push_back(unit->name + quantity);
    return columns;
  }

  std::vector<double> MuscleTendonUnits::series_values() const
  {
    std::vector<double> row;
    for (const Record &r : records())
      row.insert(row.end(), {r.STIM, r.q, r.l_MTC, r.dl_MTC, r.l_CE, r.v_CE, r.F_MTC});
    return row;
  }
} // namespace hydrostat
