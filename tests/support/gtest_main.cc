// GoogleTest entry point for Hydrostat tests: MPI is initialised for every test, and only
// rank 0 prints the GoogleTest report so that `mpirun -np 2` output stays readable.
#include <deal.II/base/mpi.h>

#include <gtest/gtest.h>

int main(int argc, char **argv)
{
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  ::testing::InitGoogleTest(&argc, argv);
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) != 0)
    {
      auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
      delete listeners.Release(listeners.default_result_printer());
    }
  const int local_failure = RUN_ALL_TESTS();
  // A failure on any rank fails the test on all of them.
  return dealii::Utilities::MPI::max(local_failure, MPI_COMM_WORLD);
}
