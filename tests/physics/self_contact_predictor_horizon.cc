// How long a step the predictor may extrapolate with self-contact (theory.md eq. (70c)), and how
// much of a Newton update a step may take (eq. (70d)): two blocks of one mesh 1 mm apart, the upper
// one moving at V towards the lower one, or away from it. Closing in, every point of the two faces
// that meet allows the predictor (g + h/10)/V (g = 1 mm, h the cell size, both passes the same),
// and the update δu = v the fraction (g + h/50)/V; moving apart, or at rest, no limit. (Pressed
// points do not limit an update: self_contact_blocks.)
// HYDROSTAT_TEST_RANKS: 1 2
#include <gtest/gtest.h>

#include <hydrostat/physics/self_contact.h>

#include "problem.h"

#include <cmath>
#include <limits>

using namespace hydrostat;

namespace
{
  /// The horizon with the upper block moving at @p speed along z, and the fraction of the update
  /// δu = v (in metres for metres per second) the term admits.
  std::pair<double, double> horizon_and_fraction(const double speed)
  {
    test_support::Problem problem(test_support::box({1, 1, 1}, {1, 1, 1}));
    problem.mesh_maker = [](dealii::Triangulation<3> &tria) {
      test_support::two_blocks(tria, dealii::Point<3>(0.02, 0.01, 0.01), {2, 1, 1}, {2, 1, 1}, 0.001);
    };
    problem.mooney_rivlin(3e3, 1e3, 4e5);
    problem.newmark.set(true, 0.25, 0.5);
    problem.add_standard_terms();
    problem.add_from<SelfContact, RigidContact>(
      "subsection Contact\n subsection Self contact\n set Enabled = true\n set Exclusion distance = 0\n end\nend\n");
    problem.setup("0; 0; z > 0.0105 ? " + std::to_string(speed) + " : 0");
    problem.assembler().update_couplings(problem.state.u(), [&]() { problem.linear_solver.release_factorization(); });
    return {problem.assembler().predictor_horizon(problem.state),
            problem.assembler().update_fraction(problem.state.u_ghosted(), problem.state.v_ghosted())};
  }
} // namespace

TEST(SelfContactPredictorHorizon, ClosingSurfacesLimitTheExtrapolation)
{
  const double h = std::sqrt(3.0) * 0.01, expected = (0.001 + 0.1 * h) / 0.5,
               expected_fraction = (0.001 + 0.02 * h) / 0.5;
  const auto [closing, fraction] = horizon_and_fraction(-0.5);
  std::cout << "closing at 0.5 m/s: " << closing << " s (expected " << expected << "), update fraction " << fraction
            << " (expected " << expected_fraction << ")" << std::endl;
  EXPECT_NEAR(closing, expected, 1e-12 * expected);
  EXPECT_NEAR(fraction, expected_fraction, 1e-12 * expected_fraction);
  for (const double speed : {0.5, 0.0})
    {
      const auto [horizon, no_limit] = horizon_and_fraction(speed);
      EXPECT_EQ(horizon, std::numeric_limits<double>::infinity());
      EXPECT_EQ(no_limit, std::numeric_limits<double>::infinity());
    }
}
