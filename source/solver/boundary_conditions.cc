#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/solver/boundary_conditions.h>

namespace hydrostat
{
  using namespace dealii;

  std::array<bool, 3> parse_components(const std::string &text, const std::string &parameter)
  {
    std::array<bool, 3> mask{{false, false, false}};
    for (const char c : text)
      {
        if (c == ' ')
          continue;
        require(c == 'x' || c == 'y' || c == 'z',
                "Parameter '" + parameter + "': components must be letters among x, y, z, got \"" + text + "\".");
        mask[c - 'x'] = true;
      }
    require(mask[0] || mask[1] || mask[2], "Parameter '" + parameter + "': name at least one component (x, y, z).");
    return mask;
  }

  void BoundaryConditions::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Boundary conditions");
    for (unsigned int k = 1; k <= max_slots; ++k)
      {
        prm.enter_subsection("Constraint " + std::to_string(k));
        prm.declare_entry("Boundary id", "-1", Patterns::Integer(-1, 255), "Boundary id constrained (-1: unused).");
        prm.declare_entry("Components", "xyz", Patterns::Anything(), "Constrained components, e.g. xyz, z, xy.");
        prm.declare_entry("Displacement", "0; 0; 0", Patterns::Anything(),
                          "Prescribed displacement [m] as three expressions of x, y, z, t separated by ';'.");
        prm.leave_subsection();
      }
    for (unsigned int k = 1; k <= max_slots; ++k)
      {
        prm.enter_subsection("Load " + std::to_string(k));
        prm.declare_entry("Boundary id", "-1", Patterns::Integer(-1, 255), "Boundary id loaded (-1: unused).");
        prm.declare_entry("Type", "dead traction", Patterns::Selection("dead traction|follower pressure"),
                          "dead traction: force per reference area in a fixed direction; follower pressure: "
                          "pressure on the current surface, along the current inward normal.");
        prm.declare_entry("Value", "0; 0; 0", Patterns::Anything(),
                          "dead traction: three expressions [Pa]; follower pressure: one expression [Pa]; "
                          "functions of x, y, z, t.");
        prm.leave_subsection();
      }
    prm.declare_entry("Body acceleration", "0; 0; 0", Patterns::Anything(),
                      "Gravity g [m/s^2] (three expressions of x, y, z, t); body force rho0 g.");
    prm.declare_entry("Point constraints", "", Patterns::Anything(),
                      "Vertices held at zero displacement: 'x, y, z: components' entries separated by ';', "
                      "e.g. '0, 0, 0: xy'.");
    prm.leave_subsection();
  }

  void BoundaryConditions::parse_parameters(ParameterHandler &prm)
  {
    constraint_list.clear();
    load_list.clear();
    point_list.clear();
    prm.enter_subsection("Boundary conditions");
    for (unsigned int k = 1; k <= max_slots; ++k)
      {
        const std::string name = "Boundary conditions/Constraint " + std::to_string(k);
        prm.enter_subsection("Constraint " + std::to_string(k));
        const int id = prm.get_integer("Boundary id");
        if (id >= 0)
          constraint_list.push_back(
            {static_cast<unsigned int>(id), parse_components(prm.get("Components"), name + "/Components"),
             std::make_unique<SpaceTimeFunction>(prm.get("Displacement"), 3, name + "/Displacement")});
        prm.leave_subsection();
      }
    for (unsigned int k = 1; k <= max_slots; ++k)
      {
        const std::string name = "Boundary conditions/Load " + std::to_string(k);
        prm.enter_subsection("Load " + std::to_string(k));
        const int id = prm.get_integer("Boundary id");
        if (id >= 0)
          {
            const bool pressure = prm.get("Type") == "follower pressure";
            load_list.push_back(
              {static_cast<unsigned int>(id), pressure ? Load::Type::follower_pressure : Load::Type::dead_traction,
               std::make_unique<SpaceTimeFunction>(prm.get("Value"), pressure ? 1 : 3, name + "/Value")});
          }
        prm.leave_subsection();
      }
    gravity =
      std::make_unique<SpaceTimeFunction>(prm.get("Body acceleration"), 3, "Boundary conditions/Body acceleration");
    for (const std::string &entry : Utilities::split_string_list(prm.get("Point constraints"), ';'))
      {
        const std::string parameter = "Boundary conditions/Point constraints";
        const auto        parts     = Utilities::split_string_list(entry, ':');
        require(parts.size() == 2,
                "Parameter '" + parameter + "': entry \"" + entry + "\" is not of the form 'x, y, z: components'.");
        const auto xyz = Utilities::split_string_list(parts[0], ',');
        require(xyz.size() == 3, "Parameter '" + parameter + "': \"" + parts[0] + "\" is not three coordinates.");
        const auto v = Utilities::string_to_double(xyz);
        point_list.push_back({Point<3>(v[0], v[1], v[2]), parse_components(parts[1], parameter)});
      }
    prm.leave_subsection();
  }

  bool BoundaryConditions::has_follower_loads() const
  {
    for (const Load &load : load_list)
      if (load.type == Load::Type::follower_pressure)
        return true;
    return false;
  }
} // namespace hydrostat
