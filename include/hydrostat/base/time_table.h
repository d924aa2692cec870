#pragma once

#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * A function of time given as a table (theory.md §7, tabulated activation): one column of a CSV
   * file whose first row names the columns and whose column 'time' [s] increases strictly. The
   * value at t is linear between the rows around it and that of the first or last row outside
   * them, so a piecewise-linear input is reproduced exactly.
   */
  class TimeTable
  {
  public:
    /// Column @p column of the CSV file @p path; an InputError names @p parameter (the input that
    /// gave the file), the file and its line if the file is missing, lacks 'time' or the column, has a
    /// cell that is not a finite number, times that do not increase, or a value outside
    /// [@p lower, @p upper].
    TimeTable(const std::string &path, const std::string &column, const std::string &parameter, const double lower,
              const double upper);

    double value(const double t) const;

    const std::vector<double> &times() const { return t; }

  private:
    std::vector<double> t, v;
  };
} // namespace hydrostat
