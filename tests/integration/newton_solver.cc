// NewtonSolver on small algebraic problems given by callbacks: quadratic convergence to the
// root, the line search on a step that would "invert", failure reported when it must be, and
// iterations past the limit while the residual halves (Newton/Contracting iterations), updates
// shortened to Newton/Maximum update, the check of the tangent along the updates, and the problem
// asked to settle (augment) once an update is short (theory.md eq. (68a)).
#include <deal.II/base/index_set.h>

#include <hydrostat/integration/newton_solver.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

using namespace hydrostat;
using Vector = NewtonSolver::Vector;

namespace
{
  Vector make_vector(const double value)
  {
    dealii::IndexSet owned(3);
    owned.add_range(0, 3);
    Vector v(owned, MPI_COMM_SELF);
    v = value;
    return v;
  }

  /// R_i(u) = u_i³ − 8 with the exact tangent 3 u_i² and the force scale |(u³, 8)|; system() fails
  /// ("inverts") for u_i ≤ @p floor.
  NewtonSolver::Problem cubic(Vector &tangent_diagonal, Vector &rhs, const double floor = -1e300)
  {
    NewtonSolver::Problem problem;
    problem.residual = [floor](const Vector &u, Vector &residual) {
      for (unsigned int i = 0; i < 3; ++i)
        {
          if (u[i] <= floor)
            return false;
          residual[i] = u[i] * u[i] * u[i] - 8.0;
        }
      return true;
    };
    problem.system = [&, floor, residual = problem.residual](const Vector &u, Vector &R, double &pending,
                                                             double &force_scale) {
      pending = 0;
      // The "internal force" u³ and the "load" 8 of each equation.
      force_scale = 0;
      for (unsigned int i = 0; i < 3; ++i)
        force_scale += std::pow(u[i], 6) + 64.0;
      force_scale = std::sqrt(force_scale);
      for (unsigned int i = 0; i < 3; ++i)
        {
          tangent_diagonal[i] = 3.0 * u[i] * u[i];
          rhs[i]              = -(u[i] * u[i] * u[i] - 8.0);
        }
      return residual(u, R);
    };
    problem.solve = [&](Vector &du) {
      for (unsigned int i = 0; i < 3; ++i)
        du[i] = rhs[i] / tangent_diagonal[i];
      return 1u;
    };
    return problem;
  }

  /// R_i(u) = (u_i − 2)^p with the update −fraction · R/R' (fraction < 1: a too stiff tangent)
  /// and force scale 1. p = 2, fraction = 1: the error halves and |R| quarters per iteration (a
  /// double root); p = 1, fraction = 1/4: both fall by 3/4 per iteration.
  NewtonSolver::Problem power_law(const double p, const double fraction)
  {
    NewtonSolver::Problem problem;
    problem.residual = [p](const Vector &u, Vector &residual) {
      for (unsigned int i = 0; i < 3; ++i)
        residual[i] = std::pow(u[i] - 2.0, p);
      return true;
    };
    // The solve takes the update from the iterate the system was last assembled at.
    auto u_last    = std::make_shared<Vector>(make_vector(0));
    problem.system = [residual = problem.residual, u_last](const Vector &u, Vector &R, double &pending, double &scale) {
      pending = 0;
      scale   = 1;
      *u_last = u;
      return residual(u, R);
    };
    problem.solve = [p, fraction, u_last](Vector &du) {
      for (unsigned int i = 0; i < 3; ++i)
        du[i] = -fraction * ((*u_last)[i] - 2.0) / p;
      return 1u;
    };
    return problem;
  }
} // namespace

TEST(NewtonSolver, ConvergesQuadraticallyToTheRoot)
{
  const dealii::ConditionalOStream out(std::cout, false);
  NewtonControl                    control;
  control.residual_relative = 1e-14;
  NewtonSolver solver(control, out);
  Vector       tangent = make_vector(0), rhs = make_vector(0), u = make_vector(3.0);
  ASSERT_TRUE(solver.solve(cubic(tangent, rhs), u));
  for (unsigned int i = 0; i < 3; ++i)
    EXPECT_NEAR(u[i], 2.0, 1e-14);
  const auto &r = solver.residuals();
  ASSERT_GE(r.size(), 4u);
  // Quadratic once close: r_{k+1} ≈ r_k² / (8 √3) here.
  for (unsigned int k = 1; k + 1 < r.size() && r[k + 1] > 1e-12; ++k)
    EXPECT_LT(r[k + 1], 0.5 * r[k] * r[k] + 1e-13) << "iteration " << k;
}

