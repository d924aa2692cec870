// The assembled tangent K = dR/du against central finite differences of the assembled residual
// on a distorted mesh with a large displacement field: dynamic (Newmark terms, both Rayleigh
// damping terms) and quasi-static, displacement and three-field formulations (Q1 and Q2), with
// gravity, a dead traction, a follower pressure (whose tangent is unsymmetric) and constraints;
// and with active, passive and rate-dependent fibre stresses of two muscle groups.
#include <gtest/gtest.h>

#include <hydrostat/physics/surface_loads.h>

#include "problem.h"

#include <cmath>
#include <tuple>

using namespace hydrostat;

namespace
{
  // Two muscle groups over the whole block: a Van Leeuwen-Kier group with two families (one
  // oblique) under the prescribed pattern, rate-dependent; and a constant-stress group driven
  // through Hatze dynamics, whose activation depends on the fibre stretch (dfa/dλ ≠ 0).
  const std::string muscles = R"(
subsection Muscles
  set Number of groups = 2
  subsection Group 1
    set Fibre families = cross-section x, helical right
    set Pitch angle = 30
    subsection Activation
      set Rise time = 0.02
    end
  end
  subsection Group 2
    set Fibre direction = constant
    set Constant direction = 1, 1, 0
    set Law = constant
    subsection Muscle law
      set Maximum isometric stress = 3e4
    end
    subsection Activation
      set Source = stimulation
      set Stimulation = 1
      set Model = hatze
    end
  end
end
)";
} // namespace

class GlobalTangent : public ::testing::TestWithParam<std::tuple<Formulation::Type, unsigned int, bool, bool>>
{};

TEST_P(GlobalTangent, MatchesFiniteDifferencesOfResidual)
{
  const auto [formulation, degree, dynamic, with_muscles] = GetParam();
  test_support::Problem problem(test_support::box({0.02, 0.01, 0.01}, {2, 1, 1}, 0.25));
  problem.mooney_rivlin(3e3, 1e3, 4e5);
  problem.formulation.type   = formulation;
  problem.formulation.degree = degree;
  problem.newmark.set(dynamic, 0.25, 0.5);
  if (with_muscles)
    problem.muscle_groups(muscles);
  problem.add_solid_stress(dynamic ? 0.01 : 0.0);
  if (dynamic)
    problem.add_inertia(3);
  problem.add_body_force("0; 0; -9.81");
  problem.add(std::make_unique<FollowerPressure>(1, std::make_unique<SpaceTimeFunction>("2e3 * (1 + y / 0.01)", 1, "p"),
                                                 "Load 1"));
  problem.add(std::make_unique<DeadTraction>(
    3, std::make_unique<SpaceTimeFunction>("100; -300 * x / 0.02; 50", 3, "t0"), "Load 2"));
  problem.constraints.add(0, "xz");
  problem.setup("0.1 * y; -0.2 * z; 0.3 * x");

  // A large, smooth, non-affine displacement (stretches of ~±25 %, shear, twist).
  const auto u  = problem.interpolate([](const dealii::Point<3> &X) {
    const double x = X[0] / 0.02, y = X[1] / 0.01, z = X[2] / 0.01;
    return dealii::Tensor<1, 3>(
      {0.005 * x * x - 0.002 * y * z, 0.003 * x * y + 0.001 * std::sin(3 * z), -0.002 * x + 0.0025 * y * y * x});
  });
  const auto fd = test_support::compare_tangent_with_finite_differences(problem, u, 0.01);
  // Central differences with h = 1e-8 m on entries ~max_entry: truncation O(h²·R''') and
  // round-off O(ε|R|/h) are both below 1e-6 relative here.
  std::cout << (formulation == Formulation::Type::three_field ? "three-field" : "displacement") << " Q" << degree
            << (dynamic ? " dynamic" : " quasi-static") << (with_muscles ? " with muscles" : "")
            << ": max |K - K_fd| / max |K| = " << fd.max_error / fd.max_entry << std::endl;
  EXPECT_LT(fd.max_error / fd.max_entry, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Formulations, GlobalTangent,
                         ::testing::Values(std::make_tuple(Formulation::Type::displacement, 1u, true, false),
                                           std::make_tuple(Formulation::Type::displacement, 1u, false, false),
                                           std::make_tuple(Formulation::Type::three_field, 1u, true, false),
                                           std::make_tuple(Formulation::Type::three_field, 2u, false, false),
                                           std::make_tuple(Formulation::Type::three_field, 1u, true, true),
                                           std::make_tuple(Formulation::Type::displacement, 1u, false, true)));
