// The CSV writer of RunOutput puts each quantity under its own column: the energies of the
// balance, the step and the probe points, checked with values that are all different.
#include <deal.II/base/parameter_handler.h>

#include <hydrostat/driver/run_output.h>

#include <gtest/gtest.h>

#include "problem.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace hydrostat;

TEST(RunOutput, EveryQuantityInItsColumn)
{
  test_support::Problem problem(test_support::box({0.01, 0.01, 0.01}, {1, 1, 1}), MPI_COMM_SELF);
  problem.mooney_rivlin(1e3, 0, 1e6);
  problem.add_standard_terms();
  problem.setup("1; 2; 3");

  const std::string directory = std::filesystem::temp_directory_path() / "hydrostat_run_output_test";
  std::filesystem::remove_all(directory);
  dealii::ParameterHandler prm;
  RunOutput::declare_parameters(prm);
  prm.parse_input_from_string("subsection Output\n  set Directory = " + directory +
                              "\n  set Base name = run\n  set Probe points = 0.01, 0, 0\nend\n");
  RunOutput output;
  output.parse_parameters(prm);
  output.setup(problem.dof_handler());

  EnergyBalance::Quantities q;
  q.kinetic_energy        = 1;
  q.strain_energy         = 2;
  q.external_work         = 3;
  q.dissipated_energy     = 4;
  q.active_work           = 5;
  q.numerical_dissipation = 6;
  q.volume                = 7;
  q.initial_energy        = 0.5;
  output.write_rows(3, 0.25, 8, problem.state, q, problem.assembler());

  std::ifstream file(directory + "/run.csv");
  std::string   header, row;
  std::getline(file, header);
  std::getline(file, row);
  std::stringstream             names(header), values(row);
  std::map<std::string, double> column;
  for (std::string name, value; std::getline(names, name, ',') && std::getline(values, value, ',');)
    column[name] = std::stod(value);
  const std::map<std::string, double> expected{{"step", 3},
                                               {"time", 0},
                                               {"dt", 0.25},
                                               {"newton_iterations", 8},
                                               {"kinetic_energy", 1},
                                               {"strain_energy", 2},
                                               {"external_work", 3},
                                               {"total_energy", 1 + 2 - 3},
                                               {"volume", 7},
                                               {"dissipated_energy", 4},
                                               {"active_work", 5},
                                               {"numerical_dissipation", 6},
                                               {"energy_balance", 1 + 2 + 4 + 6 - 3 - 5 - 0.5},
                                               {"p0_x", 0.01},
                                               {"p0_ux", 0},
                                               {"p0_vx", 1},
                                               {"p0_vy", 2},
                                               {"p0_vz", 3}};
  for (const auto &[name, value] : expected)
    {
      ASSERT_EQ(column.count(name), 1u) << name << " missing in: " << header;
      EXPECT_DOUBLE_EQ(column[name], value) << name;
    }
  std::filesystem::remove_all(directory);
}
