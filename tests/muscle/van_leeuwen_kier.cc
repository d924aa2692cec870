// Van Leeuwen & Kier (1997) muscle law (theory.md §6): the three curves against the formulas of
// the paper written out independently here, the derived σmax and ε̇min against the squid data,
// the derivatives against finite differences, and the kink smoothing (C¹, bounded, exact at the
// kinks, Newton converges on it).
#include <hydrostat/muscle/van_leeuwen_kier.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

using namespace hydrostat;

namespace
{
  using Muscle = VanLeeuwenKierMuscle;

  Muscle::Parameters squid_base()
  {
    return {}; // the defaults are the squid stalk base
  }

  Muscle::Parameters squid_tip()
  {
    Muscle::Parameters p;
    p.myosin_length         = 0.50;
    p.rest_sarcomere_length = 0.73;
    return p;
  }

  Muscle::Parameters unsmoothed(Muscle::Parameters p)
  {
    p.kink_smoothing = 0.0;
    return p;
  }

  /// fl of theory.md eq. (21), in terms of the sarcomere length as the paper prints it.
  double paper_force_length(const Muscle::Parameters &p, const double strain)
  {
    const double lmyo = p.myosin_length, lbz = p.bare_zone_length, lz = p.z_disc_length;
    const double lact = p.rest_sarcomere_length - lz - lbz / 2;
    const double ls   = p.rest_sarcomere_length * (1 + strain);
    double       fl;
    if (ls >= lact + lbz + lz)
      fl = (lmyo + lact + lz - ls) / (lmyo - lbz);
    else if (ls >= lact + lz)
      fl = 1;
    else if (ls >= lmyo + lz)
      fl = (lmyo - lbz - p.D_act * (lact + lz - ls)) / (lmyo - lbz);
    else
      fl = (lmyo - lbz - p.D_act * (lact + lz - ls) - (p.D_myo + p.C_myo) * (lmyo + lz - ls)) / (lmyo - lbz);
    return std::max(fl, 0.0);
  }

  /// Kink strains of fl from the sarcomere lengths of theory.md eq. (22) (and the zero of ascending 2).
  std::vector<double> paper_kinks(const Muscle::Parameters &p)
  {
    const double lmyo = p.myosin_length, lbz = p.bare_zone_length, lz = p.z_disc_length, l0 = p.rest_sarcomere_length;
    const double lact      = l0 - lz - lbz / 2;
    std::vector<double> ls = {lmyo + lz, lact + lz, lact + lbz + lz, lmyo + lact + lz};
    // ascending 2 is linear in ls: its zero by one secant step from its value at lmyo + lz
    const double f1 = (lmyo - lbz - p.D_act * (lact - lmyo)) / (lmyo - lbz);
    const double s2 = (p.D_act + p.D_myo + p.C_myo) / (lmyo - lbz);
    ls.insert(ls.begin(), lmyo + lz - f1 / s2);
    for (double &l : ls)
      l = l / l0 - 1;
    return ls;
  }

  /// fv of theory.md eq. (23), with r = ε̇/ε̇min; r > 1 clamped to 0.
  double paper_force_velocity(const double r, const double K = 0.25)
  {
    if (r >= 0)
      return std::max((1 - r) / (1 + r / K), 0.0);
    return 1.8 - 0.8 * (1 + r) / (1 - 7.56 * r / K);
  }

  double distance_to(const std::vector<double> &points, const double x)
  {
    double d = 1e300;
    for (const double p : points)
      d = std::min(d, std::abs(x - p));
    return d;
  }
} // namespace

// σmax and ε̇min follow lmyo and l0 (theory.md eq. (25)); the squid data table lists the resulting
// base/tip values rounded (and ε̇min at the tip from a slightly different l0 average), hence 0.5 %.
TEST(VanLeeuwenKierMuscle, DerivedConstantsMatchSquidStalkData)
{
  const Muscle base(squid_base()), tip(squid_tip());
  EXPECT_NEAR(base.max_isometric_stress(), 280e3 * (0.97 - 0.14) / (1.58 - 0.14), 1e-9);
  EXPECT_NEAR(tip.unloaded_shortening_rate(), -17.0 * 2.37 / 0.73, 1e-12);
  EXPECT_NEAR(base.max_isometric_stress() / 161.5e3, 1.0, 5e-3);
  EXPECT_NEAR(tip.max_isometric_stress() / 69.9e3, 1.0, 5e-3);
  EXPECT_NEAR(base.unloaded_shortening_rate() / -30.1, 1.0, 5e-3);
  EXPECT_NEAR(tip.unloaded_shortening_rate() / -55.4, 1.0, 5e-3);

  auto p                     = squid_base();
  p.max_isometric_stress     = 130e3;
  p.unloaded_shortening_rate = -0.91;
  const Muscle overridden(p);
  EXPECT_EQ(overridden.max_isometric_stress(), 130e3);
  EXPECT_EQ(overridden.unloaded_shortening_rate(), -0.91);
}

