#pragma once

#include <hydrostat/physics/term.h>

#include <string>
#include <vector>

namespace hydrostat
{
  /// Every kind of term a case can have, in the order the Assembler adds them (driver/terms.cc: a
  /// new term is its own file pair and one line there).
  const std::vector<TermType> &term_types();

  /// The output fields every kind of term can write (for 'Output/Fields').
  std::vector<std::string> term_field_selectors();
} // namespace hydrostat
