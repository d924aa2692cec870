#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/muscle/van_leeuwen_kier.h>

#include <cmath>
#include <limits>

namespace hydrostat
{
  using dealii::Patterns::Double;

  namespace
  {
    /// Cubic Hermite interpolant on [x0, x1] with end values and slopes p0, p1.
    ValueSlope hermite(const double x, const double x0, const ValueSlope &p0, const double x1, const ValueSlope &p1)
    {
      const double H  = x1 - x0;
      const double t  = (x - x0) / H;
      const double t2 = t * t, t3 = t2 * t;
      return {(2 * t3 - 3 * t2 + 1) * p0.value + (t3 - 2 * t2 + t) * H * p0.slope + (3 * t2 - 2 * t3) * p1.value +
                (t3 - t2) * H * p1.slope,
              (6 * t2 - 6 * t) * (p0.value - p1.value) / H + (3 * t2 - 4 * t + 1) * p0.slope +
                (3 * t2 - 2 * t) * p1.slope};
    }

    /**
     * The kinked function @p raw, with each kink x_k bridged over [x_k − h, x_k + h] by the PCHIP
     * interpolant through x_k − h, x_k, x_k + h (Fritsch–Butland slope at x_k: harmonic mean of
     * the two secants, zero where they differ in sign). C¹, exact outside the bridges and at x_k.
     */
    template <typename RawFunction>
    ValueSlope smooth_kinks(const double x, const double *kinks, const unsigned int n_kinks, const double h,
                            const RawFunction &raw)
    {
      for (unsigned int k = 0; k < n_kinks; ++k)
        if (std::abs(x - kinks[k]) < h)
          {
            const double     xk    = kinks[k];
            const ValueSlope left  = raw(xk - h);
            const ValueSlope right = raw(xk + h);
            const double     fk    = raw(xk).value;
            const double     d_l   = (fk - left.value) / h;
            const double     d_r   = (right.value - fk) / h;
            const ValueSlope mid{fk, d_l * d_r > 0.0 ? 2.0 * d_l * d_r / (d_l + d_r) : 0.0};
            return x < xk ? hermite(x, xk - h, left, xk, mid) : hermite(x, xk, mid, xk + h, right);
          }
      return raw(x);
    }

    // Van Leeuwen & Kier's scaling of σmax with myosin length and of ε̇min with rest length.
    constexpr double reference_stress          = 280e3; // Pa, at lmyo = 1.58 µm
    constexpr double reference_myosin_length   = 1.58;  // µm
    constexpr double reference_shortening_rate = -17.0; // 1/s, at l0 = 2.37 µm
    constexpr double reference_rest_length     = 2.37;  // µm
  }                                                     // namespace

  double VanLeeuwenKierMuscle::Parameters::sigma_max() const
  {
    return max_isometric_stress.value_or(reference_stress * (myosin_length - bare_zone_length) /
                                         (reference_myosin_length - bare_zone_length));
  }

  double VanLeeuwenKierMuscle::Parameters::strain_rate_min() const
  {
    return unloaded_shortening_rate.value_or(reference_shortening_rate * reference_rest_length / rest_sarcomere_length);
  }

