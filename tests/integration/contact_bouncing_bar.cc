// An elastic bar bouncing between two rigid planes (Doyen, Ern & Piperno 2011; theory.md §15.6):
// E = 900 Pa, ν = 0, ρ = 1 kg/m³, L = 10 m (c0 = 30 m/s), moving at v0 = 0.2 m/s towards the
// floor (strain v0/c0 = 0.67 %). In the 1D solution a compression wave runs to the free end and
// back: the plane pushes with ρ c0 v0 A = 6 N for 2L/c0 = 0.667 s, after which the bar leaves with
// −v0, unstrained. Three impacts (floor, ceiling, floor) with Newmark's trapezoidal rule, the
// augmented-Lagrangian contact and the modified mass (eq. (72)): the contact time to two steps, the
// first impact's force to 1 %, the rebound velocity to 1 %, and no energy gained beyond the
// release steps' error.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 20
#include <hydrostat/physics/rigid_contact.h>

#include <gtest/gtest.h>

#include "problem.h"

#include <cmath>

using namespace hydrostat;

TEST(ContactBouncingBar, ContactTimeForceReboundAndEnergy)
{
  constexpr double      L = 10, v0 = 0.2, c0 = 30, gap = 0.02, dt = 1.0 / 120; // c0 dt = h / 2
  test_support::Problem problem(test_support::box({1, 1, L}, {1, 1, 20}));
  problem.mooney_rivlin(225, 0, 300, 1); // μ = 450, K = 300: E = 900 Pa, ν = 0
  problem.formulation.type = Formulation::Type::displacement;
  problem.newmark.set(true, 0.25, 0.5);
  problem.newton.max_iterations = 12;
  problem.add_standard_terms();
  problem.add_from<RigidContact>(R"(
subsection Contact
  set Penetration tolerance = 1e-3
  set Modified mass = true
  subsection Obstacle 1
    set Type = plane
    set Position = 0; 0; -0.02
    set Axis = 0; 0; 1
    set Boundary ids = 4
  end
  subsection Obstacle 2
    set Type = plane
    set Position = 0; 0; 10.02
    set Axis = 0; 0; -1
    set Boundary ids = 5
  end
end
)");
  problem.setup("0; 0; -0.2");

  std::vector<const RigidContact *> plates;
  for (const auto &term : problem.assembler().terms())
    if (const auto *plate = dynamic_cast<const RigidContact *>(term.get()))
      plates.push_back(plate);
  ASSERT_EQ(plates.size(), 2u);
  const auto   unit_z = problem.interpolate([](const dealii::Point<3> &) { return dealii::Tensor<1, 3>({0, 0, 1}); });
  const double mass   = problem.assembler().mass_product(unit_z, unit_z); // ρ L A, kept by the modified mass
  const auto   energy = [&] { return problem.energy().kinetic_energy + problem.energy().strain_energy; };
  const double E0     = energy();
  EXPECT_NEAR(mass, L, 1e-12 * L);

  // Each impact: the first and last step with a contact force, the force halfway, and the
  // velocity and energy in the flight after it.
  struct Impact
  {
    double start = -1, end = -1, force = 0, velocity = 0, energy = 0;
  };
  std::vector<Impact> impacts;
  int                 touching      = -1; // the plate in contact, or -1
  double              worst_balance = 0;
  while (impacts.size() < 3 || impacts.back().energy == 0)
    {
      ASSERT_LT(problem.state.time(), 3.0) << "fewer than three impacts";
      problem.steps().advance(dt);
      const double t   = problem.state.time();
      int          now = -1;
      for (unsigned int k = 0; k < 2; ++k)
        if (plates[k]->totals().area > 0)
          now = k;
      if (now >= 0 && touching < 0)
        impacts.push_back({t, t});
      if (now >= 0)
        {
          impacts.back().end = t;
          if (std::abs(t - impacts.back().start - L / c0) < dt / 2)
            impacts.back().force = plates[now]->totals().force[2];
        }
      touching = now;
      if (now < 0 && !impacts.empty() && t - impacts.back().end > 0.5 * gap / v0 && impacts.back().energy == 0)
        {
          impacts.back().velocity = problem.assembler().mass_product(problem.state.v(), unit_z) / mass;
          impacts.back().energy   = energy();
        }
      worst_balance = std::max(worst_balance, std::abs(problem.energy().balance()));
    }
  for (unsigned int k = 0; k < 3; ++k)
    {
      const Impact &impact = impacts[k];
      const double  sign   = k % 2 ? -1 : 1; // floor, ceiling, floor
      // The first and last steps with a force bracket the contact: its length within two steps.
      const double duration = impact.end - impact.start + dt;
      std::cout << "impact " << k + 1 << ": contact from t = " << impact.start - dt << " to " << impact.end
                << " s, duration " << duration << " s (2L/c0 = " << 2 * L / c0 << "), force halfway " << impact.force
                << " N (rho c0 v0 A = " << sign * c0 * v0 << "), velocity after " << impact.velocity << " m/s ("
                << sign * v0 << "), energy after / before - 1 = " << impact.energy / E0 - 1 << std::endl;
      EXPECT_NEAR(duration, 2 * L / c0, 2 * dt);
      if (k == 0) // the later impacts start from the vibration the first one leaves
        {
          EXPECT_NEAR(impact.force, c0 * v0, 0.01 * c0 * v0);
        }
      EXPECT_NEAR(impact.velocity, sign * v0, 0.01 * v0);
      // A release step books ½ F_n Δu of work the force no longer does: bounded, no growth.
      EXPECT_LE(impact.energy, E0 * (1 + 0.005));
    }
  std::cout << "largest |energy balance| / E0 = " << worst_balance / E0 << std::endl;
  EXPECT_LT(worst_balance, 1e-3 * E0);
}
