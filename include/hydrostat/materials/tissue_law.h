#pragma once

#include <deal.II/base/parameter_handler.h>

#include <hydrostat/materials/nominal_stress.h>

#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace hydrostat
{
  /**
   * A hyperelastic connective-tissue law with the decoupled energy
   *
   *   W(F) = W̄(F̄) + U(J),   F̄ = J^{-1/3} F,   U(J) = K/2 (J − 1)².
   *
   * The isochoric part W̄ is the law's own; the volumetric part is shared by every law of this
   * code. Assembly, energy and output use only this interface, so a material can pick its law by
   * the parameter 'Law' (declare_parameters()). The isochoric part is handed out as Kirchhoff
   * stress and spatial tangent, the volumetric part as U'(J), U''(J), so that the displacement and
   * the three-field formulations can treat them differently.
   */
  class TissueLaw
  {
  public:
    /// K of the parameter 'Bulk modulus' when it is not given [Pa].
    static constexpr double default_bulk_modulus = 1.0e6;

    explicit TissueLaw(const double bulk_modulus);
    virtual ~TissueLaw() = default;

    /// Declares 'Law', 'Bulk modulus' and the constants of every law of tissue_law_types() in the
    /// current subsection (@p has_to_be_set as in ParameterHandler::declare_entry()).
    static void declare_parameters(dealii::ParameterHandler &prm, const bool has_to_be_set = false);

    /// The law named by 'Law' in the current subsection, with its constants.
    static std::shared_ptr<const TissueLaw> create(dealii::ParameterHandler &prm);

    /// Small-strain shear modulus μ and bulk modulus K [Pa].
    virtual double shear_modulus() const = 0;
    double         bulk_modulus() const { return K; }
    /// Small-strain Poisson ratio ν = (3K − 2μ) / (2 (3K + μ)).
    double poisson_ratio() const;

    /// Writes the law's constants for the setup log, e.g. "c1 = 1000 Pa, c2 = 0 Pa, K = 1e+06 Pa".
    virtual void print_constants(std::ostream &out) const = 0;

    /// Isochoric energy W̄(F̄) [J/m³].
    virtual double isochoric_energy(const Tensor<2, 3> &F) const = 0;

    /// Isochoric Kirchhoff stress τ_iso and spatial tangent Jc_iso.
    virtual std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> isochoric_response(const Tensor<2, 3> &F) const = 0;

    /// Isochoric Kirchhoff stress alone (laws may compute it more cheaply than the tangent).
    virtual SymmetricTensor<2, 3> tau_iso(const Tensor<2, 3> &F) const;

    /// Volumetric energy U(J) = K/2 (J − 1)² and its derivatives.
    double U(const double J) const { return 0.5 * K * (J - 1.0) * (J - 1.0); }
    double dU_dJ(const double J) const { return K * (J - 1.0); }
    double d2U_dJ2(const double /*J*/) const { return K; }

    /// Strain energy density W(F) = W̄ + U(J) [J/m³].
    double energy(const Tensor<2, 3> &F) const;

    /// The full law in the displacement formulation: P = ∂W/∂F and A = ∂²W/∂F∂F.
    NominalStressTangent nominal_response(const Tensor<2, 3> &F) const;

    /// Cauchy stress σ = (τ_iso + J U'(J) I) / J.
    SymmetricTensor<2, 3> cauchy_stress(const Tensor<2, 3> &F) const;

  private:
    double K; // Pa
  };

  /// A kind of tissue law: the value of 'Law' that selects it, its energy (for the documentation),
  /// the constants it declares in the current subsection, and its factory.
  struct TissueLawType
  {
    std::string              name;
    std::string              energy;
    std::vector<std::string> constants;
    void (*declare_parameters)(dealii::ParameterHandler &prm, const bool has_to_be_set);
    std::shared_ptr<const TissueLaw> (*create)(dealii::ParameterHandler &prm);
  };

  /// Every tissue law (tissue_law_types.cc: a new law is its own file pair and one line there).
  const std::vector<TissueLawType> &tissue_law_types();

  /// The type named @p name; InputError if there is none.
  const TissueLawType &tissue_law_type(const std::string &name);

  /// Isochoric left Cauchy–Green tensor b̄ = J^{-2/3} F Fᵀ.
  SymmetricTensor<2, 3> isochoric_left_cauchy_green(const Tensor<2, 3> &F);

  /**
   * τ_iso and Jc_iso from the fictitious Kirchhoff stress τ̄ = 2 b̄ ∂W̄/∂b̄ and the fictitious
   * tangent Jc̄ (Holzapfel 2000, eq. 6.168 in Kirchhoff form, as in deal.II step-44):
   * τ_iso = dev τ̄, Jc_iso = ℙ : Jc̄ : ℙ + 2/3 tr(τ̄) ℙ − 2/3 (τ_iso ⊗ I + I ⊗ τ_iso).
   * @p c_bar may be null for laws linear in Ī1 (Jc̄ = 0).
   */
  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> isochoric_kirchhoff_response(
    const SymmetricTensor<2, 3> &tau_bar, const SymmetricTensor<4, 3> *c_bar);

  /**
   * Kirchhoff stress and spatial tangent of a volumetric term with pressure p and dp/dJ at
   * J = det F: τ_vol = J p I, Jc_vol = J (p + J dp/dJ) I⊗I − 2 J p 𝕀 (Holzapfel eq. 6.166).
   * With dp/dJ = 0 this is the term of the three-field element, where p is the independent p̃.
   */
  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> volumetric_response(const double J, const double p,
                                                                              const double dp_dJ);
} // namespace hydrostat
