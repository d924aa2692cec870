#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/hill/hill_experiment.h>

#include <boost/numeric/odeint.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <iomanip>

namespace hydrostat
{
  LoadCurve::LoadCurve(std::vector<std::pair<double, double>> points)
    : pts(std::move(points))
  {
    require(!pts.empty(), "Load curve: no points.");
    for (unsigned int i = 1; i < pts.size(); ++i)
      require(pts[i].first >= pts[i - 1].first,
              "Load curve: abscissae must not decrease (point " + std::to_string(i) + ").");
  }

  LoadCurve LoadCurve::parse(const std::string &text)
  {
    std::vector<std::pair<double, double>> points;
    for (const auto &pair : dealii::Utilities::split_string_list(text, ';'))
      {
        const auto xy = dealii::Utilities::split_string_list(pair, ',');
        require(xy.size() == 2, "Load curve: '" + pair + "' is not a pair 't, value' in '" + text + "'.");
        try
          {
            points.emplace_back(dealii::Utilities::string_to_double(xy[0]), dealii::Utilities::string_to_double(xy[1]));
          }
        catch (...)
          {
            throw InputError("Load curve: '" + pair + "' is not a pair of numbers.");
          }
      }
    return LoadCurve(points);
  }

  double LoadCurve::value(const double t) const
  {
    if (t <= pts.front().first)
      return pts.front().second;
    if (t >= pts.back().first)
      return pts.back().second;
    // First point with abscissa ≥ t: at a jump located exactly at t, this is the first of the pair.
    const auto hi = std::lower_bound(pts.begin(), pts.end(), t,
                                     [](const std::pair<double, double> &p, const double x) { return p.first < x; });
    if (hi->first == t)
      return hi->second;
    const auto lo = hi - 1;
    return lo->second + (hi->second - lo->second) * (t - lo->first) / (hi->first - lo->first);
  }

  LoadCurve LoadCurve::resampled(const unsigned int n) const
  {
    require(n >= 2, "Load curve: resampling needs at least 2 points.");
    std::vector<std::pair<double, double>> samples(n);
    const double                           a = pts.front().first, b = pts.back().first;
    for (unsigned int i = 0; i < n; ++i)
      {
        const double t = a + (b - a) * i / (n - 1);
        samples[i]     = {t, value(t)};
      }
    return LoadCurve(samples);
  }


  double lsdyna_time_step(const ExperimentSetup &setup, const ActivationDynamics &activation, const double length)
  {
    if (setup.time_step > 0.0)
      return setup.time_step;
    // Card 3 fields cm(3), cm(4) read by LS-DYNA as bulk and shear modulus (IBULK = 3, IG = 4).
    const bool   hatze = activation.model() == ActivationDynamics::Model::hatze;
    const double K     = hatze ? activation.hatze().parameters().q0 : activation.zajac().parameters().q0;
    const double G     = hatze ? activation.hatze().parameters().c : activation.zajac().parameters().tau_q;
    const double E     = 9.0 * K * G / (3.0 * K + G);
    return setup.tssfac * length / std::sqrt(E / setup.density);
  }

  namespace
  {
    LoadCurve effective_stimulation(const ExperimentSetup &setup)
    {
      return setup.lcint > 0 ? setup.stimulation.resampled(setup.lcint) : setup.stimulation;
    }

    bool free_at(const ExperimentSetup &setup, const double t)
    {
      using K = ExperimentSetup::Kind;
      return setup.kind == K::concentric || (setup.kind == K::quick_release && t >= setup.t_release - 1.0e-12);
    }

    ExperimentSample make_sample(const HillIntegrator &integrator, const double t, const double STIM,
                                 const HillState &state, const double q, const double l, const double w, const double v)
    {
      ExperimentSample s;
      s.t      = t;
      s.STIM   = STIM;
      s.q      = q;
      s.gamma  = state.activation.gamma;
      s.l_MTC  = l;
      s.dl_MTC = w;
      s.l_CE   = state.l_CE;
      s.v      = v;
      s.forces = integrator.mtu().forces(state.l_CE, v, l, w, q);
      return s;
    }

    std::vector<ExperimentSample> run_lsdyna(const HillIntegrator &integrator, const ExperimentSetup &setup)
    {
      const LoadCurve               stim  = effective_stimulation(setup);
      HillState                     state = integrator.initial_state(setup.l_MTC0, stim.value(0.0));
      double                        t = 0.0, l = setup.l_MTC0, w = 0.0;
      std::vector<ExperimentSample> out{
        make_sample(integrator, 0.0, stim.value(0.0), state, integrator.q(state), l, w, 0.0)};
      double F  = out.back().forces.F_MTC;
      double dt = lsdyna_time_step(setup, integrator.activation(), l);
      while (t < setup.t_end - 1.0e-12)
        {
          // Central difference for the lower node with the force of the last cycle, then the
          // material at t_{n+1} with the new length and the node velocity (theory.md §8.6).
          if (free_at(setup, t))
            {
              w += (setup.gravity - F / setup.mass) * dt;
              l += w * dt;
              if (setup.kind == ExperimentSetup::Kind::concentric && l > setup.l_MTC0)
                {
                  l = setup.l_MTC0; // rigid support
                  w = 0.0;
                }
            }
          t += dt;
          const auto       r = integrator.explicit_cycle(state, l, w, stim.value(t), dt);
          ExperimentSample s = make_sample(integrator, t, stim.value(t), state, r.q, l, w, r.v);
          s.l_CE             = r.state.l_CE;
          s.gamma            = r.state.activation.gamma;
          out.push_back(s);
          state = r.state;
          F     = r.forces.F_MTC;
          dt    = lsdyna_time_step(setup, integrator.activation(), l);
        }
      return out;
    }

