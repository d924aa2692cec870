#include <deal.II/base/exceptions.h>

#include <hydrostat/activation/activation_dynamics.h>
#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>

#include <cmath>

namespace hydrostat
{
  using dealii::Patterns::Double;

  ZajacActivation::ZajacActivation(const Parameters &parameters)
    : param(parameters)
  {
    require(param.tau_q > 0.0, "Zajac activation: tau_q must be positive.");
    require(param.beta_q > 0.0, "Zajac activation: beta_q must be positive.");
  }

  void ZajacActivation::declare_parameters(dealii::ParameterHandler &prm)
  {
    const Parameters d;
    prm.declare_entry("q0", shortest_text(d.q0), Double(0.0, 1.0), "Basic activity q0 (q(0) = q0).");
    prm.declare_entry("tau_q", shortest_text(d.tau_q), Double(0.0),
                      "Rise time constant tau_q [s]; the decay time constant is tau_q/beta_q.");
    prm.declare_entry("beta_q", shortest_text(d.beta_q), Double(0.0),
                      "Ratio beta_q of rise to decay time constant (piglet: 0.5 for 25 ms / 50 ms).");
  }

  ZajacActivation::Parameters ZajacActivation::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    p.q0     = prm.get_double("q0");
    p.tau_q  = prm.get_double("tau_q");
    p.beta_q = prm.get_double("beta_q");
    return p;
  }

  double ZajacActivation::rate(const double q, const double S) const
  {
    return (S - S * (1.0 - param.beta_q) * (q - param.q0) - param.beta_q * (q - param.q0)) / param.tau_q;
  }

  double ZajacActivation::steady_state(const double S) const
  {
    return param.q0 + S / (S * (1.0 - param.beta_q) + param.beta_q);
  }

  double ZajacActivation::closed_form(const double q_start, const double S, const double t) const
  {
    const double a     = S * (1.0 - param.beta_q) + param.beta_q;
    const double q_inf = steady_state(S);
    return q_inf + (q_start - q_inf) * std::exp(-a * t / param.tau_q);
  }

  ActivationState ZajacActivation::step(const ActivationState &state, const double S, const double dt,
                                        const ActivationStep kind) const
  {
    ActivationState next = state;
    next.q = (kind == ActivationStep::exact) ? closed_form(state.q, S, dt) : state.q + dt * rate(state.q, S);
    return next;
  }


  HatzeActivation::HatzeActivation(const Parameters &parameters)
    : param(parameters)
  {
    require(param.m > 0.0, "Hatze activation: m must be positive.");
    require(param.c * param.eta > 0.0, "Hatze activation: c*eta must be positive.");
    require(param.k > 1.0, "Hatze activation: k must exceed 1.");
    require(param.nu > 0.0, "Hatze activation: the exponent must be positive.");
  }

  void HatzeActivation::declare_parameters(dealii::ParameterHandler &prm)
  {
    const Parameters d;
    prm.declare_entry("m", shortest_text(d.m), Double(0.0),
                      "Ca2+ rate constant m [1/s] (Hatze: 3.67 slow to 11.25 fast fibres; Kistemaker 2006: 11.3).");
    prm.declare_entry("c", "1.373e-4", Double(0.0), "Hatze constant c [mol/l]; only c*eta enters.");
    prm.declare_entry("eta", shortest_text(d.eta), Double(0.0), "Hatze constant eta [l/mol].");
    prm.declare_entry("k", shortest_text(d.k), Double(1.0), "Hatze length constant k (> every l_CE/l_CE,opt).");
    prm.declare_entry("q0", shortest_text(d.q0), Double(0.0, 1.0), "Basic activity q0.");
    prm.declare_entry("exponent", shortest_text(d.nu), Double(0.0),
                      "Exponent nu in q = (q0 + (rho gamma)^nu)/(1 + (rho gamma)^nu): 3 in umat41 (Kistemaker 2006), "
                      "2 in Guenther 1997.");
  }

  HatzeActivation::Parameters HatzeActivation::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    p.m   = prm.get_double("m");
    p.c   = prm.get_double("c");
    p.eta = prm.get_double("eta");
    p.k   = prm.get_double("k");
    p.q0  = prm.get_double("q0");
    p.nu  = prm.get_double("exponent");
    return p;
  }

  double HatzeActivation::rho(const double l_rel) const
  {
    return param.c * param.eta * (param.k - 1.0) / (param.k - l_rel) * l_rel;
  }

  double HatzeActivation::q(const double gamma, const double l_rel) const
  {
    const double x = std::pow(rho(l_rel) * gamma, param.nu);
    return (param.q0 + x) / (1.0 + x);
  }

  double HatzeActivation::dq_dl_rel(const double gamma, const double l_rel) const
  {
    const double r     = rho(l_rel);
    const double x     = std::pow(r * gamma, param.nu);
    const double dq_dx = (1.0 - param.q0) / ((1.0 + x) * (1.0 + x));
    // x = (ρ γ)^ν, so dx/dρ = ν x/ρ; dρ/dl_rel = c η (k − 1) k/(k − l_rel)².
    const double drho = param.c * param.eta * (param.k - 1.0) * param.k / ((param.k - l_rel) * (param.k - l_rel));
    return (r > 0.0) ? dq_dx * param.nu * x / r * drho : 0.0;
  }

  double HatzeActivation::gamma_closed_form(const double gamma_start, const double S, const double t) const
  {
    return S + (gamma_start - S) * std::exp(-param.m * t);
  }

  ActivationState HatzeActivation::step(const ActivationState &state, const double S, const double dt,
                                        const double l_rel, const ActivationStep kind) const
  {
    ActivationState next;
    next.gamma = (kind == ActivationStep::exact) ? gamma_closed_form(state.gamma, S, dt) :
                                                   state.gamma + dt * param.m * (S - state.gamma);
    next.q     = q(next.gamma, l_rel);
    return next;
  }


  PrescribedActivation::PrescribedActivation(const Parameters &parameters)
    : param(parameters)
  {
    require(param.ta > 0.0 && param.td >= param.ta,
            "Prescribed activation: need rise time ta > 0 and duration td >= ta.");
  }

  void PrescribedActivation::declare_parameters(dealii::ParameterHandler &prm)
  {
    prm.declare_entry("Rise time", "0.5", Double(0.0), "prescribed: rise time ta [s].");
    prm.declare_entry("Duration", "1", Double(0.0), "prescribed: duration td [s] from the onset.");
    prm.declare_entry("Exponent", "3.5", Double(0.0), "prescribed: exponent n of the sine ramp.");
  }

  PrescribedActivation PrescribedActivation::parse_parameters(dealii::ParameterHandler &prm, const std::string &path,
                                                              const double ti)
  {
    Parameters p;
    p.ti = ti;
    p.ta = prm.get_double("Rise time");
    p.td = prm.get_double("Duration");
    p.n  = prm.get_double("Exponent");
    require(p.ta > 0.0, "Parameter '" + path +
                          "/Rise time' is 0: the prescribed pattern (theory.md eq. (27)) needs a "
                          "rise time ta > 0 s.");
    require(p.td >= p.ta, "Parameter '" + path + "/Duration' (" + std::to_string(p.td) +
                            " s) is shorter than the Rise time (" + std::to_string(p.ta) +
                            " s): the prescribed pattern needs td >= ta.");
    return PrescribedActivation(p);
  }

  double PrescribedActivation::value(const double t, const double ti) const
  {
    if (t <= ti || t > ti + param.td)
      return 0.0;
    if (t > ti + param.ta)
      return 1.0;
    return std::pow(0.5 * (1.0 + std::sin(M_PI * (t - ti) / param.ta - 0.5 * M_PI)), param.n);
  }


  ActivationDynamics::ActivationDynamics(const Parameters &p)
    : parameters(p)
    , zajac_model(p.zajac)
    , hatze_model(p.hatze)
  {}

  void ActivationDynamics::declare_parameters(dealii::ParameterHandler &prm)
  {
    prm.declare_entry("Model", "zajac", dealii::Patterns::Selection("direct|zajac|hatze"),
                      "Activation dynamics: direct (q = STIM), zajac (first order, theory.md eq. 28) or hatze (Ca2+).");
    prm.enter_subsection("Zajac");
    ZajacActivation::declare_parameters(prm);
    prm.leave_subsection();
    prm.enter_subsection("Hatze");
    HatzeActivation::declare_parameters(prm);
    prm.leave_subsection();
  }

  ActivationDynamics::Parameters ActivationDynamics::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    const auto name = prm.get("Model");
    p.model         = (name == "direct") ? Model::direct : (name == "hatze") ? Model::hatze : Model::zajac;
    prm.enter_subsection("Zajac");
    p.zajac = ZajacActivation::parse_parameters(prm);
    prm.leave_subsection();
    prm.enter_subsection("Hatze");
    p.hatze = HatzeActivation::parse_parameters(prm);
    prm.leave_subsection();
    return p;
  }

  ActivationState ActivationDynamics::initial_state(const double S0) const
  {
    switch (parameters.model)
      {
        case Model::zajac:
          return zajac_model.initial_state();
        case Model::hatze:
          return hatze_model.initial_state();
        default:
          return {S0, 0.0};
      }
  }

  ActivationState ActivationDynamics::step(const ActivationState &state, const double S, const double dt,
                                           const double l_rel, const ActivationStep kind) const
  {
    switch (parameters.model)
      {
        case Model::zajac:
          return zajac_model.step(state, S, dt, kind);
        case Model::hatze:
          return hatze_model.step(state, S, dt, l_rel, kind);
        default:
          return {S, 0.0};
      }
  }

  double ActivationDynamics::q(const ActivationState &state, const double l_rel) const
  {
    return (parameters.model == Model::hatze) ? hatze_model.q(state.gamma, l_rel) : state.q;
  }

  double ActivationDynamics::dq_dl_rel(const ActivationState &state, const double l_rel) const
  {
    return (parameters.model == Model::hatze) ? hatze_model.dq_dl_rel(state.gamma, l_rel) : 0.0;
  }

  double ActivationDynamics::state_rate(const ActivationState &state, const double S) const
  {
    switch (parameters.model)
      {
        case Model::zajac:
          return zajac_model.rate(state.q, S);
        case Model::hatze:
          return hatze_model.parameters().m * (S - state.gamma);
        default:
          return 0.0;
      }
  }
} // namespace hydrostat
