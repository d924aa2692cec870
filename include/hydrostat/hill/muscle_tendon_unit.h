#pragma once

#include <deal.II/base/parameter_handler.h>

#include <hydrostat/activation/activation_dynamics.h>

#include <cmath>

namespace hydrostat
{
  /**
   * Extended Hill-type muscle–tendon unit (Haeufle et al. 2014, Kleinbach et al. 2017) in the form
   * coded in umat41 v1.0 (theory.md §8): contractile element CE, parallel elastic PEE, serial
   * elastic SEE (toe + linear), serial damping SDE, internal state l_CE. SI units: N, m, s.
   *
   * Sign convention: v = dl_CE/dt and dl_MTC = dl_MTC/dt, negative when shortening.
   *
   * The force functions are templates so that the 1D element's step (advance() in
   * hill_integrators.h) can differentiate them with forward automatic differentiation.
   */
  class HillMuscleTendonUnit
  {
  public:
    /// Card fields of *MAT_USER_DEFINED_MATERIAL_MODELS MT = 41 (cards 4–6; theory.md §8.7).
    /// Defaults: Kleinbach's piglet set (Table 2).
    struct Parameters
    {
      double F_max      = 30.0;  // N
      double l_CE_opt   = 0.015; // m
      double dW_des     = 0.14;  // width of the descending F_isom limb
      double nu_CE_des  = 3.0;
      double dW_asc     = 0.57; // width of the ascending limb
      double nu_CE_asc  = 4.0;
      double A_rel0     = 0.1;
      double B_rel0     = 1.0;        // 1/s
      double S_ecc      = 2.0;        // slope ratio eccentric/concentric at v = 0
      double F_ecc      = 1.8;        // eccentric force asymptote / isometric force
      double L_PEE0     = 0.89999998; // PEE rest length / l_CE_opt (as stored on the card)
      double nu_PEE     = 2.5;
      double F_PEE      = 1.0;    // PEE force at l_CE = l_CE_opt (1 + dW_des), in F_max
      double l_SEE0     = 0.045;  // m
      double dU_SEE_nll = 0.1825; // relative SEE strain at the toe/linear transition
      double dU_SEE_l   = 0.073;  // relative SEE stiffness of the linear part
      double dF_SEE0    = 60.0;   // N, SEE force at the transition
      double D_SE       = 0.3;    // damping method 3 (the only one implemented)
      double R_SE       = 0.01;
      double l_offset   = 0.0; // m, added to the element length (card 3, cm(8))
    };

    /// CE, PEE, SEE, SDE forces and F_MTC = F_SEE + F_SDE [N] at a state and contraction velocity.
    struct Forces
    {
      double F_CE, F_PEE, F_SEE, F_SDE, F_MTC;
    };

    explicit HillMuscleTendonUnit(const Parameters &parameters);

    /// Declares the card fields in the current subsection of @p prm.
    static void       declare_parameters(dealii::ParameterHandler &prm);
    static Parameters parse_parameters(dealii::ParameterHandler &prm);

    const Parameters &parameters() const { return param; }

    /// theory.md eq. (34): normalised isometric force–length relation.
    template <typename Number>
    Number F_isom(const Number &l_CE) const;

    /// theory.md eq. (35): PEE force [N]; zero below l_PEE0 = L_PEE0 l_CE_opt.
    template <typename Number>
    Number force_PEE(const Number &l_CE) const;

    /// theory.md eq. (36): SEE force [N] at SEE length l_SEE; C¹ at l_SEE,nll.
    template <typename Number>
    Number force_SEE(const Number &l_SEE) const;

    /// theory.md eqs. (37)–(38): CE force [N], concentric branch for v ≤ 0, eccentric for v > 0.
    template <typename Number>
    Number force_CE(const Number &l_CE, const Number &v, const Number &q) const;

    /// theory.md eq. (39): SDE force [N].
    template <typename Number>
    Number force_SDE(const Number &l_CE, const Number &v, const Number &dl_MTC, const Number &q) const;

