// Cell kernels on one distorted cell: CellKinematics reproduces F and Ḟ of an affine field
// exactly, ThreeFieldCell gives the L² projections J̃ = Π J, p̃ = Π U'(J̃) (for Q1 the cell
// means) with the volumetric energy ∫ U(J̃) dV, the internal-force kernel's tangent is the
// derivative of its residual, and the mass kernel integrates ρ0 over the cell.
#include <deal.II/fe/fe_values.h>

#include <hydrostat/fem/cell_kernels.h>
#include <hydrostat/fem/three_field_cell.h>
#include <hydrostat/materials/mooney_rivlin.h>
#include <hydrostat/materials/nominal_stress.h>

#include <gtest/gtest.h>

#include "one_cell.h"

#include <cmath>

using namespace hydrostat;
using namespace dealii;

namespace
{
  using hydrostat::test_support::OneCell;

  /// FEValues on the cell of a OneCell and the CellShapes read from them.
  struct CellValues
  {
    explicit CellValues(const OneCell &c)
      : fe_values(c.fe, c.quadrature, update_values | update_gradients | update_quadrature_points | update_JxW_values)
    {
      fe_values.reinit(c.dof_handler.begin_active());
      shapes.reinit(fe_values);
    }
    FEValues<3> fe_values;
    CellShapes  shapes;
  };

  Tensor<2, 3> matrix(const double values[3][3])
  {
    Tensor<2, 3> A;
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int j = 0; j < 3; ++j)
        A[i][j] = values[i][j];
    return A;
  }
} // namespace

TEST(CellKinematics, AffineFieldGivesItsGradientExactly)
{
  const double       g[3][3] = {{0.21, -0.05, 0.13}, {0.02, -0.11, 0.07}, {-0.09, 0.04, 0.17}};
  const double       h[3][3] = {{1.5, 0.3, -0.2}, {0.1, -0.7, 0.4}, {0.6, 0.0, 0.9}};
  const Tensor<2, 3> G = matrix(g), H = matrix(h);
  for (const unsigned int degree : {1u, 2u})
    {
      OneCell        c(degree);
      FEValues<3>    fe_values(c.fe, c.quadrature, update_gradients | update_values | update_quadrature_points);
      const auto     u = c.interpolate([&](const Point<3> &X) { return G * X; });
      const auto     v = c.interpolate([&](const Point<3> &X) { return H * X; });
      CellKinematics k;
      fe_values.reinit(c.dof_handler.begin_active());
      k.reinit(fe_values, u, v);
      Tensor<2, 3> F = G;
      for (unsigned int d = 0; d < 3; ++d)
        F[d][d] += 1.0;
      ASSERT_EQ(k.F.size(), c.quadrature.size());
      for (unsigned int q = 0; q < c.quadrature.size(); ++q)
        {
          EXPECT_LT((k.F[q] - F).norm(), 1e-14);
          EXPECT_LT((k.F_dot[q] - H).norm(), 1e-14);
          EXPECT_NEAR(k.J[q], determinant(F), 1e-14);
        }
      EXPECT_FALSE(k.inverted());
      std::vector<Tensor<1, 3>> values;
      vector_values(fe_values, v, values);
      for (unsigned int q = 0; q < c.quadrature.size(); ++q)
        EXPECT_LT((values[q] - H * fe_values.quadrature_point(q)).norm(), 1e-14);
    }
}

