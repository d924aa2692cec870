#pragma once

#include <string>

namespace hydrostat
{
  /// The shortest decimal text that reads back as @p x ("0.1", "1e-06", "2000"): the default
  /// values of parameters, without the float noise of 17 digits ("0.10000000000000001").
  std::string shortest_text(double x);
} // namespace hydrostat
