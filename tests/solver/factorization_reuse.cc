// HYDROSTAT_TEST_RANKS: 2
// The direct solver's factorisation reuse (Linear solver/Factorization reuse iterations): within
// a Newton solve, later tangents are solved by GMRES preconditioned with the factorisation of the
// first. On FEBio's bar (issue 12) at N = 2, quasi-static, 10 steps, converged to a residual of
// 1e-12 relative: the displacements equal those of a factorisation per tangent to 1e-9 of the tip
// deflection (both are converged to far below it), every Newton solve factorises at least once (the
// reuse never crosses a step, which keeps restarts bitwise) and at most half the tangents are
// factorised.
#include <gtest/gtest.h>

#include "case_builder.h"

#include <string>

using namespace hydrostat;

namespace
{
  struct Outcome
  {
    Simulation::Vector        u;
    Simulation::RunStatistics statistics;
  };

  Outcome run_bar(const unsigned int reuse_iterations)
  {
    test_support::Case c(test_support::febio_bar(R"(
subsection Newton
  set Relative residual = 1e-12
end
subsection Linear solver
  set Factorization reuse iterations = )" + std::to_string(reuse_iterations) +
                                                 "\nend\n"));
    c.simulation->setup();
    for (unsigned int step = 0; step < 10; ++step)
      EXPECT_EQ(c.simulation->advance(0.1), 0.1) << c.log.str();
    return {c.simulation->displacement(), c.simulation->run_statistics()};
  }
} // namespace

TEST(LinearSolver, FactorizationReuseKeepsTheNewtonSolution)
{
  const Outcome fresh = run_bar(0), reused = run_bar(10);
  EXPECT_EQ(fresh.statistics.factorizations, fresh.statistics.linear_iterations)
    << "without reuse every solve factorises";
  EXPECT_GE(reused.statistics.factorizations, reused.statistics.steps);
  EXPECT_LE(2 * reused.statistics.factorizations, reused.statistics.newton_iterations);
  Simulation::Vector difference = reused.u;
  difference -= fresh.u;
  const double tip = fresh.u.linfty_norm();
  std::cout << "tip deflection " << tip << " m, max difference " << difference.linfty_norm() << " m; "
            << "factorisations " << reused.statistics.factorizations << " of " << reused.statistics.newton_iterations
            << " Newton iterations (" << fresh.statistics.factorizations << " without reuse)" << std::endl;
  EXPECT_GT(tip, 0.02);
  EXPECT_LE(difference.linfty_norm(), 1e-9 * tip);
}
