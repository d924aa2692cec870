// An activation profile along the arm chosen by the inverse run (Control nodes, theory.md
// eq. (76)): the upper half (y > 0) of the clamped cylinder with its activation the hat-function
// profile of three nodes at z = 0, 20, 40 mm, driven forward by the same profile written as an
// expression of z and t (three known smooth node activations); the inverse run must find the three
// node activations from the axial and dorsal displacements of the middle and the tip (4 marker
// components), and its replay (the nodes read from the table as <name>_1 … <name>_3) must repeat it.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 60
#include <gtest/gtest.h>

#include "case_builder.h"
#include "clamped_cylinder.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  // The node activations, functions of s = t / 0.1 s, and the profile between them.
  const std::vector<std::string> node_expressions{"0.3 * t / 0.1", "0.2 * (t / 0.1)^2", "0.25 * sin(pi / 2 * t / 0.1)"};
  double                         node_activation(const unsigned int k, const double s)
  {
    return k == 0 ? 0.3 * s : k == 1 ? 0.2 * s * s : 0.25 * std::sin(M_PI / 2 * s);
  }

  std::string profile()
  {
    const auto &a = node_expressions;
    return "(z < 0.02 ? ((" + a[0] + ") * (0.02 - z) + (" + a[1] + ") * z) : ((" + a[1] + ") * (0.04 - z) + (" + a[2] +
           ") * (z - 0.02))) / 0.02";
  }

  std::string parameters(const bool inverse, const std::string &directory, const std::string &target_file = "")
  {
    const std::string source = inverse ? "      set Source = controlled\n      set Control nodes = 0, 0.02, 0.04\n" :
                                         test_support::activation_source(profile());
    std::string       text   = test_support::clamped_cylinder("quasi-static", directory, {{"upper", source}});
    const std::string probes = "  set Probe points = 0, 0, 0.04\n";
    text.replace(text.find(probes), probes.size(), "  set Probe points = 0, 0, 0.02; 0, 0, 0.04\n");
    if (inverse)
      text += "subsection Inverse\n  set Enabled = true\n  set Markers = 0, 0, 0.02; 0, 0, 0.04\n"
              "  set Components = yz\n  set Target file = " +
              target_file + "\n  set Tolerance = 1e-9\n  set Maximum updates = 8\nend\n";
    return text;
  }

} // namespace

TEST(InverseControlNodes, RecoversTheProfileOfThreeNodesAndReplaysIt)
{
  {
    test_support::Case forward(parameters(false, "control_nodes_forward"));
    ASSERT_EQ(forward.simulation->run(), Simulation::Outcome::finished) << forward.log.str();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    test_support::Case inverse(parameters(true, "control_nodes_inverse", "control_nodes_forward/solution.csv"));
    ASSERT_EQ(inverse.simulation->run(), Simulation::Outcome::finished) << inverse.log.str();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  {
    test_support::Case replay(test_support::text_of("control_nodes_inverse/solution_replay.prm"));
    ASSERT_EQ(replay.simulation->run(), Simulation::Outcome::finished) << replay.log.str();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const auto forward  = test_support::read_csv("control_nodes_forward/solution.csv"),
             found    = test_support::read_csv("control_nodes_inverse/solution_inverse.csv"),
             tracked  = test_support::read_csv("control_nodes_inverse/solution.csv"),
             replayed = test_support::read_csv("control_nodes_inverse/replay/solution.csv");
  ASSERT_EQ(found.at("time").size(), 11u);
  double activation_error = 0, marker_error = 0, replay_error = 0, travel = 0;
  for (unsigned int i = 1; i < 11; ++i)
    {
      for (unsigned int k = 0; k < 3; ++k)
        activation_error = std::max(activation_error, std::abs(found.at("upper_" + std::to_string(k + 1))[i] -
                                                               node_activation(k, found.at("time")[i] / 0.1)));
      for (const std::string c : {"p0_uy", "p0_uz", "p1_uy", "p1_uz"})
        {
          marker_error = std::max(marker_error, std::abs(tracked.at(c)[i] - forward.at(c)[i]));
          replay_error = std::max(replay_error, std::abs(replayed.at(c)[i] - tracked.at(c)[i]));
          travel       = std::max(travel, std::abs(forward.at(c)[i]));
        }
    }
  std::cout << "largest marker travel " << travel << " m; node activations within " << activation_error
            << ", markers within " << marker_error << " m, replay within " << replay_error << " m" << std::endl;
  EXPECT_GT(travel, 1e-3);
  EXPECT_LT(activation_error, 1e-6);
  EXPECT_LT(marker_error, 1e-6 * travel);
  EXPECT_LT(replay_error, 1e-6 * travel);
}