    using OdeState = std::array<double, 4>; // l_CE, activation state (q or γ), l_MTC, dl_MTC

    std::vector<ExperimentSample> run_adaptive(const HillIntegrator &integrator, const ExperimentSetup &setup)
    {
      namespace odeint      = boost::numeric::odeint;
      const LoadCurve stim  = effective_stimulation(setup);
      const auto      model = integrator.activation().model();

      const auto unpack = [&](const OdeState &y, const double t) {
        HillState s;
        s.l_CE = y[0];
        if (model == ActivationDynamics::Model::hatze)
          s.activation.gamma = y[1];
        else
          s.activation.q = (model == ActivationDynamics::Model::zajac) ? y[1] : stim.value(t);
        return s;
      };

      const HillState init = integrator.initial_state(setup.l_MTC0, stim.value(0.0));
      OdeState y{init.l_CE, model == ActivationDynamics::Model::hatze ? init.activation.gamma : init.activation.q,
                 setup.l_MTC0, 0.0};

      // Segment ends: kinks of the stimulation, the release, the end time.
      std::vector<double> breaks{setup.t_end};
      for (const auto &p : stim.points())
        if (p.first > 0.0 && p.first < setup.t_end)
          breaks.push_back(p.first);
      if (setup.kind == ExperimentSetup::Kind::quick_release)
        breaks.push_back(setup.t_release);
      std::sort(breaks.begin(), breaks.end());
      breaks.erase(std::unique(breaks.begin(), breaks.end()), breaks.end());

      std::vector<ExperimentSample> out;
      double                        t0 = 0.0;
      for (const double t1 : breaks)
        {
          if (t1 <= t0)
            continue;
          const bool free = free_at(setup, t0);
          const auto rhs  = [&](const OdeState &x, OdeState &dxdt, const double t) {
            const HillState s        = unpack(x, t);
            const auto [v, act_rate] = integrator.rates(s, x[2], x[3], stim.value(t));
            dxdt                     = {v, act_rate, 0.0, 0.0};
            if (free)
              {
                const double F = integrator.mtu().forces(s.l_CE, v, x[2], x[3], integrator.q(s)).F_MTC;
                const double a = setup.gravity - F / setup.mass;
                // Rigid support of the concentric set-up: the mass stays while it is pressed on it.
                const bool held =
                  setup.kind == ExperimentSetup::Kind::concentric && x[2] >= setup.l_MTC0 && x[3] >= 0.0 && a >= 0.0;
                dxdt[2] = held ? 0.0 : x[3];
                dxdt[3] = held ? 0.0 : a;
              }
          };
          std::vector<double> times{t0};
          const double        first = std::ceil(t0 / setup.output_step - 1.0e-9) * setup.output_step;
          for (double t = first; t < t1 - 1.0e-12; t += setup.output_step)
            if (t > t0 + 1.0e-12)
              times.push_back(t);
          times.push_back(t1);
          const bool last = (t1 == breaks.back());
          odeint::integrate_times(
            odeint::make_dense_output(setup.atol, setup.rtol, odeint::runge_kutta_dopri5<OdeState>()), rhs, y,
            times.begin(), times.end(), 1.0e-5, [&](const OdeState &x, const double t) {
              if (t == t1 && !last)
                return;
              const HillState s = unpack(x, t);
              const double    q = integrator.q(s);
              const double    v = integrator.mtu().contraction_velocity(s.l_CE, x[2], x[3], q);
              out.push_back(make_sample(integrator, t, stim.value(t), s, q, x[2], x[3], v));
            });
          t0 = t1;
        }
      return out;
    }
  } // namespace

  std::vector<ExperimentSample> run_experiment(const HillIntegrator &integrator, const ExperimentSetup &setup)
  {
    require(setup.kind == ExperimentSetup::Kind::isometric || setup.mass > 0.0,
            "Hill experiment: concentric and quick-release runs need a positive mass.");
    return setup.integrator == ExperimentSetup::Integrator::lsdyna ? run_lsdyna(integrator, setup) :
                                                                     run_adaptive(integrator, setup);
  }

  void write_csv(const std::vector<ExperimentSample> &samples, const std::string &file_name)
  {
    std::ofstream out(file_name);
    AssertThrow(out, dealii::ExcMessage("Cannot open output file '" + file_name + "'."));
    out << "t,STIM,q,gamma,l_MTC,dl_MTC,l_CE,v_CE,F_CE,F_PEE,F_SEE,F_SDE,F_MTC\n" << std::setprecision(12);
    for (const auto &s : samples)
      out << s.t << ',' << s.STIM << ',' << s.q << ',' << s.gamma << ',' << s.l_MTC << ',' << s.dl_MTC << ',' << s.l_CE
          << ',' << s.v << ',' << s.forces.F_CE << ',' << s.forces.F_PEE << ',' << s.forces.F_SEE << ','
          << s.forces.F_SDE << ',' << s.forces.F_MTC << '\n';
  }
} // namespace hydrostat
