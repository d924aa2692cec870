#pragma once

#include <string>

namespace hydrostat
{
  /**
   * Progress of a time loop for the log: the percent of the end time reached and the time left,
   * estimated from the wall time per simulated time since the loop (or its restart) began. Quiet
   * mode reports only the first step past each 10 % and the last.
   */
  class ProgressReport
  {
  public:
    ProgressReport(double start_time, double end_time, bool quiet);

    /// Whether the step that reached time @p t is reported (call once per step).
    bool due(double t);

    /// "37.5 %, 1 min 20 s left" at time @p t after @p wall seconds of this loop.
    std::string text(double t, double wall) const;

  private:
    double       start_time, end_time;
    bool         quiet;
    unsigned int reported_tenths = 0;
  };

  /// A duration for people: "42 s", "3 min 20 s", "2 h 05 min".
  std::string human_duration(double seconds);

  /// @p x in scientific notation with @p digits digits after the point ("1.235e-03"), for the log.
  std::string scientific(double x, int digits = 3);
} // namespace hydrostat