TEST(ThreeFieldCell, ProjectsJAndThePressure)
{
  const MooneyRivlin law({1e3, 2e2, 5e5});
  for (const unsigned int degree : {1u, 2u})
    {
      OneCell     c(degree);
      FEValues<3> fe_values(c.fe, c.quadrature, update_gradients | update_quadrature_points | update_JxW_values);
      fe_values.reinit(c.dof_handler.begin_active());
      // A non-affine field: J varies over the cell.
      const auto     u = c.interpolate([](const Point<3> &X) {
        return Tensor<1, 3>({0.1 * X[0] * X[1], -0.05 * X[2] * X[2], 0.08 * X[0] * X[2]});
      });
      CellKinematics k;
      k.reinit(fe_values, u);
      Formulation formulation;
      formulation.type   = Formulation::Type::three_field;
      formulation.degree = degree;
      ThreeFieldCell cell(formulation, c.quadrature);
      cell.reinit(fe_values, k.J, law);

      // ∫ ψ (J − J̃) = 0 and ∫ ψ (U'(J̃) − p̃) = 0 for every pressure function ψ.
      double volume = 0, J_integral = 0, energy = 0, p_integral = 0;
      for (unsigned int a = 0; a < formulation.n_pressure_functions(); ++a)
        {
          double rJ = 0, rp = 0, scale = 0;
          for (unsigned int q = 0; q < c.quadrature.size(); ++q)
            {
              rJ += cell.psi[q][a] * (k.J[q] - cell.J_tilde[q]) * fe_values.JxW(q);
              rp += cell.psi[q][a] * (law.dU_dJ(cell.J_tilde[q]) - cell.p_tilde[q]) * fe_values.JxW(q);
              scale += std::abs(cell.psi[q][a]) * fe_values.JxW(q);
            }
          EXPECT_LT(std::abs(rJ), 1e-14 * scale);
          EXPECT_LT(std::abs(rp), 1e-14 * scale * law.bulk_modulus());
        }
      for (unsigned int q = 0; q < c.quadrature.size(); ++q)
        {
          volume += fe_values.JxW(q);
          J_integral += k.J[q] * fe_values.JxW(q);
          energy += law.U(cell.J_tilde[q]) * fe_values.JxW(q);
          p_integral += cell.p_tilde[q] * fe_values.JxW(q);
        }
      EXPECT_NEAR(cell.volumetric_energy(), energy, 1e-14 * energy);
      EXPECT_NEAR(cell.mean_pressure(), p_integral / volume, 1e-12 * std::abs(cell.mean_pressure()));
      // U' is linear: the mean pressure is U' of the mean J, for every degree.
      EXPECT_NEAR(cell.mean_pressure(), law.dU_dJ(J_integral / volume), 1e-9 * std::abs(cell.mean_pressure()));
      if (degree == 1) // P0: J̃ is the cell mean and ∫ U(J̃) = U(J̄) V.
        EXPECT_NEAR(cell.volumetric_energy(), law.U(J_integral / volume) * volume, 1e-12 * energy);
    }
}

TEST(CellKernels, StressDivergenceTangentIsTheDerivativeOfItsResidual)
{
  // r_i(u) = ∫ P(F(u)) : Grad φ_i dV; K from the kernel against central differences of r.
  // Truncation O(h²) ≈ 1e-12 relative and round-off ≈ 1e-16/h ≈ 1e-10: tolerance 1e-7 of max |K|.
  const MooneyRivlin law({1e3, 2e2, 5e5});
  for (const unsigned int degree : {1u, 2u})
    {
      OneCell            c(degree);
      CellValues         cell(c);
      const auto        &fe_values   = cell.fe_values;
      const CellShapes  &shapes      = cell.shapes;
      const unsigned int n           = c.fe.n_dofs_per_cell();
      const auto         u           = c.interpolate([](const Point<3> &X) {
        return Tensor<1, 3>({0.1 * X[0] * X[1] + 0.05 * X[2], -0.05 * X[2] * X[2], 0.08 * X[0] * X[2]});
      });
      const auto         cell_forces = [&](const Vector<double> &u_local, Vector<double> &r, FullMatrix<double> *K) {
        CellKinematics k;
        k.reinit(fe_values, u_local);
        r = 0;
        for (unsigned int q = 0; q < c.quadrature.size(); ++q)
          {
            const NominalStressTangent response = law.nominal_response(k.F[q]);
            add_stress_divergence(shapes, q, response.P, response.A, r, K);
          }
      };
      Vector<double>     r(n), r_plus(n), r_minus(n);
      FullMatrix<double> K(n, n);
      cell_forces(u, r, &K);
      const double h = 1e-6;
      for (unsigned int j = 0; j < n; ++j)
        {
          Vector<double> u_plus = u, u_minus = u;
          u_plus[j] += h;
          u_minus[j] -= h;
          cell_forces(u_plus, r_plus, nullptr);
          cell_forces(u_minus, r_minus, nullptr);
          for (unsigned int i = 0; i < n; ++i)
            EXPECT_NEAR(K(i, j), (r_plus[i] - r_minus[i]) / (2 * h), 1e-7 * K.linfty_norm())
              << "degree " << degree << ", K(" << i << ", " << j << ")";
        }
    }
}

