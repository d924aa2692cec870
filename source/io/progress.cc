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

  bool ProgressReport::due(const double t, const double wall)
  {
    steps.emplace_back(t, wall);
    const unsigned int tenths = static_cast<unsigned int>(std::floor(10 * t / end_time + 1e-9));
    const bool         passed = tenths > reported_tenths;
    reported_tenths           = std::max(tenths, reported_tenths);
    return !quiet || passed || t >= end_time * (1 - 1e-12);
  }

  std::string ProgressReport::text() const
  {
    const auto [t, wall] = steps.empty() ? std::make_pair(start_time, 0.0) : steps.back();
    char percent[32];
    std::snprintf(percent, sizeof(percent), "%5.1f %%", 100 * t / end_time);
    if (t <= start_time)
      return percent;
    // The cost per simulated second of the recent steps: from the last one at or before the last
    // fifth of the simulated time, and at least three steps back.
    const double from  = t - 0.2 * (t - start_time);
    std::size_t  first = std::upper_bound(steps.begin(), steps.end(), std::make_pair(from, wall)) - steps.begin();
    first              = std::min(first, steps.size() >= 4 ? steps.size() - 4 : std::size_t(0));
    const double t0 = first == 0 ? start_time : steps[first - 1].first, w0 = first == 0 ? 0.0 : steps[first - 1].second;
    const double recent = (wall - w0) / (t - t0), mean = wall / (t - start_time);
    const double left      = recent * std::max(end_time - t, 0.0);
    const bool   uncertain = left >= 5 && (steps.size() < 5 || recent > 2 * mean || recent < 0.5 * mean);
    return std::string(percent) + ", " + (uncertain ? "about " : "") + human_duration(left) + " left" +
           (uncertain ? " (uncertain)" : "");
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
