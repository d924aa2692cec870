// 1D consistency of the muscle-tendon elements in the 3D solver.
// (a) A piglet unit (Zajac, STIM = 1) between a fixed anchor and the top of a stiff block that is
//     clamped at its top (isometric) or at its bottom (the attachment moves a little): after the
//     transients the unit's force equals the hill layer's standalone isometric steady state
//     (theory.md eq. (42) with q = q_ss) at the recorded l_MTC.
// (b) A unit between two points of a block on any number of ranks: the same history as on one rank.
// HYDROSTAT_TEST_RANKS: 1 2
#include <gtest/gtest.h>

#include <deal.II/grid/grid_tools.h>

#include <hydrostat/hill/muscle_tendon_unit.h>
#include <hydrostat/physics/muscle_tendon_units.h>

#include "problem.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  const double offset = 0.05; // m, lOffset of the anchored unit

  const char *anchored_unit = R"(
subsection Muscle-tendon units
  set Number of units = 1
  subsection Unit 1
    set First point  = 0.005, 0.005, 0.01
    set Second point = 0.005, 0.005, 0.0215
    set Fixed anchor = true
    set Stimulation  = 1
    subsection Hill
      set lOffset = 0.05
    end
  end
end
)";

  const char *two_point_unit = R"(
subsection Muscle-tendon units
  set Number of units = 1
  subsection Unit 1
    set First point  = 0.018, 0.003, 0.017
    set Second point = 0.002, 0.017, 0.004
    set Stimulation  = t > 0.005 ? 1 : 0
    subsection Hill
      set Fmax    = 1
      set dFSEE0  = 2
      set lOffset = 0.04
    end
  end
end
)";

  /// A stiff 10 mm cube, quasi-static, clamped on @p clamped_boundary, with the anchored unit.
  void anchored_block(test_support::Problem &problem, const unsigned int clamped_boundary)
  {
    problem.mooney_rivlin(1e8, 0, 1e10);
    problem.newmark.set(false, 0.25, 0.5);
    problem.add_standard_terms();
    problem.add_from<MuscleTendonUnits>(anchored_unit);
    problem.constraints.add(clamped_boundary, "xyz");
    problem.setup();
  }

  /// A distorted 20 mm block, dynamic, clamped at z = 0, with the unit between two inner points.
  void two_point_block(test_support::Problem &problem)
  {
    problem.mooney_rivlin(2e5, 0, 2e7);
    problem.add_standard_terms();
    problem.add_from<MuscleTendonUnits>(two_point_unit);
    problem.constraints.add(4, "xyz");
    problem.setup();
  }
} // namespace

class IsometricSteadyState : public ::testing::TestWithParam<unsigned int>
{};

TEST_P(IsometricSteadyState, MatchesStandaloneHillUnit)
{
  test_support::Problem problem(test_support::box({0.01, 0.01, 0.01}, {2, 2, 2}));
  anchored_block(problem, GetParam());
  // Backward Euler in l_CE: each 50 ms step shrinks the distance to the steady state by
  // 1/(1 + dt/tau) with the isometric relaxation time tau ~ 0.1 s; 5 s leave < 1e-12.
  problem.advance_to(5.0, 0.05);
  const auto r = problem.term<MuscleTendonUnits>().records().at(0);

  HillMuscleTendonUnit::Parameters p;
  p.l_offset = offset;
  const HillMuscleTendonUnit mtu(p);
  const ZajacActivation      zajac{ZajacActivation::Parameters()};
  const double               q_ss = zajac.steady_state(1.0);
  const double               l    = r.l_MTC - offset; // element length
  const double               l_CE = mtu.equilibrium_l_CE(l, q_ss);
  const double               F    = mtu.force_SEE(mtu.l_SEE(l_CE, l));
  std::cout << "clamped boundary " << GetParam() << ": l_MTC = " << r.l_MTC << " m, q = " << r.q
            << ", F_MTC = " << r.F_MTC << " N (standalone " << F << " N), relative error " << std::abs(r.F_MTC - F) / F
            << ", l_CE error " << std::abs(r.l_CE - l_CE) << " m" << std::endl;
  EXPECT_NEAR(r.q, q_ss, 1e-12);
  EXPECT_LT(std::abs(r.F_MTC - F) / F, 1e-6);
  EXPECT_LT(std::abs(r.l_CE - l_CE), 1e-9);
  if (GetParam() == 5)
    EXPECT_NEAR(r.l_MTC, 0.0615, 1e-15); // attachment on the clamped face: exactly isometric
  else
    EXPECT_LT(r.l_MTC, 0.0615 - 1e-6); // the unit stretches the block towards the anchor
}

INSTANTIATE_TEST_SUITE_P(Clamping, IsometricSteadyState, ::testing::Values(5u, 4u));

TEST(MuscleTendonUnits, SameHistoryOnAnyNumberOfRanks)
{
  const auto            mesh = test_support::box({0.02, 0.02, 0.02}, {2, 2, 2}, 0.2);
  test_support::Problem serial(mesh, MPI_COMM_SELF), parallel(mesh, MPI_COMM_WORLD);
  two_point_block(serial);
  two_point_block(parallel);
  // On more than one rank the two points lie in cells of different ranks (the second point is
  // read from a ghost cell).
  const auto owner = [&](const dealii::Point<3> &X) {
    const auto  &dof_handler = parallel.dof_handler();
    const auto   cell = dealii::GridTools::find_active_cell_around_point(dealii::MappingQ1<3>(), dof_handler, X).first;
    unsigned int rank = cell.state() == dealii::IteratorState::valid && cell->is_locally_owned() ?
                          dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) :
                          0;
    return dealii::Utilities::MPI::max(rank, MPI_COMM_WORLD);
  };
  if (dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD) > 1)
    {
      EXPECT_NE(owner({0.018, 0.003, 0.017}), owner({0.002, 0.017, 0.004}));
    }
  double max_difference = 0, max_force = 0;
  for (unsigned int step = 0; step < 20; ++step)
    {
      serial.steps().advance(0.001);
      parallel.steps().advance(0.001);
      ASSERT_EQ(serial.state.time(), parallel.state.time());
      const auto a   = serial.term<MuscleTendonUnits>().records().at(0);
      const auto b   = parallel.term<MuscleTendonUnits>().records().at(0);
      max_difference = std::max(max_difference, std::abs(a.F_MTC - b.F_MTC));
      max_force      = std::max(max_force, std::abs(a.F_MTC));
    }
  std::cout << dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD)
            << " rank(s): max |F_parallel - F_serial| / max F = " << max_difference / max_force << std::endl;
  EXPECT_GT(max_force, 0.1);
  EXPECT_LT(max_difference / max_force, 1e-8);
}
