#pragma once

#include <deal.II/base/parameter_handler.h>

#include <hydrostat/materials/nominal_stress.h>

namespace hydrostat
{
  /**
   * Nearly incompressible Mooney–Rivlin connective tissue (theory.md §3, eqs. (6)–(11)):
   *
   *   W = c1 (Ī1 − 3) + c2 (Ī2 − 3) + K/2 (J − 1)².
   *
   * The isochoric part is returned as Kirchhoff stress and spatial tangent (Holzapfel 2000,
   * eqs. 6.103 and 6.168), the volumetric part as U'(J), U''(J) so that the displacement and the
   * three-field formulations can treat it differently. Small-strain moduli: μ = 2 (c1 + c2),
   * K as given. Units: Pa.
   */
  class MooneyRivlin
  {
  public:
    struct Parameters
    {
      double c1 = 1.0e3; // Pa
      double c2 = 0.0;   // Pa
      double K  = 1.0e6; // Pa

      double shear_modulus() const { return 2.0 * (c1 + c2); }
      double poisson_ratio() const;
    };

    explicit MooneyRivlin(const Parameters &parameters);

    /// Declares c1, c2, bulk modulus in the current subsection of @p prm.
    static void       declare_parameters(dealii::ParameterHandler &prm);
    static Parameters parse_parameters(dealii::ParameterHandler &prm);

    const Parameters &parameters() const { return param; }

    /// Strain energy density W(F) [J/m³].
    double energy(const Tensor<2, 3> &F) const;

    /// Isochoric energy W̄ = c1 (Ī1 − 3) + c2 (Ī2 − 3).
    double isochoric_energy(const Tensor<2, 3> &F) const;

    /// Isochoric Kirchhoff stress τ_iso = dev(τ̄), τ̄ = 2 (c1 + c2 Ī1) b̄ − 2 c2 b̄².
    SymmetricTensor<2, 3> tau_iso(const Tensor<2, 3> &F) const;

    /// Isochoric Kirchhoff stress and spatial tangent Jc_iso.
    std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> isochoric_response(const Tensor<2, 3> &F) const;

    /// Volumetric energy U(J) = K/2 (J − 1)² and its derivatives.
    double U(const double J) const { return 0.5 * param.K * (J - 1.0) * (J - 1.0); }
    double dU_dJ(const double J) const { return param.K * (J - 1.0); }
    double d2U_dJ2(const double /*J*/) const { return param.K; }

    /// The full law in the displacement formulation: P = ∂W/∂F and A = ∂²W/∂F∂F.
    NominalStressTangent nominal_response(const Tensor<2, 3> &F) const;

    /// Cauchy stress σ, theory.md eq. (8) (the octopus paper's eq. 11 has the volumetric term's sign wrong).
    SymmetricTensor<2, 3> cauchy_stress(const Tensor<2, 3> &F) const;

  private:
    Parameters param;
  };

  /**
   * Kirchhoff stress and spatial tangent of a volumetric term with pressure p and dp/dJ at
   * J = det F: τ_vol = J p I, Jc_vol = J (p + J dp/dJ) I⊗I − 2 J p 𝕀 (Holzapfel eq. 6.166).
   * With dp/dJ = 0 this is the term of the three-field element, where p is the independent p̃.
   */
  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> volumetric_response(const double J, const double p,
                                                                              const double dp_dJ);
} // namespace hydrostat
