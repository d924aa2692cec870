#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/lac/trilinos_vector.h>
#include <deal.II/numerics/data_out.h>

#include <hydrostat/assembly/assembler.h>
#include <hydrostat/fem/state.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * The fields of the ParaView output (README "Output fields" lists them; their units are also
   * written into the VTU) and the parameter 'Output/Fields' that selects them: displacement and
   * velocity, the cell fields every term names (Term::output_fields(): the stresses, stretches and
   * muscle quantities of SolidStress), and the material id and MPI rank of each cell.
   *
   * Displacement and velocity are the continuous nodal fields. Everything else is a volume
   * average over a cell, stored in a piecewise-constant (FE_DGQ(0)) system: deal.II 9.4 writes
   * its `type_cell_data` vectors as scalars only, and a DoF vector of a discontinuous element
   * carries the vector/tensor interpretation into the VTU (NumberOfComponents = 3 or 9). Because
   * DataOut gives every cell its own patch vertices, these values jump at cell faces instead of
   * being averaged across a material interface or a muscle group's boundary.
   */
  class OutputFields
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;

    /// The names 'Output/Fields' accepts: "all", displacement, velocity, @p term_fields (the
    /// selectors of every term type) and the labels material_id, mpi_rank.
    static std::vector<std::string> valid_names(const std::vector<std::string> &term_fields);

    /// The entry 'Fields' of the current subsection ("Output").
    static void declare_parameters(dealii::ParameterHandler &prm, const std::vector<std::string> &term_fields);
    /// Reads 'Fields' of the current subsection; an unknown or missing name is an InputError.
    void parse_parameters(dealii::ParameterHandler &prm, const std::vector<std::string> &term_fields);

    /// Computes the selected cell fields of the accepted @p state of @p assembler's terms and
    /// adds them and the selected nodal fields to @p data_out, which refers to them until the
    /// next call.
    void add_to(dealii::DataOut<3> &data_out, const Assembler &assembler, const State &state);

  private:
    /// A selected cell field: its values are components [source, source + n_components) of the
    /// values of term @p term (or of the labels, term = -1).
    struct Selected
    {
      CellField    field;
      int          term;
      unsigned int source;
      unsigned int first; // first component in the DG0 system
    };

    bool is_selected(const std::string &selector) const;
    void layout(const Assembler &assembler);
    void compute(const Assembler &assembler, const State &state);

    std::vector<std::string>               names;
    std::vector<Selected>                  cell_fields;
    std::vector<unsigned int>              term_components; // values per cell of each term
    unsigned int                           n_cell_components = 0;
    std::unique_ptr<dealii::FESystem<3>>   cell_fe;
    std::unique_ptr<dealii::DoFHandler<3>> cell_dofs;
    Vector                                 cell_values; // ghosted
  };
} // namespace hydrostat
