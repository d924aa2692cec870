#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/materials/mooney_rivlin.h>

namespace hydrostat
{
  using dealii::Patterns::Double;

  namespace
  {
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
    : TissueLaw(parameters.K)
    , param(parameters)
  {
    require(param.shear_modulus() > 0.0, "Mooney-Rivlin: c1 + c2 must be positive (shear modulus 2(c1 + c2)).");
  }

  void MooneyRivlin::declare_parameters(dealii::ParameterHandler &prm, const bool has_to_be_set)
  {
    const Parameters defaults;
    prm.declare_entry("c1", shortest_text(defaults.c1), Double(),
                      "Mooney-Rivlin constant c1 [Pa] (Law = Mooney-Rivlin); small-strain shear modulus "
                      "mu = 2 (c1 + c2).",
                      has_to_be_set);
    prm.declare_entry("c2", shortest_text(defaults.c2), Double(),
                      "Mooney-Rivlin constant c2 [Pa] (Law = Mooney-Rivlin).", has_to_be_set);
  }

  std::shared_ptr<const TissueLaw> MooneyRivlin::create(dealii::ParameterHandler &prm)
  {
    return std::make_shared<MooneyRivlin>(parse_parameters(prm));
  }

  MooneyRivlin::Parameters MooneyRivlin::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    p.c1 = prm.get_double("c1");
    p.c2 = prm.get_double("c2");
    p.K  = prm.get_double("Bulk modulus");
    return p;
  }

  void MooneyRivlin::print_constants(std::ostream &out) const
  {
    out << "c1 = " << param.c1 << " Pa, c2 = " << param.c2 << " Pa, K = " << param.K << " Pa";
  }

  double MooneyRivlin::isochoric_energy(const Tensor<2, 3> &F) const
  {
    const SymmetricTensor<2, 3> bb     = isochoric_left_cauchy_green(F);
    const double                I1_bar = dealii::trace(bb);
    const double                I2_bar = 0.5 * (I1_bar * I1_bar - dealii::scalar_product(bb, bb));
    return param.c1 * (I1_bar - 3.0) + param.c2 * (I2_bar - 3.0);
  }

  SymmetricTensor<2, 3> MooneyRivlin::tau_iso(const Tensor<2, 3> &F) const
  {
    return dealii::deviator(tau_bar(isochoric_left_cauchy_green(F), param.c1, param.c2));
  }

  std::pair<SymmetricTensor<2, 3>, SymmetricTensor<4, 3>> MooneyRivlin::isochoric_response(const Tensor<2, 3> &F) const
  {
    const SymmetricTensor<2, 3> bb = isochoric_left_cauchy_green(F);

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
    return isochoric_kirchhoff_response(tau_bar(bb, param.c1, param.c2), &c_bar);
  }
} // namespace hydrostat
