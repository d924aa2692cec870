#pragma once

#include <deal.II/base/parameter_handler.h>

#include <optional>

namespace hydrostat
{
  /// A scalar function value and its derivative with respect to the function's argument.
  struct ValueSlope
  {
    double value = 0.0;
    double slope = 0.0;
  };

  /**
   * Nominal fibre stress σm0 [Pa] and its partial derivatives with respect to the fibre stretch λ
   * and the stretch rate λ̇ (= ε̇): all that the fibre kinematics (fibre_stress.h) needs of a
   * fibre law. d_stretch includes the stretch dependence of the activation (Hatze).
   */
  struct FibreStress
  {
    double value          = 0.0; // Pa
    double d_stretch      = 0.0; // Pa
    double d_stretch_rate = 0.0; // Pa·s
  };

  /**
   * The squid muscle law of Van Leeuwen & Kier (1997), theory.md §6, eqs. (20)–(26):
   *
   *   σm0 = σpass(ε) + σmax · fa · fl(ε) · fv(ε̇),   ε = λ − 1.
   *
   * A cheap value type: the constructor derives the kinks of fl in strain, σmax and ε̇min once, so
   * the solver can build one law per quadrature point from position-dependent parameters (the
   * squid stalk's lmyo and l0 vary along the arm) and evaluate it in the assembly loop.
   *
   * Kinks: fl is piecewise linear with five kinks (including the clamps fl = max(fl, 0)), fv has
   * kinks at r = 0 (shortening/lengthening branches) and at r = 1 (fv clamped at 0 for shortening
   * faster than unloaded, where the formula would turn the muscle into a pusher). Each kink x_k is
   * bridged over [x_k − h, x_k + h] by a monotone C¹ cubic Hermite interpolant (PCHIP) through the
   * nodes x_k − h, x_k, x_k + h: the kink's own value is kept (fl = 1 on the whole plateau,
   * fv(0) = 1), the law is unchanged outside the bridges, and the deviation inside is at most
   * 4/27 |Δslope| h. h = 0 gives the raw law with right-sided derivatives at the kinks.
   * See doc/muscle.md.
   */
  class VanLeeuwenKierMuscle
  {
  public:
    /// Filament lengths in µm as in the paper (only their ratios enter), stresses in Pa, rates in 1/s.
    struct Parameters
    {
      double myosin_length         = 0.97; // lmyo [µm], squid stalk base
      double rest_sarcomere_length = 1.34; // l0 [µm], squid stalk base
      double bare_zone_length      = 0.14; // lbz [µm]
      double z_disc_length         = 0.06; // lz [µm]
      double D_act                 = 0.68;
      double D_myo                 = 1.90;
      double C_myo                 = 0.44;
      double K_fv                  = 0.25; // Hill curvature K of fv

      /// σmax [Pa]; unset: 280 kPa (lmyo − lbz)/(1.58 µm − lbz).
      std::optional<double> max_isometric_stress;
      /// ε̇min < 0 [1/s]; unset: −17 s⁻¹ · 2.37 µm / l0.
      std::optional<double> unloaded_shortening_rate;

      double passive_c1                = 887.4e3; // c1p [Pa]
      double passive_c2                = 2.2605;  // c2p [-]
      double passive_c3                = 1450e3;  // c3p [Pa]
      double passive_c4                = -625e3;  // c4p [Pa]
      double passive_transition_strain = 0.773;

      /// Half-width h of the kink bridges, in strain ε for fl and in r = ε̇/ε̇min for fv.
      double kink_smoothing = 0.005;

      double sigma_max() const;
      double strain_rate_min() const;
    };

    explicit VanLeeuwenKierMuscle(const Parameters &parameters);

    /// Declares the entries of Parameters in the current subsection of @p prm.
    static void       declare_parameters(dealii::ParameterHandler &prm);
    static Parameters parse_parameters(dealii::ParameterHandler &prm);

    /// fl and dfl/dε.
    ValueSlope force_length(const double strain) const;
    /// fv and dfv/dε̇ [s].
    ValueSlope force_velocity(const double strain_rate) const;
    /// σpass [Pa] and dσpass/dε [Pa].
    ValueSlope passive_stress(const double strain) const;

    /// σm0 with fl, fv for output; @p activation fa and dfa/dλ are given (activation/ owns them).
    struct Response
    {
      FibreStress stress;
      double      force_length   = 0.0;
      double      force_velocity = 0.0;
    };
    Response evaluate(const double strain, const double strain_rate, const double activation,
                      const double dactivation_dstretch) const;

    double max_isometric_stress() const { return max_stress; }
    double unloaded_shortening_rate() const { return min_strain_rate; }
    /// Strains of the kinks of fl, ascending: fl reaches 0, ascending 2|1, plateau start, end, fl = 0.
    const double (&force_length_kinks() const)[5] { return fl_kink; }

  private:
    ValueSlope raw_force_length(const double strain) const;
    ValueSlope raw_force_velocity(const double r) const;

    Parameters param;
    double     max_stress;      // σmax [Pa]
    double     min_strain_rate; // ε̇min [1/s]
    double     fl_kink[5];      // strains of the kinks of fl
    double     fl_at_kink[5];   // fl there
    double     fl_slope[4];     // dfl/dε between kink k and k + 1
  };
} // namespace hydrostat
