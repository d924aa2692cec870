#pragma once

#include <deal.II/base/parameter_handler.h>

#include <string>

namespace hydrostat
{
  /**
   * Case files and the paths in them. A path parameter is an entry declared with
   * dealii::Patterns::FileName (the mesh file, tables, targets, the output directory). The rule:
   * a relative path written in a case file, and the file named by an `include` line, are taken
   * from the folder of the file that holds the line, so that a case runs from any working
   * directory and a copied folder of cases keeps working; a path given on the command line
   * (--set) is taken from the working directory.
   */
  namespace CaseFile
  {
    /// Parses @p file into @p prm as deal.II's parse_input does (the same syntax and messages),
    /// with its includes and relative paths taken from each file's folder; the paths set by the
    /// files become absolute.
    void read(dealii::ParameterHandler &prm, const std::string &file);

    /// Makes the path parameters of @p prm that are still relative (defaults, --set values)
    /// absolute against the working directory: what parameters.prm and a replay case record
    /// then runs from any folder.
    void make_paths_absolute(dealii::ParameterHandler &prm);
  } // namespace CaseFile
} // namespace hydrostat
