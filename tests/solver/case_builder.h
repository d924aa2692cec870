#pragma once
// Builds a Simulation from parameter text for the solver tests.
#include <deal.II/base/function.h>
#include <deal.II/base/parameter_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/numerics/vector_tools.h>

#include <hydrostat/solver/simulation.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

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

  /// A case file of parameters/ (@p name relative to it) with some entries replaced (`set Name =
  /// value` lines).
  inline std::string case_file(const std::string &name, const std::vector<std::pair<std::string, std::string>> &changes)
  {
    std::ifstream file(std::string(HYDROSTAT_SOURCE_DIR) + "/parameters/" + name);
    EXPECT_TRUE(file) << name;
    std::stringstream text;
    text << file.rdbuf();
    std::string parameters = text.str();
    for (const auto &[entry, value] : changes)
      {
        const std::regex line("set " + entry + " *=[^\n]*");
        EXPECT_TRUE(std::regex_search(parameters, line)) << entry;
        parameters = std::regex_replace(parameters, line, "set " + entry + " = " + value);
      }
    return parameters;
  }

  /// FEBio's bar of issue 12 (benchmarks/peers/febio_bar.prm) at N = 2: 2 × 2 × 20 cells of
  /// 0.01 × 0.01 × 0.1 m clamped at z = 0, Mooney–Rivlin c1 = 1 kPa, K = 1 MPa, the reduced gravity
  /// 0.0981 t, quasi-static in steps of 0.1 to t = 1, direct solver, no ParaView; @p extra (more
  /// subsections, or entries that override these) appended.
  inline std::string febio_bar(const std::string &extra = "")
  {
    return R"(
subsection Mesh
  set Type             = box
  set Min corner       = -0.005, -0.005, 0
  set Max corner       = 0.005, 0.005, 0.1
  set Box subdivisions = 2, 2, 20
end
subsection Materials
  subsection Material 0
    set c1           = 1e3
    set c2           = 0
    set Bulk modulus = 1e6
    set Density      = 1050
  end
end
subsection Boundary conditions
  subsection Constraint 1
    set Boundary id = 4
  end
  set Body acceleration = 0; -0.0981 * t; 0
end
subsection Time integration
  set Mode = quasi-static
end
subsection Time stepping
  set End time  = 1
  set Time step = 0.1
end
subsection Linear solver
  set Solver type = direct
end
subsection Output
  set ParaView = false
end
)" + extra;
  }

  /// Sets @p u at the support points of the displacement field to @p f(X), X the reference
  /// position: a chosen (large, non-affine) state for finite-difference checks.
  inline void interpolate_displacement(const Simulation &sim, Simulation::Vector &u,
                                       const std::function<dealii::Tensor<1, 3>(const dealii::Point<3> &)> &f)
  {
    const auto                                                 &dof_handler = sim.get_dof_handler();
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

  struct FiniteDifferenceComparison
  {
    double max_error     = 0; // max |K − K_fd|
    double max_entry     = 0; // max |K_fd|
    double max_reference = 0; // max |K − K_reference|, if a reference tangent was given
  };

  /// Assembles the tangent K of @p sim at @p u and compares it with central differences
  /// (h = 1e-8 m) of the assembled residual. Constrained DoFs have an identically zero residual
  /// row; their rows and columns are not part of the Newton system and are skipped. With
  /// @p reference (the tangent of the same case without one contribution), also measures the
  /// size of that contribution.
  inline FiniteDifferenceComparison compare_tangent_with_finite_differences(
    Simulation &sim, const Simulation::Vector &u, const double dt, const Simulation::Matrix *reference = nullptr)
  {
    Simulation::Vector residual, r_plus, r_minus;
    for (auto *v : {&residual, &r_plus, &r_minus})
      sim.reinit_vector(*v);
    if (!sim.evaluate(u, dt, residual, &sim.system_matrix()))
      throw std::runtime_error("an element is inverted in the finite-difference state");
    const auto       &K = sim.system_matrix();
    std::vector<bool> free(sim.n_dofs());
    for (unsigned int i = 0; i < sim.n_dofs(); ++i)
      free[i] = residual[i] != 0.0;
    const double               h = 1e-8;
    FiniteDifferenceComparison result;
    for (unsigned int j = 0; j < sim.n_dofs(); ++j)
      if (free[j])
        {
          Simulation::Vector up = u, um = u;
          up[j] += h;
          um[j] -= h;
          if (!sim.evaluate(up, dt, r_plus, nullptr) || !sim.evaluate(um, dt, r_minus, nullptr))
            throw std::runtime_error("an element inverts within the finite-difference step");
          for (unsigned int i = 0; i < sim.n_dofs(); ++i)
            if (free[i])
              {
                const double fd  = (r_plus[i] - r_minus[i]) / (2 * h);
                result.max_error = std::max(result.max_error, std::abs(K.el(i, j) - fd));
                result.max_entry = std::max(result.max_entry, std::abs(fd));
                if (reference)
                  result.max_reference = std::max(result.max_reference, std::abs(K.el(i, j) - reference->el(i, j)));
              }
        }
    return result;
  }
} // namespace hydrostat::test_support
