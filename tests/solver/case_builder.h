#pragma once
// Builds a Simulation from parameter text for the solver tests.
#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/function.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/numerics/vector_tools.h>

#include <hydrostat/solver/simulation.h>

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
} // namespace hydrostat::test_support
