#include <deal.II/base/mpi.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/geometry/boundary_ids.h>

#include <vector>

namespace hydrostat
{
  using namespace dealii;

  std::set<types::boundary_id> mesh_boundary_ids(const Triangulation<3> &triangulation)
  {
    std::vector<double> present(256, 0.0); // boundary ids are 0-255 in case files
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        for (const unsigned int f : cell->face_indices())
          if (cell->face(f)->at_boundary() && cell->face(f)->boundary_id() < present.size())
            present[cell->face(f)->boundary_id()] = 1;
    Utilities::MPI::max(present, triangulation.get_communicator(), present);
    std::set<types::boundary_id> ids;
    for (unsigned int id = 0; id < present.size(); ++id)
      if (present[id] > 0)
        ids.insert(id);
    return ids;
  }

  void require_boundary_id(const Triangulation<3> &triangulation, const unsigned int id, const std::string &parameter)
  {
    const std::set<types::boundary_id> ids = mesh_boundary_ids(triangulation);
    if (ids.count(id) > 0)
      return;
    std::string present;
    for (const types::boundary_id i : ids)
      present += (present.empty() ? "" : ", ") + std::to_string(i);
    throw InputError("Parameter '" + parameter + "' names " + std::to_string(id) +
                     ", which is not a boundary id of the mesh (it has " + present + ").");
  }
} // namespace hydrostat
