// Mooney–Rivlin law (theory.md §3) against closed forms for homogeneous deformations and its
// tangent against central finite differences of the stress.
#include <hydrostat/materials/mooney_rivlin.h>

#include <gtest/gtest.h>

#include <cmath>

using namespace hydrostat;
using dealii::Tensor;

namespace
{
  MooneyRivlin::Parameters tissue()
  {
    MooneyRivlin::Parameters p;
    p.c1 = 1.7e3;
    p.c2 = 0.6e3;
    p.K  = 2.0e5;
    return p;
  }

  Tensor<2, 3> diag(const double a, const double b, const double c)
  {
    Tensor<2, 3> F;
    F[0][0] = a;
    F[1][1] = b;
    F[2][2] = c;
    return F;
  }

  /// Largest entry of |a − b| relative to the largest entry of |b|.
  template <int rank>
  double relative_error(const Tensor<rank, 3> &a, const Tensor<rank, 3> &b)
  {
    return (a - b).norm() / b.norm();
  }
} // namespace

// Cauchy stress of theory.md eq. (8) written out with b = F Fᵀ: the law must reproduce it for the
// three homogeneous deformations of theory.md §12.3.
TEST(MooneyRivlin, CauchyStressMatchesClosedFormForHomogeneousDeformations)
{
  const auto         p = tissue();
  const MooneyRivlin law(p);

  Tensor<2, 3> shear = diag(1.0, 1.0, 1.0);
  shear[0][1]        = 0.8;
  for (const Tensor<2, 3> &F :
       {diag(1.6, 0.8, 0.8) /* uniaxial, compressible */, diag(1.3, 1.3, 0.61) /* equibiaxial */, shear})
    {
      const double J      = dealii::determinant(F);
      const auto   b      = Tensor<2, 3>(F * dealii::transpose(F));
      const auto   b2     = b * b;
      const double I1     = dealii::trace(b);
      const double I2     = 0.5 * (I1 * I1 - dealii::trace(b2));
      const double I1_bar = std::pow(J, -2.0 / 3.0) * I1;
      const double I2_bar = std::pow(J, -4.0 / 3.0) * I2;
      Tensor<2, 3> expected =
        2.0 * (p.c1 + p.c2 * I1_bar) * std::pow(J, -5.0 / 3.0) * b - 2.0 * p.c2 * std::pow(J, -7.0 / 3.0) * b2;
      for (unsigned int i = 0; i < 3; ++i)
        expected[i][i] += -2.0 / (3.0 * J) * (p.c1 * I1_bar + 2.0 * p.c2 * I2_bar) + p.K * (J - 1.0);
      EXPECT_LT(relative_error(Tensor<2, 3>(law.cauchy_stress(F)), expected), 1e-13);
    }
}

// Simple shear of an incompressible Mooney–Rivlin solid: σ12 = 2 (c1 + c2) k, exactly, and the
// normal stress differences σ11 − σ22 = 2 (c1 + c2) k², σ22 − σ33 = −2 c2 k² (Rivlin).
TEST(MooneyRivlin, SimpleShearClosedForm)
{
  const auto         p = tissue();
  const MooneyRivlin law(p);
  for (const double k : {0.1, 0.5, 1.2})
    {
      Tensor<2, 3> F     = diag(1.0, 1.0, 1.0);
      F[0][1]            = k;
      const auto   sigma = law.cauchy_stress(F);
      const double mu    = p.shear_modulus();
      EXPECT_NEAR(sigma[0][1], mu * k, 1e-10 * mu);
      EXPECT_NEAR(sigma[0][0] - sigma[1][1], 2.0 * (p.c1 + p.c2) * k * k, 1e-10 * mu);
      EXPECT_NEAR(sigma[1][1] - sigma[2][2], -2.0 * p.c2 * k * k, 1e-10 * mu);
    }
}

