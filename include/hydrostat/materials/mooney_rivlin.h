#pragma once

#include <deal.II/base/parameter_handler.h>

#include <hydrostat/materials/tissue_law.h>

namespace hydrostat
{
  /**
   * Nearly incompressible Mooney–Rivlin connective tissue (theory.md §3, eqs. (6)–(11)):
   *
   *   W = c1 (Ī1 − 3) + c2 (Ī2 − 3) + K/2 (J − 1)².
   *
   * The isochoric part is returned as Kirchhoff stress and spatial tangent (Holzapfel 2000,
   * eqs. 6.103 and 6.168), the volumetric part as U'(J), U''(J) (TissueLaw). Small-strain moduli:
   * μ = 2 (c1 + c2), K as given. Units: Pa.
   */
  class MooneyRivlin : public TissueLaw
  {
  public:
    struct Parameters
    {
      double c1 = 1.0e3;                           // Pa
      double c2 = 0.0;                             // Pa
      double K  = TissueLaw::default_bulk_modulus; // Pa

      double shear_modulus() const { return 2.0 * (c1 + c2); }
      double poisson_ratio() const;
    };

    explicit MooneyRivlin(const Parameters &parameters);

    /// Declares c1, c2 in the current subsection of @p prm ('Bulk modulus' is TissueLaw's).
    static void declare_parameters(dealii::ParameterHandler &prm, const bool has_to_be_set = false);
    /// Reads c1, c2 and 'Bulk modulus'.
    static Parameters parse_parameters(dealii::ParameterHandler &prm);
    /// The law of the current subsection (TissueLawType::create).
    static std::shared_ptr<const TissueLaw> create(dealii::ParameterHandler &prm);

    const Parameters &parameters() const { return param; }

    double shear_modulus() const override { return param.shear_modulus(); }
    void   print_constants(std::ostream &out) const override;

    /// Isochoric energy W̄ = c1 (Ī1 − 3) + c2 (Ī2 − 3).
    double isochoric_energy(const Tensor<2, 3> &F) const override;

    /// Isochoric Kirchhoff stress τ_iso = dev(τ̄), τ̄ = 2 (c1 + c2 Ī1) b̄ − 2 c2 b̄².
    SymmetricTensor<2, 3> tau_iso(const Tensor<2, 3> &F) const override;

    /// Isochoric Kirchhoff stress and spatial tangent Jc_iso.
    std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> isochoric_response(const Tensor<2, 3> &F) const override;

  private:
    Parameters param;
  };
} // namespace hydrostat
