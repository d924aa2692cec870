#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/materials/neo_hookean.h>

namespace hydrostat
{
  NeoHookean::NeoHookean(const Parameters &parameters)
    : TissueLaw(parameters.K)
    , param(parameters)
  {
    require(param.mu > 0.0, "neo-Hookean: the shear modulus must be positive.");
  }

  void NeoHookean::declare_parameters(dealii::ParameterHandler &prm, const bool has_to_be_set)
  {
    const Parameters defaults;
    prm.declare_entry("Shear modulus", shortest_text(defaults.mu), dealii::Patterns::Double(),
                      "Shear modulus mu [Pa] of the neo-Hookean law W = mu/2 (I1_bar - 3) (Law = neo-Hookean); "
                      "the default equals the Mooney-Rivlin default 2 (c1 + c2).",
                      has_to_be_set);
  }

  std::shared_ptr<const TissueLaw> NeoHookean::create(dealii::ParameterHandler &prm)
  {
    return std::make_shared<NeoHookean>(parse_parameters(prm));
  }

  NeoHookean::Parameters NeoHookean::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    p.mu = prm.get_double("Shear modulus");
    p.K  = prm.get_double("Bulk modulus");
    return p;
  }

  void NeoHookean::print_constants(std::ostream &out) const
  {
    out << "neo-Hookean, mu = " << param.mu << " Pa, K = " << param.K << " Pa";
  }

  double NeoHookean::isochoric_energy(const Tensor<2, 3> &F) const
  {
    return 0.5 * param.mu * (dealii::trace(isochoric_left_cauchy_green(F)) - 3.0);
  }

  SymmetricTensor<2, 3> NeoHookean::tau_iso(const Tensor<2, 3> &F) const
  {
    return dealii::deviator(param.mu * isochoric_left_cauchy_green(F));
  }

  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> NeoHookean::isochoric_response(const Tensor<2, 3> &F) const
  {
    // W̄ is linear in Ī1: the fictitious tangent vanishes.
    return isochoric_kirchhoff_response(param.mu * isochoric_left_cauchy_green(F), nullptr);
  }
} // namespace hydrostat
