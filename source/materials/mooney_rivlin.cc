#include <deal.II/base/exceptions.h>

#include <hydrostat/materials/mooney_rivlin.h>

#include <cmath>

namespace hydrostat
{
  using dealii::Patterns::Double;

  namespace
  {
    /// Isochoric left Cauchy–Green tensor b̄ = J^{-2/3} F Fᵀ.
    SymmetricTensor<2, 3> b_bar(const Tensor<2, 3> &F)
    {
      const double J = dealii::determinant(F);
      return std::pow(J, -2.0 / 3.0) * dealii::symmetrize(F * dealii::transpose(F));
    }

    /// Fictitious Kirchhoff stress τ̄ = 2 b̄ ∂W̄/∂b̄ = 2 (c1 + c2 Ī1) b̄ − 2 c2 b̄².
    SymmetricTensor<2, 3> tau_bar(const SymmetricTensor<2, 3> &bb, const double c1, const double c2)
    {
      const double I1_bar = dealii::trace(bb);
      return 2.0 * (c1 + c2 * I1_bar) * bb - 2.0 * c2 * dealii::symmetrize(Tensor<2, 3>(bb) * Tensor<2, 3>(bb));
    }
  } // namespace

  double MooneyRivlin::Parameters::poisson_ratio() const
  {
    const double mu = shear_modulus();
    return (3.0 * K - 2.0 * mu) / (2.0 * (3.0 * K + mu));
  }

  MooneyRivlin::MooneyRivlin(const Parameters &parameters)
    : param(parameters)
  {
    AssertThrow(param.K > 0.0, dealii::ExcMessage("Mooney-Rivlin: the bulk modulus must be positive."));
    AssertThrow(param.shear_modulus() > 0.0,
                dealii::ExcMessage("Mooney-Rivlin: c1 + c2 must be positive (shear modulus 2(c1 + c2))."));
  }

  void MooneyRivlin::declare_parameters(dealii::ParameterHandler &prm)
  {
    const Parameters defaults;
    prm.declare_entry("c1", std::to_string(defaults.c1), Double(),
                      "Mooney-Rivlin constant c1 [Pa]; small-strain shear modulus mu = 2 (c1 + c2).");
    prm.declare_entry("c2", std::to_string(defaults.c2), Double(), "Mooney-Rivlin constant c2 [Pa].");
    prm.declare_entry("Bulk modulus", std::to_string(defaults.K), Double(0.0),
                      "Bulk modulus K [Pa] of the volumetric energy K/2 (J - 1)^2. "
                      "Nearly incompressible tissue: K of 1e3 to 1e4 times mu.");
  }

  MooneyRivlin::Parameters MooneyRivlin::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    p.c1 = prm.get_double("c1");
    p.c2 = prm.get_double("c2");
    p.K  = prm.get_double("Bulk modulus");
    return p;
  }

  double MooneyRivlin::isochoric_energy(const Tensor<2, 3> &F) const
  {
    const SymmetricTensor<2, 3> bb     = b_bar(F);
    const double                I1_bar = dealii::trace(bb);
    const double                I2_bar = 0.5 * (I1_bar * I1_bar - dealii::scalar_product(bb, bb));
    return param.c1 * (I1_bar - 3.0) + param.c2 * (I2_bar - 3.0);
  }

  double MooneyRivlin::energy(const Tensor<2, 3> &F) const { return isochoric_energy(F) + U(dealii::determinant(F)); }

  SymmetricTensor<2, 3> MooneyRivlin::tau_iso(const Tensor<2, 3> &F) const
  {
    return dealii::deviator(tau_bar(b_bar(F), param.c1, param.c2));
  }

  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> MooneyRivlin::isochoric_response(const Tensor<2, 3> &F) const
  {
    const SymmetricTensor<2, 3> bb   = b_bar(F);
    const SymmetricTensor<2, 3> tb   = tau_bar(bb, param.c1, param.c2);
    const SymmetricTensor<2, 3> tiso = dealii::deviator(tb);
    const SymmetricTensor<2, 3> I    = dealii::unit_symmetric_tensor<3>();
    const SymmetricTensor<4, 3> P    = dealii::deviator_tensor<3>();

    // Fictitious tangent Jc̄ = 4 c2 (b̄⊗b̄ − 𝕀_b̄), (𝕀_b̄)_ijkl = ½ (b̄_ik b̄_jl + b̄_il b̄_jk):
    // the push-forward of 4 c2 (I⊗I − 𝕀) with F̄.
    SymmetricTensor<4, 3> c_bar;
    if (param.c2 != 0.0)
      for (unsigned int i = 0; i < 3; ++i)
        for (unsigned int j = i; j < 3; ++j)
          for (unsigned int k = 0; k < 3; ++k)
            for (unsigned int l = k; l < 3; ++l)
              c_bar[i][j][k][l] =
                4.0 * param.c2 * (bb[i][j] * bb[k][l] - 0.5 * (bb[i][k] * bb[j][l] + bb[i][l] * bb[j][k]));

    // Holzapfel eq. 6.168 in Kirchhoff form (as in deal.II step-44).
    const SymmetricTensor<4, 3> Jc = P * c_bar * P + (2.0 / 3.0) * dealii::trace(tb) * P -
                                     (2.0 / 3.0) * (dealii::outer_product(tiso, I) + dealii::outer_product(I, tiso));
    return {tiso, Jc};
  }

  NominalStressTangent MooneyRivlin::nominal_response(const Tensor<2, 3> &F) const
  {
    const double J           = dealii::determinant(F);
    auto [tau, Jc]           = isochoric_response(F);
    const auto [tau_v, Jc_v] = volumetric_response(J, dU_dJ(J), d2U_dJ2(J));
    tau += tau_v;
    Jc += Jc_v;
    return nominal_from_kirchhoff(F, tau, Jc);
  }

  SymmetricTensor<2, 3> MooneyRivlin::cauchy_stress(const Tensor<2, 3> &F) const
  {
    const double J = dealii::determinant(F);
    return (tau_iso(F) + J * dU_dJ(J) * dealii::unit_symmetric_tensor<3>()) / J;
  }

  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> volumetric_response(const double J, const double p,
                                                                              const double dp_dJ)
  {
    const SymmetricTensor<2, 3> I = dealii::unit_symmetric_tensor<3>();
    return {J * p * I, J * (p + J * dp_dJ) * dealii::outer_product(I, I) - 2.0 * J * p * dealii::identity_tensor<3>()};
  }
} // namespace hydrostat
