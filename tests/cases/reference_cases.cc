// HYDROSTAT_TEST_RANKS: 2
// HYDROSTAT_TEST_TIMEOUT: 45
// Coarse versions of the two reference simulations (theory.md §12), asserting their key numbers:
//  - squid tentacle strike (quadrant model, parameters/squid_extension.prm on a coarser mesh):
//    the stalk elongates into the measured range and the club tip moves at metres per second;
//  - octopus arm bending (parameters/octopus_bending.prm, coarser, first 0.3 s): the arm bends
//    toward the activated dorsal side (+y), in the y-z plane.
// Both run on all ranks; the octopus case also on rank 0 alone, and the two must agree.
#include <deal.II/base/mpi.h>

#include <gtest/gtest.h>

#include "case_builder.h"

#include <cmath>

using namespace hydrostat;

using test_support::case_file;

TEST(ReferenceCases, SquidStalkElongatesIntoMeasuredRange)
{
  test_support::Case c(case_file("squid_extension.prm", {{"Axial subdivisions", "12"}, {"Time step", "0.001"}}) +
                       "subsection Output\n set ParaView = false\nend\n");
  c.simulation->setup();
  const double stalk       = 0.05314;
  double       peak_strain = 0, peak_speed = 0, time_of_peak = 0;
  while (c.simulation->time() < 0.07 - 1e-12)
    {
      c.simulation->advance(0.001);
      const double strain = c.simulation->probe_displacements()[1][2] / stalk;
      if (strain > peak_strain)
        {
          peak_strain  = strain;
          time_of_peak = c.simulation->time();
        }
      peak_speed = std::max(peak_speed, c.simulation->probe_velocities()[0][2]);
    }
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::cout << "coarse squid: peak stalk strain " << peak_strain << " at t = " << time_of_peak
              << " s, peak tip speed " << peak_speed << " m/s" << std::endl;
  // Measured: 43-80 % elongation, > 2 m/s. The quadrant model with 24 axial cells gives 51 % and
  // 1.9 m/s, this one (12 axial cells, dt = 1 ms) must stay in the measured strain band and above
  // 1.5 m/s; with 3 cells per cross-section instead of 12 it drops to 38 % (cross-sections too
  // coarse to thin), which is what these bounds catch.
  EXPECT_GT(peak_strain, 0.43);
  EXPECT_LT(peak_strain, 0.80);
  EXPECT_GT(peak_speed, 1.5);
}

TEST(ReferenceCases, OctopusArmBendsTowardActivatedSide)
{
  const std::string parameters =
    case_file("octopus_bending.prm",
              {{"Axial subdivisions", "10"}, {"Cross-section refinements", "0"}, {"End time", "0.3"}}) +
    "subsection Output\n set ParaView = false\nend\n";
  const auto run = [&](MPI_Comm comm) {
    test_support::Case c(parameters, comm);
    c.simulation->setup();
    while (c.simulation->time() < 0.3 - 1e-12)
      c.simulation->advance(0.01);
    return c.simulation->probe_displacements()[0]; // tip
  };
  const dealii::Tensor<1, 3> tip = run(MPI_COMM_WORLD);
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    {
      std::cout << "coarse octopus at 0.3 s: tip displacement " << tip << " m" << std::endl;
      EXPECT_GT(tip[1], 0.01);                    // bends by centimetres toward +y (dorsal)
      EXPECT_LT(std::abs(tip[0]), 1e-6 * tip[1]); // and stays in the y-z plane (x -> -x symmetry)
      EXPECT_LT(tip[2], 0.0);                     // the tip moves back toward the root
      const dealii::Tensor<1, 3> serial = run(MPI_COMM_SELF);
      std::cout << "1 rank: " << serial << "; relative difference " << (serial - tip).norm() / tip.norm() << std::endl;
      EXPECT_LT((serial - tip).norm(), 1e-8 * tip.norm());
    }
}
