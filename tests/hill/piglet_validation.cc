// Piglet experiments of Kleinbach et al. 2017 with the LS-DYNA explicit cycle and the authors' dt
// (theory.md §8.6–8.7), against the published curves in data/hill.
#include <hydrostat/hill/hill_experiment.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace hydrostat;

namespace
{
  // The published curves ship with the repository (data/hill/piglet_kleinbach2017, BSD licence).
  const std::string data_dir = HYDROSTAT_SOURCE_DIR "/data/hill/piglet_kleinbach2017/";

  /// Two-column published file (header line, then "x y" rows).
  std::vector<std::pair<double, double>> read_published(const std::string &name)
  {
    std::ifstream in(data_dir + name);
    if (!in)
      throw std::runtime_error("published data file '" + data_dir + name +
                               "' not found: the repository's data/ folder is incomplete.");
    std::string header;
    std::getline(in, header);
    std::vector<std::pair<double, double>> rows;
    double                                 x, y;
    while (in >> x >> y)
      rows.emplace_back(x, y);
    return rows;
  }

  /// Linear interpolation of a model quantity at time t.
  double interpolate(const std::vector<ExperimentSample> &s, const double t, double (*get)(const ExperimentSample &))
  {
    const auto it =
      std::lower_bound(s.begin(), s.end(), t, [](const ExperimentSample &a, const double x) { return a.t < x; });
    if (it == s.begin())
      return get(*it);
    if (it == s.end())
      return get(s.back());
    const auto &a = *(it - 1), &b = *it;
    return get(a) + (get(b) - get(a)) * (t - a.t) / (b.t - a.t);
  }

  ActivationDynamics activation(const ActivationDynamics::Model model)
  {
    ActivationDynamics::Parameters p;
    p.model = model;
    return ActivationDynamics(p);
  }

  const HillMuscleTendonUnit piglet{HillMuscleTendonUnit::Parameters()};
  const char *const          cases[]   = {"h085", "h088", "h091", "h094", "h100", "h103", "h108", "h110"};
  const double               lengths[] = {0.0523, 0.0541, 0.0560, 0.0578, 0.0615, 0.0633, 0.0664, 0.0677};
} // namespace

TEST(PigletValidation, PublishedDataPresent)
{
  ASSERT_TRUE(std::filesystem::is_directory(data_dir))
    << "published piglet data not found in " << data_dir << " (part of the repository: data/)";
}

// Isometric, all 8 lengths, Zajac and Hatze: F_MTC(t) against the published curves at their
// sample times. With the authors' cycle reproduced, the measured maximum is 1.5 mN (Hatze h094,
// at the curve's end) and at most 0.53 mN for Zajac; the published values carry ~1e-5 relative
// (single-precision LS-DYNA output), i.e. up to 0.4 mN at 38 N. Tolerance 3 mN ("a few mN"); a
// true step in STIM instead of the LCINT ramp gives 0.07–0.40 N (measured, h085–h110) and fails. Hatze q(t) against the
// published activity: measured 5e-8, tolerance 1e-6.
TEST(PigletValidation, IsometricForceAndActivity)
{
  for (const auto model : {ActivationDynamics::Model::zajac, ActivationDynamics::Model::hatze})
    {
      const std::string    name = model == ActivationDynamics::Model::zajac ? "zajac" : "hatze";
      const auto           act  = activation(model);
      const HillIntegrator integrator(piglet, act);
      ExperimentSetup      setup;
      setup.stimulation = LoadCurve::parse("0,0; 0.1,0; 0.1,1; 1.1,1; 1.1,0; 1.5,0");
      for (unsigned int i = 0; i < 8; ++i)
        {
          setup.l_MTC0   = lengths[i];
          const auto out = run_experiment(integrator, setup);
          double     err = 0.0;
          for (const auto &[t, F] :
               read_published("activationdynamics/isometric_piglet_" + name + "_" + cases[i] + "_force.dat"))
            if (t <= out.back().t)
              err = std::max(
                err, std::abs(interpolate(out, t, [](const ExperimentSample &s) { return s.forces.F_MTC; }) - F));
          std::cout << "isometric " << name << ' ' << cases[i] << ": max |F - F_pub| = " << 1e3 * err << " mN\n";
          EXPECT_LT(err, 3.0e-3) << name << ' ' << cases[i];

          const std::string q_file =
            "activationdynamics/isometric_piglet_" + name + "_" + cases[i] + "_activationlevel.dat";
          if (std::filesystem::exists(data_dir + q_file))
            {
              double q_err = 0.0;
              for (const auto &[t, q] : read_published(q_file))
                if (t <= out.back().t)
                  q_err =
                    std::max(q_err, std::abs(interpolate(out, t, [](const ExperimentSample &s) { return s.q; }) - q));
              std::cout << "isometric " << name << ' ' << cases[i] << ": max |q - q_pub| = " << q_err << '\n';
              EXPECT_LT(q_err, 1.0e-6) << name << ' ' << cases[i];
            }
        }
    }
}