// From u = 0.6 the full Newton step overshoots to u ≈ 7.8 (|R| 60 times larger): the line search
// halves it twice (u ≈ 2.4, Armijo holds); without line search |R| first grows. An iteration
// limit or an element "inverted" at the predictor is reported as failure.
TEST(NewtonSolver, LineSearchAndFailure)
{
  const dealii::ConditionalOStream out(std::cout, false);
  NewtonControl                    control;
  Vector                           tangent = make_vector(0), rhs = make_vector(0);
  for (const bool line_search : {true, false})
    {
      control.line_search = line_search;
      NewtonSolver solver(control, out);
      Vector       u = make_vector(0.6);
      EXPECT_TRUE(solver.solve(cubic(tangent, rhs), u));
      EXPECT_NEAR(u[0], 2.0, 1e-8);
      const auto &r = solver.residuals();
      if (line_search)
        EXPECT_LT(r[1], r[0]);
      else
        EXPECT_GT(r[1], 50 * r[0]);
    }
  control.line_search    = false;
  control.max_iterations = 3;
  {
    NewtonSolver solver(control, out);
    Vector       u = make_vector(0.6);
    EXPECT_FALSE(solver.solve(cubic(tangent, rhs), u));
    EXPECT_EQ(solver.residuals().size(), 4u);
  }
  {
    NewtonSolver solver(control, out);
    Vector       u = make_vector(-1.0);
    EXPECT_FALSE(solver.solve(cubic(tangent, rhs, 0.0), u));
    EXPECT_TRUE(solver.residuals().empty());
  }
}

// Issue 12: after an attempt that diverged (|R| up to ~470), a new solve that starts 1e-7 from the
// root (|R| = 2.1e-6, force scale 19.6) must still iterate to the root: the relative test is
// measured against the force scale of the iterate (1e-8 · 19.6 = 2e-7), never against the
// residuals of a failed attempt (1e-8 · 470 = 4.7e-6 would accept the start with no iteration).
TEST(NewtonSolver, RelativeTestNotLoosenedByADivergedAttempt)
{
  const dealii::ConditionalOStream out(std::cout, false);
  NewtonControl                    control;
  control.line_search    = false;
  control.max_iterations = 3;
  NewtonSolver solver(control, out);
  Vector       tangent = make_vector(0), rhs = make_vector(0);
  Vector       u = make_vector(0.6);
  ASSERT_FALSE(solver.solve(cubic(tangent, rhs), u));
  ASSERT_GT(*std::max_element(solver.residuals().begin(), solver.residuals().end()), 400.0);

  u = make_vector(2.0 + 1e-7);
  ASSERT_TRUE(solver.solve(cubic(tangent, rhs), u));
  EXPECT_GT(solver.residuals().size(), 1u);
  for (unsigned int i = 0; i < 3; ++i)
    EXPECT_NEAR(u[i], 2.0, 1e-12);
}

// Newton/Contracting iterations: past Max iterations a solve goes on only while |R| halves in
// each iteration, and at most that many iterations more. The double root needs 17 iterations to
// |R| = √3 4⁻ᵏ <= 3e-10 (|R| quarters in each); a linearly converging solve (|R| × 3/4) is cut at
// the limit.
TEST(NewtonSolver, ContractingIterationsPastTheLimit)
{
  const dealii::ConditionalOStream out(std::cout, false);
  NewtonControl                    control;
  control.line_search       = false;
  control.residual_relative = 3e-10;
  control.update_absolute   = 1e-4;
  control.max_iterations    = 4;
  for (const unsigned int extra : {0u, 2u, 30u})
    {
      control.contracting_iterations = extra;
      NewtonSolver solver(control, out);
      Vector       u         = make_vector(3.0);
      const bool   converged = solver.solve(power_law(2, 1), u);
      EXPECT_EQ(converged, extra == 30) << extra;
      if (converged)
        {
          EXPECT_EQ(solver.residuals().size(), 18u);
          EXPECT_NEAR(u[0], 2.0, 2e-5);
        }
      else
        EXPECT_EQ(solver.residuals().size(), 4 + extra + 1) << extra;
    }
  NewtonSolver solver(control, out);
  Vector       u = make_vector(3.0);
  EXPECT_FALSE(solver.solve(power_law(1, 0.25), u));
  EXPECT_EQ(solver.residuals().size(), 5u);
}

// Newton/Maximum update: an update whose largest component exceeds it is shortened to it. From
// u = 0.6 the cubic's full step is 7.2 long; with a cap of 0.5 every update is at most 0.5 (the
// iterate moves 0.6 → 1.1 → 1.6 → 2.1 and then converges), and the root is the same.
TEST(NewtonSolver, MaximumUpdateShortensLongUpdates)
{
  Vector        tangent = make_vector(0), rhs = make_vector(0), u = make_vector(0.6);
  NewtonControl control;
  control.max_update  = 0.5;
  control.line_search = false;
  const dealii::ConditionalOStream quiet(std::cout, false); // the solver keeps a reference
  NewtonSolver                     solver(control, quiet);
  ASSERT_TRUE(solver.solve(cubic(tangent, rhs), u));
  EXPECT_NEAR(u[0], 2.0, 1e-12);
  const auto &r = solver.residuals();
  // |R| = √3 |u³ − 8| at u = 0.6, 1.1, 1.6, 2.1.
  ASSERT_GE(r.size(), 5u);
  for (const auto &[k, x] : std::vector<std::pair<unsigned int, double>>{{0, 0.6}, {1, 1.1}, {2, 1.6}, {3, 2.1}})
    EXPECT_NEAR(r[k], std::sqrt(3.0) * std::abs(x * x * x - 8.0), 1e-9) << "iteration " << k;
}

