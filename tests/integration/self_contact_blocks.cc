// Self-contact equals contact with a rigid plate (theory.md §15.5): two separate Mooney–Rivlin
// blocks of one mesh, on symmetry planes x = 0, y = 0, the lower one on z = 0, the upper one's top
// pushed down until each is compressed to λ ≈ 0.8 through their frictionless contact. The solution
// is homogeneous in both blocks, F = diag(s, s, λ) with s from σ_xx(λ, s) = 0, so the pressure the
// blocks exchange must be −σ_zz(λ, s) of the law, as between rigid plates (contact_plates), with
// the penetration within its tolerance, equal stretches of the two blocks, and the contact work
// equal to the energy balance's external work, and no extrapolation of the pressed state (the
// predictor horizon 0). The lower block has a third layer of cells, so that
// on two ranks one rank holds cells of both blocks and the blocks' DoFs are ghosts of each other's
// ranks.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 90
#include <hydrostat/materials/mooney_rivlin.h>
#include <hydrostat/physics/self_contact.h>

#include <gtest/gtest.h>

#include "lateral_stretch.h"
#include "problem.h"

#include <cmath>
#include <limits>

using namespace hydrostat;
using test_support::lateral_stretch;
using test_support::stretch;

namespace
{
  constexpr double L = 0.01, gap = 0.001, c1 = 1e3, c2 = 2.5e2, K = 1e5;
} // namespace

TEST(SelfContactBlocks, PressureEqualsTheClosedFormOfRigidPlates)
{
  test_support::Problem problem(test_support::box({1, 1, 1}, {1, 1, 1}));
  problem.mesh_maker = [](dealii::Triangulation<3> &tria) {
    test_support::two_blocks(tria, dealii::Point<3>(L, L, L), {2, 2, 3}, {2, 2, 2}, gap);
  };
  problem.mooney_rivlin(c1, c2, K);
  problem.newmark.set(false, 0.25, 0.5);
  problem.newton.residual_relative = 1e-12;
  problem.newton.max_iterations    = 12;
  problem.add_standard_terms();
  problem.add_from<SelfContact, RigidContact>(R"(
subsection Contact
  set Penetration tolerance = 1e-4
  subsection Self contact
    set Enabled = true
    set Boundary ids = 5, 10
  end
end
)");
  test_support::press_two_blocks(problem, "(0.001 + 0.004) * t");
  problem.setup();
  problem.advance_to(1, 0.25);

  const SelfContact         &contact = problem.term<SelfContact>();
  const SelfContact::Totals &totals  = contact.totals();
  const auto         u      = problem.at({{L, L, L}, {L, L, 2 * L + gap}, {L, L, L + gap}}, problem.state.u_ghosted());
  const double       lambda = 1 + u[0][2] / L, lambda_upper = 1 + (u[1][2] - u[2][2]) / L;
  const MooneyRivlin law({c1, c2, K});
  const double       s        = lateral_stretch(law, lambda);
  const double       sigma_zz = law.cauchy_stress(stretch(s, lambda))[2][2];
  const double       area     = s * s * L * L;
  const double       mean     = totals.force / area; // Cauchy: force over current area
  const double       h        = std::sqrt(3.0) * L / 2;
  std::cout << "stretch lower " << lambda << ", upper " << lambda_upper << ", lateral " << s << ", contact pressure "
            << mean << " Pa, closed form " << -sigma_zz << " Pa (relative difference "
            << std::abs(mean + sigma_zz) / -sigma_zz << "), largest pressure of one pass " << totals.max_pressure
            << " Pa, area " << totals.area << " m^2 (closed form " << area << "), penetration "
            << totals.max_penetration / h << " h, pressed points " << totals.points << ", augmentations "
            << problem.steps().statistics().augmentations << ", contact work " << totals.work << " J" << std::endl;
  EXPECT_NEAR(mean, -sigma_zz, 1e-6 * std::abs(sigma_zz));
  EXPECT_NEAR(lambda_upper, lambda, 1e-6);
  EXPECT_NEAR(totals.area, area, 1e-6 * area);
  EXPECT_NEAR(u[0][0], (s - 1) * L, 1e-9 * L);
  EXPECT_LE(totals.max_penetration, 1e-4 * h);
  EXPECT_NEAR(lambda, 0.8, 1e-3);
  EXPECT_EQ(totals.points, 2u * 4 * 4); // both faces' Gauss points press
  EXPECT_EQ(contact.unsettled(), "");   // the updates settled within their limit
  // Points press: the next step starts from u_n, not from the predictor (theory.md eq. (70c)).
  EXPECT_EQ(problem.assembler().predictor_horizon(problem.state), 0.0);
  // ... and an update that presses them further is not shortened (eq. (70d)): the tangent holds
  // their contact. δu = u presses the blocks on by as much again.
  EXPECT_EQ(problem.assembler().update_fraction(problem.state.u_ghosted(), problem.state.u_ghosted()),
            std::numeric_limits<double>::infinity());
  // Contact is the only load the balance books (the pushed face is a constraint): its work is the
  // balance's external work, by the same trapezoidal rule.
  EXPECT_NEAR(totals.work, problem.energy().external_work, 1e-9 * std::abs(totals.work));
}
