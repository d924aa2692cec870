#include <hydrostat/muscle/fibre_stress.h>

namespace hydrostat
{
  FibreKinematics::FibreKinematics(const Tensor<2, 3> &F, const Tensor<2, 3> &F_dot, const Tensor<1, 3> &N)
    : N(N)
    , F_dot_N(F_dot * N)
  {
    const Tensor<1, 3> FN = F * N;
    stretch               = FN.norm();
    m                     = FN / stretch;
    stretch_rate          = m * F_dot_N;
  }

  NominalStressTangent fibre_nominal_response(const FibreKinematics &fibre, const FibreStress &stress,
                                              const double alpha)
  {
    const double        lambda = fibre.stretch;
    const double        s      = stress.value;
    const double        s_rate = stress.d_stretch_rate;
    const Tensor<1, 3> &m      = fibre.m;
    const Tensor<1, 3> &N      = fibre.N;

    // P_iJ = (σ/λ)(FN)_i N_J; dλ/dF = m⊗N, dλ̇/dF = (ḞN + (αλ − λ̇) m)⊗N / λ, dm/dF from (FN)/λ.
    const Tensor<1, 3> g = (stress.d_stretch - s / lambda + s_rate * (alpha - fibre.stretch_rate / lambda)) * m +
                           (s_rate / lambda) * fibre.F_dot_N;
    Tensor<2, 3> M = dealii::outer_product(m, g);
    for (unsigned int i = 0; i < 3; ++i)
      M[i][i] += s / lambda;

    NominalStressTangent result;
    result.P = s * dealii::outer_product(m, N);
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int J = 0; J < 3; ++J)
        for (unsigned int k = 0; k < 3; ++k)
          for (unsigned int L = 0; L < 3; ++L)
            result.A[i][J][k][L] = M[i][k] * N[J] * N[L];
    return result;
  }

  MuscleFibreResponse muscle_fibre_response(const VanLeeuwenKierMuscle &muscle, const Tensor<1, 3> &N,
                                            const Tensor<2, 3> &F, const Tensor<2, 3> &F_dot, const double alpha,
                                            const double activation, const double dactivation_dstretch)
  {
    const FibreKinematics fibre(F, F_dot, N);
    const auto            law = muscle.evaluate(fibre.strain(), fibre.stretch_rate, activation, dactivation_dstretch);

    MuscleFibreResponse r;
    r.stress         = fibre_nominal_response(fibre, law.stress, alpha);
    r.stretch        = fibre.stretch;
    r.stretch_rate   = fibre.stretch_rate;
    r.nominal_stress = law.stress.value;
    r.force_length   = law.force_length;
    r.force_velocity = law.force_velocity;
    return r;
  }
} // namespace hydrostat