// Newton/Check tangent: with the exact tangent the residual's derivative along each update is −R
// (the cubic: mismatch ≤ 1e-8 while |R| > 1e-3, and the same iterates as without the check); with a
// tangent four times too stiff (R = u − 2, update −R/4) the derivative is −R/4, mismatch 3/4.
TEST(NewtonSolver, TangentCheckTellsAWrongTangent)
{
  const dealii::ConditionalOStream quiet(std::cout, false);
  NewtonControl                    control;
  Vector                           tangent = make_vector(0), rhs = make_vector(0);
  std::vector<double>              unchecked;
  for (const bool check : {false, true})
    {
      control.check_tangent = check;
      NewtonSolver solver(control, quiet);
      Vector       u = make_vector(3.0);
      ASSERT_TRUE(solver.solve(cubic(tangent, rhs), u));
      if (!check)
        {
          unchecked = solver.residuals();
          EXPECT_TRUE(solver.tangent_mismatches().empty());
          continue;
        }
      EXPECT_EQ(solver.residuals(), unchecked);
      ASSERT_EQ(solver.tangent_mismatches().size(), solver.iterations());
      for (unsigned int k = 0; k < solver.iterations(); ++k)
        {
          if (solver.residuals()[k] > 1e-3)
            EXPECT_LT(solver.tangent_mismatches()[k], 1e-8) << "iteration " << k;
        }
    }

  control.check_tangent  = true;
  control.max_iterations = 3;
  NewtonSolver solver(control, quiet);
  Vector       u = make_vector(3.0);
  EXPECT_FALSE(solver.solve(power_law(1, 0.25), u));
  ASSERT_EQ(solver.tangent_mismatches().size(), 3u);
  for (const double mismatch : solver.tangent_mismatches())
    EXPECT_NEAR(mismatch, 0.75, 1e-6);
}

// Problem::settle (theory.md eq. (68a)): the cubic from u = 3 moves 0.70, 0.26, 0.036, 7e-4, ...
// With a settle length of 0.01 the problem is asked once, at the iterate after the update of 7e-4
// (taken whole), 2.5e-7 from the root. If it changes there, the solve ends at that iterate; if
// not, Newton goes on to the root with the same iterates and the same number of evaluations as
// without asking (the iterate's system is assembled once either way).
TEST(NewtonSolver, SettlesOnceTheUpdateIsShort)
{
  const dealii::ConditionalOStream quiet(std::cout, false);
  NewtonControl                    control;
  control.residual_relative = 1e-14;
  Vector tangent = make_vector(0), rhs = make_vector(0);

  // Without settle: the reference iterates and evaluations.
  NewtonSolver plain_solver(control, quiet);
  unsigned int plain_evaluations = 0;
  const auto   counted           = [](NewtonSolver::Problem problem, unsigned int &evaluations) {
    problem.system = [&evaluations, system = problem.system](const Vector &u, Vector &R, double &p, double &s) {
      ++evaluations;
      return system(u, R, p, s);
    };
    problem.residual = [&evaluations, residual = problem.residual](const Vector &u, Vector &R) {
      ++evaluations;
      return residual(u, R);
    };
    return problem;
  };
  Vector u_plain = make_vector(3.0);
  ASSERT_TRUE(plain_solver.solve(counted(cubic(tangent, rhs), plain_evaluations), u_plain));

  for (const bool changes : {true, false})
    {
      NewtonSolver          solver(control, quiet);
      unsigned int          evaluations = 0, asked = 0;
      NewtonSolver::Problem problem  = counted(cubic(tangent, rhs), evaluations);
      double                asked_at = 0;
      problem.settle_length          = 0.01;
      problem.settle                 = [&](const Vector &u) {
        ++asked;
        asked_at = u[0];
        return changes;
      };
      Vector u = make_vector(3.0);
      ASSERT_TRUE(solver.solve(problem, u)) << changes;
      EXPECT_EQ(asked, 1u) << changes;
      EXPECT_NEAR(asked_at, 2.0, 1e-6) << changes;
      EXPECT_GT(std::abs(asked_at - 2.0), 1e-9) << changes;
      if (changes)
        {
          EXPECT_EQ(u[0], asked_at);
          EXPECT_LT(solver.iterations(), plain_solver.iterations());
        }
      else
        {
          EXPECT_NEAR(u[0], 2.0, 1e-14);
          EXPECT_EQ(solver.residuals(), plain_solver.residuals());
          EXPECT_EQ(evaluations, plain_evaluations);
        }
    }
}
