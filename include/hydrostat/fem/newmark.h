#pragma once

#include <deal.II/base/parameter_handler.h>

namespace hydrostat
{
  /**
   * Newmark time integration (theory.md §9, eqs. (45)–(47)), written for the end-of-step displacement u₊ as
   * the unknown:
   *   a₊ = (u₊ − u − Δt v)/(β Δt²) − (1/(2β) − 1) a,
   *   v₊ = v + Δt ((1 − γ) a + γ a₊),
   * so that ∂a₊/∂u₊ = 1/(β Δt²) and ∂v₊/∂u₊ = γ/(β Δt) enter the consistent tangent.
   * β = ¼, γ = ½ (the default) is the trapezoidal rule: second order, unconditionally stable,
   * energy-conserving for linear problems.
   * The Rayleigh damping that acts with the inertia is the terms' (Inertia, SolidStress).
   * In quasi-static mode there is no inertia; velocities (needed by rate-dependent muscle) are
   * the backward difference v₊ = (u₊ − u)/Δt.
   */
  class NewmarkIntegrator
  {
  public:
    struct Coefficients
    {
      double a_u; ///< ∂a₊/∂u₊: a₊ = a_u (u₊ − u) − a_v v − a_a a
      double a_v;
      double a_a;
      double v_u; ///< ∂v₊/∂u₊: v₊ = v_u (u₊ − u) + v_v v + v_a a
      double v_v;
      double v_a;
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    bool   dynamic() const { return is_dynamic; }
    double beta() const { return newmark_beta; }
    double gamma() const { return newmark_gamma; }

    Coefficients coefficients(const double dt) const;

    /// Where Newton starts a step ('Time integration/Predictor', theory.md eq. (51)).
    enum class Predictor
    {
      constant_acceleration, ///< u + Δt v + ½ Δt² a (quasi-static: a = 0, a linear extrapolation)
      constant_velocity,     ///< u + Δt v
      constant_displacement  ///< u
    };

    template <typename VectorType>
    void predict(const VectorType &u, const VectorType &v, const VectorType &a, const double dt,
                 VectorType &u_new) const
    {
      u_new = u;
      if (predictor == Predictor::constant_acceleration)
        u_new.add(dt, v, 0.5 * dt * dt, a);
      else if (predictor == Predictor::constant_velocity)
        u_new.add(dt, v);
    }

    /// Corrector: v₊ and a₊ from the converged u₊ and the state (u, v, a) at the start of the
    /// step (a₊ = 0 in quasi-static mode).
    template <typename VectorType>
    void correct(const VectorType &u, const VectorType &v, const VectorType &a, const VectorType &u_new,
                 const double dt, VectorType &v_new, VectorType &a_new) const
    {
      const Coefficients c  = coefficients(dt);
      VectorType         du = u_new;
      du -= u;
      a_new = 0;
      if (is_dynamic)
        {
          a_new = du;
          a_new *= c.a_u;
          a_new.add(-c.a_v, v, -c.a_a, a);
        }
      v_new = du;
      v_new *= c.v_u;
      v_new.add(c.v_v, v, c.v_a, a);
    }

    void set(const bool dynamic, const double beta, const double gamma);

  private:
    bool      is_dynamic    = true;
    double    newmark_beta  = 0.25;
    double    newmark_gamma = 0.5;
    Predictor predictor     = Predictor::constant_acceleration;
  };

  /**
   * What an evaluation of the residual evaluates: the state at time @p t reached from the accepted
   * state in a step @p dt (0: the accepted state itself), with a₊ and v₊ following from u₊ by the
   * coefficients @p c (theory.md eq. (46)).
   */
  struct Step
  {
    double                          t;
    double                          dt;
    NewmarkIntegrator::Coefficients c;

    /// The accepted state at time @p t itself: v₊ = v, a₊ = 0 (the residual of the initial
    /// acceleration, theory.md eq. (50)) and the activation of the last accepted step.
    static Step accepted(const double t) { return {t, 0.0, {0.0, 0.0, 0.0, 0.0, 1.0, 0.0}}; }
  };
} // namespace hydrostat
