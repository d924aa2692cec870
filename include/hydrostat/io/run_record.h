#pragma once

#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>

#include <chrono>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Provenance of a run, written by rank 0 into its output directory so that a folder of results
   * says what made it: `parameters.prm`, every parameter as the run used it (defaults and
   * command-line overrides included; it reruns the case as it is), and `run.json`: program
   * version and git commit, deal.II and Trilinos versions, case file and overrides, MPI ranks,
   * host, start and end time (UTC), wall time and exit status ("running" while it runs, then
   * "finished" or "failed" with the error message). Both are written atomically.
   */
  class RunRecord
  {
  public:
    struct Program
    {
      std::string name;
      std::string version;
      std::string git_commit;
    };

    /// Creates @p directory if needed, writes parameters.prm from @p prm and run.json with
    /// status "running".
    RunRecord(const Program &program, const std::string &directory, const std::string &case_file,
              const std::vector<std::string> &overrides, const dealii::ParameterHandler &prm, MPI_Comm comm);

    /// Rewrites run.json with the end time, the wall time and @p status ("finished" or "failed");
    /// @p message says why a run failed.
    void finish(const std::string &status, const std::string &message = "") const;

  private:
    std::string json(const std::string &status, const std::string &message, bool finished) const;

    Program                               program;
    std::string                           directory;
    std::string                           case_file;
    std::vector<std::string>              overrides;
    unsigned int                          n_ranks;
    bool                                  writer;
    std::chrono::system_clock::time_point start;
  };
} // namespace hydrostat
