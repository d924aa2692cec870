// A 1D Hill muscle-tendon unit between two interior points of a distorted block (routed with a
// length offset): the assembled tangent K = dR/du against central finite differences of the
// residual, dynamic and quasi-static, at a state where the unit is active (direct activation,
// STIM = 1), its SEE is stretched and the points move relative to each other (so the rate terms
// of the damper and of the rotating direction e enter). FD perturbs u only; the unit's state at
// t_n is fixed, as in a Newton iteration.
#include <gtest/gtest.h>

#include <hydrostat/physics/muscle_tendon_units.h>

#include "problem.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  const char *unit = R"(
subsection Muscle-tendon units
  set Number of units = 1
  subsection Unit 1
    set First point  = 0.004, 0.003, 0.004
    set Second point = 0.015, 0.007, 0.006
    set Stimulation  = 1
    subsection Hill
      set Fmax    = 1
      set dFSEE0  = 2
      set lOffset = 0.05
    end
    subsection Activation
      set Model = direct
    end
  end
end
)";

  /// The distorted block under gravity, clamped at x = 0, with the unit or without it.
  void block(test_support::Problem &problem, const bool dynamic, const bool with_unit)
  {
    problem.mooney_rivlin(3e3, 1e3, 4e5);
    problem.newmark.set(dynamic, 0.25, 0.5);
    problem.add_solid_stress();
    if (dynamic)
      problem.add_inertia(3);
    problem.add_body_force("0; 0; -9.81");
    if (with_unit)
      problem.add_from<MuscleTendonUnits>(unit);
    problem.constraints.add(0, "xyz");
    problem.setup("0.1 * y; -0.2 * z; 0.3 * x");
  }
} // namespace

class MuscleTendonTangent : public ::testing::TestWithParam<bool>
{};

TEST_P(MuscleTendonTangent, MatchesFiniteDifferencesOfResidual)
{
  const bool            dynamic = GetParam();
  const auto            mesh    = test_support::box({0.02, 0.01, 0.01}, {3, 2, 2}, 0.25);
  test_support::Problem problem(mesh), bare(mesh);
  block(problem, dynamic, true);
  block(bare, dynamic, false);
  const std::string mode = dynamic ? "dynamic" : "quasi-static";

  // A smooth non-affine displacement of the block (stretches of some 10 %, shear).
  const auto u        = problem.interpolate([](const dealii::Point<3> &X) {
    const double x = X[0] / 0.02, y = X[1] / 0.01, z = X[2] / 0.01;
    return dealii::Tensor<1, 3>(
      {0.002 * x * x - 0.001 * y * z, 0.0015 * x * y + 0.0005 * std::sin(3 * z), -0.001 * x + 0.001 * y * y * x});
  });
  auto       residual = problem.state.owned_vector(), r_bare = residual;

  const double dt = 0.01;
  ASSERT_TRUE(problem.steps().evaluate(u, dt, residual, nullptr));
  ASSERT_TRUE(bare.steps().evaluate(u, dt, r_bare, &bare.assembler().tangent()));

  // The unit must be loaded: its share of R and K.
  auto r_unit = residual;
  r_unit -= r_bare;
  std::cout << mode << ": |R_unit| = " << r_unit.l2_norm() << " N, |R| = " << residual.l2_norm() << " N" << std::endl;
  EXPECT_GT(r_unit.l2_norm(), 0.1);

  const auto [max_error, max_entry, max_unit_entry] =
    test_support::compare_tangent_with_finite_differences(problem, u, dt, &bare.assembler().tangent());
  std::cout << mode << ": max |K - K_fd| / max |K| = " << max_error / max_entry
            << ", max |K - K_fd| / max |K_unit| = " << max_error / max_unit_entry
            << " (max |K_unit| / max |K| = " << max_unit_entry / max_entry << ")" << std::endl;
  EXPECT_LT(max_error / max_entry, 1e-6);
  EXPECT_LT(max_error / max_unit_entry, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Modes, MuscleTendonTangent, ::testing::Values(true, false));
