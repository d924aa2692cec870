#pragma once

#include <deal.II/base/parameter_handler.h>

#include <hydrostat/hill/hill_integrators.h>

#include <string>
#include <utility>
#include <vector>

namespace hydrostat
{
  /**
   * Piecewise-linear load curve as in LS-DYNA's *DEFINE_CURVE. A repeated abscissa is a jump; at
   * the jump the value of the first point is taken. resampled(n) mimics LS-DYNA's treatment of
   * curves used by materials (LCINT = n equally spaced points over the abscissa range, then linear
   * interpolation), which turns a jump into a ramp over one sample spacing (theory.md §8.6).
   * Beyond the ends the end values are held.
   */
  class LoadCurve
  {
  public:
    LoadCurve() = default;
    explicit LoadCurve(std::vector<std::pair<double, double>> points);

    /// Parses "t0,y0; t1,y1; ..."; throws with a message naming the text on bad input.
    static LoadCurve parse(const std::string &text);

    double    value(const double t) const;
    LoadCurve resampled(const unsigned int n_points) const;

    const std::vector<std::pair<double, double>> &points() const { return pts; }

  private:
    std::vector<std::pair<double, double>> pts;
  };

  /**
   * One MTU experiment of Kleinbach et al. 2017 (theory.md §8.6–8.7): a vertical MTC with the
   * upper end fixed; the lower end is
   * - isometric: held at l_MTC,0 throughout;
   * - concentric: carries a point mass m under gravity g resting on a rigid support at l_MTC,0
   *   (l_MTC ≤ l_MTC,0) — it lifts off when F_MTC exceeds m g;
   * - quick_release: held at l_MTC,0 until t_release, then free with the hanging mass.
   * The mass obeys m d²l_MTC/dt² = m g − F_MTC.
   *
   * Integrators:
   * - lsdyna: LS-DYNA's explicit central-difference cycle with umat41's explicit cycle for the
   *   MTU (HillIntegrator::explicit_cycle), dt fixed or by LS-DYNA's rule for this truss:
   *   dt = TSSFAC l_MTC/c, c = √(E/ρ), E = 9KG/(3K + G) with K = card q0 and G = card τ_q|c
   *   (the cards set IBULK = 3, IG = 4), re-evaluated every cycle at the current length;
   * - adaptive: Dormand–Prince 5(4) (boost odeint) with error control on every state component
   *   |err_i| ≤ atol + rtol |y_i|, restarted at each kink of the stimulation curve and at the release.
   */
  struct ExperimentSetup
  {
    enum class Kind
    {
      isometric,
      concentric,
      quick_release
    };
    enum class Integrator
    {
      lsdyna,
      adaptive
    };

    Kind         kind      = Kind::isometric;
    double       l_MTC0    = 0.0615; // m
    double       mass      = 0.0;    // kg
    double       gravity   = 9.81;   // m/s²
    double       t_end     = 1.5;    // s
    double       t_release = 1.0;    // s
    LoadCurve    stimulation;        // STIM(t), as given (before resampling)
    unsigned int lcint = 100;        // resampling points, 0 = use the curve as given

    Integrator integrator  = Integrator::lsdyna;
    double     time_step   = 0.0; // s; 0 = LS-DYNA's rule
    double     tssfac      = 0.9;
    double     density     = 1.0e-6; // kg/m³ of the truss (only enters the time-step rule)
    double     rtol        = 1.0e-10;
    double     atol        = 1.0e-13;
    double     output_step = 1.0e-3; // s, adaptive output spacing
  };

  /// One output row [SI units; dl_MTC and v negative when shortening].
  struct ExperimentSample
  {
    double                       t, STIM, q, gamma, l_MTC, dl_MTC, l_CE, v;
    HillMuscleTendonUnit::Forces forces;
  };

  /// LS-DYNA's truss time step for the given card (see ExperimentSetup).
  double lsdyna_time_step(const ExperimentSetup &setup, const ActivationDynamics &activation, const double length);

  /// Runs the experiment; samples every cycle (lsdyna) or every output_step (adaptive).
  std::vector<ExperimentSample> run_experiment(const HillIntegrator &integrator, const ExperimentSetup &setup);

  /// CSV with a header line; columns as in ExperimentSample.
  void write_csv(const std::vector<ExperimentSample> &samples, const std::string &file_name);
} // namespace hydrostat
