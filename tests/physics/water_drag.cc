// Water drag (theory.md §9.5): the point force's derivatives ∂h/∂v, ∂h/∂a and the face kernel's
// tangent against central finite differences; the closed form ½ ρ_w C v² A (current area) of a
// flat face moving along its normal and in its plane; the assembled tangent of a dynamic case
// with drag against finite differences of the assembled residual; and the refusal of drag in a
// quasi-static run.

#include <hydrostat/physics/water_drag.h>

#include <gtest/gtest.h>

#include "one_cell.h"
#include "problem.h"

#include <cmath>

using namespace hydrostat;
using namespace dealii;

namespace
{
  WaterDrag drag_law()
  {
    WaterDrag drag;
    drag.boundary_ids           = {0};
    drag.fluid_density          = 1000;
    drag.normal_coefficient     = 1.013;
    drag.tangential_coefficient = 0.0256;
    return drag;
  }

  using test_support::OneCell;

  /// f of the face kernel with v = v_u u + w (Newmark's v₊ with the accepted state in w).
  dealii::Vector<double> face_force(const WaterDrag &drag, FEFaceValues<3> &fe_face_values,
                                    const dealii::Vector<double> &u, const dealii::Vector<double> &w, const double v_u,
                                    FullMatrix<double> *K)
  {
    dealii::Vector<double> v = w, f(u.size());
    v.add(v_u, u);
    CellKinematics            kinematics;
    std::vector<Tensor<1, 3>> velocity;
    kinematics.reinit(fe_face_values, u);
    vector_values(fe_face_values, v, velocity);
    drag.add_face_force(fe_face_values, kinematics, velocity, v_u, f, K);
    return f;
  }
} // namespace

TEST(WaterDrag, PointDerivativesMatchFiniteDifferences)
{
  const WaterDrag drag = drag_law();
  // Oblique velocities (both terms), one along the normal (v_t = 0) and a reversed one.
  const std::vector<Tensor<1, 3>> velocities = {Tensor<1, 3>({0.3, -0.2, 0.5}), Tensor<1, 3>({-0.4, 0.1, 0.05}),
                                                Tensor<1, 3>({0.6, 0.48, -0.36})};
  const Tensor<1, 3>              a({0.5, 0.4, -0.3}); // |a| ≠ 1: the face is stretched
  for (const Tensor<1, 3> &v : velocities)
    {
      const auto   h     = drag.point_force(v, a);
      const double dx    = 1e-7;
      double       error = 0, scale = 0;
      for (unsigned int k = 0; k < 3; ++k)
        {
          Tensor<1, 3> e;
          e[k]                   = dx;
          const Tensor<1, 3> dhv = (drag.point_force(v + e, a).force - drag.point_force(v - e, a).force) / (2 * dx);
          const Tensor<1, 3> dha = (drag.point_force(v, a + e).force - drag.point_force(v, a - e).force) / (2 * dx);
          for (unsigned int i = 0; i < 3; ++i)
            {
              error = std::max({error, std::abs(h.d_velocity[i][k] - dhv[i]), std::abs(h.d_area[i][k] - dha[i])});
              scale = std::max({scale, std::abs(dhv[i]), std::abs(dha[i])});
            }
        }
      // Central differences of a smooth function with entries ~100: truncation ~dx² |h'''| and
      // round-off ~1e-16 |h| / dx, both ≲ 1e-8 relative.
      EXPECT_LT(error / scale, 1e-7) << v;
    }
}

TEST(WaterDrag, FaceTangentMatchesFiniteDifferences)
{
  OneCell         c(1);
  const WaterDrag drag = drag_law();
  FEFaceValues<3> fe_face_values(c.fe, c.face_quadrature,
                                 update_values | update_gradients | update_normal_vectors | update_JxW_values);
  // Large non-affine displacement, and an accepted-state part w of the velocity such that
  // v = v_u u + w has normal and tangential parts of either sign over the faces.
  const auto   u     = c.interpolate([](const Point<3> &X) {
    return Tensor<1, 3>({0.1 * X[0] * X[1] - 0.05 * X[2], -0.08 * X[2] * X[2] + 0.03 * X[0], 0.12 * X[0] * X[2]});
  });
  const auto   w     = c.interpolate([](const Point<3> &X) {
    return Tensor<1, 3>({0.4 - 0.7 * X[1], 0.3 * X[0] - 0.2, -0.5 + 0.6 * X[0] * X[2]});
  });
  const double v_u   = 2.0 / (0.25 * 0.01); // γ/(β Δt), Δt = 10 ms
  double       worst = 0;
  for (const unsigned int face : GeometryInfo<3>::face_indices())
    {
      fe_face_values.reinit(c.dof_handler.begin_active(), face);
      FullMatrix<double> K(u.size(), u.size());
      face_force(drag, fe_face_values, u, w, 0.5 * v_u, &K); // γ = ½
      const double h     = 1e-7;
      double       error = 0, scale = 0;
      for (unsigned int j = 0; j < u.size(); ++j)
        {
          dealii::Vector<double> up = u, um = u;
          up[j] += h;
          um[j] -= h;
          dealii::Vector<double> df = face_force(drag, fe_face_values, up, w, 0.5 * v_u, nullptr);
          df -= face_force(drag, fe_face_values, um, w, 0.5 * v_u, nullptr);
          for (unsigned int i = 0; i < u.size(); ++i)
            {
              error = std::max(error, std::abs(K(i, j) - df[i] / (2 * h)));
              scale = std::max(scale, std::abs(df[i] / (2 * h)));
            }
        }
      worst = std::max(worst, error / scale);
    }
  std::cout << "face kernel: max |K - K_fd| / max |K_fd| = " << worst << std::endl;
  // h = 1e-7 on a unit cell: truncation h² |f'''| ~ 1e-14 relative, round-off ε |f| / h ~ 1e-9.
  EXPECT_LT(worst, 1e-6);
}

