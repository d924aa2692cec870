#pragma once

#include <exception>
#include <string>

namespace hydrostat
{
  /// The user-facing text of an exception: for deal.II exceptions only their message (what
  /// print_info() writes), without the source location that what() adds for developers.
  std::string message_of(const std::exception &error);
} // namespace hydrostat
