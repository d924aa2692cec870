#pragma once

#include <deal.II/base/parameter_handler.h>

#include <string>

namespace hydrostat
{
  /**
   * Activation dynamics shared by the Hill-type muscle–tendon unit (theory.md §8) and the
   * 3D muscle continuum (theory.md §7). Every model works per point: its state lives in an
   * ActivationState (one per quadrature point or per MTU), and a step maps
   * (state_n, STIM_{n+1}, dt [, l_rel]) -> state_{n+1}, with STIM held constant over the step.
   *
   * Two step kinds:
   * - exact: the Zajac and Hatze γ equations are linear in the state for constant STIM, so the
   *   step is their closed-form solution (no time-discretisation error for piecewise-constant STIM);
   * - explicit_euler: q_{n+1} = q_n + dt q̇(q_n, STIM_{n+1}), the cycle of umat41 (theory.md
   *   §8.6), needed to reproduce the published LS-DYNA transients.
   * Time in s, rates in 1/s; STIM, q, γ dimensionless.
   */
  enum class ActivationStep
  {
    exact,
    explicit_euler
  };

  /// Per-point activation state: activity q and, for Hatze, the Ca²⁺ concentration γ.
  struct ActivationState
  {
    double q     = 0.0;
    double gamma = 0.0;
  };

  /**
   * Zajac first-order dynamics in the form coded in umat41 (theory.md eqs. (28)–(29)):
   *   dq/dt = [S − (S (1 − β_q) + β_q)(q − q0)] / τ_q,   q(0) = q0.
   * For constant S this is dq/dt = −a (q − q_∞)/τ_q with a = S (1 − β_q) + β_q and
   * q_∞ = q0 + S/a: rise time constant τ_q at S = 1 (to 1 + q0), decay τ_q/β_q at S = 0 (to q0).
   */
  class ZajacActivation
  {
  public:
    struct Parameters
    {
      double q0     = 1.0e-4; // basic activity
      double tau_q  = 0.025;  // s, rise time constant
      double beta_q = 0.5;    // ratio of rise and decay time constants
    };

    explicit ZajacActivation(const Parameters &parameters);

    /// Declares q0, tau_q, beta_q in the current subsection of @p prm.
    static void       declare_parameters(dealii::ParameterHandler &prm);
    static Parameters parse_parameters(dealii::ParameterHandler &prm);

    const Parameters &parameters() const { return param; }

    ActivationState initial_state() const { return {param.q0, 0.0}; }

    /// dq/dt at activity q and stimulation S.
    double rate(const double q, const double S) const;

    /// Steady activity q_∞ = q0 + S/(S (1 − β_q) + β_q) for constant S.
    double steady_state(const double S) const;

    /// Closed form q(t) for constant S from q(0) = q_start.
    double closed_form(const double q_start, const double S, const double t) const;

    ActivationState step(const ActivationState &state, const double S, const double dt,
                         const ActivationStep kind) const;

  private:
    Parameters param;
  };

  /**
   * Hatze Ca²⁺ dynamics (theory.md eqs. (30)–(33)):
   *   dγ/dt = m (S − γ),  γ(0) = 0;
   *   ρ(l_rel) = c η (k − 1) l_rel/(k − l_rel);   q = (q0 + (ργ)^ν)/(1 + (ργ)^ν),
   * with l_rel = l_CE/l_CE,opt (or the fibre stretch over its optimal value in 3D). umat41 hard-codes
   * ν = 3; Günther 1997 uses 2. Only the product c η enters.
   */
  class HatzeActivation
  {
  public:
    struct Parameters
    {
      double m   = 11.3;     // 1/s, Ca²⁺ rate constant
      double c   = 1.373e-4; // mol/l
      double eta = 5.27e4;   // l/mol
      double k   = 2.9;      // shape of ρ(l_rel), must exceed every l_rel
      double q0  = 0.005;    // basic activity
      double nu  = 3.0;      // exponent
    };

    explicit HatzeActivation(const Parameters &parameters);

    /// Declares m, c, eta, k, q0, exponent in the current subsection of @p prm.
    static void       declare_parameters(dealii::ParameterHandler &prm);
    static Parameters parse_parameters(dealii::ParameterHandler &prm);