  VanLeeuwenKierMuscle::VanLeeuwenKierMuscle(const Parameters &parameters)
    : param(parameters)
    , max_stress(parameters.sigma_max())
    , min_strain_rate(parameters.strain_rate_min())
  {
    const Parameters &p = param;
    // Sarcomere lengths of the kinks (theory.md eq. (22)), then strains ε = ls/l0 − 1.
    const double l_act   = p.rest_sarcomere_length - p.z_disc_length - 0.5 * p.bare_zone_length;
    const double overlap = p.myosin_length - p.bare_zone_length;
    require(overlap > 0.0, "Van Leeuwen-Kier: myosin length must exceed the bare zone.");
    const double l0 = p.rest_sarcomere_length;

    // Slopes dfl/dε: ascending 2, ascending 1, plateau, descending.
    fl_slope[0] = l0 * (p.D_act + p.D_myo + p.C_myo) / overlap;
    fl_slope[1] = l0 * p.D_act / overlap;
    fl_slope[2] = 0.0;
    fl_slope[3] = -l0 / overlap;

    fl_kink[1]    = (p.myosin_length + p.z_disc_length) / l0 - 1.0;
    fl_kink[2]    = (l_act + p.z_disc_length) / l0 - 1.0;
    fl_kink[3]    = (l_act + p.bare_zone_length + p.z_disc_length) / l0 - 1.0;
    fl_kink[4]    = (p.myosin_length + l_act + p.z_disc_length) / l0 - 1.0;
    fl_at_kink[2] = fl_at_kink[3] = 1.0;
    fl_at_kink[4]                 = 0.0;
    fl_at_kink[1]                 = 1.0 - fl_slope[1] * (fl_kink[2] - fl_kink[1]);
    require(fl_at_kink[1] > 0.0, "Van Leeuwen-Kier: fl vanishes on ascending limb 1; check lmyo, l0, Dact.");
    fl_kink[0]    = fl_kink[1] - fl_at_kink[1] / fl_slope[0];
    fl_at_kink[0] = 0.0;

    const double h = p.kink_smoothing;
    require(h >= 0.0 && h < 0.5, "Van Leeuwen-Kier: kink smoothing must be in [0, 0.5).");
    for (unsigned int k = 0; k < 4; ++k)
      require(fl_kink[k + 1] - fl_kink[k] > 2.0 * h,
              "Van Leeuwen-Kier: the kinks of fl must be more than twice the kink smoothing "
              "apart (lmyo < l0 - lz - lbz/2 is needed for the ascending limbs).");
    require(max_stress >= 0.0 && min_strain_rate < 0.0 && p.K_fv > 0.0,
            "Van Leeuwen-Kier: need sigma_max >= 0, eps_dot_min < 0, K > 0.");
  }

  void VanLeeuwenKierMuscle::declare_parameters(dealii::ParameterHandler &prm)
  {
    const Parameters d;
    prm.declare_entry("Myosin filament length", shortest_text(d.myosin_length), Double(0.0),
                      "lmyo [micrometre]. Squid stalk: 0.97 (base) to 0.50 (tip).");
    prm.declare_entry(
      "Rest sarcomere length", shortest_text(d.rest_sarcomere_length), Double(0.0),
      "l0 [micrometre], sarcomere length at zero fibre strain. Squid stalk: 1.34 (base) to 0.73 (tip).");
    prm.declare_entry("Bare zone length", shortest_text(d.bare_zone_length), Double(0.0), "lbz [micrometre].");
    prm.declare_entry("Z-disc length", shortest_text(d.z_disc_length), Double(0.0), "lz [micrometre].");
    prm.declare_entry("Dact", shortest_text(d.D_act), Double(0.0), "Actin double-overlap coefficient of fl [-].");
    prm.declare_entry("Dmyo", shortest_text(d.D_myo), Double(0.0), "Myosin/Z-disc coefficient of fl [-].");
    prm.declare_entry("Cmyo", shortest_text(d.C_myo), Double(0.0), "Myosin compression coefficient of fl [-].");
    prm.declare_entry("Force-velocity curvature", shortest_text(d.K_fv), Double(0.0), "Hill constant K of fv [-].");
    prm.declare_entry("Maximum isometric stress", "0", Double(0.0),
                      "sigma_max [Pa]; 0: derived, 280 kPa (lmyo - lbz)/(1.58 um - lbz).");
    prm.declare_entry("Unloaded shortening rate", "0", Double(-std::numeric_limits<double>::max(), 0.0),
                      "eps_dot_min < 0 [1/s]; 0: derived, -17/s * 2.37 um / l0.");
    prm.declare_entry("Passive c1p", shortest_text(d.passive_c1), Double(0.0),
                      "[Pa]; sigma_pass = c1p eps^c2p below the transition.");
    prm.declare_entry("Passive c2p", shortest_text(d.passive_c2), Double(1.0), "Exponent [-].");
    prm.declare_entry("Passive c3p", shortest_text(d.passive_c3), Double(0.0),
                      "[Pa]; sigma_pass = c3p eps + c4p above the transition.");
    prm.declare_entry("Passive c4p", shortest_text(d.passive_c4), Double(), "[Pa].");
    prm.declare_entry("Passive transition strain", shortest_text(d.passive_transition_strain), Double(0.0),
                      "Strain [-] where the passive law turns linear (C1 there with the defaults).");
    prm.declare_entry("Kink smoothing", shortest_text(d.kink_smoothing), Double(0.0, 0.5),
                      "Half-width h [-] of the C1 bridges over the kinks of fl (in strain) and fv "
                      "(in eps_dot/eps_dot_min); 0: raw law with right-sided derivatives.");
  }

