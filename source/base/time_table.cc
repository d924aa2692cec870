#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/base/time_table.h>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace hydrostat
{
  TimeTable::TimeTable(const std::string &path, const std::string &column, const std::string &parameter,
                       const double lower, const double upper)
  {
    std::ifstream file(path);
    require(file.good(), "Parameter '" + parameter + "' = '" + path + "': no such file" + where_looked(path) + ".");
    const std::string where = "File '" + path + "' (parameter '" + parameter + "')";
    std::string       line;
    // Lines as written on Windows (CRLF) too: without the '\r' that ends them there.
    const auto next_line = [&file, &line]() {
      if (!std::getline(file, line))
        return false;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      return true;
    };
    next_line();
    const std::vector<std::string> header = dealii::Utilities::split_string_list(line, ',');
    const auto                     find   = [&](const std::string &name) {
      const auto found = std::find(header.begin(), header.end(), name);
      require(found != header.end(), where + ": its first line '" + line + "' names no column '" + name +
                                                             "'; it needs 'time' and '" + column + "', separated by commas.");
      return std::size_t(found - header.begin());
    };
    const std::size_t time_column = find("time"), value_column = find(column);
    for (unsigned int number = 2; next_line(); ++number)
      {
        if (line.find_first_not_of(" \t\r") == std::string::npos)
          continue;
        const std::string              at    = where + ", line " + std::to_string(number);
        const std::vector<std::string> cells = dealii::Utilities::split_string_list(line, ',');
        if (cells.size() != header.size())
          throw InputError(at + ": " + std::to_string(cells.size()) + " cells, the header has " +
                           std::to_string(header.size()) + ".");
        const auto number_in = [&](const std::size_t c) {
          char        *end   = nullptr;
          const double value = std::strtod(cells[c].c_str(), &end);
          if (cells[c].empty() || *end != '\0' || !std::isfinite(value))
            throw InputError(at + ": '" + cells[c] + "' in column '" + header[c] + "' is not a finite number.");
          return value;
        };
        const double time = number_in(time_column), value = number_in(value_column);
        if (!t.empty() && time <= t.back())
          throw InputError(at + ": time " + shortest_text(time) + " s does not come after the line before (" +
                           shortest_text(t.back()) + " s); the times must increase.");
        if (value < lower || value > upper)
          throw InputError(at + ": " + column + " = " + shortest_text(value) + " is outside [" + shortest_text(lower) +
                           ", " + shortest_text(upper) + "].");
        t.push_back(time);
        v.push_back(value);
      }
    require(!t.empty(), where + ": no rows below the header.");
  }

  double TimeTable::value(const double time) const
  {
    const auto next = std::upper_bound(t.begin(), t.end(), time);
    if (next == t.begin())
      return v.front();
    if (next == t.end())
      return v.back();
    const std::size_t k = next - t.begin();
    const double      s = (time - t[k - 1]) / (t[k] - t[k - 1]);
    return (1 - s) * v[k - 1] + s * v[k];
  }
} // namespace hydrostat