TEST(CellKernels, MassAndVolumeForceIntegrateTheDensity)
{
  // Σ_ij M_ij over the DoFs of one component is ∫ ρ dV (the shape functions sum to one), and
  // the components do not couple; a constant force b per volume gives Σ_i f_i = b V per component.
  for (const unsigned int degree : {1u, 2u})
    {
      OneCell            c(degree);
      CellValues         cell(c);
      const auto        &fe_values = cell.fe_values;
      const CellShapes  &shapes    = cell.shapes;
      const unsigned int n         = c.fe.n_dofs_per_cell();
      FullMatrix<double> M(n, n);
      Vector<double>     f(n);
      const double       rho = 1050;
      const Tensor<1, 3> b({1.0, -2.0, 3.0});
      double             volume = 0;
      for (unsigned int q = 0; q < c.quadrature.size(); ++q)
        {
          add_mass(shapes, q, rho, M);
          add_volume_force(shapes, q, b, f);
          volume += fe_values.JxW(q);
        }
      for (unsigned int a = 0; a < 3; ++a)
        {
          double mass = 0, force = 0;
          for (unsigned int i = 0; i < n; ++i)
            {
              force += (shapes.component[i] == a) * f[i];
              for (unsigned int j = 0; j < n; ++j)
                {
                  if (shapes.component[i] != shapes.component[j])
                    EXPECT_EQ(M(i, j), 0.0);
                  mass += (shapes.component[i] == a && shapes.component[j] == a) * M(i, j);
                }
            }
          EXPECT_NEAR(mass, rho * volume, 1e-12 * rho * volume);
          EXPECT_NEAR(force, b[a] * volume, 1e-12 * std::abs(b[a]) * volume);
        }
    }
}