// Concentric, 7 loads: peak shortening velocity and its time after lift-off (the last sample at
// rest, the published t = 0). Measured: velocity within 0.02 %, time on the same sample. The
// brief asks 1 %; one sample shift is 5 % of the peak time, so the time check catches a
// shifted cycle.
TEST(PigletValidation, ConcentricPeakVelocity)
{
  const auto           act = activation(ActivationDynamics::Model::zajac);
  const HillIntegrator integrator(piglet, act);
  ExperimentSetup      setup;
  setup.kind        = ExperimentSetup::Kind::concentric;
  setup.l_MTC0      = 0.0597;
  setup.t_end       = 0.4;
  setup.stimulation = LoadCurve::parse("0,1; 0.6,1");
  for (const int grams : {100, 200, 400, 600, 800, 1400, 1800})
    {
      setup.mass     = 1e-3 * grams;
      const auto out = run_experiment(integrator, setup);
      const auto first =
        std::find_if(out.begin(), out.end(), [](const ExperimentSample &s) { return s.dl_MTC != 0.0; });
      ASSERT_NE(first, out.end()) << grams << " g never lifts off";
      const double t_lift = (first - 1)->t;
      const auto   peak =
        std::min_element(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.dl_MTC < b.dl_MTC; });
      const auto pub = read_published("concentric/concentric_piglet_" + std::to_string(grams) + "g.dat");
      const auto ppeak =
        *std::max_element(pub.begin(), pub.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
      std::cout << "concentric " << grams << " g: v_peak error " << 100 * (-peak->dl_MTC / ppeak.second - 1)
                << " %, t_peak error " << 100 * ((peak->t - t_lift) / ppeak.first - 1) << " %\n";
      EXPECT_NEAR(-peak->dl_MTC / ppeak.second, 1.0, 0.01) << grams << " g";
      EXPECT_NEAR((peak->t - t_lift) / ppeak.first, 1.0, 0.01) << grams << " g";
    }
}

// Quick release, 6 loads: force at release and the peak velocity of the first shortening
// excursion. Measured: force within 0.003 %, velocity within 0.21 %; tolerance 1 % as asked.
TEST(PigletValidation, QuickReleaseForceAndPeakVelocity)
{
  const auto           act = activation(ActivationDynamics::Model::zajac);
  const HillIntegrator integrator(piglet, act);
  ExperimentSetup      setup;
  setup.kind        = ExperimentSetup::Kind::quick_release;
  setup.l_MTC0      = 0.0603;
  setup.t_end       = 1.3;
  setup.stimulation = LoadCurve::parse("0,1; 1,1; 1,0; 3,0");
  for (const int grams : {200, 400, 600, 800, 1000, 1500})
    {
      setup.mass     = 1e-3 * grams;
      const auto out = run_experiment(integrator, setup);
      auto k = std::find_if(out.begin(), out.end(), [](const ExperimentSample &s) { return s.t > 1.0 + 1e-12; }) - 1;
      const double F_release = k->forces.F_MTC;
      double       v_peak    = 0.0;
      for (++k; k != out.end() && (-k->dl_MTC > 0.0 || v_peak == 0.0); ++k)
        v_peak = std::max(v_peak, -k->dl_MTC);
      const auto pub = read_published("quickrelease/quickrelease_piglet_" + std::to_string(grams) + "g.dat");
      double     pv  = 0.0;
      for (const auto &row : pub)
        pv = std::max(pv, row.first);
      std::cout << "quick release " << grams << " g: F_release error " << 100 * (F_release / pub.front().second - 1)
                << " %, v_peak error " << 100 * (v_peak / pv - 1) << " %\n";
      EXPECT_NEAR(F_release / pub.front().second, 1.0, 0.01) << grams << " g";
      EXPECT_NEAR(v_peak / pv, 1.0, 0.01) << grams << " g";
    }
}
