#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/numerics/vector_tools.h>

#include <hydrostat/assembly/dirichlet_constraints.h>
#include <hydrostat/base/errors.h>
#include <hydrostat/geometry/boundary_ids.h>

#include <cmath>
#include <limits>
#include <map>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// Whether vertex @p v of @p cell is the point @p p of a point constraint (to 1e-6 of the cell's size).
    bool is_vertex_at(const CellAccessor<3> &cell, const unsigned int v, const Point<3> &p)
    {
      return cell.vertex(v).distance(p) < 1e-6 * cell.diameter();
    }
  } // namespace

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

  void DirichletConstraints::declare_parameters(ParameterHandler &prm)
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
    prm.declare_entry("Point constraints", "", Patterns::Anything(),
                      "Vertices held at zero displacement: 'x, y, z: components' entries separated by ';', "
                      "e.g. '0, 0, 0: xy'.");
    prm.leave_subsection();
  }

  void DirichletConstraints::parse_parameters(ParameterHandler &prm)
  {
    constraint_list.clear();
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
             std::make_unique<SpaceTimeFunction>(prm.get("Displacement"), 3, name + "/Displacement"),
             name + "/Boundary id"});
        prm.leave_subsection();
      }
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

  void DirichletConstraints::add(const unsigned int boundary_id, const std::string &components,
                                 const std::string &displacement)
  {
    constraint_list.push_back({boundary_id, parse_components(components, "components"),
                               std::make_unique<SpaceTimeFunction>(displacement, 3, "displacement"),
                               "boundary id of a constraint"});
  }

  void DirichletConstraints::check(const DoFHandler<3> &dof_handler) const
  {
    const MPI_Comm comm = dof_handler.get_communicator();
    for (const auto &constraint : constraint_list)
      require_boundary_id(dof_handler.get_triangulation(), constraint.boundary_id, constraint.id_parameter);
    for (const auto &point : point_list)
      {
        double nearest = std::numeric_limits<double>::max();
        bool   found   = false;
        for (const auto &cell : dof_handler.active_cell_iterators())
          if (cell->is_locally_owned())
            for (const unsigned int v : cell->vertex_indices())
              {
                nearest = std::min(nearest, cell->vertex(v).distance(point.position));
                found   = found || is_vertex_at(*cell, v, point.position);
              }
        if (Utilities::MPI::max(int(found), comm) == 0)
          {
            std::ostringstream message;
            message << "Parameter 'Boundary conditions/Point constraints': no mesh vertex at (" << point.position
                    << ") m; the nearest is " << Utilities::MPI::min(nearest, comm)
                    << " m away. Give the coordinates of a vertex, in metres (after Mesh/Scale).";
            require(false, message.str());
          }
      }
  }

  void DirichletConstraints::make(const DoFHandler<3> &dof_handler, const IndexSet &relevant,
                                  const TrilinosWrappers::MPI::Vector &u_ghosted, const double t,
                                  AffineConstraints<double> &inhomogeneous,
                                  AffineConstraints<double> &homogeneous) const
  {
    std::map<types::global_dof_index, double> values;
    std::string                               bad_input;
    for (const auto &constraint : constraint_list)
      {
        const std::vector<bool> mask(constraint.components.begin(), constraint.components.end());
        VectorTools::interpolate_boundary_values(MappingQ1<3>(), dof_handler, constraint.boundary_id,
                                                 FunctionAtTime(*constraint.displacement, t), values,
                                                 ComponentMask(mask));
        for (const auto &[dof, value] : values)
          if (!std::isfinite(value) && bad_input.empty())
            bad_input = "Parameter '" + constraint.displacement->parameter() + "': \"" +
                        constraint.displacement->expression() + "\" is not finite on boundary id " +
                        std::to_string(constraint.boundary_id) + " at t = " + std::to_string(t) +
                        " s: change the expression so that it is finite there (a division by zero, a log or "
                        "sqrt of a negative number).";
      }
    require_on_all_ranks(bad_input, dof_handler.get_communicator());
    for (const auto &point : point_list)
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (!cell->is_artificial())
          for (const unsigned int v : cell->vertex_indices())
            if (is_vertex_at(*cell, v, point.position))
              for (unsigned int c = 0; c < 3; ++c)
                if (point.components[c])
                  values[cell->vertex_dof_index(v, c)] = 0.0;

    for (AffineConstraints<double> *constraints : {&inhomogeneous, &homogeneous})
      {
        constraints->clear();
        constraints->reinit(relevant);
      }
    for (const auto &[dof, value] : values)
      {
        inhomogeneous.add_line(dof);
        inhomogeneous.set_inhomogeneity(dof, value - u_ghosted[dof]);
        homogeneous.add_line(dof);
      }
    inhomogeneous.close();
    homogeneous.close();
  }
} // namespace hydrostat