  VanLeeuwenKierMuscle::Parameters VanLeeuwenKierMuscle::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    p.myosin_length         = prm.get_double("Myosin filament length");
    p.rest_sarcomere_length = prm.get_double("Rest sarcomere length");
    p.bare_zone_length      = prm.get_double("Bare zone length");
    p.z_disc_length         = prm.get_double("Z-disc length");
    p.D_act                 = prm.get_double("Dact");
    p.D_myo                 = prm.get_double("Dmyo");
    p.C_myo                 = prm.get_double("Cmyo");
    p.K_fv                  = prm.get_double("Force-velocity curvature");
    if (const double s = prm.get_double("Maximum isometric stress"); s != 0.0)
      p.max_isometric_stress = s;
    if (const double r = prm.get_double("Unloaded shortening rate"); r != 0.0)
      p.unloaded_shortening_rate = r;
    p.passive_c1                = prm.get_double("Passive c1p");
    p.passive_c2                = prm.get_double("Passive c2p");
    p.passive_c3                = prm.get_double("Passive c3p");
    p.passive_c4                = prm.get_double("Passive c4p");
    p.passive_transition_strain = prm.get_double("Passive transition strain");
    p.kink_smoothing            = prm.get_double("Kink smoothing");
    return p;
  }

  ValueSlope VanLeeuwenKierMuscle::raw_force_length(const double strain) const
  {
    if (strain < fl_kink[0] || strain >= fl_kink[4])
      return {0.0, 0.0};
    unsigned int k = 0;
    while (strain >= fl_kink[k + 1])
      ++k;
    return {fl_at_kink[k] + fl_slope[k] * (strain - fl_kink[k]), fl_slope[k]};
  }

  ValueSlope VanLeeuwenKierMuscle::raw_force_velocity(const double r) const
  {
    const double K = param.K_fv;
    if (r >= 1.0) // shortening faster than unloaded: no active force (the formula would push)
      return {0.0, 0.0};
    if (r >= 0.0)
      {
        const double q = 1.0 + r / K;
        return {(1.0 - r) / q, -(1.0 + 1.0 / K) / (q * q)};
      }
    const double q = 1.0 - 7.56 * r / K;
    return {1.8 - 0.8 * (1.0 + r) / q, -0.8 * (1.0 + 7.56 / K) / (q * q)};
  }

  ValueSlope VanLeeuwenKierMuscle::force_length(const double strain) const
  {
    return smooth_kinks(strain, fl_kink, 5, param.kink_smoothing,
                        [this](const double e) { return raw_force_length(e); });
  }

  ValueSlope VanLeeuwenKierMuscle::force_velocity(const double strain_rate) const
  {
    static constexpr double kinks[2] = {0.0, 1.0};
    const ValueSlope        in_r     = smooth_kinks(strain_rate / min_strain_rate, kinks, 2, param.kink_smoothing,
                                                    [this](const double r) { return raw_force_velocity(r); });
    return {in_r.value, in_r.slope / min_strain_rate};
  }

  ValueSlope VanLeeuwenKierMuscle::passive_stress(const double strain) const
  {
    const Parameters &p = param;
    if (strain <= 0.0)
      return {0.0, 0.0};
    if (strain < p.passive_transition_strain)
      {
        const double power = p.passive_c1 * std::pow(strain, p.passive_c2 - 1.0);
        return {power * strain, p.passive_c2 * power};
      }
    return {p.passive_c3 * strain + p.passive_c4, p.passive_c3};
  }

  VanLeeuwenKierMuscle::Response VanLeeuwenKierMuscle::evaluate(const double strain, const double strain_rate,
                                                                const double activation,
                                                                const double dactivation_dstretch) const
  {
    const ValueSlope fl      = force_length(strain);
    const ValueSlope fv      = force_velocity(strain_rate);
    const ValueSlope passive = passive_stress(strain);

    Response r;
    r.force_length   = fl.value;
    r.force_velocity = fv.value;
    r.stress.value   = passive.value + max_stress * activation * fl.value * fv.value;
    r.stress.d_stretch =
      passive.slope + max_stress * fv.value * (dactivation_dstretch * fl.value + activation * fl.slope);
    r.stress.d_stretch_rate = max_stress * activation * fl.value * fv.slope;
    return r;
  }
} // namespace hydrostat
