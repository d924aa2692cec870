#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/quadrature.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/lac/trilinos_vector.h>
#include <deal.II/numerics/data_out.h>

#include <hydrostat/materials/tissue_materials.h>
#include <hydrostat/muscle/muscle_groups.h>
#include <hydrostat/solver/formulation.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * The fields of the ParaView output (README "Output fields" lists them; their units are also
   * written into the VTU) and the parameter 'Output/Fields' that selects them.
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
    using Vector       = dealii::TrilinosWrappers::MPI::Vector;
    using CellIterator = dealii::DoFHandler<3>::active_cell_iterator;

    /// What the fields are computed from (the accepted state of a Simulation).
    struct State
    {
      const dealii::DoFHandler<3> &dof_handler;
      const dealii::Quadrature<3> &quadrature;
      const Vector                &u, &v; // ghosted displacement [m] and velocity [m/s]
      const TissueMaterials       &materials;
      const MuscleGroups          &muscles;
      const Formulation           &formulation;
      /// The muscle groups at quadrature point q of a locally owned cell.
      std::function<const MuscleGroups::PointData &(const CellIterator &, unsigned int)> muscle_data;
      double                                                                             time;
    };

    /// The names 'Output/Fields' accepts: "all" and every field (per muscle group fields without the group name).
    static std::vector<std::string> valid_names();

    /// The entry 'Fields' of the current subsection ("Output").
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// Reads 'Fields' of the current subsection; an unknown or missing name is an InputError.
    void parse_parameters(dealii::ParameterHandler &prm);

    /// Computes the selected cell fields of @p state and adds them and the selected nodal fields
    /// to @p data_out, which refers to them until the next call.
    void add_to(dealii::DataOut<3> &data_out, const State &state);

  private:
    struct CellField
    {
      std::string  name;         // as written to the VTU
      unsigned int quantity;     // index into the table in output_fields.cc
      unsigned int group;        // muscle group, for the per-group fields
      unsigned int first;        // first component in the DG0 system
      unsigned int n_components; // 1, 3 or 9
    };

    void layout(const State &state);
    void compute(const State &state);

    std::vector<bool>                      quantity_selected;
    bool                                   displacement = true, velocity = true;
    std::vector<CellField>                 cell_fields;
    unsigned int                           n_cell_components = 0;
    std::unique_ptr<dealii::FESystem<3>>   cell_fe;
    std::unique_ptr<dealii::DoFHandler<3>> cell_dofs;
    Vector                                 cell_values; // ghosted
  };
} // namespace hydrostat
