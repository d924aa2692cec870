// HYDROSTAT_TEST_RANKS: 2
// The direct solver's factorisation reuse (Linear solver/Factorization reuse iterations): within
// a Newton solve, later tangents are solved by GMRES preconditioned with the factorisation of the
// first. On FEBio's bar (issue 12) at N = 2, quasi-static, 10 steps, converged to a residual of
// 1e-12 relative: the displacements equal those of a factorisation per tangent to 1e-9 of the tip
// deflection (both are converged to far below it), every Newton solve factorises at least once (the
// reuse never crosses a step, which keeps restarts bitwise) and at most half the tangents are
// factorised. The same for the preconditioner of GMRES (Linear solver/Preconditioner reuse), kept
// from the first tangent of each Newton solve, and across steps.
#include <gtest/gtest.h>

#include "case_builder.h"

#include <string>

using namespace hydrostat;

namespace
{
  struct Outcome
  {
    Simulation::Vector     u;
    StepSolver::Statistics statistics;
  };

  /// The bar with @p linear_solver (lines of the Linear solver subsection).
  Outcome run_bar(const std::string &linear_solver)
  {
    test_support::Case c(test_support::febio_bar(R"(
subsection Newton
  set Relative residual = 1e-12
end
subsection Linear solver
)" + linear_solver + "\nend\n"));
    c.simulation->setup();
    for (unsigned int step = 0; step < 10; ++step)
      EXPECT_EQ(c.simulation->advance(0.1), 0.1) << c.log.str();
    return {c.simulation->displacement(), c.simulation->run_statistics()};
  }
  /// Both runs converge to far below 1e-9 of the tip deflection, so their displacements agree
  /// to that.
  void expect_same_solution(const Outcome &fresh, const Outcome &reused)
  {
    Simulation::Vector difference = reused.u;
    difference -= fresh.u;
    const double tip = fresh.u.linfty_norm();
    std::cout << "tip deflection " << tip << " m, max difference " << difference.linfty_norm() << " m; "
              << "builds " << reused.statistics.factorizations << " of " << reused.statistics.newton_iterations
              << " Newton iterations (" << fresh.statistics.factorizations << " without reuse)" << std::endl;
    EXPECT_GT(tip, 0.02);
    EXPECT_LE(difference.linfty_norm(), 1e-9 * tip);
  }

  /// The same solution; the reused run builds at least once per step and for at most half its
  /// tangents.
  void expect_same_solution_with_fewer_builds(const Outcome &fresh, const Outcome &reused)
  {
    EXPECT_GE(reused.statistics.factorizations, reused.statistics.steps);
    EXPECT_LE(2 * reused.statistics.factorizations, reused.statistics.newton_iterations);
    expect_same_solution(fresh, reused);
  }
} // namespace

TEST(LinearSolver, FactorizationReuseKeepsTheNewtonSolution)
{
  const Outcome fresh  = run_bar("set Factorization reuse iterations = 0"),
                reused = run_bar("set Factorization reuse iterations = 10");
  EXPECT_EQ(fresh.statistics.factorizations, fresh.statistics.linear_iterations)
    << "without reuse every solve factorises";
  expect_same_solution_with_fewer_builds(fresh, reused);
}

// The same for CG/GMRES's preconditioner (Linear solver/Preconditioner reuse): GMRES with the block
// preconditioner builds it (AMG on K_uu) for the first tangent of each Newton solve only.
TEST(LinearSolver, PreconditionerReuseKeepsTheNewtonSolution)
{
  const Outcome fresh  = run_bar("set Solver type = GMRES\nset Preconditioner reuse = false"),
                reused = run_bar("set Solver type = GMRES\nset Preconditioner reuse = true");
  EXPECT_EQ(fresh.statistics.factorizations, fresh.statistics.newton_iterations)
    << "without reuse every solve builds its preconditioner";
  expect_same_solution_with_fewer_builds(fresh, reused);
}

// Preconditioner reuse = across steps: the preconditioner is also kept from one Newton solve to the
// next while it fits (its last solve within 25 % of the iterations of its first). On the bar's ten
// steps it is built fewer times than there are steps, and the answer is the same.
TEST(LinearSolver, PreconditionerReuseAcrossStepsKeepsTheNewtonSolution)
{
  const Outcome fresh  = run_bar("set Solver type = GMRES\nset Preconditioner reuse = false"),
                reused = run_bar("set Solver type = GMRES\nset Preconditioner reuse = across steps");
  EXPECT_LT(reused.statistics.factorizations, reused.statistics.steps);
  EXPECT_GE(reused.statistics.factorizations, 1u);
  expect_same_solution(fresh, reused);
}

// Every MUMPS ordering (Linear solver/MUMPS ordering, MUMPS's ICNTL(7)) is one MUMPS carries out:
// each run analyses and factorises, and gives the solution of the default (PORD).
TEST(LinearSolver, MumpsOrderingsGiveTheSameSolution)
{
  const Outcome pord = run_bar("set MUMPS ordering = PORD");
  for (const std::string ordering : {"AMF", "AMD", "QAMD", "auto"})
    {
      SCOPED_TRACE(ordering);
      expect_same_solution(pord, run_bar("set MUMPS ordering = " + ordering));
    }
}
