#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hydrostat
{
  /**
   * Progress of a time loop for the log: the percent of the end time reached and the time left,
   * estimated from the wall time per simulated time of the recent steps (the last fifth of the
   * simulated time of this loop or its restart, at least three steps), since the cost per step
   * changes as a run goes on (more Newton iterations once the muscles pull, contact). The estimate
   * is marked "about … (uncertain)" while fewer than five steps are done or the recent cost differs
   * from the loop's mean by more than a factor of two (unless under 5 s are left). Quiet mode reports only the first step past
   * each 10 % and the last.
   */
  class ProgressReport
  {
  public:
    ProgressReport(double start_time, double end_time, bool quiet);

    /// Records the step that reached time @p t after @p wall seconds of this loop, and whether it
    /// is reported (call once per step).
    bool due(double t, double wall);

    /// "37.5 %, 1 min 20 s left" at the last recorded step.
    std::string text() const;

  private:
    double                                 start_time, end_time;
    bool                                   quiet;
    unsigned int                           reported_tenths = 0;
    std::vector<std::pair<double, double>> steps; // (t, wall) of every step of this loop
  };

  /// A duration for people: "42 s", "3 min 20 s", "2 h 05 min".
  std::string human_duration(double seconds);

  /// @p x in scientific notation with @p digits digits after the point ("1.235e-03"), for the log.
  std::string scientific(double x, int digits = 3);
} // namespace hydrostat
