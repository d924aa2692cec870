#pragma once

#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/tensor.h>

namespace hydrostat
{
  using dealii::SymmetricTensor;
  using dealii::Tensor;

  /**
   * First Piola–Kirchhoff stress P and its derivative A = dP/dF (A_iJkL = dP_iJ / dF_kL).
   * Every constitutive contribution (connective tissue, fibre families, the volumetric
   * three-field term) hands its response to the assembler in this form, so the total-Lagrangian
   * weak form of theory.md eq. (4), ∫ P : Grad δu dV, and its exact linearisation
   * ∫ Grad δu : A : Grad Δu dV need not know which law produced it. A is a general fourth-order
   * tensor: rate-dependent fibre stress makes it lose the major symmetry.
   */
  struct NominalStressTangent
  {
    Tensor<2, 3> P;
    Tensor<4, 3> A;

    NominalStressTangent &operator+=(const NominalStressTangent &other)
    {
      P += other.P;
      A += other.A;
      return *this;
    }
  };

  /**
   * P and A from the Kirchhoff stress τ and the spatial tangent Jc = J·c of a hyperelastic law
   * (the pair step-44 uses): P = τ F^{-T} and
   * A_iJkL = F^{-1}_Jj F^{-1}_Ll (Jc_ijkl + δ_ik τ_jl), the second term being the geometric
   * stiffness.
   */
  NominalStressTangent nominal_from_kirchhoff(const Tensor<2, 3> &F, const SymmetricTensor<2, 3> &tau,
                                              const SymmetricTensor<4, 3> &Jc);
} // namespace hydrostat
