// The tangent of rigid contact against central differences of the assembled residual (theory.md
// eq. (67)): a block whose large, non-affine displacement presses its top face into a plane, a
// sphere, a cylinder and a capsule (both the straight part and an end cap), so that the curvature
// of the obstacle is part of the tangent; Q1 and Q2, dynamic and quasi-static; frictionless, with
// friction that slides (μ = 0.3: the points have moved from their anchors at X) and that sticks
// (μ = 50).
// HYDROSTAT_TEST_TIMEOUT: 90
#include <gtest/gtest.h>

#include <hydrostat/physics/rigid_contact.h>

#include "problem.h"

#include <tuple>

using namespace hydrostat;

namespace
{
  /// The Contact subsection of one obstacle, penalty-only (the multipliers are those of t = 0).
  std::string obstacle(const std::string &shape, const double friction)
  {
    const std::string placement =
      shape == "plane"    ? "set Position = 0; 0; 0.0095\n set Axis = 0.1; 0; -1" :
      shape == "sphere"   ? "set Position = 0.012; 0.005; 0.0155\n set Radius = 0.007" :
      shape == "cylinder" ? "set Position = 0.01; 0.005; 0.0155\n set Axis = 0.2; 1; 0\n set Radius = 0.007" :
                            "set Position = 0.008; 0.004; 0.0155\n set Axis = 1; 0.1; 0\n set Radius = 0.007\n set "
                            "Length = 0.006";
    return "subsection Contact\n set Penalty = 2e6\n subsection Obstacle 1\n set Type = " + shape + "\n " + placement +
           "\n set Friction coefficient = " + std::to_string(friction) + "\n end\nend\n";
  }

  /// A large displacement that moves the top face up and bends it.
  test_support::Problem::Vector displacement(const test_support::Problem &problem)
  {
    return problem.interpolate([](const dealii::Point<3> &X) {
      const double x = X[0] / 0.02, y = X[1] / 0.01, z = X[2] / 0.01;
      return dealii::Tensor<1, 3>(
        {0.002 * x * z - 0.001 * y * z, 0.001 * x * y * z, 0.002 * z * (1 + x * (1 - x)) + 0.0005 * y * z});
    });
  }
} // namespace

class ContactTangent : public ::testing::TestWithParam<std::tuple<std::string, unsigned int, bool, double>>
{};

TEST_P(ContactTangent, MatchesFiniteDifferencesOfResidual)
{
  const auto [shape, degree, dynamic, friction] = GetParam();
  const auto make                               = [&](const bool with_contact) {
    auto problem = std::make_unique<test_support::Problem>(test_support::box({0.02, 0.01, 0.01}, {2, 1, 1}));
    problem->mooney_rivlin(3e3, 1e3, 4e5);
    problem->formulation.degree = degree;
    problem->newmark.set(dynamic, 0.25, 0.5);
    problem->add_standard_terms();
    if (with_contact)
      problem->add_from<RigidContact>(obstacle(shape, friction));
    problem->constraints.add(4, "xyz");
    problem->setup();
    return problem;
  };
  auto                          without = make(false), with = make(true);
  const auto                    u        = displacement(*with);
  test_support::Problem::Vector residual = without->state.owned_vector();
  ASSERT_TRUE(without->steps().evaluate(u, 0.01, residual, &without->assembler().tangent()));
  const auto fd =
    test_support::compare_tangent_with_finite_differences(*with, u, 0.01, &without->assembler().tangent());
  std::cout << shape << " Q" << degree << (dynamic ? " dynamic" : " quasi-static") << " mu = " << friction
            << ": max |K - K_fd| / max |K| = " << fd.max_error / fd.max_entry
            << ", contact part of max |K| = " << fd.max_reference / fd.max_entry << std::endl;
  EXPECT_LT(fd.max_error / fd.max_entry, 1e-6);
  EXPECT_GT(fd.max_reference / fd.max_entry, 1e-3); // the contact is really there
}

INSTANTIATE_TEST_SUITE_P(
  Obstacles, ContactTangent,
  ::testing::Values(std::make_tuple("plane", 1u, false, 0.0), std::make_tuple("sphere", 1u, false, 0.0),
                    std::make_tuple("cylinder", 1u, true, 0.0), std::make_tuple("capsule", 1u, false, 0.0),
                    std::make_tuple("sphere", 2u, true, 0.0), std::make_tuple("capsule", 2u, false, 0.0),
                    std::make_tuple("plane", 1u, false, 0.3), std::make_tuple("sphere", 1u, true, 0.3),
                    std::make_tuple("capsule", 1u, false, 0.3), std::make_tuple("sphere", 1u, false, 50.0)));
