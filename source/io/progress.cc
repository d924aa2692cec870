#include <hydrostat/io/progress.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace hydrostat
{
  ProgressReport::ProgressReport(const double start_time, const double end_time, const bool quiet)
    : start_time(start_time)
    , end_time(end_time)
    , quiet(quiet)
    , reported_tenths(static_cast<unsigned int>(std::floor(10 * start_time / end_time + 1e-9)))
  {}

  bool ProgressReport::due(const double t)
  {
    const unsigned int tenths = static_cast<unsigned int>(std::floor(10 * t / end_time + 1e-9));
    const bool         passed = tenths > reported_tenths;
    reported_tenths           = std::max(tenths, reported_tenths);
    return !quiet || passed || t >= end_time * (1 - 1e-12);
  }

  std::string ProgressReport::text(const double t, const double wall) const
  {
    char percent[32];
    std::snprintf(percent, sizeof(percent), "%5.1f %%", 100 * t / end_time);
    if (t <= start_time)
      return percent;
    const double left = wall / (t - start_time) * std::max(end_time - t, 0.0);
    return std::string(percent) + ", " + human_duration(left) + " left";
  }

  std::string human_duration(const double seconds)
  {
    const long s = std::lround(seconds);
    char       text[48];
    if (s < 60)
      std::snprintf(text, sizeof(text), "%ld s", s);
    else if (s < 3600)
      std::snprintf(text, sizeof(text), "%ld min %02ld s", s / 60, s % 60);
    else
      std::snprintf(text, sizeof(text), "%ld h %02ld min", s / 3600, (s % 3600) / 60);
    return text;
  }

  std::string scientific(const double x, const int digits)
  {
    std::ostringstream s;
    s << std::scientific << std::setprecision(digits) << x;
    return s.str();
  }
} // namespace hydrostat
