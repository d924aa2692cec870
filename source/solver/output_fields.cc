#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/utilities.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_dgq.h>
#include <deal.II/fe/fe_values.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/solver/cell_kernels.h>
#include <hydrostat/solver/output_fields.h>

#include <algorithm>
#include <cmath>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// The cell fields, in the order they are written; units in README "Output fields".
    enum Quantity : unsigned int
    {
      jacobian,
      cauchy_stress,
      piola_stress,
      principal_stretches,
      von_mises,
      pressure,
      material_id,
      mpi_rank,
      activation,
      fibre_stretch,
      fibre_stress,
      fibre_direction,
      active_fibre,
      n_quantities
    };

    struct Description
    {
      const char  *name;
      unsigned int n_components; // 1 scalar, 3 vector, 9 tensor
      bool         per_group;    // one field per muscle group, named <name>_<group>
      const char  *unit;         // written to the VTU (unyt spelling); "" for labels
    };

    constexpr Description quantities[n_quantities] = {{"J", 1, false, "dimensionless"},
                                                      {"cauchy_stress", 9, false, "Pa"},
                                                      {"piola_stress", 9, false, "Pa"},
                                                      {"principal_stretches", 3, false, "dimensionless"},
                                                      {"von_mises", 1, false, "Pa"},
                                                      {"pressure", 1, false, "Pa"},
                                                      {"material_id", 1, false, ""},
                                                      {"mpi_rank", 1, false, ""},
                                                      {"activation", 1, true, "dimensionless"},
                                                      {"fibre_stretch", 1, true, "dimensionless"},
                                                      {"fibre_stress", 1, true, "Pa"},
                                                      {"fibre_direction", 3, true, "dimensionless"},
                                                      {"active_fibre", 3, true, "dimensionless"}};

    /// Volume averages over one cell (over the part of the cell in a group for the group's).
    struct CellAverages
    {
      struct Group
      {
        double       volume = 0, activation = 0, stretch = 0, stress = 0;
        Tensor<1, 3> direction; // Σ m w, normalised in finish()
      };
      double             volume = 0, J = 0, p = 0;
      Tensor<2, 3>       sigma, P;
      Tensor<1, 3>       stretches;
      std::vector<Group> groups;

      void finish()
      {
        J /= volume;
        p /= volume;
        sigma /= volume;
        P /= volume;
        stretches /= volume;
        for (Group &g : groups)
          if (g.volume > 0)
            {
              g.activation /= g.volume;
              g.stretch /= g.volume;
              g.stress /= g.volume;
              g.direction /= g.direction.norm();
            }
      }
    };

    /// Averages over @p cell (reinitialised in @p fe_values, kinematics at its points).
    void average(const OutputFields::State &s, const OutputFields::CellIterator &cell, const FEValues<3> &fe_values,
                 const CellKinematics &kinematics, ThreeFieldCell &three_field_cell, CellAverages &a)
    {
      const TissueLaw &law         = *s.materials[cell->material_id()].law;
      const bool       three_field = s.formulation.type == Formulation::Type::three_field;
      if (three_field)
        three_field_cell.reinit(fe_values, kinematics.J, law);
      a = CellAverages();
      a.groups.resize(s.muscles.n_groups());
      std::vector<MuscleGroups::PointOutput> muscle_output;
      for (unsigned int q = 0; q < fe_values.n_quadrature_points; ++q)
        {
          const Tensor<2, 3> &F = kinematics.F[q];
          const double        J = kinematics.J[q], w = fe_values.JxW(q);
          // Volumetric stress ("pressure", positive in tension): p̃ of the three-field element
          // (theory.md eq. (12)), U'(J) otherwise.
          const double p      = three_field ? three_field_cell.p_tilde[q] : law.dU_dJ(J);
          Tensor<2, 3> tau    = law.tau_iso(F);
          const auto  &muscle = s.muscle_data(cell, q);
          if (!muscle.empty())
            {
              tau += s.muscles
                       .response(muscle, fe_values.quadrature_point(q), F, kinematics.F_dot[q], 0.0, s.time, 0.0,
                                 &muscle_output)
                       .P *
                     transpose(F);
              for (unsigned int m = 0; m < muscle.size(); ++m)
                {
                  auto              &g  = a.groups[muscle[m].group];
                  const Tensor<1, 3> FN = F * muscle[m].N[0]; // first family: m = F N / λ, theory.md eq. (15)
                  g.volume += w;
                  g.activation += muscle_output[m].activation * w;
                  g.stretch += muscle_output[m].stretch * w;
                  g.stress += muscle_output[m].fibre_stress * w;
                  g.direction += FN / FN.norm() * w;
                }
            }
          // Cauchy σ = τ/J + p I and first Piola–Kirchhoff P = J σ F⁻ᵀ (theory.md §2: τ = P Fᵀ = J σ).
          const Tensor<2, 3> sigma          = Tensor<2, 3>(symmetrize(tau)) / J + p * unit_symmetric_tensor<3>();
          const auto         lambda_squared = eigenvalues(symmetrize(transpose(F) * F)); // descending
          a.volume += w;
          a.J += J * w;
          a.p += p * w;
          a.sigma += sigma * w;
          a.P += J * sigma * transpose(invert(F)) * w;
          for (unsigned int d = 0; d < 3; ++d)
            a.stretches[d] += std::sqrt(lambda_squared[d]) * w;
        }
      a.finish();
    }

    /// The components of @p quantity (of muscle group @p group) of a cell into @p out.
    void components(const unsigned int quantity, const unsigned int group, const CellAverages &a, const double material,
                    const double rank, double *out)
    {
      const auto tensor = [&](const Tensor<2, 3> &T) {
        for (unsigned int i = 0; i < 3; ++i)
          for (unsigned int j = 0; j < 3; ++j)
            out[3 * i + j] = T[i][j]; // row-major, as ParaView reads a 9-component array
      };
      const auto vector = [&](const Tensor<1, 3> &v) {
        for (unsigned int d = 0; d < 3; ++d)
          out[d] = v[d];
      };
      const CellAverages::Group *g = quantities[quantity].per_group ? &a.groups[group] : nullptr;
      switch (quantity)
        {
          case jacobian:
            out[0] = a.J;
            break;
          case cauchy_stress:
            tensor(a.sigma);
            break;
          case piola_stress:
            tensor(a.P);
            break;
          case principal_stretches:
            vector(a.stretches);
            break;
          case von_mises:
            out[0] = std::sqrt(1.5) * deviator(symmetrize(a.sigma)).norm();
            break;
          case pressure:
            out[0] = a.p;
            break;
          case material_id:
            out[0] = material;
            break;
          case mpi_rank:
            out[0] = rank;
            break;
          case activation:
            out[0] = g->activation;
            break;
          case fibre_stretch:
            out[0] = g->stretch;
            break;
          case fibre_stress:
            out[0] = g->stress;
            break;
          case fibre_direction:
            vector(g->direction);
            break;
          case active_fibre:
            vector(g->activation * g->direction);
            break;
          default:
            Assert(false, ExcInternalError());
        }
    }

    std::string join(const std::vector<std::string> &names)
    {
      std::string text;
      for (const std::string &name : names)
        text += (text.empty() ? "" : ", ") + name;
      return text;
    }
  } // namespace

  std::vector<std::string> OutputFields::valid_names()
  {
    std::vector<std::string> names{"all", "displacement", "velocity"};
    for (const Description &d : quantities)
      names.emplace_back(d.name);
    return names;
  }

  void OutputFields::declare_parameters(ParameterHandler &prm)
  {
    std::vector<std::string> fields = valid_names();
    fields.erase(fields.begin()); // "all"
    prm.declare_entry("Fields", "all", Patterns::Anything(),
                      "Fields of the ParaView output, comma-separated: all, or some of " + join(fields) +
                        " (README 'Output fields': meaning and units; the muscle fields are written per group).");
  }

  void OutputFields::parse_parameters(ParameterHandler &prm)
  {
    const std::vector<std::string> names = Utilities::split_string_list(prm.get("Fields"), ',');
    const std::vector<std::string> valid = valid_names();
    require(!names.empty(), "Parameter 'Output/Fields' is empty: name at least one of " + join(valid) +
                              ", or set 'Output/ParaView' = false.");
    for (const std::string &name : names)
      require(std::find(valid.begin(), valid.end(), name) != valid.end(),
              "Parameter 'Output/Fields': unknown field '" + name + "'. Valid names: " + join(valid) + ".");
    const auto named = [&](const std::string &name) {
      return std::find(names.begin(), names.end(), name) != names.end() ||
             std::find(names.begin(), names.end(), "all") != names.end();
    };
    displacement = named("displacement");
    velocity     = named("velocity");
    quantity_selected.assign(n_quantities, false);
    for (unsigned int k = 0; k < n_quantities; ++k)
      quantity_selected[k] = named(quantities[k].name);
  }

  void OutputFields::layout(const State &state)
  {
    Assert(quantity_selected.size() == n_quantities, ExcMessage("OutputFields: parse_parameters() first"));
    cell_fields.clear();
    n_cell_components = 0;
    for (unsigned int k = 0; k < n_quantities; ++k)
      if (quantity_selected[k])
        {
          const Description &d        = quantities[k];
          const unsigned int n_groups = d.per_group ? state.muscles.n_groups() : 1;
          for (unsigned int g = 0; g < n_groups; ++g)
            {
              const std::string name = d.per_group ? std::string(d.name) + "_" + state.muscles.name(g) : d.name;
              cell_fields.push_back({name, k, g, n_cell_components, d.n_components});
              n_cell_components += d.n_components;
            }
        }
    cell_dofs.reset();
    if (n_cell_components == 0)
      return;
    cell_fe   = std::make_unique<FESystem<3>>(FE_DGQ<3>(0), n_cell_components);
    cell_dofs = std::make_unique<DoFHandler<3>>(state.dof_handler.get_triangulation());
    cell_dofs->distribute_dofs(*cell_fe);
  }

  void OutputFields::compute(const State &state)
  {
    const MPI_Comm          comm = state.dof_handler.get_communicator();
    const FiniteElement<3> &fe   = state.dof_handler.get_fe();
    FEValues<3> fe_values(fe, state.quadrature, update_gradients | update_quadrature_points | update_JxW_values);
    dealii::Vector<double>               u_local(fe.n_dofs_per_cell()), v_local(fe.n_dofs_per_cell());
    CellKinematics                       kinematics;
    ThreeFieldCell                       three_field_cell(state.formulation, state.quadrature);
    CellAverages                         averages;
    const double                         rank = Utilities::MPI::this_mpi_process(comm);
    std::vector<types::global_dof_index> dofs(n_cell_components);
    std::vector<double>                  values(n_cell_components);
    Vector                               owned(cell_dofs->locally_owned_dofs(), comm);
    for (const auto &cell : state.dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          cell->get_dof_values(state.u, u_local);
          cell->get_dof_values(state.v, v_local);
          kinematics.reinit(fe_values, u_local, v_local);
          average(state, cell, fe_values, kinematics, three_field_cell, averages);
          for (const CellField &f : cell_fields)
            components(f.quantity, f.group, averages, cell->material_id(), rank, &values[f.first]);
          const CellIterator cell_of_fields(&cell->get_triangulation(), cell->level(), cell->index(), cell_dofs.get());
          cell_of_fields->get_dof_indices(dofs);
          for (unsigned int i = 0; i < n_cell_components; ++i)
            owned[dofs[i]] = values[cell_fe->system_to_component_index(i).first];
        }
    owned.compress(VectorOperation::insert);
    IndexSet relevant;
    DoFTools::extract_locally_relevant_dofs(*cell_dofs, relevant);
    cell_values.reinit(cell_dofs->locally_owned_dofs(), relevant, comm);
    cell_values = owned;
  }

  void OutputFields::add_to(DataOut<3> &data_out, const State &state)
  {
    using namespace DataComponentInterpretation;
    data_out.attach_dof_handler(state.dof_handler);
    const std::vector<DataComponentInterpretation::DataComponentInterpretation> vector(3, component_is_part_of_vector);
    if (displacement)
      data_out.add_data_vector(state.u, std::vector<std::string>(3, "displacement"), DataOut<3>::type_dof_data, vector);
    if (velocity)
      data_out.add_data_vector(state.v, std::vector<std::string>(3, "velocity"), DataOut<3>::type_dof_data, vector);
    layout(state);
    // The units go into the VTU as an attribute of each field (deal.II defaults otherwise).
    DataOutBase::VtkFlags flags;
    flags.physical_units = {{"displacement", "m"}, {"velocity", "m/s"}};
    for (const CellField &f : cell_fields)
      if (*quantities[f.quantity].unit != '\0')
        flags.physical_units[f.name] = quantities[f.quantity].unit;
    data_out.set_flags(flags);
    if (n_cell_components == 0)
      return;
    compute(state);
    std::vector<std::string>                                              names;
    std::vector<DataComponentInterpretation::DataComponentInterpretation> interpretation;
    for (const CellField &f : cell_fields)
      for (unsigned int c = 0; c < f.n_components; ++c)
        {
          names.push_back(f.name);
          interpretation.push_back(f.n_components == 1 ? component_is_scalar :
                                   f.n_components == 3 ? component_is_part_of_vector :
                                                         component_is_part_of_tensor);
        }
    data_out.add_data_vector(*cell_dofs, cell_values, names, interpretation);
  }
} // namespace hydrostat
