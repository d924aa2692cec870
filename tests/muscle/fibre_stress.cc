// Fibre stress P = σm0 m⊗N of a Van Leeuwen–Kier family (theory.md eqs. (16)–(18)) and its exact tangent
// A = dP/dF, with and without the Newmark rate term, against central finite differences; P
// against the closed form for a uniaxial stretch along N; zero stress when it must vanish.
#include <hydrostat/muscle/fibre_stress.h>

#include <gtest/gtest.h>

#include <cmath>

using namespace hydrostat;
using dealii::Tensor;

namespace
{
  Tensor<2, 3> identity()
  {
    Tensor<2, 3> I;
    for (unsigned int i = 0; i < 3; ++i)
      I[i][i] = 1.0;
    return I;
  }

  /// A rotation (Rodrigues) about the unit axis a by angle t.
  Tensor<2, 3> rotation(const Tensor<1, 3> &a, const double t)
  {
    Tensor<2, 3> W;
    W[0][1] = -a[2], W[0][2] = a[1], W[1][0] = a[2], W[1][2] = -a[0], W[2][0] = -a[1], W[2][1] = a[0];
    return identity() + std::sin(t) * W + (1 - std::cos(t)) * W * W;
  }

  Tensor<1, 3> unit(const double x, const double y, const double z)
  {
    Tensor<1, 3> v({x, y, z});
    return v / v.norm();
  }

  const Tensor<1, 3> N = unit(1, 2, 2);

  /**
   * A general F with fibre stretch exactly λ along N: rotate (I + (λ − 1) N⊗N + shears that leave
   * F N alone), so the test can place λ away from the kinks of fl. Ḟ has λ̇ = rate and a part of
   * Ḟ N normal to m, so that every term of the tangent is exercised.
   */
  struct State
  {
    Tensor<2, 3> F, F_dot;
  };
  State state(const double lambda, const double rate)
  {
    const Tensor<1, 3> a = unit(2, -1, 0), b = dealii::cross_product_3d(N, a); // ⊥ N
    const Tensor<2, 3> Q = rotation(unit(0.3, -0.5, 0.8), 0.7);
    State              s;
    s.F = Q * (identity() + (lambda - 1) * dealii::outer_product(N, N) + 0.15 * dealii::outer_product(a, b) -
               0.1 * dealii::outer_product(b, b) + 0.2 * dealii::outer_product(N, a));
    const Tensor<1, 3> m = Q * N, q = Q * a;
    s.F_dot = rate * dealii::outer_product(m, N) + 0.8 * dealii::outer_product(q, N) +
              0.5 * dealii::outer_product(m, b) - 0.3 * dealii::outer_product(q, a);
    return s;
  }

  struct Case
  {
    double lambda, rate, fa, dfa_dlambda;
  };
  // Stretched with passive stress on the descending limb, lengthening; shortened on ascending
  // limb 1, shortening (r ≈ 0.27); one with a stretch-dependent activation. All at least 0.01
  // (twice the smoothing width) away from a kink of fl or fv, checked below.
  const Case cases[] = {{1.30, 6.0, 0.7, 0.0}, {0.88, -8.0, 1.0, 0.0}, {1.12, -3.0, 0.4, 0.9}};

  /// P, with Ḟ = Ḟ0 + α (F − F0) as the Newmark update makes it, and fa following λ linearly.
  Tensor<2, 3> stress(const VanLeeuwenKierMuscle &muscle, const Case &c, const State &s0, const Tensor<2, 3> &F,
                      const double alpha)
  {
    const Tensor<2, 3> F_dot = s0.F_dot + alpha * (F - s0.F);
    const double       fa    = c.fa + c.dfa_dlambda * ((F * N).norm() - c.lambda);
    return muscle_fibre_response(muscle, N, F, F_dot, alpha, fa, c.dfa_dlambda).stress.P;
  }
} // namespace

// Central differences with step 1e-6 on entries of F of order 1: truncation δ² ∂³P ≈ 1e-12 ×
// (α/|ε̇min|)³ σmax ≲ 1e-7 of |A| even for α = 2000/s, round-off 1e-16/1e-6. Tolerance 1e-6
// (relative, Frobenius norm), as the brief asks.
TEST(FibreStress, TangentMatchesFiniteDifferences)
{
  const VanLeeuwenKierMuscle muscle(VanLeeuwenKierMuscle::Parameters{});
  const double               h = muscle.unloaded_shortening_rate();
  for (const Case &c : cases)
    for (const double alpha : {0.0, 2000.0 /* γ/(βΔt), Δt = 1 ms */})
      {
        const State s0   = state(c.lambda, c.rate);
        const auto  full = muscle_fibre_response(muscle, N, s0.F, s0.F_dot, alpha, c.fa, c.dfa_dlambda);
        ASSERT_NEAR(full.stretch, c.lambda, 1e-14);
        ASSERT_NEAR(full.stretch_rate, c.rate, 1e-13);
        // away from kinks: this is what makes the FD comparison meaningful
        double distance = 1e300;
        for (const double k : muscle.force_length_kinks())
          distance = std::min(distance, std::abs(c.lambda - 1 - k));
        distance = std::min({distance, std::abs(c.rate / h), std::abs(c.rate / h - 1)});
        ASSERT_GT(distance, 0.01);

        Tensor<4, 3> A_fd;
        const double d = 1e-6;
        for (unsigned int k = 0; k < 3; ++k)
          for (unsigned int L = 0; L < 3; ++L)
            {
              Tensor<2, 3> Fp = s0.F, Fm = s0.F;
              Fp[k][L] += d;
              Fm[k][L] -= d;
              const Tensor<2, 3> dP = (stress(muscle, c, s0, Fp, alpha) - stress(muscle, c, s0, Fm, alpha)) / (2 * d);
              for (unsigned int i = 0; i < 3; ++i)
                for (unsigned int J = 0; J < 3; ++J)
                  A_fd[i][J][k][L] = dP[i][J];
            }
        const double error = (full.stress.A - A_fd).norm() / A_fd.norm();
        EXPECT_LT(error, 1e-6) << "lambda " << c.lambda << " alpha " << alpha;
        std::cout << "  FD tangent: lambda = " << c.lambda << ", rate = " << c.rate << "/s, alpha = " << alpha
                  << "/s: relative error " << error << '\n';
      }
}

