// Newton–Raphson on the exact tangent converges quadratically on a large-deformation step: the
// last of four quasi-static steps that stretch a block by 60 % and shear it, in both
// formulations (the residual sequences are printed); Newton/Check tangent finds the assembled
// three-field tangent exact along every update and leaves the iteration as it was.
#include <gtest/gtest.h>

#include "case_builder.h"
#include "problem.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

using namespace hydrostat;

namespace
{
  /// The block of both tests: quasi-static, clamped at one end, the other end moved (60 % stretch
  /// and a shear at t = 1); the caller sets Newton's controls and calls setup().
  void stretch_and_shear(test_support::Problem &problem, const Formulation::Type formulation)
  {
    problem.mooney_rivlin(3e3, 1e3, 8e5);
    problem.formulation.type = formulation;
    problem.newmark.set(false, 0.25, 0.5);
    problem.newton.max_iterations = 25;
    problem.add_standard_terms();
    problem.constraints.add(0, "xyz");
    problem.constraints.add(1, "xyz", "0.012 * t; 0.004 * t; -0.002 * t");
  }
} // namespace

TEST(Newton, ConvergesQuadraticallyOnLargeDeformation)
{
  for (const auto formulation : {Formulation::Type::displacement, Formulation::Type::three_field})
    {
      const std::string     name = formulation == Formulation::Type::three_field ? "three-field" : "displacement";
      test_support::Problem problem(test_support::box({0.02, 0.01, 0.01}, {4, 2, 2}));
      stretch_and_shear(problem, formulation);
      problem.newton.residual_relative           = 1e-13;
      problem.newton.residual_absolute           = 1e-14;
      problem.newton.automatic_absolute_residual = false;
      problem.setup();
      for (unsigned int step = 0; step < 4; ++step)
        ASSERT_EQ(problem.steps().advance(0.25), 0.25) << "no cut-back expected:\n" << problem.log.str();
      const auto &r = problem.steps().newton().residuals();
      std::cout << name << " residuals:";
      for (const double x : r)
        std::cout << ' ' << x;
      std::cout << std::endl;
      // Quadratic convergence: r_{k+1} ≤ C r_k² with a modest dimensionless C = r_{k+1} r_max / r_k²
      // over the last two pairs above the round-off floor (1e-12 r_max). A linearly converging
      // iteration r_{k+1} = ρ r_k has C = ρ r_max / r_k, which grows without bound as r_k → 0
      // (ρ = 0.1 at r_k = 1e-6 r_max gives C = 1e5).
      const double        r_max = *std::max_element(r.begin(), r.end());
      std::vector<double> significant;
      for (const double x : r)
        if (x > 1e-12 * r_max)
          significant.push_back(x);
      const unsigned int n = significant.size();
      ASSERT_GE(n, 3u);
      for (unsigned int k = n - 3; k < n - 1; ++k)
        {
          const double C = significant[k + 1] * r_max / (significant[k] * significant[k]);
          std::cout << name << " r_k/r_max = " << significant[k] / r_max << " -> C = " << C << std::endl;
          EXPECT_LT(C, 1e4);
        }
      const double order =
        std::log(significant[n - 1] / significant[n - 2]) / std::log(significant[n - 2] / significant[n - 3]);
      std::cout << name << " observed order (last three residuals) " << order << std::endl;
      EXPECT_LE(r.size(), 10u);
    }
}

// The line search judges the displacement residual, not the three-field cell residuals that the
// bulk modulus weighs (theory.md eq. (53)): the first load step of FEBio's bar (issue 12, N = 2,
// K/μ = 500) bends it from rest, a rotation of ≈ 0.3 rad at the tip, and Newton takes it in 4
// iterations with the full step, as without line search. Judged by the whole residual, the full
// step was cut to α = 1/8 and the step needed 10 iterations.
TEST(Newton, LineSearchTakesTheFullStepOfABendingBar)
{
  test_support::Case c(test_support::febio_bar());
  c.simulation->setup();
  ASSERT_EQ(c.simulation->advance(0.1), 0.1) << "no cut-back expected:\n" << c.log.str();
  EXPECT_LE(c.simulation->run_statistics().newton_iterations, 5u) << c.log.str();
}

// Newton/Check tangent on the assembled system (theory.md eq. (52b)): the three-field block of the
// test above, its four steps again with the check. Along every update whose residual is well above
// round-off the derivative of R is −R to 1e-5 (the tangent is exact, the cell fields moved along),
// and the residuals are those of the run without the check.
TEST(Newton, TangentCheckFindsTheAssembledTangentExact)
{
  std::vector<double> unchecked;
  for (const bool check : {false, true})
    {
      test_support::Problem problem(test_support::box({0.02, 0.01, 0.01}, {4, 2, 2}));
      stretch_and_shear(problem, Formulation::Type::three_field);
      problem.newton.check_tangent = check;
      problem.setup();
      std::vector<double> residuals, mismatches;
      for (unsigned int step = 0; step < 4; ++step)
        {
          ASSERT_EQ(problem.steps().advance(0.25), 0.25) << "no cut-back expected:\n" << problem.log.str();
          const NewtonSolver &newton = problem.steps().newton();
          residuals.insert(residuals.end(), newton.residuals().begin(), newton.residuals().end());
          if (!check)
            continue;
          ASSERT_EQ(newton.tangent_mismatches().size(), newton.iterations());
          const double r_max = *std::max_element(newton.residuals().begin(), newton.residuals().end());
          for (unsigned int k = 0; k < newton.iterations(); ++k)
            if (newton.residuals()[k] > 1e-6 * r_max)
              mismatches.push_back(newton.tangent_mismatches()[k]);
        }
      if (!check)
        {
          unchecked = residuals;
          continue;
        }
      ASSERT_EQ(residuals.size(), unchecked.size());
      for (unsigned int k = 0; k < residuals.size(); ++k)
        EXPECT_NEAR(residuals[k], unchecked[k], 1e-10 * unchecked[0] + 1e-12 * std::abs(unchecked[k]));
      ASSERT_GE(mismatches.size(), 4u);
      const double largest = *std::max_element(mismatches.begin(), mismatches.end());
      std::cout << "tangent check: " << mismatches.size() << " updates, largest mismatch " << largest << std::endl;
      EXPECT_LT(largest, 1e-5);
    }
}
