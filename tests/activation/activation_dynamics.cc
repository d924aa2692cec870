// Activation dynamics (theory.md §7.2–7.3) against their closed forms for constant
// stimulation, the piglet steady states, and finite differences for dq/dl_rel.
#include <hydrostat/activation/activation_dynamics.h>

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

using namespace hydrostat;

namespace
{
  /// Piglet constants (theory.md §8.7).
  ZajacActivation::Parameters zajac_piglet() { return {1.0e-4, 0.025, 0.5}; }
  HatzeActivation::Parameters hatze_piglet() { return {11.3, 1.373e-4, 5.27e4, 2.9, 0.005, 3.0}; }
} // namespace

// The closed form must satisfy the ODE: its central difference in time equals rate(q, S).
// The O(h²) truncation error with h = 1e-6 s on a 25 ms time scale is ~1e-9 relative, hence 1e-7.
TEST(ZajacActivation, ClosedFormSolvesTheCodedOde)
{
  const ZajacActivation zajac(zajac_piglet());
  for (const double S : {0.0, 0.3, 1.0})
    for (const double t : {0.001, 0.02, 0.1})
      {
        const double h    = 1.0e-6;
        const double dqdt = (zajac.closed_form(0.2, S, t + h) - zajac.closed_form(0.2, S, t - h)) / (2.0 * h);
        const double rate = zajac.rate(zajac.closed_form(0.2, S, t), S);
        EXPECT_NEAR(dqdt, rate, 1.0e-7 * std::max(1.0, std::abs(rate))) << "S = " << S << ", t = " << t;
      }
}

// Plateau 1 + q0 at S = 1 (the (q − q0) form as coded, confirmed by the published q(t)), decay to q0
// at S = 0, time constants τ_q and τ_q/β_q. Exact exponentials: tolerance is round-off, 1e-14.
TEST(ZajacActivation, PlateauxAndTimeConstants)
{
  const auto            p = zajac_piglet();
  const ZajacActivation zajac(p);
  EXPECT_NEAR(zajac.steady_state(1.0), 1.0 + p.q0, 1.0e-14);
  EXPECT_NEAR(zajac.steady_state(0.0), p.q0, 1.0e-14);
  EXPECT_NEAR(zajac.closed_form(p.q0, 1.0, p.tau_q) - p.q0, 1.0 - std::exp(-1.0), 1.0e-14);
  EXPECT_NEAR(zajac.closed_form(1.0 + p.q0, 0.0, p.tau_q / p.beta_q) - p.q0, std::exp(-1.0), 1.0e-14);
}

// The exact step composes: 100 steps of dt equal the closed form at 100 dt to round-off. Explicit
// Euler converges to it at first order: halving dt halves the error (ratio 2 within 5 %).
TEST(ZajacActivation, ExactAndEulerStepsAgainstClosedForm)
{
  const ZajacActivation zajac(zajac_piglet());
  const double          T = 0.05;
  double                error[2];
  for (unsigned int level = 0; level < 2; ++level)
    {
      const unsigned int n  = 200 << level;
      ActivationState    ex = zajac.initial_state(), eu = zajac.initial_state();
      for (unsigned int i = 0; i < n; ++i)
        {
          ex = zajac.step(ex, 1.0, T / n, ActivationStep::exact);
          eu = zajac.step(eu, 1.0, T / n, ActivationStep::explicit_euler);
        }
      const double reference = zajac.closed_form(1.0e-4, 1.0, T);
      EXPECT_NEAR(ex.q, reference, 1.0e-13);
      error[level] = std::abs(eu.q - reference);
    }
  EXPECT_NEAR(error[0] / error[1], 2.0, 0.1);
}

// γ(t) = S + (γ0 − S) e^{−mt}: the exact step reproduces it to round-off; q uses the same γ.
TEST(HatzeActivation, ExactStepMatchesClosedForm)
{
  const HatzeActivation hatze(hatze_piglet());
  ActivationState       state = hatze.initial_state();
  EXPECT_DOUBLE_EQ(state.q, 0.005);
  const double dt = 2.74e-3;
  for (unsigned int i = 0; i < 100; ++i)
    state = hatze.step(state, 1.0, dt, 0.7, ActivationStep::exact);
  const double gamma = 1.0 - std::exp(-11.3 * 100 * dt);
  EXPECT_NEAR(state.gamma, gamma, 1.0e-13);
  EXPECT_NEAR(state.q, hatze.q(gamma, 0.7), 1.0e-12);
}

