// A block pressed onto a rigid floor with Coulomb friction μ = 0.3 and dragged along it by its top
// face (theory.md §15.2, eq. (66b)): plane strain (u_y = 0 on both y faces), the top face moved
// down by 10 % of the height, then sideways by half the length. While the top moves less than the
// shear that friction can hold, the bottom sticks and the tangential force is below μ N; once the
// whole bottom face slides, every contact point carries |t_T| = μ λ_N along −x, so the total
// friction force is exactly μ times the total normal force, and the slip is the top's motion less
// the block's shear. In steady sliding the block moves as a whole: from t = 2 to 3 every contact
// point slips by the top's 0.25 L, which the mean of the output field contact_slip must show.
// On 1 and 2 ranks.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 90
#include <hydrostat/physics/rigid_contact.h>

#include <deal.II/base/mpi.h>

#include <gtest/gtest.h>

#include "problem.h"

#include <cmath>

using namespace hydrostat;

TEST(ContactFrictionSliding, SlidingForceIsMuTimesNormalForce)
{
  constexpr double      L = 0.01, mu = 0.3;
  test_support::Problem problem(test_support::box({L, L, L}, {2, 1, 2}));
  problem.mooney_rivlin(1e3, 0, 1e5);
  problem.newmark.set(false, 0.25, 0.5);
  problem.newton.residual_relative = 1e-10;
  problem.newton.max_iterations    = 15;
  problem.add_standard_terms();
  problem.add_from<RigidContact>(R"(
subsection Contact
  subsection Obstacle 1
    set Type = plane
    set Position = 0; 0; 0
    set Axis = 0; 0; 1
    set Boundary ids = 4
    set Friction coefficient = 0.3
  end
end
)");
  problem.constraints.add(2, "y");
  problem.constraints.add(3, "y");
  // t ∈ [0, 1]: down by 0.1 L; t ∈ [1, 3]: sideways by 0.5 L.
  problem.constraints.add(5, "xz", "0.0025 * max(t - 1, 0); 0; -0.001 * min(t, 1)");
  problem.setup();

  const RigidContact &floor = problem.term<RigidContact>();
  problem.advance_to(1, 0.25);
  const double N0 = floor.totals().force[2];
  problem.advance_to(1.1, 0.05);
  const double stick_ratio = -floor.totals().force[0] / floor.totals().force[2];
  // The mean of contact_slip (the third cell field) over the cells with a contact face.
  const auto mean_slip = [&]() {
    double       values[3], sum = 0;
    unsigned int n = 0;
    problem.assembler().for_each_cell(problem.state, [&](const CellState &cell) {
      floor.output_values(cell, values);
      if (std::isfinite(values[1]))
        {
          sum += values[2];
          ++n;
        }
    });
    return dealii::Utilities::MPI::sum(sum, MPI_COMM_WORLD) / dealii::Utilities::MPI::sum(n, MPI_COMM_WORLD);
  };
  problem.advance_to(2, 0.1);
  const double slip_2 = mean_slip();
  problem.advance_to(3, 0.1);
  const double slide_ratio = -floor.totals().force[0] / floor.totals().force[2];
  const double slip_step   = mean_slip() - slip_2;
  std::cout << "mean slip " << slip_2 << " m at t = 2, " << slip_2 + slip_step << " m at t = 3 (difference "
            << slip_step << " m, the top's 0.25 L = " << 0.25 * L << " m)" << std::endl;
  ASSERT_EQ(floor.output_fields().size(), 3u);
  EXPECT_EQ(floor.output_fields()[2].name, "contact_slip_1");
  EXPECT_NEAR(slip_step, 0.25 * L, 1e-6 * L);
  std::cout << "normal force after pressing " << N0 << " N; tangential / normal force: " << stick_ratio
            << " after a shift of 0.025 L (sticking), " << slide_ratio << " after 0.5 L (mu = " << mu
            << ", relative difference " << slide_ratio / mu - 1 << "); contact work " << floor.totals().work
            << " J, external work " << problem.energy().external_work << " J, strain energy "
            << problem.energy().strain_energy << " J" << std::endl;
  EXPECT_GT(N0, 0);
  EXPECT_LT(stick_ratio, 0.9 * mu);
  EXPECT_GT(stick_ratio, 0.01 * mu);
  EXPECT_NEAR(slide_ratio, mu, 1e-8 * mu);
  // On a plane every normal is z: the CSV's normal_force is the force's z component.
  EXPECT_NEAR(floor.totals().normal_force, floor.totals().force[2], 1e-12 * floor.totals().force[2]);
  // Friction takes energy: the work of the floor on the body is negative once it slides.
  EXPECT_LT(floor.totals().work, 0);
}
