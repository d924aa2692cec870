#include <deal.II/base/exceptions.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace hydrostat
{
  namespace
  {
    /// @p text as one line. A deal.II what() text embedded in it (by code that wrote
    /// "...: " + error.what()) is cut down to its "Additional information" (without one: its
    /// violated condition), dropping source location and stack trace; lines of dashes are
    /// dropped, and the remaining lines are trimmed and joined with single spaces.
    std::string one_line(std::string text)
    {
      const std::string header = "An error occurred in line";
      for (std::size_t start = text.find(header); start != std::string::npos; start = text.find(header))
        {
          const std::size_t stack = text.find("Stacktrace:", start);
          const std::size_t end   = stack == std::string::npos ? text.size() : stack;
          std::string       label = "Additional information:";
          std::size_t       info  = text.find(label, start);
          if (info == std::string::npos || info > end)
            {
              label = "The violated condition was:";
              info  = text.find(label, start);
            }
          const std::string detail =
            info != std::string::npos && info < end ? text.substr(info + label.size(), end - info - label.size()) : "";
          // The stack trace ends at deal.II's closing line of dashes.
          std::size_t after = text.size();
          if (stack != std::string::npos)
            {
              const std::size_t close = text.find("\n--------", stack + 20);
              if (close != std::string::npos)
                after = std::min(text.size(), text.find('\n', close + 1));
            }
          else
            after = end;
          text = text.substr(0, start) + detail + text.substr(after);
        }

      std::string        result, line;
      std::istringstream lines(text);
      while (std::getline(lines, line))
        {
          line = dealii::Utilities::trim(line);
          if (line.empty() || (line.size() >= 3 && line.find_first_not_of('-') == std::string::npos))
            continue;
          result += (result.empty() ? "" : " ") + line;
        }
      return result;
    }
  } // namespace

  std::string where_looked(const std::string &path)
  {
    const std::filesystem::path file(path);
    if (file.is_absolute())
      return " (looked for " + path + ")";
    return " (looked for " + (std::filesystem::current_path() / file).lexically_normal().string() +
           ": a relative path on the command line is taken from the working directory, " +
           std::filesystem::current_path().string() + ")";
  }

  std::string message_of(const std::exception &error)
  {
    if (const auto *deal_error = dynamic_cast<const dealii::ExceptionBase *>(&error))
      {
        std::ostringstream text;
        deal_error->print_info(text);
        return one_line(text.str());
      }
    return one_line(error.what());
  }

  std::optional<double> auto_or_number(const std::string &value, const std::string &path, const double minimum,
                                       const bool integer)
  {
    if (value == "auto")
      return std::nullopt;
    char        *end    = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    require(!value.empty() && *end == '\0' && number >= minimum && (!integer || number == std::floor(number)),
            "Parameter '" + path + "' must be auto or " + (integer ? "an integer" : "a number") +
              " >= " + dealii::Utilities::to_string(minimum) + ", got '" + value + "'.");
    return number;
  }

  void require_on_all_ranks(const std::string &message, MPI_Comm comm)
  {
    const unsigned int rank  = dealii::Utilities::MPI::this_mpi_process(comm);
    const unsigned int ranks = dealii::Utilities::MPI::n_mpi_processes(comm);
    const unsigned int root  = dealii::Utilities::MPI::min(message.empty() ? ranks : rank, comm);
    if (root < ranks)
      throw InputError(dealii::Utilities::MPI::broadcast(comm, message, root));
  }
} // namespace hydrostat
