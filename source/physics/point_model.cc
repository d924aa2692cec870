#include <deal.II/base/mpi.h>
#include <deal.II/fe/fe_values.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/physics/point_model.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace hydrostat
{
  using namespace dealii;

  void PointModel::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Time integration");
    prm.declare_entry("Stiffness damping", "0", Patterns::Double(0.0),
                      "Rayleigh stiffness-proportional damping beta_K [s]: force beta_K K0 v, K0 the "
                      "small-strain stiffness of the tissue (dynamic runs).");
    prm.leave_subsection();
  }

  double PointModel::stiffness_damping(ParameterHandler &prm, const bool dynamic)
  {
    prm.enter_subsection("Time integration");
    const double beta_K = prm.get_double("Stiffness damping");
    prm.leave_subsection();
    return dynamic ? beta_K : 0.0;
  }

  PointModel::PointModel(const TissueMaterials &materials, const MuscleGroups &muscles, const Formulation &formulation,
                         const double stiffness_damping)
    : materials(materials)
    , muscle_groups(muscles)
    , formulation(formulation)
    , beta_K(stiffness_damping)
  {}

  void PointModel::setup(const DoFHandler<3> &dofs, const Quadrature<3> &cell_quadrature)
  {
    dof_handler = &dofs;
    quadrature  = &cell_quadrature;
    n_q         = cell_quadrature.size();
    small_strain_tangent.clear();
    for (unsigned int id = 0; id < TissueMaterials::max_ids; ++id)
      small_strain_tangent.push_back(
        materials.defined(id) ? materials[id].law->nominal_response(unit_symmetric_tensor<3>()).A : Tensor<4, 3>());

    point_data.assign(std::size_t(dofs.get_triangulation().n_active_cells()) * n_q, {});
    FEValues<3>         fe_values(dofs.get_fe(), cell_quadrature, update_quadrature_points | update_JxW_values);
    unsigned int        n_points = 0;
    std::vector<double> volumes(muscle_groups.n_groups() + 1, 0.0); // per group, then the body's
    // Per group: the largest z and the largest r / R(z) of the arm its fibres assume (arm_warning).
    std::vector<double> extent(2 * muscle_groups.n_groups(), -std::numeric_limits<double>::max());
    std::string         bad_input;
    for (const auto &cell : dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          for (unsigned int q = 0; q < n_q; ++q)
            {
              const Point<3> &X = fe_values.quadrature_point(q);
              if (bad_input.empty())
                bad_input = muscle_groups.check_finite(X, cell->material_id());
              if (!bad_input.empty()) // the groups' laws would fail on it before require_on_all_ranks
                continue;
              auto &data = point_data[cell->active_cell_index() * n_q + q];
              data       = muscle_groups.point_data(X, cell->material_id());
              n_points += !data.empty();
              for (const MuscleGroups::GroupAtPoint &p : data)
                {
                  volumes[p.group] += fe_values.JxW(q);
                  if (const FibreField *arm = muscle_groups.tapered_family(p.group))
                    {
                      const double z      = std::clamp(X[2], 0.0, arm->parameters().arm_length);
                      extent[2 * p.group] = std::max(extent[2 * p.group], X[2]);
                      extent[2 * p.group + 1] =
                        std::max(extent[2 * p.group + 1], std::hypot(X[0], X[1]) / arm->radius(z));
                    }
                }
              volumes.back() += fe_values.JxW(q);
            }
        }
    const MPI_Comm comm = dofs.get_communicator();
    require_on_all_ranks(bad_input, comm);
    muscle_points = Utilities::MPI::sum(n_points, comm);
    Utilities::MPI::sum(volumes, comm, volumes);
    Utilities::MPI::max(extent, comm, extent);
    shares.clear();
    warnings.clear();
    for (unsigned int g = 0; g < muscle_groups.n_groups(); ++g)
      {
        require(volumes[g] > 0, "Muscle group '" + muscle_groups.name(g) +
                                  "' holds no quadrature point of the mesh: " + muscle_groups.region_text(g) +
                                  " selects none. A Region is an expression of the reference position in m (after "
                                  "Mesh/Scale) that is > 0 inside the group: check its signs, units and material ids.");
        shares.push_back(volumes[g] / volumes.back());
        if (std::string warning = muscle_groups.arm_warning(g, extent[2 * g], extent[2 * g + 1]); !warning.empty())
          warnings.push_back(warning);
      }
  }

  PointModel::Response PointModel::evaluate(const CellState &cell, const unsigned int q, const unsigned int needs) const
  {
    const TissueLaw    &law         = *materials[cell.cell->material_id()].law;
    const Tensor<2, 3> &F           = cell.kinematics.F[q];
    const double        J           = cell.kinematics.J[q];
    const bool          three_field = cell.three_field != nullptr;
    const bool          with_stress = needs & (tangent | stress);
    Response            r;
    // Volumetric stress: p̃ of the three-field element (theory.md eq. (12)), U'(J) otherwise.
    r.pressure = three_field ? cell.three_field->p_tilde[q] : law.dU_dJ(J);
    if (needs & tangent)
      {
        if (three_field)
          {
            auto [tau, Jc]           = law.isochoric_response(F);
            const auto [tau_v, Jc_v] = volumetric_response(J, r.pressure, 0.0);
            r.total                  = nominal_from_kirchhoff(F, tau + tau_v, Jc + Jc_v);
          }
        else
          r.total = law.nominal_response(F);
      }
    else if (needs & stress)
      // τ = τ_iso + J p I and P = τ F⁻ᵀ (theory.md §2), without the tangent.
      r.total.P = Tensor<2, 3>(law.tau_iso(F) + J * r.pressure * unit_symmetric_tensor<3>()) * transpose(invert(F));
    if (needs & energy)
      r.energy = three_field ? law.isochoric_energy(F) : law.energy(F);

    const MuscleGroups::PointData &muscle = point(cell.cell, q);
    if (!muscle.empty())
      {
        std::vector<MuscleGroups::PointOutput> output;
        const NominalStressTangent             fibres =
          muscle_groups.response(muscle, cell.fe_values.quadrature_point(q), F, cell.kinematics.F_dot[q],
                                 cell.step.c.v_u, cell.step.t, cell.step.dt, (needs & groups) ? &output : nullptr);
        if (with_stress)
          r.total += fibres;
        if (needs & parts)
          r.fibre = fibres.P;
        for (unsigned int m = 0; m < output.size(); ++m)
          {
            const Tensor<1, 3> FN = F * muscle[m].N[0]; // first family: m = F N / λ, theory.md eq. (15)
            r.groups.push_back(
              {muscle[m].group, output[m].activation, output[m].stretch, output[m].fibre_stress, FN / FN.norm()});
          }
      }
    if (beta_K != 0)
      {
        // β_K A0 : Ḟ (theory.md eq. (49)), linear in v₊.
        const Tensor<4, 3> &A0      = small_strain_tangent[cell.cell->material_id()];
        const Tensor<2, 3>  viscous = beta_K * double_contract<2, 0, 3, 1>(A0, cell.kinematics.F_dot[q]);
        if (with_stress)
          r.total.P += viscous;
        if (needs & tangent)
          r.total.A += (beta_K * cell.step.c.v_u) * A0;
        if (needs & parts)
          r.viscous = viscous;
      }
    return r;
  }

  void PointModel::commit(const State &state, const double dt)
  {
    if (muscle_groups.n_groups() == 0)
      return;
    FEValues<3>            fe_values(dof_handler->get_fe(), *quadrature, update_gradients | update_quadrature_points);
    dealii::Vector<double> u_local(dof_handler->get_fe().n_dofs_per_cell());
    CellKinematics         kinematics;
    for (const auto &cell : dof_handler->active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          cell->get_dof_values(state.u_ghosted(), u_local);
          kinematics.reinit(fe_values, u_local);
          for (unsigned int q = 0; q < n_q; ++q)
            muscle_groups.commit(point_data[cell->active_cell_index() * n_q + q], fe_values.quadrature_point(q),
                                 kinematics.F[q], state.time(), dt);
        }
  }

  void PointModel::save(BinaryWriter &out) const
  {
    std::vector<double> activation; // q, γ per group and point, cells in the order of the mesh
    for (const auto &cell : dof_handler->active_cell_iterators())
      if (cell->is_locally_owned())
        for (unsigned int q = 0; q < n_q; ++q)
          for (const auto &group : point(cell, q))
            activation.insert(activation.end(), {group.state.q, group.state.gamma});
    out.put(activation);
  }

  void PointModel::load(BinaryReader &in)
  {
    const std::vector<double> activation = in.get_vector();
    std::size_t               k          = 0;
    for (const auto &cell : dof_handler->active_cell_iterators())
      if (cell->is_locally_owned())
        for (unsigned int q = 0; q < n_q; ++q)
          for (auto &group : point_data[cell->active_cell_index() * n_q + q])
            {
              if (k + 2 > activation.size())
                in.fail("its activation states do not fit this mesh");
              group.state = {activation[k], activation[k + 1]};
              k += 2;
            }
    if (k != activation.size())
      in.fail("its activation states do not fit this mesh");
  }
} // namespace hydrostat