    /// l_SEE = |l_MTC + l_offset − l_CE| (v1.0 keeps the modulus).
    template <typename Number>
    Number l_SEE(const Number &l_CE, const Number &l_MTC) const;

    /// theory.md eqs. (40)–(41): contraction velocity from F_SEE + F_SDE = F_CE + F_PEE (damping method 3): the
    /// concentric root, the eccentric root when that is positive, v = 0 for a negative
    /// discriminant, and the guards of umat41 at l_CE < 0.01 l_CE_opt and l_CE > 1.99 l_CE_opt.
    template <typename Number>
    Number contraction_velocity(const Number &l_CE, const Number &l_MTC, const Number &dl_MTC, const Number &q) const;

    /// All forces at a given contraction velocity v.
    Forces forces(const double l_CE, const double v, const double l_MTC, const double dl_MTC, const double q) const;

    /// theory.md eq. (42): l_CE in [0, l_MTC] with F_SEE = F_max q F_isom + F_PEE (all rates zero), by TOMS 748
    /// to 1e-15 relative; the initial state and the dt-independent steady state (theory.md §8.7).
    double equilibrium_l_CE(const double l_MTC, const double q) const;

    /// Derived constants (theory.md §8.7 lists them for the piglet).
    double d_SE_max() const { return param.D_SE * param.F_max * param.A_rel0 / (param.l_CE_opt * param.B_rel0); }
    double K_PEE() const { return K_pee; }
    double K_SEE_nl() const { return K_see_nl; }
    double K_SEE_l() const { return K_see_l; }

  private:
    template <typename Number>
    Number velocity_root(const Number &l_CE, const Number &l_MTC, const Number &dl_MTC, const Number &q) const;

    Parameters param;
    double     l_PEE0, K_pee, l_SEE_nll, nu_SEE, K_see_nl, K_see_l;
  };


  // ---------------------------------------------------------------------------------------------
  // Template definitions. `using std::pow` etc. lets automatic-differentiation types find theirs.

  template <typename Number>
  Number HillMuscleTendonUnit::F_isom(const Number &l_CE) const
  {
    using std::abs, std::exp, std::pow;
    const Number x = l_CE / param.l_CE_opt - 1.0;
    return (x >= 0.0) ? Number(exp(-pow(abs(x / param.dW_des), param.nu_CE_des))) :
                        Number(exp(-pow(abs(x / param.dW_asc), param.nu_CE_asc)));
  }

  template <typename Number>
  Number HillMuscleTendonUnit::force_PEE(const Number &l_CE) const
  {
    using std::pow;
    return (l_CE >= l_PEE0) ? Number(K_pee * pow(l_CE - l_PEE0, param.nu_PEE)) : Number(0.0);
  }

  template <typename Number>
  Number HillMuscleTendonUnit::force_SEE(const Number &l) const
  {
    using std::pow;
    if (l >= l_SEE_nll)
      return Number(param.dF_SEE0 + K_see_l * (l - l_SEE_nll));
    if (l > param.l_SEE0)
      return Number(K_see_nl * pow(l - param.l_SEE0, nu_SEE));
    return Number(0.0);
  }

  template <typename Number>
  Number HillMuscleTendonUnit::l_SEE(const Number &l_CE, const Number &l_MTC) const
  {
    using std::abs;
    return abs(l_MTC + param.l_offset - l_CE);
  }

