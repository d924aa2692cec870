#pragma once
// The case of the inverse tests: a Mooney–Rivlin cylinder (L = 40 mm, R = 5 mm) clamped at its
// base with up to three groups of longitudinal fibres of the constant law in the halves x > 0
// ("right"), x < 0 ("left") and y > 0 ("upper"): each bends the tip its own way and shortens it.
// Ten steps of 0.01 s, the tip's centre a probe point, no ParaView.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace hydrostat::test_support
{
  /// The activation lines of a group: Source = controlled, or an expression of t.
  inline std::string activation_source(const std::string &expression)
  {
    return expression.empty() ? std::string("      set Source = controlled\n") :
                                "      set Source = expression\n      set Level = " + expression + "\n";
  }

  /// The case in @p mode (quasi-static or dynamic) writing to @p directory, with the groups of
  /// @p sources (name → activation lines, of right, left, upper) and @p extra appended.
  inline std::string clamped_cylinder(const std::string &mode, const std::string &directory,
                                      const std::vector<std::pair<std::string, std::string>> &sources,
                                      const std::string                                      &extra = "")
  {
    const std::map<std::string, std::string> region{{"right", "x"}, {"left", "-x"}, {"upper", "y"}};
    std::string                              text = R"(
subsection Mesh
  set Type = cylinder
  set Length = 0.04
  set Radius = 0.005
  set Axial subdivisions = 4
end
subsection Materials
  subsection Material 0
    set c1 = 1e3
    set c2 = 0
    set Bulk modulus = 1e6
    set Density = 1050
  end
end
subsection Boundary conditions
  subsection Constraint 1
    set Boundary id = 1
  end
end
subsection Muscles
  set Number of groups = )" +
                       std::to_string(sources.size()) + "\n";
    for (unsigned int k = 0; k < sources.size(); ++k)
      text += "  subsection Group " + std::to_string(k + 1) + "\n    set Name = " + sources[k].first +
              "\n    set Region = " + region.at(sources[k].first) +
              "\n    set Fibre families = longitudinal\n    set Law = constant\n    subsection Muscle law\n"
              "      set Maximum isometric stress = 3e3\n    end\n    subsection Activation\n" +
              sources[k].second + "    end\n  end\n";
    return text + R"(end
subsection Time integration
  set Mode = )" +
           mode + R"(
end
subsection Time stepping
  set Time step = 0.01
  set End time = 0.1
end
subsection Newton
  set Relative residual = 1e-11
end
subsection Output
  set Directory = )" +
           directory + R"(
  set ParaView = false
  set Verbosity = quiet
  set Probe points = 0, 0, 0.04
end
)" + extra;
  }

  /// The columns of a CSV file by name.
  inline std::map<std::string, std::vector<double>> read_csv(const std::string &path)
  {
    std::ifstream file(path);
    std::string   line;
    std::getline(file, line);
    std::vector<std::string> names;
    std::stringstream        header(line);
    for (std::string name; std::getline(header, name, ',');)
      names.push_back(name);
    std::map<std::string, std::vector<double>> columns;
    while (std::getline(file, line))
      {
        std::stringstream row(line);
        std::string       cell;
        for (unsigned int k = 0; k < names.size() && std::getline(row, cell, ','); ++k)
          columns[names[k]].push_back(std::stod(cell));
      }
    return columns;
  }

  /// The whole text of a file (a case file that a run wrote, such as its replay).
  inline std::string text_of(const std::string &path)
  {
    std::ifstream     file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
  }
} // namespace hydrostat::test_support
