// The tangent of self-contact against central differences of the assembled residual (theory.md
// eq. (71)): two separate blocks of one mesh, the upper one moved into the lower one by half a
// millimetre, shifted sideways and bent, so that points of both faces press on curved faces of the
// other and some lie off the edges; Q1 and Q2, dynamic and quasi-static, and with a penetration
// tolerance so large that every pressed point lies where the pressure law is rounded (eq. (70a)),
// on the smooth surfaces through the faces' nodes (eq. (70e); with the large tolerance every
// node's lift is in its rounding, δ = 5 mm against heights of 0.1 mm), and with friction (eq. (70f)):
// μ = 0.3, where the pressed points slide (the sideways motion from u_n = 0 asks for more
// traction than μ λ_N), and μ = 5, where they stick.
// HYDROSTAT_TEST_TIMEOUT: 60
#include <gtest/gtest.h>

#include <hydrostat/physics/self_contact.h>

#include "problem.h"

#include <string>
#include <tuple>

using namespace hydrostat;

class SelfContactTangent : public ::testing::TestWithParam<std::tuple<unsigned int, bool, double, bool, double>>
{};

TEST_P(SelfContactTangent, MatchesFiniteDifferencesOfResidual)
{
  const auto [degree, dynamic, tolerance, smooth, friction] = GetParam();
  const auto make                                           = [&](const bool with_contact) {
    auto problem        = std::make_unique<test_support::Problem>(test_support::box({1, 1, 1}, {1, 1, 1}));
    problem->mesh_maker = [](dealii::Triangulation<3> &tria) {
      test_support::two_blocks(tria, dealii::Point<3>(0.02, 0.01, 0.01), {2, 1, 1}, {2, 1, 1}, 0.001);
    };
    problem->mooney_rivlin(3e3, 1e3, 4e5);
    problem->formulation.degree = degree;
    problem->newmark.set(dynamic, 0.25, 0.5);
    problem->add_standard_terms();
    if (with_contact)
      problem->add_from<SelfContact, RigidContact>(
        "subsection Contact\n set Penalty = 2e6\n set Penetration tolerance = " + std::to_string(tolerance) +
        "\n subsection Self contact\n set Enabled = true\n set Exclusion distance = 0\n set Smooth surface = " +
        (smooth ? "true" : "false") + "\n set Friction coefficient = " + std::to_string(friction) + "\n end\nend\n");
    problem->constraints.add(4, "xyz");
    problem->setup();
    return problem;
  };
  auto without = make(false), with = make(true);
  // On the smooth surfaces the lower block bends five times as much: its top kinks by 8.6°, and
  // the surface through its nodes rises above the faces by up to 0.1 mm.
  const double bend = smooth ? 5 : 1;
  const auto   u    = with->interpolate([&](const dealii::Point<3> &X) {
    const double x = X[0] / 0.02, y = X[1] / 0.01;
    if (X[2] < 0.0105) // the lower block, bent up in the middle
      return dealii::Tensor<1, 3>({0.0002 * x * y, 0.0001 * x, bend * 0.0006 * x * (1 - x) * X[2] / 0.01});
    const double z = (X[2] - 0.011) / 0.01;
    return dealii::Tensor<1, 3>({0.0013 + 0.0003 * y * z, 0.0007 - 0.0002 * x * z, -0.0015 + 0.0004 * x * (1 - z)});
  });
  with->assembler().update_couplings(u, [&]() { with->linear_solver.release_factorization(); });
  test_support::Problem::Vector residual = without->state.owned_vector();
  ASSERT_TRUE(without->steps().evaluate(u, 0.01, residual, &without->assembler().tangent()));
  const auto fd =
    test_support::compare_tangent_with_finite_differences(*with, u, 0.01, &without->assembler().tangent());
  std::cout << "Q" << degree << (dynamic ? " dynamic" : " quasi-static") << ", tolerance " << tolerance
            << (smooth ? ", smooth surface" : "") << (friction > 0 ? ", mu = " + std::to_string(friction) : "")
            << ": max |K - K_fd| / max |K| = " << fd.max_error / fd.max_entry
            << ", contact part of max |K| = " << fd.max_reference / fd.max_entry << std::endl;
  EXPECT_LT(fd.max_error / fd.max_entry, 1e-6);
  EXPECT_GT(fd.max_reference / fd.max_entry, 1e-3); // the contact is really there
}

INSTANTIATE_TEST_SUITE_P(
  Degrees, SelfContactTangent,
  ::testing::Values(std::make_tuple(1u, false, 0.001, false, 0.0), std::make_tuple(1u, true, 0.001, false, 0.0),
                    std::make_tuple(2u, false, 0.001, false, 0.0), std::make_tuple(1u, false, 0.5, false, 0.0),
                    std::make_tuple(1u, false, 0.001, true, 0.0), std::make_tuple(2u, true, 0.001, true, 0.0),
                    std::make_tuple(1u, false, 0.5, true, 0.0), std::make_tuple(1u, false, 0.001, false, 0.3),
                    std::make_tuple(1u, false, 0.001, false, 5.0), std::make_tuple(2u, true, 0.001, true, 0.3)));
