// Neo-Hookean law W = μ/2 (Ī1 − 3) + K/2 (J − 1)² against its closed form in homogeneous uniaxial
// stretch, its stress and tangent against central finite differences, and its identity with
// Mooney–Rivlin at c1 = μ/2, c2 = 0.
#include <hydrostat/materials/mooney_rivlin.h>
#include <hydrostat/materials/neo_hookean.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

using namespace hydrostat;
using dealii::SymmetricTensor;
using dealii::Tensor;

namespace
{
  NeoHookean::Parameters tissue()
  {
    NeoHookean::Parameters p;
    p.mu = 3.4e3;
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

  Tensor<2, 3> general_F()
  {
    Tensor<2, 3> F;
    const double values[3][3] = {{1.31, 0.22, -0.13}, {-0.17, 0.86, 0.29}, {0.08, -0.24, 1.12}};
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int j = 0; j < 3; ++j)
        F[i][j] = values[i][j];
    return F;
  }

  template <int rank>
  double relative_error(const Tensor<rank, 3> &a, const Tensor<rank, 3> &b)
  {
    return (a - b).norm() / b.norm();
  }
} // namespace

// F = diag(λ, s, s), J = λ s²: σ = μ J^{-5/3} dev(diag(λ², s², s²)) + K (J − 1) I, so
// σ11 = 2/3 μ J^{-5/3} (λ² − s²) + K (J − 1) and σ22 = σ33 = −1/3 μ J^{-5/3} (λ² − s²) + K (J − 1),
// for any lateral stretch s (stretched, compressed, with and without volume change).
TEST(NeoHookean, UniaxialStretchMatchesClosedForm)
{
  const auto       p = tissue();
  const NeoHookean law(p);
  double           worst = 0;
  for (const double lambda : {0.7, 1.0, 1.3, 1.8})
    for (const double s : {0.8, 1.0 / std::sqrt(lambda), 1.05})
      {
        const double J      = lambda * s * s;
        const double shear  = p.mu * std::pow(J, -5.0 / 3.0) * (lambda * lambda - s * s);
        const double volume = p.K * (J - 1.0);
        const auto   sigma  = law.cauchy_stress(diag(lambda, s, s));
        const double scale  = p.mu + std::abs(volume);
        const double error  = std::max({std::abs(sigma[0][0] - (2.0 / 3.0 * shear + volume)),
                                        std::abs(sigma[1][1] - (-1.0 / 3.0 * shear + volume)),
                                        std::abs(sigma[2][2] - (-1.0 / 3.0 * shear + volume)),
                                        std::abs(sigma[0][1]) + std::abs(sigma[0][2]) + std::abs(sigma[1][2])}) /
                             scale;
        worst = std::max(worst, error);
        EXPECT_LT(error, 1e-13) << "lambda = " << lambda << ", s = " << s;
      }
  std::printf("neo-Hookean uniaxial closed form: largest error %.2e (relative to mu + |K (J - 1)|)\n", worst);
}

// Lateral faces free (σ22 = 0): as K/μ grows, J → 1 and σ11 tends to the incompressible closed
// form μ (λ² − 1/λ).
TEST(NeoHookean, UniaxialTensionApproachesIncompressibleClosedForm)
{
  for (const double lambda : {1.3, 1.8})
    {
      double previous_error = 1e300;
      for (const double ratio : {1e2, 1e4, 1e6})
        {
          auto p = tissue();
          p.K    = ratio * p.mu;
          const NeoHookean law(p);
          double           s = 1.0 / std::sqrt(lambda);
          for (unsigned int it = 0; it < 50; ++it)
            {
              const double h  = 1e-7 * s;
              const double f  = law.cauchy_stress(diag(lambda, s, s))[1][1];
              const double df = (law.cauchy_stress(diag(lambda, s + h, s + h))[1][1] -
                                 law.cauchy_stress(diag(lambda, s - h, s - h))[1][1]) /
                                (2 * h);
              s -= f / df;
              if (std::abs(f) < 1e-12 * p.mu)
                break;
            }
          const double closed = p.mu * (lambda * lambda - 1.0 / lambda);
          const double error  = std::abs(law.cauchy_stress(diag(lambda, s, s))[0][0] - closed) / closed;
          std::printf("neo-Hookean uniaxial tension lambda = %.1f, K/mu = %.0e: |sigma11 - mu (lambda^2 - "
                      "1/lambda)| / that = %.2e, J - 1 = %.2e\n",
                      lambda, ratio, error, lambda * s * s - 1.0);
          EXPECT_LT(error, previous_error);
          previous_error = error;
          EXPECT_LT(std::abs(lambda * s * s - 1.0), 10.0 / ratio);
        }
      EXPECT_LT(previous_error, 1e-5);
    }
}

