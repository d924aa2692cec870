// Compression of a Mooney–Rivlin block between two frictionless rigid plates (theory.md §15.4):
// symmetry planes x = 0, y = 0, z = 0 and a rigid plane moving down onto the top face z = L to a
// stretch λ ≈ 0.8. The exact solution is homogeneous, F = diag(s, s, λ) with the lateral stretch s
// from σ_xx(λ, s) = 0 of the law alone (the 1D root of the same energy), so the contact pressure
// must be uniform and equal −σ_zz(λ, s) at the stretch the solution actually has (it differs from
// the plate's by the penetration, which the augmented Lagrangian keeps below its tolerance). This is
// also the contact patch test (Q1 and Q2 elements, on 1 and 2 ranks).
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 90
#include <hydrostat/materials/mooney_rivlin.h>
#include <hydrostat/physics/rigid_contact.h>

#include <gtest/gtest.h>

#include "lateral_stretch.h"
#include "problem.h"

#include <cmath>

using namespace hydrostat;
using test_support::lateral_stretch;
using test_support::stretch;

namespace
{
  constexpr double L = 0.01, c1 = 1e3, c2 = 2.5e2, K = 1e5;
} // namespace

class ContactPlates : public ::testing::TestWithParam<unsigned int>
{};

TEST_P(ContactPlates, PressureIsUniformAndEqualsTheClosedForm)
{
  const unsigned int    degree = GetParam();
  test_support::Problem problem(test_support::box({L, L, L}, {2, 2, 2}));
  problem.mooney_rivlin(c1, c2, K);
  problem.formulation.degree = degree;
  problem.newmark.set(false, 0.25, 0.5);
  problem.newton.residual_relative = 1e-12;
  problem.newton.max_iterations    = 12;
  problem.add_standard_terms();
  problem.add_from<RigidContact>(R"(
subsection Contact
  set Penetration tolerance = 1e-4
  subsection Obstacle 1
    set Type = plane
    set Position = 0; 0; 0.01 * (1 - 0.2 * t)
    set Axis = 0; 0; -1
    set Boundary ids = 5
  end
end
)");
  problem.constraints.add(0, "x");
  problem.constraints.add(2, "y");
  problem.constraints.add(4, "z");
  problem.setup();
  problem.advance_to(1, 0.25);

  const RigidContact         &contact = problem.term<RigidContact>();
  const RigidContact::Totals &totals  = contact.totals();
  const auto                  u       = problem.at({{L, L, L}}, problem.state.u_ghosted())[0];
  const double                lambda  = 1 + u[2] / L;
  const MooneyRivlin          law({c1, c2, K});
  const double                s        = lateral_stretch(law, lambda);
  const double                sigma_zz = law.cauchy_stress(stretch(s, lambda))[2][2];
  const double                mean     = -totals.force[2] / totals.area; // Cauchy: force over current area
  const double                h        = std::sqrt(3.0) * L / 2;         // the cells' diameter
  std::cout << "Q" << degree << ": stretch " << lambda << " (plate 0.8), lateral " << s << " (solution "
            << 1 + problem.at({{L, L, L}}, problem.state.u_ghosted())[0][0] / L << "), contact pressure " << mean
            << " Pa, closed form " << -sigma_zz << " Pa (relative difference " << std::abs(mean + sigma_zz) / -sigma_zz
            << ", sigma/mu = " << sigma_zz / (2 * (c1 + c2)) << "), max " << totals.max_pressure
            << " Pa (max/mean - 1 = " << totals.max_pressure / mean - 1 << "), area " << totals.area
            << " m^2 (closed form " << s * s * L * L << "), penetration " << totals.max_penetration
            << " m = " << totals.max_penetration / h << " h, augmentations "
            << problem.steps().statistics().augmentations << std::endl;
  EXPECT_NEAR(mean, -sigma_zz, 1e-6 * std::abs(sigma_zz));
  EXPECT_NEAR(totals.max_pressure, mean, 1e-6 * mean); // uniform
  EXPECT_NEAR(totals.area, s * s * L * L, 1e-9 * L * L);
  EXPECT_NEAR(u[0], (s - 1) * L, 1e-9 * L);
  EXPECT_LE(totals.max_penetration, 1e-4 * h);
  EXPECT_NEAR(lambda, 0.8, 1e-4 * h / L);
  EXPECT_GT(problem.steps().statistics().augmentations, 0u);
  // The plates are the only load: their work is the balance's external work (the same trapezoidal
  // rule, eq. (69)) and, to the rule's error over four steps, the strain energy stored.
  EXPECT_NEAR(totals.work, problem.energy().external_work, 1e-9 * totals.work);
  EXPECT_NEAR(totals.work, problem.energy().strain_energy, 0.02 * totals.work);
}

INSTANTIATE_TEST_SUITE_P(Degrees, ContactPlates, ::testing::Values(1u, 2u));
