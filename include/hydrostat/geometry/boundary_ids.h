#pragma once

#include <deal.II/grid/tria.h>

#include <set>
#include <string>

namespace hydrostat
{
  /// The boundary ids of the mesh's boundary faces on all ranks (collective).
  std::set<dealii::types::boundary_id> mesh_boundary_ids(const dealii::Triangulation<3> &triangulation);

  /// Throws InputError on every rank unless @p id is a boundary id of the mesh: "Parameter
  /// '<parameter>' names 7, which is not a boundary id of the mesh (it has 0, 1, 2)." A load, a
  /// constraint or a contact on an id the mesh does not have would act on nothing (collective).
  void require_boundary_id(const dealii::Triangulation<3> &triangulation, unsigned int id,
                           const std::string &parameter);
} // namespace hydrostat
