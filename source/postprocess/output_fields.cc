#include <deal.II/base/utilities.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_dgq.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/postprocess/output_fields.h>

#include <algorithm>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// The labels of every cell: its material id and the MPI rank that owns it.
    const std::vector<CellField> labels = {{"material_id", "material_id", 1, ""}, {"mpi_rank", "mpi_rank", 1, ""}};

    std::string join(const std::vector<std::string> &names)
    {
      std::string text;
      for (const std::string &name : names)
        text += (text.empty() ? "" : ", ") + name;
      return text;
    }
  } // namespace

  std::vector<std::string> OutputFields::valid_names(const std::vector<std::string> &term_fields)
  {
    std::vector<std::string> names{"all", "displacement", "velocity"};
    names.insert(names.end(), term_fields.begin(), term_fields.end());
    for (const CellField &label : labels)
      names.push_back(label.selector);
    return names;
  }

  void OutputFields::declare_parameters(ParameterHandler &prm, const std::vector<std::string> &term_fields)
  {
    std::vector<std::string> fields = valid_names(term_fields);
    fields.erase(fields.begin()); // "all"
    prm.declare_entry("Fields", "all", Patterns::Anything(),
                      "Fields of the ParaView output, comma-separated: all, or some of " + join(fields) +
                        " (README 'Output fields': meaning and units; the muscle fields are written per group).");
  }

  void OutputFields::parse_parameters(ParameterHandler &prm, const std::vector<std::string> &term_fields)
  {
    names                                = Utilities::split_string_list(prm.get("Fields"), ',');
    const std::vector<std::string> valid = valid_names(term_fields);
    require(!names.empty(), "Parameter 'Output/Fields' is empty: name at least one of " + join(valid) +
                              ", or set 'Output/ParaView' = false.");
    for (const std::string &name : names)
      require(std::find(valid.begin(), valid.end(), name) != valid.end(),
              "Parameter 'Output/Fields': unknown field '" + name + "'. Valid names: " + join(valid) + ".");
  }

  bool OutputFields::is_selected(const std::string &selector) const
  {
    return std::find(names.begin(), names.end(), selector) != names.end() ||
           std::find(names.begin(), names.end(), "all") != names.end();
  }

  void OutputFields::layout(const Assembler &assembler)
  {
    cell_fields.clear();
    term_components.clear();
    n_cell_components = 0;
    const auto select = [&](const std::vector<CellField> &fields, const int term) {
      unsigned int source = 0;
      for (const CellField &f : fields)
        {
          if (is_selected(f.selector))
            {
              cell_fields.push_back({f, term, source, n_cell_components});
              n_cell_components += f.n_components;
            }
          source += f.n_components;
        }
      return source;
    };
    for (unsigned int t = 0; t < assembler.terms().size(); ++t)
      term_components.push_back(select(assembler.terms()[t]->output_fields(), t));
    select(labels, -1);
    cell_dofs.reset();
    if (n_cell_components == 0)
      return;
    cell_fe   = std::make_unique<FESystem<3>>(FE_DGQ<3>(0), n_cell_components);
    cell_dofs = std::make_unique<DoFHandler<3>>(assembler.dof_handler().get_triangulation());
    cell_dofs->distribute_dofs(*cell_fe);
  }

  void OutputFields::compute(const Assembler &assembler, const State &state)
  {
    const MPI_Comm                       comm = assembler.comm();
    const double                         rank = Utilities::MPI::this_mpi_process(comm);
    std::vector<std::vector<double>>     term_values(term_components.size());
    std::vector<types::global_dof_index> dofs(n_cell_components);
    std::vector<double>                  values(n_cell_components);
    Vector                               owned(cell_dofs->locally_owned_dofs(), comm);
    for (unsigned int t = 0; t < term_components.size(); ++t)
      term_values[t].resize(term_components[t]);
    assembler.for_each_cell(state, [&](const CellState &cell) {
      for (unsigned int t = 0; t < term_values.size(); ++t)
        if (!term_values[t].empty())
          assembler.terms()[t]->output_values(cell, term_values[t].data());
      const double       label_values[] = {double(cell.cell->material_id()), rank};
      const CellIterator cell_of_fields(&cell.cell->get_triangulation(), cell.cell->level(), cell.cell->index(),
                                        cell_dofs.get());
      cell_of_fields->get_dof_indices(dofs);
      for (const Selected &f : cell_fields)
        {
          const double *source = f.term < 0 ? label_values : term_values[f.term].data();
          std::copy(source + f.source, source + f.source + f.field.n_components, values.begin() + f.first);
        }
      for (unsigned int i = 0; i < n_cell_components; ++i)
        owned[dofs[i]] = values[cell_fe->system_to_component_index(i).first];
    });
    owned.compress(VectorOperation::insert);
    IndexSet relevant;
    DoFTools::extract_locally_relevant_dofs(*cell_dofs, relevant);
    cell_values.reinit(cell_dofs->locally_owned_dofs(), relevant, comm);
    cell_values = owned;
  }

  void OutputFields::add_to(DataOut<3> &data_out, const Assembler &assembler, const State &state)
  {
    using namespace DataComponentInterpretation;
    data_out.attach_dof_handler(assembler.dof_handler());
    const std::vector<DataComponentInterpretation::DataComponentInterpretation> vector(3, component_is_part_of_vector);
    if (is_selected("displacement"))
      data_out.add_data_vector(state.u_ghosted(), std::vector<std::string>(3, "displacement"),
                               DataOut<3>::type_dof_data, vector);
    if (is_selected("velocity"))
      data_out.add_data_vector(state.v_ghosted(), std::vector<std::string>(3, "velocity"), DataOut<3>::type_dof_data,
                               vector);
    layout(assembler);
    // The units go into the VTU as an attribute of each field (deal.II defaults otherwise).
    DataOutBase::VtkFlags flags;
    flags.physical_units = {{"displacement", "m"}, {"velocity", "m/s"}};
    for (const Selected &f : cell_fields)
      if (!f.field.unit.empty())
        flags.physical_units[f.field.name] = f.field.unit;
    data_out.set_flags(flags);
    if (n_cell_components == 0)
      return;
    compute(assembler, state);
    std::vector<std::string>                                              field_names;
    std::vector<DataComponentInterpretation::DataComponentInterpretation> interpretation;
    for (const Selected &f : cell_fields)
      for (unsigned int c = 0; c < f.field.n_components; ++c)
        {
          field_names.push_back(f.field.name);
          interpretation.push_back(f.field.n_components == 1 ? component_is_scalar :
                                   f.field.n_components == 3 ? component_is_part_of_vector :
                                                               component_is_part_of_tensor);
        }
    data_out.add_data_vector(*cell_dofs, cell_values, field_names, interpretation);
  }
} // namespace hydrostat