// theory.md §8.7: q_ss at γ = 1 for the tabulated steady l_CE. l_CE is given to 1e-6 m, and that
// rounding (5e-7 m) moves q by up to 5e-5 at the shortest length, 2e-6 at l_rel = 0.7: tolerances
// 6e-5 and 5e-6 (the table's own 5 digits). The q0 limit at γ = 0 holds for every length.
TEST(HatzeActivation, PigletSteadyState)
{
  const HatzeActivation hatze(hatze_piglet());
  EXPECT_NEAR(hatze.q(1.0, 0.004762 / 0.015), 0.82927, 6.0e-5);
  EXPECT_NEAR(hatze.q(1.0, 0.010494 / 0.015), 0.98823, 5.0e-6);
  for (const double l : {0.3, 1.0, 1.6})
    EXPECT_DOUBLE_EQ(hatze.q(0.0, l), 0.005);
}

// dq/dl_rel against a central difference (h = 1e-6, truncation ~h² q''' ≈ 1e-11, cancellation
// ~1e-16/h = 1e-10): agreement to 1e-8 absolute; checked for ν = 2 and 3.
TEST(HatzeActivation, LengthDerivativeMatchesFiniteDifference)
{
  for (const double nu : {2.0, 3.0})
    {
      auto p = hatze_piglet();
      p.nu   = nu;
      const HatzeActivation hatze(p);
      for (const double gamma : {0.05, 0.3, 1.0})
        for (const double l : {0.4, 0.8, 1.2, 1.7})
          {
            const double h  = 1.0e-6;
            const double fd = (hatze.q(gamma, l + h) - hatze.q(gamma, l - h)) / (2.0 * h);
            EXPECT_NEAR(hatze.dq_dl_rel(gamma, l), fd, 1.0e-8) << "nu " << nu << " gamma " << gamma << " l " << l;
          }
    }
}

// theory.md eq. (27) (the paper's eq. 13): zero before the onset, ½^n at half the rise time, one on the plateau, zero
// after ti + td; the ramp meets the plateau continuously.
TEST(PrescribedActivation, PatternValues)
{
  const PrescribedActivation fa({0.2, 0.5, 1.0, 3.5});
  EXPECT_EQ(fa.value(0.1), 0.0);
  EXPECT_NEAR(fa.value(0.45), std::pow(0.5, 3.5), 1.0e-14);
  EXPECT_NEAR(fa.value(0.7), 1.0, 1.0e-14);
  EXPECT_NEAR(fa.value(0.7 - 1.0e-9), 1.0, 1.0e-12);
  EXPECT_EQ(fa.value(0.9), 1.0);
  EXPECT_EQ(fa.value(1.25), 0.0);
  EXPECT_NEAR(fa.value(0.65, 0.0), 1.0, 1.0e-14); // point-dependent onset ti = 0
}

// The selector reads its own subsection; direct activation follows STIM; a bad model name is refused.
TEST(ActivationDynamics, ParsesAndSelects)
{
  dealii::ParameterHandler prm;
  ActivationDynamics::declare_parameters(prm);
  std::istringstream in("set Model = hatze\nsubsection Hatze\n  set exponent = 2\nend\n");
  prm.parse_input(in);
  const ActivationDynamics act(ActivationDynamics::parse_parameters(prm));
  EXPECT_EQ(act.model(), ActivationDynamics::Model::hatze);
  EXPECT_EQ(act.hatze().parameters().nu, 2.0);

  ActivationDynamics::Parameters direct;
  direct.model = ActivationDynamics::Model::direct;
  const ActivationDynamics d(direct);
  EXPECT_EQ(d.step(d.initial_state(0.0), 0.4, 0.01, 1.0, ActivationStep::exact).q, 0.4);

  dealii::ParameterHandler bad;
  ActivationDynamics::declare_parameters(bad);
  std::istringstream wrong("set Model = hill\n");
  EXPECT_ANY_THROW(bad.parse_input(wrong));
}
