#include <hydrostat/base/number_text.h>

#include <cstdio>
#include <cstdlib>

namespace hydrostat
{
  std::string shortest_text(const double x)
  {
    char text[32];
    for (int digits = 1; digits <= 17; ++digits)
      {
        std::snprintf(text, sizeof(text), "%.*g", digits, x);
        if (std::strtod(text, nullptr) == x)
          break;
      }
    return text;
  }
} // namespace hydrostat
