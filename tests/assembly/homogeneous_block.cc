// A homogeneous large-strain block: uniaxial stretch λ = 1.5 of a unit-ish block with symmetry
// constraints on three faces and free lateral faces. The exact solution is homogeneous,
// x = diag(λ, μl, μl) X with the lateral stretch μl from σ_yy(λ, μl) = 0 (solved here with the
// material law alone), so a mesh of several cells reproduces it to solver tolerance, in both
// formulations; and the strain energy is the volume times W(F) of that F.
#include <hydrostat/materials/mooney_rivlin.h>

#include <gtest/gtest.h>

#include "problem.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  constexpr double L = 0.01, lambda = 1.5, c1 = 2e3, c2 = 5e2, K = 1e5;

  double lateral_stretch()
  {
    const MooneyRivlin law({c1, c2, K});
    const auto         F = [](const double s) {
      dealii::Tensor<2, 3> F;
      F[0][0] = lambda;
      F[1][1] = F[2][2] = s;
      return F;
    };
    double s = 1.0 / std::sqrt(lambda);
    for (unsigned int it = 0; it < 60; ++it)
      {
        const double h  = 1e-7;
        const double f  = law.cauchy_stress(F(s))[1][1];
        const double df = (law.cauchy_stress(F(s + h))[1][1] - law.cauchy_stress(F(s - h))[1][1]) / (2 * h);
        s -= f / df;
      }
    return s;
  }
} // namespace

TEST(HomogeneousBlock, UniaxialStretchIsReproducedExactly)
{
  const double s = lateral_stretch();
  for (const auto formulation : {Formulation::Type::displacement, Formulation::Type::three_field})
    {
      const std::string     name = formulation == Formulation::Type::three_field ? "three-field" : "displacement";
      test_support::Problem problem(test_support::box({L, L, L}, {3, 2, 2}));
      problem.mooney_rivlin(c1, c2, K);
      problem.formulation.type = formulation;
      problem.newmark.set(false, 0.25, 0.5);
      problem.newton.residual_relative = 1e-12;
      problem.linear_solver.set_iterative(LinearSolver::SolverType::cg, 1e-12);
      problem.add_standard_terms();
      problem.constraints.add(0, "x");
      problem.constraints.add(2, "y");
      problem.constraints.add(4, "z");
      problem.constraints.add(1, "x", "0.005 * t; 0; 0");
      problem.setup();
      problem.advance_to(1, 0.25);
      const auto u = problem.at({{L, L, L}, {0.5 * L, L, 0.25 * L}}, problem.state.u_ghosted());
      // Exact: u = (λ − 1) X_x, (μl − 1) X_y, (μl − 1) X_z at every point.
      const double points[2][3] = {{L, L, L}, {0.5 * L, L, 0.25 * L}};
      for (unsigned int k = 0; k < 2; ++k)
        {
          EXPECT_NEAR(u[k][0], (lambda - 1) * points[k][0], 1e-9 * L) << name;
          EXPECT_NEAR(u[k][1], (s - 1) * points[k][1], 1e-9 * L) << name;
          EXPECT_NEAR(u[k][2], (s - 1) * points[k][2], 1e-9 * L) << name;
        }
      const double volume = problem.energy().volume;
      EXPECT_NEAR(volume, lambda * s * s * L * L * L, 1e-9 * L * L * L) << name;
      // The strain energy column: V0 W(F), F = diag(λ, μl, μl) (the three-field J̃ = J here).
      dealii::Tensor<2, 3> F;
      F[0][0] = lambda;
      F[1][1] = F[2][2]   = s;
      const double energy = L * L * L * MooneyRivlin({c1, c2, K}).energy(F);
      EXPECT_NEAR(problem.energy().strain_energy, energy, 1e-8 * energy) << name;
      std::cout << name << ": lateral stretch " << 1 + u[0][1] / L << " (exact " << s
                << "), J = " << volume / (L * L * L) << ", strain energy " << problem.energy().strain_energy
                << " J (V0 W(F) = " << energy << " J)" << std::endl;
    }
}