// The rate term matters: dropping it (α = 0 in the tangent while Ḟ follows F) must be visibly
// wrong, otherwise the test above could not tell.
TEST(FibreStress, RateTermIsNotNegligible)
{
  const VanLeeuwenKierMuscle muscle(VanLeeuwenKierMuscle::Parameters{});
  const State                s0      = state(0.88, -8.0);
  const auto                 with    = muscle_fibre_response(muscle, N, s0.F, s0.F_dot, 2000.0, 1.0, 0.0).stress.A;
  const auto                 without = muscle_fibre_response(muscle, N, s0.F, s0.F_dot, 0.0, 1.0, 0.0).stress.A;
  EXPECT_GT((with - without).norm() / with.norm(), 0.5);
}

// Uniaxial stretch λ along N with lateral contraction 1/√λ and Ḟ = λ̇ N⊗N: P = σm0 N⊗N with
// σm0 from the paper's formulas written out by hand (squid base: lmyo = 0.97, l0 = 1.34 µm,
// lact = 1.21 µm; ls = 1.742 µm on the descending limb; r = λ̇/ε̇min < 0 lengthening).
TEST(FibreStress, UniaxialStretchClosedForm)
{
  const VanLeeuwenKierMuscle muscle(VanLeeuwenKierMuscle::Parameters{});
  const double               lambda = 1.3, rate = 6.0, fa = 0.6;
  const Tensor<2, 3>         NN = dealii::outer_product(N, N);
  const Tensor<2, 3>         F  = NN * lambda + (identity() - NN) / std::sqrt(lambda);
  const auto                 r  = muscle_fibre_response(muscle, N, F, rate * NN, 0.0, fa, 0.0);

  const double sigma_max = 280e3 * (0.97 - 0.14) / (1.58 - 0.14);
  const double fl        = (0.97 + 1.21 + 0.06 - 1.34 * lambda) / (0.97 - 0.14);
  const double rr        = rate / (-17.0 * 2.37 / 1.34);
  const double fv        = 1.8 - 0.8 * (1 + rr) / (1 - 7.56 * rr / 0.25);
  const double sigma     = 887.4e3 * std::pow(lambda - 1, 2.2605) + sigma_max * fa * fl * fv;
  EXPECT_NEAR(r.force_length, fl, 1e-14);
  EXPECT_NEAR(r.force_velocity, fv, 1e-14);
  EXPECT_NEAR(r.nominal_stress, sigma, 1e-9 * sigma);
  EXPECT_NEAR(r.stretch_rate, rate, 1e-14);
  EXPECT_LT((r.stress.P - sigma * NN).norm(), 1e-9 * sigma);
  // Cauchy stress σ = P Fᵀ/J = σm0 λ/J m⊗m: the paper's σm = σm0 (1 + ε) at J = 1.
  const Tensor<2, 3> cauchy = r.stress.P * dealii::transpose(F) / dealii::determinant(F);
  EXPECT_NEAR(cauchy * N * N, sigma * lambda, 1e-9 * sigma);
}

// No activation and no fibre tension (ε ≤ 0): stress and tangent vanish exactly, whatever the
// rate and α.
TEST(FibreStress, ZeroWithoutActivationInCompression)
{
  const VanLeeuwenKierMuscle muscle(VanLeeuwenKierMuscle::Parameters{});
  for (const double lambda : {0.7, 0.95, 1.0})
    {
      const State s = state(lambda, -5.0);
      const auto  r = muscle_fibre_response(muscle, N, s.F, s.F_dot, 2000.0, 0.0, 0.0);
      EXPECT_EQ(r.stress.P.norm(), 0.0);
      EXPECT_EQ(r.stress.A.norm(), 0.0);
      EXPECT_EQ(r.nominal_stress, 0.0);
    }
}

// Frame indifference and symmetry of the Cauchy stress: P(QF, QḞ) = Q P(F, Ḟ), P Fᵀ symmetric.
TEST(FibreStress, ObjectiveWithSymmetricCauchyStress)
{
  const VanLeeuwenKierMuscle muscle(VanLeeuwenKierMuscle::Parameters{});
  const State                s  = state(1.12, -3.0);
  const Tensor<2, 3>         Q  = rotation(unit(-1, 0.4, 0.2), 2.1);
  const auto                 P  = muscle_fibre_response(muscle, N, s.F, s.F_dot, 0.0, 0.8, 0.0).stress.P;
  const auto                 PQ = muscle_fibre_response(muscle, N, Q * s.F, Q * s.F_dot, 0.0, 0.8, 0.0).stress.P;
  EXPECT_LT((PQ - Q * P).norm(), 1e-12 * P.norm());
  const Tensor<2, 3> tau = P * dealii::transpose(s.F);
  EXPECT_LT((tau - dealii::transpose(tau)).norm(), 1e-12 * tau.norm());
}
