#pragma once

#include <deal.II/base/parameter_handler.h>

#include <hydrostat/materials/tissue_law.h>

namespace hydrostat
{
  /**
   * Nearly incompressible neo-Hookean connective tissue (the law of deal.II step-44):
   *
   *   W = μ/2 (Ī1 − 3) + K/2 (J − 1)²,
   *
   * i.e. Mooney–Rivlin with c1 = μ/2, c2 = 0. τ̄ = μ b̄ and the fictitious tangent vanishes.
   * Units: Pa.
   */
  class NeoHookean : public TissueLaw
  {
  public:
    struct Parameters
    {
      double mu = 2.0e3;                           // Pa
      double K  = TissueLaw::default_bulk_modulus; // Pa
    };

    explicit NeoHookean(const Parameters &parameters);

    /// Declares 'Shear modulus' in the current subsection of @p prm ('Bulk modulus' is TissueLaw's).
    static void declare_parameters(dealii::ParameterHandler &prm, const bool has_to_be_set = false);
    /// Reads 'Shear modulus' and 'Bulk modulus'.
    static Parameters parse_parameters(dealii::ParameterHandler &prm);
    /// The law of the current subsection (TissueLawType::create).
    static std::shared_ptr<const TissueLaw> create(dealii::ParameterHandler &prm);

    const Parameters &parameters() const { return param; }

    double shear_modulus() const override { return param.mu; }
    void   print_constants(std::ostream &out) const override;

    /// Isochoric energy W̄ = μ/2 (Ī1 − 3).
    double isochoric_energy(const Tensor<2, 3> &F) const override;

    /// Isochoric Kirchhoff stress τ_iso = μ dev(b̄).
    SymmetricTensor<2, 3> tau_iso(const Tensor<2, 3> &F) const override;

    std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> isochoric_response(const Tensor<2, 3> &F) const override;

  private:
    Parameters param;
  };
} // namespace hydrostat
