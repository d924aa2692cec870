// ∂R/∂a of the inverse run's exciters in one pass over the cells (theory.md eq. (74)) against
// differences of the whole assembled residual, which are exact since R is linear in every
// activation: a distorted block in a dynamic step at a large, non-affine displacement (so the
// force–length and, through v₊, the force–velocity factors differ from point to point), with a
// controlled Van Leeuwen-Kier group of three control nodes along z (eq. (76)), a controlled
// uniform group of the constant law with two fibre families, and a prescribed group that is no
// exciter and must give no column.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 20
#include <gtest/gtest.h>

#include "problem.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  const std::string muscles = R"(
subsection Muscles
  set Number of groups = 3
  subsection Group 1
    set Region = 0.006 - x
    set Fibre direction = constant
    set Constant direction = 0.2, 0, 1
    subsection Activation
      set Source = controlled
      set Control nodes = 0, 0.015, 0.04
    end
  end
  subsection Group 2
    set Fibre families = cross-section x, helical right
    set Pitch angle = 30
    set Law = constant
    subsection Muscle law
      set Maximum isometric stress = 3e4
    end
    subsection Activation
      set Source = controlled
    end
  end
  subsection Group 3
    set Fibre direction = constant
    set Constant direction = 1, 0, 0
    subsection Activation
      set Rise time = 0.02
    end
  end
end
)";
} // namespace

TEST(InverseControlDerivatives, EqualDifferencesOfTheAssembledResidual)
{
  test_support::Problem problem(test_support::box({0.01, 0.01, 0.04}, {2, 2, 6}, 0.25));
  problem.mooney_rivlin(3e3, 1e3, 4e5);
  problem.newmark.set(true, 0.25, 0.5);
  problem.muscle_groups(muscles);
  problem.add_solid_stress(0.01);
  problem.add_inertia(3);
  problem.add_body_force("0; 0; -9.81");
  problem.constraints.add(4, "xyz");
  problem.setup("0.1 * y; -0.2 * z; 0.3 * x");

  const auto u = problem.interpolate([](const dealii::Point<3> &X) {
    const double x = X[0] / 0.01, y = X[1] / 0.01, z = X[2] / 0.04;
    return dealii::Tensor<1, 3>(
      {0.004 * z * z - 0.001 * y * x, 0.002 * z * x + 0.001 * std::sin(3 * y), -0.006 * z + 0.002 * x * y * z});
  });
  // Exciters: the three nodes of group 1 and group 2 (columns 0–3), at activations inside [0, 1].
  const std::vector<std::pair<unsigned int, unsigned int>> exciters{{0, 0}, {0, 1}, {0, 2}, {1, 0}};
  const std::vector<double>                                a{0.3, 0.6, 0.2, 0.5};
  const ControlColumns columns{{0, 1, 2}, {3}, {dealii::numbers::invalid_unsigned_int}};
  for (unsigned int k = 0; k < exciters.size(); ++k)
    problem.muscles.set_control(exciters[k].first, exciters[k].second, a[k]);

  const double                               dt    = 0.01;
  StepSolver                                &steps = problem.steps();
  std::vector<test_support::Problem::Vector> one_pass(exciters.size(), problem.state.owned_vector());
  steps.control_derivatives(u, dt, columns, one_pass);

  test_support::Problem::Vector base = problem.state.owned_vector(), other = base;
  ASSERT_TRUE(steps.evaluate(u, dt, base, nullptr));
  for (unsigned int k = 0; k < exciters.size(); ++k)
    {
      problem.muscles.set_control(exciters[k].first, exciters[k].second, 1.0);
      ASSERT_TRUE(steps.evaluate(u, dt, other, nullptr));
      problem.muscles.set_control(exciters[k].first, exciters[k].second, a[k]);
      other -= base;
      other /= 1.0 - a[k]; // ∂R/∂a_k: R is linear in a_k
      const double size = other.linfty_norm();
      other -= one_pass[k];
      std::cout << "exciter " << k << ": max |dR/da| = " << size << " N, one pass against differences "
                << other.linfty_norm() / size << std::endl;
      EXPECT_GT(size, 1e-6);
      EXPECT_LT(other.linfty_norm(), 1e-10 * size);
    }
}
