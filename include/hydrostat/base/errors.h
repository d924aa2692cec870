#pragma once

#include <mpi.h>

#include <exception>
#include <optional>
#include <stdexcept>
#include <string>

namespace hydrostat
{
  /// Bad input: a parameter value, case file, mesh or override that the project's own checks
  /// reject. Its what() is the whole user-facing message (naming the parameter and the value), so
  /// the programs print it as it is; deal.II's exceptions go through message_of instead.
  struct InputError : std::runtime_error
  {
    using std::runtime_error::runtime_error;
  };

  /// Throws InputError(@p message) unless @p condition holds: the check of one input value.
  /// The message is built before the call, so checks in loops over cells write `if (!cond)
  /// throw InputError(...)` instead.
  inline void require(const bool condition, const std::string &message)
  {
    if (!condition)
      throw InputError(message);
  }

  /// The same for a literal message: no std::string is built when @p condition holds.
  inline void require(const bool condition, const char *message)
  {
    if (!condition)
      throw InputError(message);
  }

  /// The value of a parameter that is "auto" or a number: nullopt for auto, else the number,
  /// which must be ≥ @p minimum (and an integer if @p integer); anything else is an InputError
  /// naming the parameter @p path (e.g. "Newton/Absolute residual") and the value.
  std::optional<double> auto_or_number(const std::string &value, const std::string &path, double minimum,
                                       bool integer = false);

  /// Throws InputError on every rank of @p comm if @p message is not empty on some rank, with the
  /// message of the lowest such rank: for checks that only the ranks owning the offending cells
  /// can make (a load that is NaN there), so that no rank is left waiting in a collective call.
  void require_on_all_ranks(const std::string &message, MPI_Comm comm);

  /// Where a missing input file @p path was looked for, for its error message: " (looked for
  /// /abs/path)", and for a relative @p path (a case file named on the command line) that it was
  /// taken from the working directory.
  std::string where_looked(const std::string &path);

  /// The user-facing text of an exception: for deal.II exceptions only their message (what
  /// print_info() writes), without the source location that what() adds for developers; for
  /// others (InputError among them) what() on one line.
  std::string message_of(const std::exception &error);
} // namespace hydrostat
