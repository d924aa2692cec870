// Closed forms of theory.md eqs. (58)–(59) for an actively loaded Mooney–Rivlin cylinder, checked by
// plugging the predicted deformation back into hydrostat::MooneyRivlin plus the fibre stress of
// this layer: the total stress must vanish (free ends and lateral surface).
#include <hydrostat/muscle/closed_forms.h>
#include <hydrostat/muscle/fibre_stress.h>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>

using namespace hydrostat;
using dealii::SymmetricTensor;
using dealii::Tensor;

namespace
{
  MooneyRivlin::Parameters tissue(const double c2_over_c1, const double K_over_mu)
  {
    MooneyRivlin::Parameters p;
    p.c1 = 1.0e3;
    p.c2 = c2_over_c1 * p.c1;
    p.K  = K_over_mu * p.shear_modulus();
    return p;
  }

  Tensor<2, 3> cylinder_F(const CylinderStretches &s)
  {
    Tensor<2, 3> F;
    F[0][0] = F[1][1] = s.radial;
    F[2][2]           = s.axial;
    return F;
  }

  /// Kirchhoff stress Σ P Fᵀ of fibre families along x, y (transverse) and z (axial), each
  /// carrying the constant nominal stress given, through fibre_nominal_response.
  Tensor<2, 3> fibre_kirchhoff(const Tensor<2, 3> &F, const double transverse, const double axial)
  {
    Tensor<2, 3> P;
    for (unsigned int d = 0; d < 3; ++d)
      {
        Tensor<1, 3> N;
        N[d] = 1.0;
        const FibreKinematics fibre(F, Tensor<2, 3>(), N);
        P += fibre_nominal_response(fibre, FibreStress{d < 2 ? transverse : axial, 0.0, 0.0}, 0.0).P;
      }
    return P * dealii::transpose(F);
  }

  const double stress_levels[] = {0.1e3, 1e3, 10e3, 161.4e3 /* σmax at the squid stalk base */};
} // namespace

// (a) Transverse activation, incompressible: at J = 1 the total stress may only be a pressure
// (the Lagrange multiplier), so dev(τ_iso + τf) = 0. The root is found to round-off, so the
// deviator vanishes to ~1e-13 of the largest stress term (T λr or 2 c1 λz²).
TEST(ClosedForms, IncompressibleTransverseActivationLeavesOnlyPressure)
{
  for (const double c2 : {0.0, 0.4})
    for (const double T : stress_levels)
      {
        const auto p = tissue(c2, 1e4);
        const auto s = incompressible_active_cylinder(p, T, 0.0);
        EXPECT_GT(s.axial, 1.0);
        const Tensor<2, 3> F = cylinder_F(s);
        EXPECT_NEAR(dealii::determinant(F), 1.0, 1e-14);
        const Tensor<2, 3> tau   = Tensor<2, 3>(MooneyRivlin(p).tau_iso(F)) + fibre_kirchhoff(F, T, 0.0);
        const double       scale = T * s.radial + 2.0 * (p.c1 + p.c2 * s.axial) * s.axial * s.axial;
        EXPECT_LT(dealii::deviator(dealii::symmetrize(tau)).norm(), 1e-13 * scale) << "T = " << T;
        if (c2 == 0.0)
          std::cout << "  incompressible, c2 = 0: T/c1 = " << T / p.c1 << " -> lambda_z = " << s.axial << '\n';
      }
}

// (b) Axial fibres, incompressible: the bar shortens and thickens.
TEST(ClosedForms, IncompressibleAxialActivationShortensBar)
{
  for (const double T : stress_levels)
    {
      const auto p = tissue(0.4, 1e4);
      const auto s = incompressible_active_cylinder(p, 0.0, T);
      EXPECT_LT(s.axial, 1.0);
      EXPECT_GT(s.radial, 1.0);
      const Tensor<2, 3> F     = cylinder_F(s);
      const Tensor<2, 3> tau   = Tensor<2, 3>(MooneyRivlin(p).tau_iso(F)) + fibre_kirchhoff(F, 0.0, T);
      const double       scale = T + 2.0 * (p.c1 + p.c2) * s.radial * s.radial * s.radial * s.radial;
      EXPECT_LT(dealii::deviator(dealii::symmetrize(tau)).norm(), 1e-13 * scale);
    }
}