TEST(WaterDrag, FlatFaceClosedForm)
{
  // A unit cube stretched homogeneously, F = diag(1.2, 0.9, 1.1), moving rigidly: on the face
  // x = 1 (current area 0.9·1.1) the drag is −½ ρ_w C_n V² A n for motion along n, and
  // −½ ρ_w C_t V² A e for motion in the face.
  Triangulation<3> tria;
  GridGenerator::hyper_cube(tria);
  FESystem<3>   fe(FE_Q<3>(1), 3);
  DoFHandler<3> dof_handler(tria);
  dof_handler.distribute_dofs(fe);
  QGauss<2>       quadrature(2);
  FEFaceValues<3> fe_face_values(fe, quadrature,
                                 update_values | update_gradients | update_normal_vectors | update_JxW_values);
  fe_face_values.reinit(dof_handler.begin_active(), 1); // x = 1, N = e_x
  MappingQ1<3>           mapping;
  dealii::Vector<double> u(fe.n_dofs_per_cell());
  for (unsigned int i = 0; i < u.size(); ++i)
    {
      const Point<3>     X = mapping.transform_unit_to_real_cell(dof_handler.begin_active(), fe.unit_support_point(i));
      const unsigned int d = fe.system_to_component_index(i).first;
      u[i]                 = (std::array<double, 3>{{0.2, -0.1, 0.1}})[d] * X[d];
    }
  const WaterDrag drag = drag_law();
  const double    A = 0.9 * 1.1, V = 0.37;
  for (const unsigned int direction : {0u, 1u})
    {
      dealii::Vector<double> w(u.size());
      for (unsigned int i = 0; i < u.size(); ++i)
        w[i] = fe.system_to_component_index(i).first == direction ? V : 0.0;
      const dealii::Vector<double> f = face_force(drag, fe_face_values, u, w, 0.0, nullptr);
      Tensor<1, 3>                 total;
      for (unsigned int i = 0; i < u.size(); ++i)
        total[fe.system_to_component_index(i).first] += f[i];
      const double C        = direction == 0 ? drag.normal_coefficient : drag.tangential_coefficient;
      const double expected = -0.5 * drag.fluid_density * C * V * V * A;
      EXPECT_NEAR(total[direction], expected, 1e-12 * std::abs(expected));
      EXPECT_NEAR(total.norm(), std::abs(expected), 1e-12 * std::abs(expected));
    }
}

namespace
{
  /// The distorted block of tests/physics/tangent_fd.cc, three-field, dynamic, with drag on the
  /// faces of @p drag_ids.
  void drag_problem(test_support::Problem &problem, const std::vector<unsigned int> &drag_ids)
  {
    problem.mooney_rivlin(3e3, 1e3, 4e5);
    problem.formulation.type = Formulation::Type::three_field;
    problem.add_standard_terms();
    if (!drag_ids.empty())
      {
        auto drag          = std::make_unique<WaterDrag>(drag_law());
        drag->boundary_ids = drag_ids;
        problem.add(std::move(drag));
      }
    problem.constraints.add(0, "xz");
    problem.setup("0.1 * y / 0.01; -0.2 * z / 0.01; 0.3 * x / 0.02");
  }
} // namespace

TEST(WaterDrag, AssembledTangentMatchesFiniteDifferences)
{
  const auto            mesh = test_support::box({0.02, 0.01, 0.01}, {2, 1, 1}, 0.25);
  test_support::Problem problem(mesh), reference(mesh);
  drag_problem(problem, {1, 2, 3, 5});
  const auto u = problem.interpolate([](const Point<3> &X) {
    const double x = X[0] / 0.02, y = X[1] / 0.01, z = X[2] / 0.01;
    return Tensor<1, 3>({0.002 * x * x - 0.001 * y * z, 0.0015 * x * y + 0.0005 * std::sin(3 * z), -0.001 * x});
  });
  // The same state without drag gives the reference tangent: K − K_reference is the drag's part.
  drag_problem(reference, {});
  auto r = reference.state.owned_vector();
  reference.steps().evaluate(u, 0.01, r, &reference.assembler().tangent());

  const auto fd =
    test_support::compare_tangent_with_finite_differences(problem, u, 0.01, &reference.assembler().tangent());
  std::cout << "dynamic three-field with drag: max |K - K_fd| / max |K| = " << fd.max_error / fd.max_entry
            << ", drag part max " << fd.max_reference << " N/m, error max " << fd.max_error << " N/m" << std::endl;
  // As tests/physics/tangent_fd.cc: h = 1e-8 m, truncation and round-off below 1e-6 relative;
  // the drag's own entries are far above that error, so a wrong drag tangent would show.
  EXPECT_LT(fd.max_error / fd.max_entry, 1e-6);
  EXPECT_GT(fd.max_reference, 100 * fd.max_error);
}

TEST(WaterDrag, RefusedInQuasiStaticRuns)
{
  dealii::ParameterHandler prm;
  WaterDrag::declare_parameters(prm);
  prm.parse_input_from_string("subsection Water drag\n  set Boundary ids = 1, 2\nend\n");
  const TissueMaterials materials;
  const MuscleGroups    muscles;
  const Formulation     formulation;
  try
    {
      WaterDrag::create(prm, {materials, muscles, formulation, false});
      FAIL() << "drag in a quasi-static run was accepted";
    }
  catch (const std::exception &e)
    {
      EXPECT_NE(std::string(e.what()).find("Water drag/Boundary ids"), std::string::npos) << e.what();
    }
}
