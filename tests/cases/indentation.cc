// HYDROSTAT_TEST_RANKS: 1 2
// Locking-free near-incompressibility (issue 3) on coarse meshes of the locking study
// (benchmarks/locking_study.py, tables in benchmarks/README.md "Locking study"):
//  - step-44 block indentation (parameters/indentation/*.prm, p/p0 = 80, nu = 0.4999,
//    K/mu = 5000) on 4 x 4 x 4 cells: the three-field Q1 top-centre displacement lies within the
//    stated tolerance of the fine-mesh reference, displacement Q1 is several times stiffer
//    (locks), and the volume changes by less than 1e-4;
//  - the plane-strain cantilever (parameters/indentation/cantilever_plane_strain.prm) on
//    20 x 1 x 4 cells: the same for bending;
//  - the three-field indentation on all ranks (MPI_COMM_WORLD) equals the one on rank 0 alone
//    (MPI_COMM_SELF) to 1e-8.
// The volume bound (|v/V0 - 1| < 1e-4) is checked for the three-field element only: the locked
// displacement Q1 element changes the volume by 2e-4 here (benchmarks/README.md).
#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>

#include <hydrostat/driver/simulation.h>

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

using namespace hydrostat;

namespace
{
  struct Result
  {
    double       u;             ///< the probe's vertical displacement [m]
    double       volume_change; ///< (v - V0) / V0
    unsigned int dofs;
  };

  /**
   * Runs parameters/indentation/@p file with the given overrides ("Subsection/Entry" -> value),
   * quasi-statically to t = 1 in steps of at most @p dt, and returns the probe's displacement
   * component @p component.
   */
  Result run(const std::string &file, const std::map<std::string, std::string> &overrides, const double dt,
             const unsigned int component, MPI_Comm comm)
  {
    dealii::ParameterHandler prm;
    Simulation::declare_parameters(prm);
    prm.parse_input(std::string(HYDROSTAT_SOURCE_DIR) + "/parameters/indentation/" + file);
    std::map<std::string, std::string> all = overrides;
    all["Newton/Verbose"]                  = "false";
    // Direct solves: at K/mu = 5000 GMRES + AMG cannot reach the 1e-12 that the rank comparison
    // needs (benchmarks/README.md, "Locking study"); this test is about the discretisation.
    all["Linear solver/Solver type"] = "direct";
    all["Output/Directory"]          = "indentation_output";
    for (const auto &[path, value] : all)
      {
        const auto slash = path.find('/');
        prm.enter_subsection(path.substr(0, slash));
        prm.set(path.substr(slash + 1), value);
        prm.leave_subsection();
      }
    std::ostringstream log;
    Simulation         simulation(prm, comm, log);
    simulation.setup();
    const double volume0 = simulation.global_quantities().volume;
    while (simulation.time() < 1 - 1e-12)
      simulation.advance(std::min(dt, 1 - simulation.time()));
    return {simulation.probe_displacements()[0][component], simulation.global_quantities().volume / volume0 - 1,
            simulation.n_dofs()};
  }

  // Indentation, p/p0 = 80, 2^2 cells per edge, 20 load steps (the case files' settings).
  Result indentation(const std::string &formulation, MPI_Comm comm)
  {
    // The MPI_COMM_WORLD three-field result serves two tests: computed once.
    static std::map<std::string, Result> world;
    if (comm == MPI_COMM_WORLD && world.count(formulation))
      return world.at(formulation);
    const Result result =
      run(formulation == "three-field" ? "three_field_q1.prm" : "displacement_q1.prm",
          {{"Mesh/Box subdivisions", "4, 4, 4"}, {"Newton/Relative residual", "1e-10"}}, 0.05, 1, comm);
    if (comm == MPI_COMM_WORLD)
      world[formulation] = result;
    return result;
  }

  // Cantilever, 5n x 1 x n with n = 4, 4 load steps (Newton at the case's default 1e-8: 1e-10 is
  // below the round-off floor of the residual, ~1e-11 N, on the first, cut-back steps).
  Result cantilever(const std::string &formulation, MPI_Comm comm)
  {
    return run("cantilever_plane_strain.prm",
               {{"Mesh/Box subdivisions", "20, 1, 4"}, {"Finite element/Formulation", formulation}}, 0.25, 2, comm);
  }