TEST(VanLeeuwenKierMuscle, ParametersRoundTripThroughParameterHandler)
{
  dealii::ParameterHandler prm;
  prm.enter_subsection("Muscle");
  Muscle::declare_parameters(prm);
  prm.leave_subsection();
  prm.parse_input_from_string("subsection Muscle\n set Myosin filament length = 0.5\n"
                              " set Rest sarcomere length = 0.73\n set Maximum isometric stress = 130000\n end\n");
  prm.enter_subsection("Muscle");
  const auto p = Muscle::parse_parameters(prm);
  prm.leave_subsection();
  EXPECT_EQ(p.myosin_length, 0.5);
  EXPECT_EQ(p.sigma_max(), 130e3);
  EXPECT_FALSE(p.unloaded_shortening_rate.has_value()); // 0 in the file: derived from l0
  EXPECT_NEAR(p.strain_rate_min(), -17.0 * 2.37 / 0.73, 1e-12);
  EXPECT_EQ(p.passive_c3, 1450e3);
}

// Without smoothing the law is the paper's, to round-off; with it, unchanged outside the
// bridges and within 4/27 |Δslope| h inside (doc/muscle.md).
TEST(VanLeeuwenKierMuscle, CurvesMatchPaperFormulas)
{
  for (const auto &p : {squid_base(), squid_tip()})
    {
      const Muscle raw(unsmoothed(p)), smooth(p);
      const auto   kinks = paper_kinks(p);
      for (unsigned int k = 0; k < 5; ++k)
        EXPECT_NEAR(smooth.force_length_kinks()[k], kinks[k], 1e-14);
      const double h = p.kink_smoothing;
      for (double e = -0.6; e < 0.9; e += 0.00123)
        {
          const double exact = paper_force_length(p, e);
          EXPECT_NEAR(raw.force_length(e).value, exact, 1e-14) << e;
          const double fl = smooth.force_length(e).value;
          EXPECT_GE(fl, 0.0);
          EXPECT_LE(fl, 1.0);
          if (distance_to(kinks, e) >= h)
            EXPECT_NEAR(fl, exact, 1e-14) << e;
          else
            EXPECT_NEAR(fl, exact, 4.0 / 27.0 * 6.2 * h) << e; // |Δslope| ≤ 6.2 (ascending 2 at the tip)
        }
      // ε̇ over lengthening, shortening and beyond unloaded shortening
      const double rate_min = raw.unloaded_shortening_rate();
      for (double r = -3.0; r < 1.5; r += 0.00317)
        {
          EXPECT_NEAR(raw.force_velocity(r * rate_min).value, paper_force_velocity(r), 1e-14) << r;
          if (std::abs(r) >= h && std::abs(r - 1) >= h)
            EXPECT_NEAR(smooth.force_velocity(r * rate_min).value, paper_force_velocity(r), 1e-14) << r;
          else // slopes −25 and −5 meet at r = 0
            EXPECT_NEAR(smooth.force_velocity(r * rate_min).value, paper_force_velocity(r), 4.0 / 27.0 * 21.0 * h);
        }
    }
}

// The points the solver relies on are exact, smoothing or not.
TEST(VanLeeuwenKierMuscle, ExactValuesAtKinks)
{
  const Muscle m(squid_base());
  const auto  &k = m.force_length_kinks();
  EXPECT_EQ(m.force_length(0.0).value, 1.0);
  EXPECT_EQ(m.force_length(k[2]).value, 1.0);
  EXPECT_EQ(m.force_length(k[3]).value, 1.0);
  EXPECT_EQ(m.force_length(k[0]).value, 0.0);
  EXPECT_EQ(m.force_length(k[4]).value, 0.0);
  EXPECT_EQ(m.force_velocity(0.0).value, 1.0);
  EXPECT_EQ(m.force_velocity(m.unloaded_shortening_rate()).value, 0.0);
  EXPECT_EQ(m.force_velocity(2.0 * m.unloaded_shortening_rate()).value, 0.0);
  // eccentric limit 1.8 + 0.8 K/7.56
  EXPECT_NEAR(m.force_velocity(-1e6 * m.unloaded_shortening_rate()).value, 1.8 + 0.8 * 0.25 / 7.56, 1e-4);
}

