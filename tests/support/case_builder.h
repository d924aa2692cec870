#pragma once
// Builds a Simulation from parameter text, for the tests of whole runs.
#include <deal.II/base/parameter_handler.h>

#include <hydrostat/driver/simulation.h>

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
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
      // A whole run fails at the first cut-back it does not expect (one that expects some sets them).
      prm.parse_input_from_string("subsection Time stepping\n  set Maximum cut-backs = 0\nend\n");
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

} // namespace hydrostat::test_support