  // References (benchmarks/README.md, "Locking study"; benchmarks/locking_study.py, direct solver):
  //  - indentation: three-field Q1 on 8^3 cells (2187 DoFs) gives uy = -0.70116 mm from above,
  //    three-field Q2 on 4^3 cells (2187 DoFs) -0.69775 mm from below (as step-44 reports for
  //    Q1 and Q2), so the limit lies in between: reference -0.6995 mm +- 0.25 %. Three-field Q1 on
  //    4^3 cells gives -0.70550 mm, 0.9 % off: tolerance 2 %. Displacement Q1 on 4^3 cells gives
  //    -0.04123 mm (17 times smaller; -0.132 mm on 8^3): required at least 10 times smaller.
  //  - cantilever: three-field Q1 on n = 8, 16, 32 gives -6.2572, -6.2532, -6.2566 mm and
  //    three-field Q2 on n = 4, 8 -6.2467, -6.2576 mm: reference -6.257 mm (+- 0.1 %). Three-field
  //    Q1 on n = 4 gives -6.3146 mm, 0.9 % off: tolerance 2 %. Displacement Q1 on n = 4 gives
  //    -0.3177 mm (20 times smaller): required at least 10 times smaller.
  constexpr double indentation_reference = -0.6995e-3, indentation_tolerance = 0.02, indentation_locking = 10;
  constexpr double cantilever_reference = -6.257e-3, cantilever_tolerance = 0.02, cantilever_locking = 10;
} // namespace

TEST(Indentation, ThreeFieldConvergesDisplacementLocks)
{
  const Result three_field  = indentation("three-field", MPI_COMM_WORLD);
  const Result displacement = indentation("displacement", MPI_COMM_WORLD);
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::cout << "indentation 4^3 cells (" << three_field.dofs << " DoFs): uy three-field " << three_field.u * 1e3
              << " mm (reference " << indentation_reference * 1e3 << " mm), displacement " << displacement.u * 1e3
              << " mm; volume change " << three_field.volume_change << ", " << displacement.volume_change << std::endl;
  EXPECT_NEAR(three_field.u, indentation_reference, indentation_tolerance * std::abs(indentation_reference));
  EXPECT_LT(std::abs(displacement.u) * indentation_locking, std::abs(three_field.u));
  EXPECT_LT(std::abs(three_field.volume_change), 1e-4);
}

TEST(Cantilever, ThreeFieldConvergesDisplacementLocks)
{
  const Result three_field  = cantilever("three-field", MPI_COMM_WORLD);
  const Result displacement = cantilever("displacement", MPI_COMM_WORLD);
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::cout << "cantilever 20 x 1 x 4 cells (" << three_field.dofs << " DoFs): tip uz three-field "
              << three_field.u * 1e3 << " mm (reference " << cantilever_reference * 1e3 << " mm), displacement "
              << displacement.u * 1e3 << " mm; volume change " << three_field.volume_change << std::endl;
  EXPECT_NEAR(three_field.u, cantilever_reference, cantilever_tolerance * std::abs(cantilever_reference));
  EXPECT_LT(std::abs(displacement.u) * cantilever_locking, std::abs(three_field.u));
  EXPECT_LT(std::abs(three_field.volume_change), 1e-4);
}

TEST(Indentation, OneAndManyRanksAgree)
{
  const unsigned int n_ranks  = dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD);
  const Result       parallel = indentation("three-field", MPI_COMM_WORLD);
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    {
      const Result serial = indentation("three-field", MPI_COMM_SELF);
      std::cout << "1 vs " << n_ranks << " ranks: uy " << serial.u << " vs " << parallel.u << " m, relative difference "
                << std::abs(serial.u - parallel.u) / std::abs(serial.u) << std::endl;
      // Newton to 1e-10 relative (quadratic, so far below) with direct solves: a different partition
      // only changes round-off, amplified by K/mu = 5000; a partition bug shows at 1e-3 or more.
      EXPECT_NEAR(serial.u, parallel.u, 1e-8 * std::abs(serial.u));
      EXPECT_NEAR(serial.volume_change, parallel.volume_change, 1e-8);
    }
}
