#pragma once

#include <deal.II/base/mpi.h>
#include <deal.II/base/parameter_handler.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace hydrostat
{
  /**
   * Provenance of a run, written by rank 0 into its output directory so that a folder of results
   * says what made it: `parameters.prm`, every parameter as the run used it (defaults and
   * command-line overrides included; it reruns the case as it is), and `run.json`: program
   * version and git commit, deal.II and Trilinos versions, case file and overrides, MPI ranks,
   * host, start and end time (UTC), wall time, exit status ("running" while it runs, then
   * "finished", "interrupted" or "failed" with the error message) and the run's statistics. Both
   * are written atomically.
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

    /// (name, value) pairs, e.g. ("steps", 120), written as the JSON object "statistics".
    using Statistics = std::vector<std::pair<std::string, double>>;

    /// Rewrites run.json with the end time, the wall time, @p status ("finished", "interrupted" or
    /// "failed") and @p statistics; @p message says why a run failed.
    void finish(const std::string &status, const std::string &message = "", const Statistics &statistics = {}) const;

  private:
    std::string json(const std::string &status, const std::string &message, bool finished,
                     const Statistics &statistics = {}) const;

    Program                               program;
    std::string                           directory;
    std::string                           case_file;
    std::vector<std::string>              overrides;
    unsigned int                          n_ranks;
    bool                                  writer;
    std::chrono::system_clock::time_point start;
  };
} // namespace hydrostat