// σpass: zero in compression, c1p ε^c2p, then linear. The defaults are C¹ at 0.773 only to the
// digits printed (value 3e-6, slope 1.4e-5 relative), hence 1e-4.
TEST(VanLeeuwenKierMuscle, PassiveStress)
{
  const Muscle m(squid_base());
  EXPECT_EQ(m.passive_stress(-0.2).value, 0.0);
  EXPECT_EQ(m.passive_stress(0.0).value, 0.0);
  EXPECT_NEAR(m.passive_stress(0.3).value, 887.4e3 * std::pow(0.3, 2.2605), 1e-8);
  EXPECT_NEAR(m.passive_stress(1.2).value, 1450e3 * 1.2 - 625e3, 1e-8);
  const ValueSlope below = m.passive_stress(0.773 - 1e-12), above = m.passive_stress(0.773);
  EXPECT_NEAR(below.value / above.value, 1.0, 1e-4);
  EXPECT_NEAR(below.slope / above.slope, 1.0, 1e-4);
}

// Derivatives against central differences, everywhere except within 1e-5 of a kink or a bridge
// end (where the second derivative jumps, which spoils a central difference, not the slope).
// Step 1e-7: truncation ≈ δ² f'''/6 ≲ 1e-8 even inside the fv bridges (f''' ≈ 20/h²), round-off
// ≈ 1e-16/δ; tolerance 1e-6 relative to the slope scale of O(1–25).
TEST(VanLeeuwenKierMuscle, DerivativesMatchFiniteDifferences)
{
  for (const auto &p : {squid_base(), squid_tip(), unsmoothed(squid_base())})
    {
      const Muscle        m(p);
      const double        h = p.kink_smoothing, d = 1e-7;
      std::vector<double> special;
      for (const double k : paper_kinks(p))
        for (const double s : {-h, 0.0, h})
          special.push_back(k + s);
      special.push_back(0.0);
      special.push_back(p.passive_transition_strain);
      unsigned int n_checked = 0;
      for (double e = -0.6; e < 1.0; e += 0.000731)
        if (distance_to(special, e) > 1e-5)
          {
            const double fd_fl = (m.force_length(e + d).value - m.force_length(e - d).value) / (2 * d);
            EXPECT_NEAR(m.force_length(e).slope, fd_fl, 1e-6 * 5.0) << e;
            const double fd_p = (m.passive_stress(e + d).value - m.passive_stress(e - d).value) / (2 * d);
            EXPECT_NEAR(m.passive_stress(e).slope, fd_p, 1e-6 * 1450e3) << e;
            ++n_checked;
          }
      EXPECT_GT(n_checked, 2000u);

      const double        rate_min  = m.unloaded_shortening_rate();
      std::vector<double> special_r = {-h, 0.0, h, 1 - h, 1.0, 1 + h};
      for (double r = -2.0; r < 1.3; r += 0.000377)
        if (distance_to(special_r, r) > 1e-5)
          {
            const double rate  = r * rate_min;
            const double dd    = d * std::abs(rate_min);
            const double fd_fv = (m.force_velocity(rate + dd).value - m.force_velocity(rate - dd).value) / (2 * dd);
            // slopes in r up to 25, i.e. 25/|ε̇min| per 1/s
            EXPECT_NEAR(m.force_velocity(rate).slope, fd_fv, 1e-6 * 25.0 / std::abs(rate_min)) << r;
          }
    }
}