// Uniaxial and equibiaxial tension of the incompressible limit: with lateral stress free,
// σ11 = 2 (λ² − 1/λ)(c1 + c2/λ) (uniaxial), σ11 = 2 (λ² − 1/λ⁴)(c1 + c2 λ²) (equibiaxial).
// The lateral stretch is found from σ22 = 0; as K grows J → 1 and σ11 tends to the closed form.
TEST(MooneyRivlin, UniaxialAndEquibiaxialApproachIncompressibleClosedForm)
{
  for (const bool equibiaxial : {false, true})
    for (const double lambda : {1.3, 1.8})
      {
        double previous_error = 1e300;
        for (const double ratio : {1e2, 1e4, 1e6})
          {
            auto p = tissue();
            p.K    = ratio * p.shear_modulus();
            const MooneyRivlin law(p);
            // Lateral stretch s with σ_lateral(s) = 0, by Newton on a scalar with FD slope.
            double     s    = equibiaxial ? 1.0 / (lambda * lambda) : 1.0 / std::sqrt(lambda);
            const auto F_of = [&](const double s_) {
              return equibiaxial ? diag(lambda, lambda, s_) : diag(lambda, s_, s_);
            };
            const unsigned int lateral = 2;
            for (unsigned int it = 0; it < 50; ++it)
              {
                const double h  = 1e-7 * s;
                const double f  = law.cauchy_stress(F_of(s))[lateral][lateral];
                const double df = (law.cauchy_stress(F_of(s + h))[lateral][lateral] -
                                   law.cauchy_stress(F_of(s - h))[lateral][lateral]) /
                                  (2 * h);
                s -= f / df;
                if (std::abs(f) < 1e-12 * p.shear_modulus())
                  break;
              }
            const double sigma11 = law.cauchy_stress(F_of(s))[0][0];
            const double l       = lambda;
            const double closed  = equibiaxial ? 2.0 * (l * l - std::pow(l, -4)) * (p.c1 + p.c2 * l * l) :
                                                 2.0 * (l * l - 1.0 / l) * (p.c1 + p.c2 / l);
            const double error   = std::abs(sigma11 - closed) / closed;
            EXPECT_LT(error, previous_error);
            previous_error = error;
            // J − 1 = O(μ/K): the volume change shrinks with the bulk modulus.
            EXPECT_LT(std::abs(dealii::determinant(F_of(s)) - 1.0), 10.0 / ratio);
          }
        EXPECT_LT(previous_error, 1e-5);
      }
}

// P = ∂W/∂F checked against central differences of the energy, and A = ∂P/∂F against central
// differences of P, on a general (non-symmetric, large) deformation gradient.
TEST(MooneyRivlin, StressAndTangentMatchFiniteDifferences)
{
  const MooneyRivlin law(tissue());
  Tensor<2, 3>       F;
  const double       values[3][3] = {{1.31, 0.22, -0.13}, {-0.17, 0.86, 0.29}, {0.08, -0.24, 1.12}};
  for (unsigned int i = 0; i < 3; ++i)
    for (unsigned int j = 0; j < 3; ++j)
      F[i][j] = values[i][j];

  const NominalStressTangent response = law.nominal_response(F);
  Tensor<2, 3>               P_fd;
  Tensor<4, 3>               A_fd;
  const double               h = 1e-6;
  for (unsigned int k = 0; k < 3; ++k)
    for (unsigned int L = 0; L < 3; ++L)
      {
        Tensor<2, 3> Fp = F, Fm = F;
        Fp[k][L] += h;
        Fm[k][L] -= h;
        P_fd[k][L]            = (law.energy(Fp) - law.energy(Fm)) / (2 * h);
        const Tensor<2, 3> dP = (law.nominal_response(Fp).P - law.nominal_response(Fm).P) / (2 * h);
        for (unsigned int i = 0; i < 3; ++i)
          for (unsigned int J = 0; J < 3; ++J)
            A_fd[i][J][k][L] = dP[i][J];
      }
  EXPECT_LT(relative_error(response.P, P_fd), 1e-7);
  EXPECT_LT(relative_error(response.A, A_fd), 1e-6);
}

TEST(MooneyRivlin, ReportsImpliedModuli)
{
  MooneyRivlin::Parameters p;
  p.c1 = 1.0e3;
  p.c2 = 0.0;
  p.K  = 2.0e6;
  EXPECT_DOUBLE_EQ(p.shear_modulus(), 2.0e3);
  EXPECT_NEAR(p.poisson_ratio(), (3 * 2e6 - 4e3) / (2 * (6e6 + 2e3)), 1e-15);
}
