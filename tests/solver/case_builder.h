#pragma once
// Builds a Simulation from parameter text for the solver tests.
#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/function.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/numerics/vector_tools.h>

#include <hydrostat/solver/simulation.h>

#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>

namespace hydrostat::test_support
{
  struct Case
  {
    dealii::ParameterHandler    prm;
    std::unique_ptr<Simulation> simulation;
    std::ostringstream          log;

    explicit Case(const std::string &parameters, MPI_Comm comm = MPI_COMM_WORLD)
    {
      Simulation::declare_parameters(prm);
      prm.parse_input_from_string(parameters);
      simulation = std::make_unique<Simulation>(prm, comm, log);
    }
  };

  /// Sets @p u at the support points of the displacement field to @p f(X), X the reference
  /// position: a chosen (large, non-affine) state for finite-difference checks.
  inline void interpolate_displacement(const Simulation &sim, Simulation::Vector &u,
                                       const std::function<dealii::Tensor<1, 3>(const dealii::Point<3> &)> &f)
  {
    const auto &dof_handler = sim.get_dof_handler();
    std::map<dealii::types::global_dof_index, dealii::Point<3>> support;
    dealii::DoFTools::map_dofs_to_support_points(dealii::MappingQ1<3>(), dof_handler, support);
    std::vector<dealii::types::global_dof_index> dofs(dof_handler.get_fe().n_dofs_per_cell());
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          cell->get_dof_indices(dofs);
          for (unsigned int i = 0; i < dofs.size(); ++i)
            if (u.locally_owned_elements().is_element(dofs[i]))
              u[dofs[i]] = f(support[dofs[i]])[dof_handler.get_fe().system_to_component_index(i).first];
        }
    u.compress(dealii::VectorOperation::insert);
  }
} // namespace hydrostat::test_support
