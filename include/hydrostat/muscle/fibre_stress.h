#pragma once

#include <hydrostat/materials/nominal_stress.h>
#include <hydrostat/muscle/van_leeuwen_kier.h>

namespace hydrostat
{
  /**
   * Kinematics of one fibre family with unit reference direction N (theory.md eq. (15)):
   * λ = |F N|, m = F N / λ, λ̇ = m · (Ḟ N), Ḟ = Grad v.
   */
  struct FibreKinematics
  {
    Tensor<1, 3> N;
    Tensor<1, 3> m;
    Tensor<1, 3> F_dot_N;
    double       stretch      = 1.0;
    double       stretch_rate = 0.0;

    FibreKinematics(const Tensor<2, 3> &F, const Tensor<2, 3> &F_dot, const Tensor<1, 3> &N);

    double strain() const { return stretch - 1.0; }
  };

  /**
   * P and A = dP/dF of a fibre family carrying the nominal stress σm0(λ, λ̇):
   *
   *   P = σm0 m⊗N   (Kirchhoff τf = σm0 λ m⊗m, Sf = σm0/λ N⊗N),
   *   A_iJkL = [ (σm0/λ) δ_ik + m_i g_k ] N_J N_L,
   *   g = (∂σm0/∂λ − σm0/λ + ∂σm0/∂λ̇ (α − λ̇/λ)) m + (∂σm0/∂λ̇ / λ) Ḟ N,
   *
   * where ∂Ḟ/∂F = α 𝕀 (α = γ/(βΔt) with Newmark, 0 without rate effects). Derivation in
   * doc/muscle.md. Law-agnostic: any fibre law that returns a FibreStress can use it.
   */
  NominalStressTangent fibre_nominal_response(const FibreKinematics &fibre, const FibreStress &stress,
                                              const double alpha);

  /// Everything a quadrature point of a Van Leeuwen–Kier fibre family yields: P, A and output.
  struct MuscleFibreResponse
  {
    NominalStressTangent stress;
    double               stretch        = 1.0; // λ
    double               stretch_rate   = 0.0; // λ̇ [1/s]
    double               nominal_stress = 0.0; // σm0 [Pa]
    double               force_length   = 0.0; // fl
    double               force_velocity = 0.0; // fv
  };

  /**
   * One Van Leeuwen–Kier fibre family at a quadrature point: F, Ḟ = Grad v, α = ∂Ḟ/∂F, the unit
   * reference direction N, the activation fa and dfa/dλ (0 unless the activation depends on the
   * fibre stretch, as Hatze's does). Several families at a point add their `stress`.
   */
  MuscleFibreResponse muscle_fibre_response(const VanLeeuwenKierMuscle &muscle, const Tensor<1, 3> &N,
                                            const Tensor<2, 3> &F, const Tensor<2, 3> &F_dot, const double alpha,
                                            const double activation, const double dactivation_dstretch);
} // namespace hydrostat