    const Parameters &parameters() const { return param; }

    /// γ = 0, hence q = q0 at every length.
    ActivationState initial_state() const { return {param.q0, 0.0}; }

    double rho(const double l_rel) const;
    double q(const double gamma, const double l_rel) const;
    /// ∂q/∂l_rel at fixed γ: the 3D tangent needs it because l_rel follows the fibre stretch.
    double dq_dl_rel(const double gamma, const double l_rel) const;

    /// Closed form γ(t) = S + (γ_start − S) exp(−m t) for constant S.
    double gamma_closed_form(const double gamma_start, const double S, const double t) const;

    /// Advances γ (exactly or by explicit Euler) and evaluates q at the given l_rel.
    ActivationState step(const ActivationState &state, const double S, const double dt, const double l_rel,
                         const ActivationStep kind) const;

  private:
    Parameters param;
  };

  /**
   * Prescribed activation pattern of theory.md eq. (27) (eq. 13 of the octopus paper): zero before the onset ti,
   * a sine ramp [½ (1 + sin(π (t − ti)/ta − π/2))]^n over the rise time ta, one until ti + td, then zero.
   */
  class PrescribedActivation
  {
  public:
    struct Parameters
    {
      double ti = 0.0; // s, onset
      double ta = 0.5; // s, rise time
      double td = 1.0; // s, duration from the onset
      double n  = 3.5; // exponent
    };

    /// Throws unless ta > 0 and td ≥ ta.
    explicit PrescribedActivation(const Parameters &parameters);

    /// Declares Rise time, Duration and Exponent in the current subsection; the onset is the
    /// caller's (a muscle group's is a field of the position, for travelling waves).
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// The pattern of the current subsection with onset @p ti; an InputError names the subsection
    /// @p path of a bad rise time or duration.
    static PrescribedActivation parse_parameters(dealii::ParameterHandler &prm, const std::string &path,
                                                 const double ti = 0.0);

    /// f_a(t) for the stored onset, or for a point-dependent onset @p ti (travelling waves).
    double value(const double t) const { return value(t, param.ti); }
    double value(const double t, const double ti) const;

  private:
    Parameters param;
  };

  /**
   * Selector over direct (q = STIM), Zajac and Hatze activation. Parameters: "Model" in the current
   * subsection, and subsections "Zajac" and "Hatze" with the parameters of each model.
   */
  class ActivationDynamics
  {
  public:
    enum class Model
    {
      direct,
      zajac,
      hatze
    };

    struct Parameters
    {
      Model                       model = Model::zajac;
      ZajacActivation::Parameters zajac;
      HatzeActivation::Parameters hatze;
    };

    explicit ActivationDynamics(const Parameters &parameters);

    static void       declare_parameters(dealii::ParameterHandler &prm);
    static Parameters parse_parameters(dealii::ParameterHandler &prm);

    Model                  model() const { return parameters.model; }
    const ZajacActivation &zajac() const { return zajac_model; }
    const HatzeActivation &hatze() const { return hatze_model; }

    /// q0 for Zajac and Hatze; for direct, q = @p S0 (the stimulation at the start).
    ActivationState initial_state(const double S0) const;

    /// state_{n+1} from state_n and STIM_{n+1}; l_rel matters for Hatze only.
    ActivationState step(const ActivationState &state, const double S, const double dt, const double l_rel,
                         const ActivationStep kind) const;

    /// Activity at a (γ, l_rel) for Hatze, the stored q otherwise.
    double q(const ActivationState &state, const double l_rel) const;
    /// ∂q/∂l_rel at fixed state (non-zero for Hatze only).
    double dq_dl_rel(const ActivationState &state, const double l_rel) const;

    /// Time derivative of the state (q̇ for Zajac, γ̇ for Hatze, zero for direct) for ODE solvers.
    double state_rate(const ActivationState &state, const double S) const;

  private:
    Parameters      parameters;
    ZajacActivation zajac_model;
    HatzeActivation hatze_model;
  };

} // namespace hydrostat