// P = ∂W/∂F against central differences of the energy, A = ∂P/∂F against central differences
// of P, on a general (non-symmetric, large) deformation gradient.
TEST(NeoHookean, StressAndTangentMatchFiniteDifferences)
{
  const NeoHookean           law(tissue());
  const Tensor<2, 3>         F        = general_F();
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
  std::printf("neo-Hookean finite differences (h = 1e-6): |P - P_fd|/|P_fd| = %.2e, |A - A_fd|/|A_fd| = %.2e\n",
              relative_error(response.P, P_fd), relative_error(response.A, A_fd));
  EXPECT_LT(relative_error(response.P, P_fd), 1e-7);
  EXPECT_LT(relative_error(response.A, A_fd), 1e-6);
  // The Cauchy stress is P Fᵀ / J.
  const Tensor<2, 3> sigma = response.P * dealii::transpose(F) / dealii::determinant(F);
  EXPECT_LT(relative_error(Tensor<2, 3>(law.cauchy_stress(F)), sigma), 1e-14);
}

// μ/2 (Ī1 − 3) is Mooney–Rivlin with c1 = μ/2, c2 = 0: every quantity agrees to round-off.
TEST(NeoHookean, EqualsMooneyRivlinWithoutSecondInvariant)
{
  const auto         p = tissue();
  const NeoHookean   neo_hookean(p);
  const MooneyRivlin mooney_rivlin({0.5 * p.mu, 0.0, p.K});
  const TissueLaw   &a = neo_hookean, &b = mooney_rivlin;
  double             worst = 0;
  for (const Tensor<2, 3> &F : {general_F(), diag(1.6, 0.8, 0.8), diag(1.3, 1.3, 0.61), diag(1.0, 1.0, 1.0)})
    {
      const auto [tau_a, Jc_a] = a.isochoric_response(F);
      const auto [tau_b, Jc_b] = b.isochoric_response(F);
      const auto   nominal_a   = a.nominal_response(F);
      const auto   nominal_b   = b.nominal_response(F);
      const double scale       = p.mu + p.K;
      for (const double error :
           {std::abs(a.energy(F) - b.energy(F)) / scale, std::abs(a.isochoric_energy(F) - b.isochoric_energy(F)) / p.mu,
            (tau_a - tau_b).norm() / p.mu, (a.tau_iso(F) - b.tau_iso(F)).norm() / p.mu, (Jc_a - Jc_b).norm() / p.mu,
            (nominal_a.P - nominal_b.P).norm() / scale, (nominal_a.A - nominal_b.A).norm() / scale,
            (a.cauchy_stress(F) - b.cauchy_stress(F)).norm() / scale})
        {
          worst = std::max(worst, error);
          EXPECT_LT(error, 1e-14);
        }
    }
  EXPECT_EQ(a.shear_modulus(), b.shear_modulus());
  EXPECT_EQ(a.poisson_ratio(), b.poisson_ratio());
  std::printf("neo-Hookean vs Mooney-Rivlin (c1 = mu/2, c2 = 0): largest relative difference %.2e\n", worst);
}
