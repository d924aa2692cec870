#pragma once

#include <deal.II/base/point.h>
#include <deal.II/base/tensor.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/lac/trilinos_vector.h>

#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Values of a vector field (displacement, velocity) at fixed reference points, on any number
   * of ranks: each rank evaluates the points that lie in its locally owned cells and the
   * results are summed over ranks (a point on a partition boundary is averaged over the ranks
   * that own a cell around it; the field is continuous there).
   */
  class PointProbes
  {
  public:
    /// An InputError naming @p parameter if a point lies outside the mesh.
    PointProbes(const dealii::DoFHandler<3> &dof_handler, const std::vector<dealii::Point<3>> &points,
                const std::string &parameter);

    /// The points of @p text, 'x, y, z' entries separated by ';' (an InputError naming @p parameter
    /// if an entry is not three numbers).
    static std::vector<dealii::Point<3>> parse(const std::string &text, const std::string &parameter);

    /// Field values at the points; @p field must have ghost entries (locally relevant).
    std::vector<dealii::Tensor<1, 3>> values(const dealii::TrilinosWrappers::MPI::Vector &field) const;

    const std::vector<dealii::Point<3>> &points() const { return probe_points; }

  private:
    struct Location
    {
      unsigned int                                index;
      dealii::DoFHandler<3>::active_cell_iterator cell;
      dealii::Point<3>                            reference_point;
    };
    const dealii::DoFHandler<3>  &dof_handler;
    std::vector<dealii::Point<3>> probe_points;
    std::vector<Location>         local;
    std::vector<double>           owners; // how many ranks evaluate each point
  };
} // namespace hydrostat
