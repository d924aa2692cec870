// hydrostat: runs a case file (see README.md), or prints/checks parameters.
#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/solver/simulation.h>

#include <filesystem>
#include <iostream>
#include <memory>
#include <streambuf>
#include <string>

namespace
{
  const char *usage = R"(Usage:
  hydrostat CASE.prm               run a case (in parallel: mpirun -np N hydrostat CASE.prm)
  hydrostat --check CASE.prm       parse CASE.prm and build its mesh without running
  hydrostat --print-parameters     print every parameter with its default and documentation
  hydrostat --help                 this text
Ready-to-run cases are in parameters/; output (ParaView .pvd, CSV time series) goes to the
directory named in the case's 'Output' subsection.
)";

  void read_case(dealii::ParameterHandler &prm, const std::string &file)
  {
    AssertThrow(std::filesystem::exists(file), dealii::ExcMessage("Case file '" + file + "' does not exist."));
    prm.parse_input(file);
  }

  /// Discards what is written to it.
  class NullBuffer : public std::streambuf
  {
  protected:
    int overflow(int c) override { return c; }
  };

  /**
   * Parses every parameter of the case (the Simulation constructor does) on this process alone
   * and with std::cerr silenced, so that a bad value throws with only its message: a
   * Simulation on MPI_COMM_WORLD destroyed by the exception would have its parallel
   * TimerOutput print an "uncaught exception" banner on stderr, and muParser writes its own
   * diagnostics to std::cerr.
   */
  void check_parameters(dealii::ParameterHandler &prm)
  {
    NullBuffer   null;
    std::ostream discard(&null);
    struct Silence
    {
      std::streambuf *saved;
      ~Silence() { std::cerr.rdbuf(saved); }
    } silence{std::cerr.rdbuf(&null)};
    const hydrostat::Simulation parsed(prm, MPI_COMM_SELF, discard);
  }
} // namespace

int main(int argc, char **argv)
{
  dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const bool                               root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  const std::vector<std::string>           args(argv + 1, argv + argc);
  // Outside the try block, so that an exception from setup() or run() is caught before the
  // Simulation (and its parallel TimerOutput) is destroyed.
  std::unique_ptr<hydrostat::Simulation> simulation;
  try
    {
      dealii::ParameterHandler prm;
      hydrostat::Simulation::declare_parameters(prm);
      if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h"))
        {
          if (root)
            std::cout << usage;
          return 0;
        }
      if (args.size() == 1 && args[0] == "--print-parameters")
        {
          if (root)
            prm.print_parameters(std::cout, dealii::ParameterHandler::PRM);
          return 0;
        }
      if (args.size() == 2 && args[0] == "--check")
        {
          read_case(prm, args[1]);
          check_parameters(prm);
          simulation = std::make_unique<hydrostat::Simulation>(prm, MPI_COMM_WORLD, std::cout);
          simulation->setup();
          if (root)
            std::cout << args[1] << ": OK (" << simulation->n_dofs() << " DoFs)" << std::endl;
          return 0;
        }
      if (args.size() != 1 || args[0].rfind("-", 0) == 0)
        {
          if (root)
            std::cerr << usage;
          return 2;
        }
      read_case(prm, args[0]);
      check_parameters(prm);
      simulation = std::make_unique<hydrostat::Simulation>(prm, MPI_COMM_WORLD, std::cout);
      simulation->run();
    }
  catch (const std::exception &error)
    {
      if (root)
        std::cerr << "hydrostat: error: " << hydrostat::message_of(error) << std::endl;
      return 1;
    }
  return 0;
}
