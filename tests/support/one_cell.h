#pragma once

#include <deal.II/base/quadrature_lib.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/tria.h>
#include <deal.II/lac/vector.h>

#include <vector>

namespace hydrostat::test_support
{
  /// One general hexahedron (a non-affine mapping) with FE_Q(degree)³ displacements and Gauss
  /// rules of degree + 1 points on the cell and its faces: the test bed of the cell and face kernels.
  struct OneCell
  {
    dealii::Triangulation<3> tria;
    dealii::FESystem<3>      fe;
    dealii::DoFHandler<3>    dof_handler;
    dealii::QGauss<3>        quadrature;
    dealii::QGauss<2>        face_quadrature;

    explicit OneCell(const unsigned int degree)
      : fe(dealii::FE_Q<3>(degree), 3)
      , quadrature(degree + 1)
      , face_quadrature(degree + 1)
    {
      const std::vector<dealii::Point<3>> vertices = {{0, 0, 0},     {1.1, 0, 0.1},   {0, 0.9, 0},   {1.2, 1.0, 0.2},
                                                      {0.1, 0, 1.0}, {1.0, 0.1, 1.1}, {0, 1.1, 0.9}, {1.0, 1.0, 1.3}};
      dealii::GridGenerator::general_cell(tria, vertices);
      dof_handler.reinit(tria);
      dof_handler.distribute_dofs(fe);
    }

    /// Cell DoF values of the field X ↦ f(X), interpolated at the support points.
    template <typename Field>
    dealii::Vector<double> interpolate(const Field &f) const
    {
      const auto             cell = dof_handler.begin_active();
      dealii::Vector<double> local(fe.n_dofs_per_cell());
      dealii::MappingQ1<3>   mapping;
      for (unsigned int i = 0; i < fe.n_dofs_per_cell(); ++i)
        {
          const dealii::Point<3> X = mapping.transform_unit_to_real_cell(cell, fe.unit_support_point(i));
          local[i]                 = f(X)[fe.system_to_component_index(i).first];
        }
      return local;
    }
  };
} // namespace hydrostat::test_support
