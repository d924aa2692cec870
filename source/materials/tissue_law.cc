#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/materials/tissue_law.h>

#include <cmath>

namespace hydrostat
{
  TissueLaw::TissueLaw(const double bulk_modulus)
    : K(bulk_modulus)
  {
    require(K > 0.0, "Tissue law: the bulk modulus must be positive.");
  }

  void TissueLaw::declare_parameters(dealii::ParameterHandler &prm, const bool has_to_be_set)
  {
    std::string names, energies;
    for (const TissueLawType &type : tissue_law_types())
      {
        names += (names.empty() ? "" : "|") + type.name;
        energies += (energies.empty() ? "" : " or ") + type.name + " " + type.energy;
      }
    prm.declare_entry("Law", tissue_law_types().front().name, dealii::Patterns::Selection(names),
                      "Isochoric part of the connective-tissue energy: " + energies + ".", has_to_be_set);
    prm.declare_entry("Bulk modulus", std::to_string(default_bulk_modulus), dealii::Patterns::Double(0.0),
                      "Bulk modulus K [Pa] of the volumetric energy K/2 (J - 1)^2 (every law). "
                      "Nearly incompressible tissue: K of 1e3 to 1e4 times mu.",
                      has_to_be_set);
    for (const TissueLawType &type : tissue_law_types())
      type.declare_parameters(prm, has_to_be_set);
  }

  std::shared_ptr<const TissueLaw> TissueLaw::create(dealii::ParameterHandler &prm)
  {
    return tissue_law_type(prm.get("Law")).create(prm);
  }

  const TissueLawType &tissue_law_type(const std::string &name)
  {
    for (const TissueLawType &type : tissue_law_types())
      if (type.name == name)
        return type;
    throw InputError("Unknown tissue law '" + name + "'.");
  }

  double TissueLaw::poisson_ratio() const
  {
    const double mu = shear_modulus();
    return (3.0 * K - 2.0 * mu) / (2.0 * (3.0 * K + mu));
  }

  SymmetricTensor<2, 3> TissueLaw::tau_iso(const Tensor<2, 3> &F) const { return isochoric_response(F).first; }

  double TissueLaw::energy(const Tensor<2, 3> &F) const { return isochoric_energy(F) + U(dealii::determinant(F)); }

  NominalStressTangent TissueLaw::nominal_response(const Tensor<2, 3> &F) const
  {
    const double J           = dealii::determinant(F);
    auto [tau, Jc]           = isochoric_response(F);
    const auto [tau_v, Jc_v] = volumetric_response(J, dU_dJ(J), d2U_dJ2(J));
    tau += tau_v;
    Jc += Jc_v;
    return nominal_from_kirchhoff(F, tau, Jc);
  }

  SymmetricTensor<2, 3> TissueLaw::cauchy_stress(const Tensor<2, 3> &F) const
  {
    const double J = dealii::determinant(F);
    return (tau_iso(F) + J * dU_dJ(J) * dealii::unit_symmetric_tensor<3>()) / J;
  }

  SymmetricTensor<2, 3> isochoric_left_cauchy_green(const Tensor<2, 3> &F)
  {
    const double J = dealii::determinant(F);
    return std::pow(J, -2.0 / 3.0) * dealii::symmetrize(F * dealii::transpose(F));
  }

  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> isochoric_kirchhoff_response(
    const SymmetricTensor<2, 3> &tau_bar, const SymmetricTensor<4, 3> *c_bar)
  {
    // The constant tensors are built once (this runs at every quadrature point).
    static const SymmetricTensor<2, 3> I    = dealii::unit_symmetric_tensor<3>();
    static const SymmetricTensor<4, 3> P    = dealii::deviator_tensor<3>();
    const SymmetricTensor<2, 3>        tiso = dealii::deviator(tau_bar);
    // Summed as (ℙ:Jc̄:ℙ + …) − …, the order Mooney–Rivlin used before the laws shared this code:
    // its results stay the same to the bit.
    SymmetricTensor<4, 3> Jc = (2.0 / 3.0) * dealii::trace(tau_bar) * P;
    if (c_bar)
      Jc = P * *c_bar * P + Jc;
    Jc -= (2.0 / 3.0) * (dealii::outer_product(tiso, I) + dealii::outer_product(I, tiso));
    return {tiso, Jc};
  }

  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> volumetric_response(const double J, const double p,
                                                                              const double dp_dJ)
  {
    static const SymmetricTensor<2, 3> I        = dealii::unit_symmetric_tensor<3>();
    static const SymmetricTensor<4, 3> IxI      = dealii::outer_product(I, I);
    static const SymmetricTensor<4, 3> identity = dealii::identity_tensor<3>();
    return {J * p * I, J * (p + J * dp_dJ) * IxI - 2.0 * J * p * identity};
  }
} // namespace hydrostat