// C¹ across every kink with smoothing (left and right slopes at the kink agree); without it the
// slopes jump and the one at the kink is the right-sided one. Monotone fv (it must not create
// spurious equilibria): non-increasing in r everywhere.
TEST(VanLeeuwenKierMuscle, SmoothingIsContinuouslyDifferentiable)
{
  const Muscle smooth(squid_base()), raw(unsmoothed(squid_base()));
  const double eps = 1e-11;
  for (const double k : paper_kinks(squid_base()))
    {
      EXPECT_NEAR(smooth.force_length(k - eps).slope, smooth.force_length(k + eps).slope, 1e-6);
      EXPECT_GT(std::abs(raw.force_length(k - eps).slope - raw.force_length(k + eps).slope), 0.5);
      EXPECT_EQ(raw.force_length(k).slope, raw.force_length(k + eps).slope);
    }
  const double rate_min = smooth.unloaded_shortening_rate();
  for (const double r : {0.0, 1.0})
    {
      const double a = (r - eps) * rate_min, b = (r + eps) * rate_min;
      EXPECT_NEAR(smooth.force_velocity(a).slope * rate_min, smooth.force_velocity(b).slope * rate_min, 1e-6);
      EXPECT_GT(std::abs(raw.force_velocity(a).slope - raw.force_velocity(b).slope) * std::abs(rate_min), 0.19);
    }
  double previous = 1e300;
  for (double r = -1.0; r < 1.2; r += 1e-4)
    {
      const double fv = smooth.force_velocity(r * rate_min).value;
      EXPECT_LE(fv, previous + 1e-15) << r;
      EXPECT_LE(smooth.force_velocity(r * rate_min).slope * rate_min, 1e-12) << r;
      previous = fv;
    }
}

// Newton on a fibre-stress balance whose root lies inside a bridge (isometric-like fv kink and
// the plateau corner of fl): the slopes are those of the values, so the iteration converges
// quadratically (the last steps square the error) in a handful of iterations.
TEST(VanLeeuwenKierMuscle, NewtonConvergesOnSmoothedKinks)
{
  const Muscle m(squid_base());
  const double h = squid_base().kink_smoothing;
  // fv: solve fv(ε̇) = fv(target) with the target in the r = 0 bridge, on the lengthening side.
  // fl: solve fl(ε) = fl(target) with the target in the bridge at the start of the plateau.
  const double rate_target   = -0.3 * h * m.unloaded_shortening_rate();
  const double strain_target = m.force_length_kinks()[2] - 0.4 * h;
  struct Case
  {
    std::function<ValueSlope(double)> f;
    double                            target, start;
  };
  // fv is convex for shortening and concave for lengthening, so Newton needs a start near r = 0
  // (r = 0.03 here) whatever the smoothing; fl is piecewise linear and any start on the limb does.
  for (const Case &c :
       {Case{[&](double x) { return m.force_velocity(x); }, rate_target, 0.03 * m.unloaded_shortening_rate()},
        Case{[&](double x) { return m.force_length(x); }, strain_target, -0.1}})
    {
      const double goal = c.f(c.target).value;
      double       x = c.start, previous_error = 1e300;
      unsigned int it = 0;
      for (; it < 30 && std::abs(x - c.target) > 1e-14; ++it)
        {
          const ValueSlope g = c.f(x);
          x -= (g.value - goal) / g.slope;
          const double error = std::abs(x - c.target);
          if (error > 1e-12 && previous_error < 1e-4) // above round-off of x ≈ 0.05
            {
              EXPECT_LT(error, 1e3 * previous_error * previous_error);
            }
          previous_error = error;
        }
      EXPECT_LT(it, 12u);
      EXPECT_NEAR(x, c.target, 1e-13);
    }
}

TEST(VanLeeuwenKierMuscle, EvaluateCombinesCurves)
{
  const Muscle m(squid_base());
  const double e = 0.3, rate = 4.0, fa = 0.7, dfa = 0.2;
  const auto   r  = m.evaluate(e, rate, fa, dfa);
  const auto   fl = m.force_length(e), fv = m.force_velocity(rate), pass = m.passive_stress(e);
  const double smax = m.max_isometric_stress();
  EXPECT_DOUBLE_EQ(r.stress.value, pass.value + smax * fa * fl.value * fv.value);
  EXPECT_DOUBLE_EQ(r.stress.d_stretch, pass.slope + smax * fv.value * (dfa * fl.value + fa * fl.slope));
  EXPECT_DOUBLE_EQ(r.stress.d_stretch_rate, smax * fa * fl.value * fv.slope);
  EXPECT_EQ(r.force_length, fl.value);
  EXPECT_EQ(r.force_velocity, fv.value);
}
