// Vertex points keep a ridge out of a flat face (theory.md §15.5): the upper of two Mooney–Rivlin
// blocks has a V-shaped bottom, its ridge along y at x = L/2 and its faces rising by d to x = 0
// and x = L, and is pushed down by the gap and a tenth of d. The ridge reaches the lower block's
// flat top first; the faces' Gauss points lie 0.211 d and more above it, so without vertex points
// nothing presses and the ridge passes into the lower block by the push, a tenth of d. With
// vertex points the ridge's corners become contact points and hold it out to the penetration
// tolerance. (The automatic exclusion distance, from the blocks' thickness, would exclude every
// pair of these few faces.) With the smooth surface instead (eq. (70e)) the Gauss points lie on
// the Phong surface through the faces' nodes: the ridge's normal is vertical (its faces meet at
// 43.6°, within the 45° of eq. (70b)) and the outer edges' normals are the faces' own, so a point
// at the fraction s of a face from the ridge comes down by ½ s(1 − s) d, the Gauss points nearest
// the ridge (s = g = ½ − ½/√3, g(1 − g) = 1/6) to (g − 1/12) d = 0.128 d above it: pushed by
// 0.13 d they touch, and the ridge passes by 0.128 d less the gap at which points start to press
// (the tolerance, eq. (70a)) plus at most a quarter of the tolerance (the outward-only lift is
// rounded over it, eq. (70e)), not by the push.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 90
#include <deal.II/grid/grid_tools.h>

#include <hydrostat/physics/self_contact.h>

#include <gtest/gtest.h>

#include "problem.h"

#include <cmath>
#include <string>

using namespace hydrostat;

namespace
{
  constexpr double L = 0.01, gap = 0.001, d = 0.002;

  struct Result
  {
    double              penetration; // of the ridge's middle into the lower block [m]
    double              h;           // the cells' diameter [m]
    SelfContact::Totals totals;
    std::string         unsettled;
  };

  Result press(const bool vertex_points, const bool smooth_surface, const double push)
  {
    test_support::Problem problem(test_support::box({1, 1, 1}, {1, 1, 1}));
    problem.mesh_maker = [](dealii::Triangulation<3> &tria) {
      test_support::two_blocks(tria, dealii::Point<3>(L, L, L), {2, 2, 2}, {2, 2, 2}, gap);
      // The upper block's bottom to a V: raised by d |2x/L − 1|, fading to its flat top.
      dealii::GridTools::transform(
        [](const dealii::Point<3> &X) {
          dealii::Point<3> Y = X;
          if (X[2] > L + gap / 2)
            Y[2] += d * std::abs(2 * X[0] / L - 1) * (2 * L + gap - X[2]) / L;
          return Y;
        },
        tria);
    };
    problem.mooney_rivlin(1e3, 2.5e2, 1e5);
    problem.newmark.set(false, 0.25, 0.5);
    problem.newton.residual_relative = 1e-12;
    problem.newton.max_iterations    = 12;
    problem.add_standard_terms();
    problem.add_from<SelfContact, RigidContact>(std::string(R"(
subsection Contact
  set Penetration tolerance = 1e-3
  subsection Self contact
    set Enabled = true
    set Boundary ids = 5, 10
    set Exclusion distance = 1e-4
    set Vertex points = )") + (vertex_points ? "true" : "false") +
                                                "\n    set Smooth surface = " + (smooth_surface ? "true" : "false") +
                                                R"(
  end
end
)");
    test_support::press_two_blocks(problem, std::to_string(gap + push) + " * t");
    problem.setup();
    problem.advance_to(1, 0.25);

    const auto         u       = problem.at({{L / 2, L / 2, L}, {L / 2, L / 2, L + gap}}, problem.state.u_ghosted());
    const SelfContact &contact = problem.term<SelfContact>();
    return {L + u[0][2] - (L + gap + u[1][2]), std::sqrt(3.0) * L / 2, contact.totals(), contact.unsettled()};
  }
} // namespace

TEST(SelfContactVertexPoints, HoldARidgeOutOfAFlatFace)
{
  const Result with = press(true, false, 0.1 * d);
  std::cout << "vertex points: ridge penetration " << with.penetration / with.h << " h, " << with.totals.vertex_points
            << " vertex points active, " << with.totals.points << " pressed, force " << with.totals.force
            << " N, largest penetration " << with.totals.max_penetration / with.h << " h" << std::endl;
  EXPECT_LE(with.penetration, 1e-3 * with.h);
  EXPECT_LE(with.totals.max_penetration, 1e-3 * with.h);
  EXPECT_GT(with.totals.vertex_points, 0u);
  EXPECT_GT(with.totals.force, 0);
  EXPECT_EQ(with.unsettled, "");
}

TEST(SelfContactVertexPoints, WithoutThemTheRidgePasses)
{
  // The failure the vertex points remove: no Gauss point reaches the lower block.
  const double push    = 0.1 * d;
  const Result without = press(false, false, push);
  std::cout << "Gauss points only: ridge penetration " << without.penetration / without.h << " h, "
            << without.totals.points << " pressed" << std::endl;
  EXPECT_NEAR(without.penetration, push, 1e-3 * push);
  EXPECT_EQ(without.totals.points, 0u);
  EXPECT_EQ(without.totals.vertex_points, 0u);
}

TEST(SelfContactVertexPoints, TheSmoothSurfaceBringsTheGaussPointsDown)
{
  const double g      = 0.5 - 0.5 / std::sqrt(3.0);
  const Result smooth = press(false, true, 0.13 * d);
  std::cout << "smooth surface: ridge penetration " << smooth.penetration / d << " d (expected " << g - 1.0 / 12
            << " d), " << smooth.totals.points << " pressed, force " << smooth.totals.force << " N" << std::endl;
  // Points press from a gap of the tolerance on (eq. (70a)); the pressed blocks give a little more.
  EXPECT_LE(smooth.penetration, (g - 1.0 / 12) * d);
  EXPECT_GE(smooth.penetration, (g - 1.0 / 12) * d - 1e-3 * smooth.h - 0.002 * d);
  EXPECT_GT(smooth.totals.points, 0u);
  EXPECT_EQ(smooth.totals.vertex_points, 0u);
  EXPECT_EQ(smooth.unsettled, "");
}