// Small active stress: linear elasticity, incompressible, E = 3μ = 6 (c1 + c2): the transverse
// case is uniaxial tension T along z (λz − 1 = T/E), the axial case uniaxial compression. The
// relative error of the linearisation is O(T/μ) = 1e-4 here; tolerance 1e-3.
TEST(ClosedForms, SmallStressLimitIsLinearElasticity)
{
  const auto   p = tissue(0.4, 1e4);
  const double T = 1e-4 * p.c1, E = 3.0 * p.shear_modulus();
  EXPECT_NEAR((incompressible_active_cylinder(p, T, 0.0).axial - 1.0) / (T / E), 1.0, 1e-3);
  EXPECT_NEAR((incompressible_active_cylinder(p, 0.0, T).axial - 1.0) / (-T / E), 1.0, 1e-3);
}

// The nearly incompressible version, as the FE code sees it: with the predicted F the total
// Cauchy stress (MooneyRivlin::cauchy_stress plus the fibres) vanishes. The residual is limited
// by K times the round-off in J (K·1e-16·few ≈ 1e-8 Pa for K = 2e7 Pa), hence the bound.
TEST(ClosedForms, CompressibleCylinderIsStressFree)
{
  for (const double K_over_mu : {1e3, 1e4, 1e5}) // the range of theory.md §3
    for (const double c2 : {0.0, 0.4})
      for (const double T : stress_levels)
        for (const bool axial : {false, true})
          {
            const auto         p  = tissue(c2, K_over_mu);
            const double       Tr = axial ? 0.0 : T, Tz = axial ? T : 0.0;
            const auto         s     = active_cylinder(p, Tr, Tz);
            const Tensor<2, 3> F     = cylinder_F(s);
            const double       J     = dealii::determinant(F);
            const Tensor<2, 3> sigma = Tensor<2, 3>(MooneyRivlin(p).cauchy_stress(F)) + fibre_kirchhoff(F, Tr, Tz) / J;
            EXPECT_LT(sigma.norm(), 1e-14 * p.K + 1e-12 * T)
              << "K/mu " << K_over_mu << " T " << T << " axial " << axial;
            EXPECT_LT(J, 1.0); // tension in the fibres lowers the mean pressure: J < 1
          }
}

// The compressible stretches tend to the incompressible ones as K grows, the difference
// shrinking like μ/K (a factor ≈ 10 per decade of K).
TEST(ClosedForms, CompressibleTendsToIncompressible)
{
  for (const bool axial : {false, true})
    {
      const double T        = 10e3;
      auto         p        = tissue(0.4, 1.0);
      const auto   limit    = incompressible_active_cylinder(p, axial ? 0.0 : T, axial ? T : 0.0);
      double       previous = 1e300;
      for (const double K_over_mu : {1e2, 1e3, 1e4, 1e5})
        {
          p.K                     = K_over_mu * p.shear_modulus();
          const auto   s          = active_cylinder(p, axial ? 0.0 : T, axial ? T : 0.0);
          const double difference = std::abs(s.axial - limit.axial);
          EXPECT_LT(difference, previous / 8.0);
          previous = difference;
          if (!axial)
            std::cout << "  K/mu = " << K_over_mu << ", T/c1 = 10, c2/c1 = 0.4: lambda_z = " << s.axial
                      << " (incompressible " << limit.axial << "), J = " << s.radial * s.radial * s.axial << '\n';
        }
      EXPECT_LT(previous, 1e-4 * limit.axial);
    }
}