  template <typename Number>
  Number HillMuscleTendonUnit::force_CE(const Number &l_CE, const Number &v, const Number &q) const
  {
    const Number F_iso = F_isom(l_CE);
    const Number L_A   = (l_CE < param.l_CE_opt) ? Number(1.0) : F_iso;
    Number       A     = param.A_rel0 * L_A * (1.0 + 3.0 * q) / 4.0;
    Number       B     = param.B_rel0 * (3.0 + 4.0 * q) / 7.0;
    if (v > 0.0) // eccentric branch, van Soest & Bobbert 1993 (theory.md eq. (37))
      {
        B = B * q * F_iso * (1.0 - param.F_ecc) / (param.S_ecc * (q * F_iso + A));
        A = -param.F_ecc * q * F_iso;
      }
    return param.F_max * ((q * F_iso + A) / (1.0 - v / (param.l_CE_opt * B)) - A);
  }

  template <typename Number>
  Number HillMuscleTendonUnit::force_SDE(const Number &l_CE, const Number &v, const Number &dl_MTC,
                                         const Number &q) const
  {
    return d_SE_max() * ((1.0 - param.R_SE) * (force_CE(l_CE, v, q) + force_PEE(l_CE)) / param.F_max + param.R_SE) *
           (dl_MTC - v);
  }

  template <typename Number>
  Number HillMuscleTendonUnit::velocity_root(const Number &l_CE, const Number &l_MTC, const Number &dl_MTC,
                                             const Number &q) const
  {
    using std::sqrt;
    const double d     = d_SE_max();
    const double R     = param.R_SE;
    const double lopt  = param.l_CE_opt;
    const Number F_iso = F_isom(l_CE);
    const Number F_pee = force_PEE(l_CE);
    const Number F_see = force_SEE(l_SEE(l_CE, l_MTC));
    const Number L_A   = (l_CE < lopt) ? Number(1.0) : F_iso;
    const Number A     = param.A_rel0 * L_A * (1.0 + 3.0 * q) / 4.0;
    const Number B     = param.B_rel0 * (3.0 + 4.0 * q) / 7.0;

    // C2 v² + C1 v + C0 = 0 (theory.md eq. (40)), with Hill parameters (A_h, B_h) of either branch; sign picks
    // the root: − for the concentric, + for the eccentric one.
    const auto root = [&](const Number &A_h, const Number &B_h, const double sign) {
      const Number D0   = lopt * B_h * d * (R + (1.0 - R) * (q * F_iso + F_pee / param.F_max));
      const Number C2   = d * (R - (A_h - F_pee / param.F_max) * (1.0 - R));
      const Number C1   = -C2 * dl_MTC - D0 - F_see + F_pee - param.F_max * A_h;
      const Number C0   = D0 * dl_MTC + lopt * B_h * (F_see - F_pee - param.F_max * q * F_iso);
      const Number disc = C1 * C1 - 4.0 * C2 * C0;
      return (disc < 0.0) ? Number(0.0) : Number((-C1 + sign * sqrt(disc)) / (2.0 * C2));
    };

    const Number v = root(A, B, -1.0);
    if (v <= 0.0)
      return v;
    const Number B_e = B * q * F_iso * (1.0 - param.F_ecc) / (param.S_ecc * (q * F_iso + A));
    const Number A_e = -param.F_ecc * q * F_iso;
    return root(A_e, B_e, +1.0);
  }

  template <typename Number>
  Number HillMuscleTendonUnit::contraction_velocity(const Number &l_CE, const Number &l_MTC, const Number &dl_MTC,
                                                    const Number &q) const
  {
    using std::pow;
    if (l_CE < 0.01 * param.l_CE_opt)
      return Number(0.0);
    if (l_CE > 1.99 * param.l_CE_opt)
      {
        // Guard of umat41: the CE follows the MTC in the ratio of the PEE and SEE stiffnesses.
        const Number k_pee = K_pee * param.nu_PEE * pow(l_CE - l_PEE0, param.nu_PEE - 1.0);
        const Number k_see = K_see_nl * nu_SEE * pow(l_SEE(l_CE, l_MTC) - param.l_SEE0, nu_SEE - 1.0);
        return dl_MTC / (1.0 + k_pee / k_see);
      }
    return velocity_root(l_CE, l_MTC, dl_MTC, q);
  }
} // namespace hydrostat
