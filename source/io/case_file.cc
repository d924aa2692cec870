#include <deal.II/base/utilities.h>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <hydrostat/base/errors.h>
#include <hydrostat/io/case_file.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

namespace hydrostat
{
  namespace CaseFile
  {
    namespace
    {
      namespace fs = std::filesystem;
      using Path   = std::vector<std::string>; // subsections, then the entry's name

      /// The path parameters of @p prm: the entries declared with Patterns::FileName.
      std::vector<Path> path_entries(const dealii::ParameterHandler &prm)
      {
        std::stringstream json;
        prm.print_parameters(json, dealii::ParameterHandler::JSON);
        boost::property_tree::ptree tree;
        boost::property_tree::read_json(json, tree);
        std::vector<Path>                                              entries;
        Path                                                           here;
        const std::function<void(const boost::property_tree::ptree &)> walk = [&](const auto &node) {
          for (const auto &[name, child] : node)
            {
              here.push_back(name);
              if (const auto pattern = child.template get_optional<std::string>("pattern_description"))
                {
                  if (pattern->rfind("[FileName", 0) == 0)
                    entries.push_back(here);
                }
              else
                walk(child);
              here.pop_back();
            }
        };
        walk(tree);
        return entries;
      }

      std::string get(dealii::ParameterHandler &prm, const Path &entry)
      {
        for (std::size_t k = 0; k + 1 < entry.size(); ++k)
          prm.enter_subsection(entry[k]);
        const std::string value = prm.get(entry.back());
        for (std::size_t k = 0; k + 1 < entry.size(); ++k)
          prm.leave_subsection();
        return value;
      }

      void set(dealii::ParameterHandler &prm, const Path &entry, const std::string &value)
      {
        for (std::size_t k = 0; k + 1 < entry.size(); ++k)
          prm.enter_subsection(entry[k]);
        prm.set(entry.back(), value);
        for (std::size_t k = 0; k + 1 < entry.size(); ++k)
          prm.leave_subsection();
      }

      /// @p value, if relative, taken from @p folder; absolute and without "." and "..".
      std::string absolute(const std::string &value, const fs::path &folder)
      {
        if (value.empty() || fs::path(value).is_absolute())
          return value;
        return fs::absolute(folder / value).lexically_normal().string();
      }

      /// A line as deal.II reads it: without its comment, tabs as spaces, trimmed, single spaces.
      std::string normalised(std::string line)
      {
        for (std::size_t at = line.find('#'); at != std::string::npos; at = line.find('#', at + 1))
          if (at == 0 || line[at - 1] != '\\')
            {
              line.erase(at);
              break;
            }
        std::replace(line.begin(), line.end(), '\t', ' ');
        line = dealii::Utilities::trim(line);
        for (std::size_t at = line.find("  "); at != std::string::npos; at = line.find("  "))
          line.erase(at, 1);
        return line;
      }

      /// Whether @p line starts with @p word and a space, @p word in lower or upper case.
      bool starts_with(const std::string &line, std::string word)
      {
        if (line.rfind(word + " ", 0) == 0)
          return true;
        std::transform(word.begin(), word.end(), word.begin(), [](const char c) { return std::toupper(c); });
        return line.rfind(word + " ", 0) == 0;
      }

      /**
       * Reads @p file into @p prm relative to its current subsection. Its lines go to deal.II in
       * pieces, split at the include lines: a piece keeps its line numbers (the lines before it
       * blank, except those that reopen the subsections it starts in) and closes the subsections it
       * ends in; the included file is read in between, inside those subsections. Around each piece
       * the path parameters hold a marker, so that those the piece sets are known and taken from
       * the file's folder. @p paths: the path parameters by their path from the subsection @p file
       * is read in.
       */
      void read_file(dealii::ParameterHandler &prm, const std::vector<Path> &paths, const std::string &file,
                     const unsigned int depth)
      {
        require(depth < 32, "The include lines of '" + file + "' nest more than 32 deep: does a file include itself?");
        std::ifstream input(file);
        require(bool(input), "Cannot open the case file '" + file + "'" + where_looked(file) + ".");
        std::vector<std::string> lines;
        for (std::string line; std::getline(input, line);)
          lines.push_back(line);
        const fs::path folder = fs::absolute(fs::path(file)).parent_path();

        std::vector<std::string> open, open_at_start; // subsections open at the current line, at the piece's start
        std::size_t              start      = 0;
        const auto               read_piece = [&](const std::size_t end, const bool close) {
          std::string text;
          for (std::size_t i = 0; i < end; ++i)
            text += (i >= start ? lines[i] : i < open_at_start.size() ? "subsection " + open_at_start[i] : "") + "\n";
          for (std::size_t k = 0; close && k < open.size(); ++k)
            text += "end\n";
          std::vector<std::string> saved;
          const std::string        marker = "\x01 not set by this file";
          for (const Path &entry : paths)
            {
              saved.push_back(get(prm, entry));
              set(prm, entry, marker);
            }
          std::istringstream stream(text);
          try
            {
              prm.parse_input(stream, file);
            }
          catch (...)
            {
              for (std::size_t k = 0; k < paths.size(); ++k)
                set(prm, paths[k], saved[k]);
              throw;
            }
          for (std::size_t k = 0; k < paths.size(); ++k)
            {
              const std::string value = get(prm, paths[k]);
              set(prm, paths[k], value == marker ? saved[k] : absolute(value, folder));
            }
        };
        for (std::size_t i = 0; i < lines.size(); ++i)
          {
            const std::string line = normalised(lines[i]);
            if (starts_with(line, "subsection"))
              open.push_back(line.substr(11));
            else if ((line == "end" || line == "END") && !open.empty())
              open.pop_back();
            else if (starts_with(line, "include"))
              {
                read_piece(i, true);
                const std::string name = dealii::Utilities::trim(line.substr(8));
                const std::string included =
                  fs::path(name).is_absolute() ? name : (folder / name).lexically_normal().string();
                require(fs::exists(included), "Line <" + std::to_string(i + 1) + "> of file <" + file +
                                                ">: the file to include, '" + name + "', does not exist" +
                                                where_looked(included) + ".");
                // The path parameters inside those subsections, by their path from there.
                std::vector<Path> inside;
                for (const Path &entry : paths)
                  if (entry.size() > open.size() && std::equal(open.begin(), open.end(), entry.begin()))
                    inside.emplace_back(entry.begin() + open.size(), entry.end());
                for (const std::string &subsection : open)
                  prm.enter_subsection(subsection);
                read_file(prm, inside, included, depth + 1);
                for (std::size_t k = 0; k < open.size(); ++k)
                  prm.leave_subsection();
                start         = i + 1;
                open_at_start = open;
              }
          }
        read_piece(lines.size(), false);
      }
    } // namespace

    void read(dealii::ParameterHandler &prm, const std::string &file) { read_file(prm, path_entries(prm), file, 0); }

    void make_paths_absolute(dealii::ParameterHandler &prm)
    {
      for (const Path &entry : path_entries(prm))
        set(prm, entry, absolute(get(prm, entry), fs::current_path()));
    }
  } // namespace CaseFile
} // namespace hydrostat