TEST(ThreeFieldCell, MixedUpdateLinearisesTheCellEquations)
{
  // At a state (u, j, p) off the projection (R_p, R_J ≠ 0), the update δj = A δu + a,
  // δp = B δj + b of local_update() makes the cell equations (12) drop linearly to zero along
  // (δu, δj, δp), d/dt R_p = −R_p, d/dt R_J = −R_J, and the displacement residual
  // R_u = ∫ (P_iso + p̃ J F^{-T}) : Grad φ changes at the rate K̄ δu + K_up w, the condensed tangent
  // and condensed residual of eq. (14b). Central differences with t = 1e-6: truncation ≈ 1e-12 and
  // round-off ≈ 1e-10 relative, tolerance 1e-7 of each quantity's scale.
  const MooneyRivlin law({1e3, 2e2, 5e5});
  for (const unsigned int degree : {1u, 2u})
    {
      OneCell            c(degree);
      CellValues         cell(c);
      const unsigned int n = c.fe.n_dofs_per_cell();
      Formulation        formulation;
      formulation.type       = Formulation::Type::three_field;
      formulation.degree     = degree;
      const unsigned int n_p = formulation.n_pressure_functions();
      const auto         u   = c.interpolate([](const Point<3> &X) {
        return Tensor<1, 3>({0.1 * X[0] * X[1] + 0.05 * X[2], -0.05 * X[2] * X[2], 0.08 * X[0] * X[2]});
      });
      const auto         du  = c.interpolate([](const Point<3> &X) {
        return Tensor<1, 3>({0.02 * X[2] * X[2], 0.03 * X[0] - 0.01 * X[1] * X[2], -0.02 * X[0] * X[1]});
      });
      // The cell at (u, j, p): R_u, R_p, R_J and, with @p K, K̄ and K_up.
      const auto evaluate = [&](const Vector<double> &u_local, const Vector<double> &j, const Vector<double> &p,
                                ThreeFieldCell &three_field, Vector<double> &R_u, FullMatrix<double> *K,
                                FullMatrix<double> *K_up) {
        CellKinematics k;
        k.reinit(cell.fe_values, u_local);
        three_field.reinit(cell.fe_values, k.J, law, j, p);
        R_u = 0;
        for (unsigned int q = 0; q < c.quadrature.size(); ++q)
          {
            auto [tau, Jc]           = law.isochoric_response(k.F[q]);
            const auto [tau_v, Jc_v] = volumetric_response(k.J[q], three_field.p_tilde[q], 0.0);
            const auto response      = nominal_from_kirchhoff(k.F[q], tau + tau_v, Jc + Jc_v);
            add_stress_divergence(cell.shapes, q, response.P, response.A, R_u, K);
            if (K_up)
              three_field.add_coupling(cell.shapes, q, k.J[q], transpose(invert(k.F[q])), *K_up);
          }
      };

      // j, p: the projection at u, moved off it.
      ThreeFieldCell three_field(formulation, c.quadrature);
      CellKinematics k;
      k.reinit(cell.fe_values, u);
      three_field.reinit(cell.fe_values, k.J, law);
      Vector<double> j = three_field.j_coeff, p = three_field.p_coeff;
      j[0] += 0.01;
      p[0] *= 1.3;
      p[0] += 50.0;

      Vector<double>     R_u(n), f(n);
      FullMatrix<double> K(n, n), K_up(n, n_p), A, B;
      Vector<double>     a, b;
      evaluate(u, j, p, three_field, R_u, &K, &K_up);
      const Vector<double> R_p = three_field.R_p, R_J = three_field.R_J;
      ASSERT_GT(R_p.l2_norm(), 1e-4);
      three_field.condense(K_up, K);
      f = R_u;
      three_field.add_condensed_residual(K_up, f);
      three_field.local_update(K_up, A, a, B, b);
      Vector<double> dj(n_p), dp(n_p), rate(n); // δj, δp; K̄ δu + K_up w = f − R_u + K̄ δu
      A.vmult(dj, du);
      dj += a;
      B.vmult(dp, dj);
      dp += b;
      K.vmult(rate, du);
      rate += f;
      rate -= R_u;

      const double   t = 1e-6;
      Vector<double> R_u_plus(n), R_u_minus(n);
      Vector<double> R_p_plus, R_p_minus, R_J_plus, R_J_minus;
      for (const int sign : {1, -1})
        {
          Vector<double> u_t = u, j_t = j, p_t = p;
          u_t.add(sign * t, du);
          j_t.add(sign * t, dj);
          p_t.add(sign * t, dp);
          evaluate(u_t, j_t, p_t, three_field, sign > 0 ? R_u_plus : R_u_minus, nullptr, nullptr);
          (sign > 0 ? R_p_plus : R_p_minus) = three_field.R_p;
          (sign > 0 ? R_J_plus : R_J_minus) = three_field.R_J;
        }
      for (unsigned int i = 0; i < n; ++i)
        EXPECT_NEAR((R_u_plus[i] - R_u_minus[i]) / (2 * t), rate[i], 1e-7 * rate.linfty_norm())
          << "degree " << degree << ", i = " << i;
      for (unsigned int a_index = 0; a_index < n_p; ++a_index)
        {
          EXPECT_NEAR((R_p_plus[a_index] - R_p_minus[a_index]) / (2 * t), -R_p[a_index], 1e-7 * R_p.linfty_norm());
          EXPECT_NEAR((R_J_plus[a_index] - R_J_minus[a_index]) / (2 * t), -R_J[a_index], 1e-7 * R_J.linfty_norm());
        }
    }
}
