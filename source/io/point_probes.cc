#include <deal.II/base/exceptions.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature.h>
#include <deal.II/base/utilities.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/grid/grid_tools.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/io/point_probes.h>

#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  std::vector<Point<3>> PointProbes::parse(const std::string &text, const std::string &parameter)
  {
    std::vector<Point<3>> points;
    for (const std::string &entry : Utilities::split_string_list(text, ';'))
      {
        const auto xyz = Utilities::split_string_list(entry, ',');
        require(xyz.size() == 3, "Parameter '" + parameter + "': \"" + entry +
                                   "\" is not three comma-separated coordinates (x, y, z; points separated by ';').");
        const auto v = Utilities::string_to_double(xyz);
        points.emplace_back(v[0], v[1], v[2]);
      }
    return points;
  }

  PointProbes::PointProbes(const DoFHandler<3> &dof_handler, const std::vector<Point<3>> &points,
                           const std::string &parameter)
    : dof_handler(dof_handler)
    , probe_points(points)
    , owners(points.size(), 0.0)
  {
    const MPI_Comm comm = dof_handler.get_triangulation().get_communicator();
    for (unsigned int k = 0; k < points.size(); ++k)
      {
        try
          {
            const auto [cell, xi] = GridTools::find_active_cell_around_point(MappingQ1<3>(), dof_handler, points[k]);
            if (cell.state() == IteratorState::valid && cell->is_locally_owned())
              {
                local.push_back({k, cell, GeometryInfo<3>::project_to_unit_cell(xi)});
                owners[k] = 1.0;
              }
          }
        catch (const std::exception &)
          {
            // Not in this rank's part of the mesh.
          }
      }
    MPI_Allreduce(MPI_IN_PLACE, owners.data(), owners.size(), MPI_DOUBLE, MPI_SUM, comm);
    for (unsigned int k = 0; k < points.size(); ++k)
      {
        std::ostringstream where;
        where << points[k];
        require(owners[k] > 0, "Point (" + where.str() + ") of parameter '" + parameter + "' lies outside the mesh.");
      }
  }

  std::vector<Tensor<1, 3>> PointProbes::values(const TrilinosWrappers::MPI::Vector &field) const
  {
    std::vector<double> sums(3 * probe_points.size(), 0.0);
    Vector<double>      local_values(dof_handler.get_fe().n_dofs_per_cell());
    const MappingQ1<3>  mapping;
    for (const Location &location : local)
      {
        FEValues<3> fe_values(mapping, dof_handler.get_fe(), Quadrature<3>(location.reference_point), update_values);
        fe_values.reinit(location.cell);
        location.cell->get_dof_values(field, local_values);
        for (unsigned int i = 0; i < local_values.size(); ++i)
          {
            const unsigned int c = dof_handler.get_fe().system_to_component_index(i).first;
            sums[3 * location.index + c] += local_values[i] * fe_values.shape_value(i, 0) / owners[location.index];
          }
      }
    MPI_Allreduce(MPI_IN_PLACE, sums.data(), sums.size(), MPI_DOUBLE, MPI_SUM,
                  dof_handler.get_triangulation().get_communicator());
    std::vector<Tensor<1, 3>> result(probe_points.size());
    for (unsigned int k = 0; k < probe_points.size(); ++k)
      for (unsigned int c = 0; c < 3; ++c)
        result[k][c] = sums[3 * k + c];
    return result;
  }
} // namespace hydrostat
