// The weights of the inverse run (theory.md eq. (75), issue 28): (a) as the activation weight
// grows, the tracking error grows and |a| falls, monotonically; (b) with fewer independent marker
// components than exciters (two symmetric halves, only the tip's axial displacement targeted) the
// run says so, gives the minimum-norm activations (equal by symmetry) with a weight, and stops
// with the parameter named without one; (c) a run whose activations do not settle says so. Two
// quasi-static steps of the cylinder of clamped_cylinder.h.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 45
#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>

#include <gtest/gtest.h>

#include "case_builder.h"
#include "clamped_cylinder.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  /// The case with the groups @p names controlled, the tip's @p components targeted at @p targets,
  /// activation weight @p weight [m²], to t = 0.02 s.
  std::string parameters(const std::vector<std::string> &names, const std::string &components,
                         const std::string &targets, const double weight, const std::string &directory)
  {
    std::vector<std::pair<std::string, std::string>> sources;
    for (const std::string &name : names)
      sources.push_back({name, test_support::activation_source("")});
    return test_support::clamped_cylinder("quasi-static", directory, sources,
                                          "subsection Inverse\n  set Enabled = true\n  set Markers = 0, 0, 0.04\n"
                                          "  set Components = " +
                                            components + "\n  set Target displacements = " + targets +
                                            "\n  set Activation weight = " + shortest_text(weight) +
                                            "\n  set Tolerance = 1e-9\nend\nsubsection Time stepping\n"
                                            "  set End time = 0.02\nend\n");
  }
} // namespace

TEST(InverseRegularisation, ErrorGrowsAndActivationFallsWithTheWeight)
{
  // A tip displacement that the three groups reach with activations of 0.1–0.4.
  const std::string targets    = "0.1 * t; 0.05 * t; -0.1 * t";
  double            last_error = -1, last_norm = 2;
  for (const double weight : {0.0, 1e-6, 1e-5, 1e-4, 1e-3})
    {
      test_support::Case c(parameters({"right", "left", "upper"}, "xyz", targets, weight, "inverse_regularisation"));
      ASSERT_EQ(c.simulation->run(), Simulation::Outcome::finished) << c.log.str();
      MPI_Barrier(MPI_COMM_WORLD);
      const auto   found = test_support::read_csv("inverse_regularisation/solution_inverse.csv");
      const double error = found.at("error_0").back();
      const double norm  = std::hypot(found.at("right").back(), found.at("left").back(), found.at("upper").back());
      std::cout << "Activation weight " << weight << " m^2: marker error " << error << " m, |a| = " << norm
                << std::endl;
      if (weight == 0)
        EXPECT_LT(error, 1e-10);
      else
        {
          EXPECT_GT(error, last_error);
          EXPECT_LT(norm, last_norm);
        }
      last_error = error;
      last_norm  = norm;
      MPI_Barrier(MPI_COMM_WORLD);
    }
  EXPECT_GT(last_error, 1e-4); // the largest weight gives up most of the tracking
}

TEST(InverseRegularisation, RedundantExcitersAreReportedAndGetTheMinimumNorm)
{
  const std::string targets = "0; 0; -0.1 * t";
  {
    test_support::Case c(parameters({"right", "left"}, "z", targets, 1e-8, "inverse_redundant"));
    ASSERT_EQ(c.simulation->run(), Simulation::Outcome::finished) << c.log.str();
    if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0) // the log of rank 0
      {
        EXPECT_NE(c.log.str().find("the 1 marker components determine only 1 of the 2 activations"), std::string::npos)
          << c.log.str();
      }
    MPI_Barrier(MPI_COMM_WORLD);
    const auto found = test_support::read_csv("inverse_redundant/solution_inverse.csv");
    std::cout << "right " << found.at("right").back() << ", left " << found.at("left").back() << ", marker error "
              << found.at("error_0").back() << " m" << std::endl;
    EXPECT_GT(found.at("right").back(), 0.05);
    EXPECT_NEAR(found.at("right").back(), found.at("left").back(), 1e-6);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  test_support::Case c(parameters({"right", "left"}, "z", targets, 0, "inverse_redundant"));
  try
    {
      c.simulation->run();
      FAIL() << "a redundant inverse run without a weight ran";
    }
  catch (const InputError &error)
    {
      EXPECT_NE(std::string(error.what()).find("Parameter 'Inverse/Activation weight' = 0"), std::string::npos)
        << error.what();
    }
}

TEST(InverseRegularisation, ActivationsThatDoNotSettleAreNamed)
{
  // One update allowed and a tolerance no update meets: the step fails for the controller, not for
  // Newton, and the message says so.
  test_support::Case c(
    parameters({"right", "left", "upper"}, "xyz", "0.1 * t; 0.05 * t; -0.1 * t", 0, "inverse_not_settled") +
    "subsection Inverse\n  set Maximum updates = 1\n  set Tolerance = 1e-15\nend\n");
  try
    {
      c.simulation->run();
      FAIL() << "an inverse run whose activations cannot settle ran";
    }
  catch (const std::exception &error)
    {
      // (deal.II wraps the message's lines)
      const std::string what = error.what();
      EXPECT_NE(what.find("The inverse run's activations did not settle (parameter"), std::string::npos) << what;
      EXPECT_NE(what.find("'Inverse/Maximum updates') at t = 1.000e-02 s"), std::string::npos) << what;
      EXPECT_EQ(what.find("Newton did not converge"), std::string::npos) << what;
    }
}
