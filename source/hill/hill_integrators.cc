#include <deal.II/base/exceptions.h>

#include <hydrostat/hill/hill_integrators.h>

#include <Sacado.hpp>

#include <cmath>

namespace hydrostat
{
  using AD = Sacado::Fad::DFad<double>;

  HillIntegrator::HillIntegrator(const HillMuscleTendonUnit &mtu, const ActivationDynamics &activation)
    : unit(mtu)
    , act(activation)
  {}

  HillState HillIntegrator::initial_state(const double l_MTC, const double STIM_0) const
  {
    HillState s;
    s.activation = act.initial_state(STIM_0);
    // γ = 0 or q = q0 at the start: q does not depend on l_CE yet, so one solve suffices.
    s.l_CE = unit.equilibrium_l_CE(l_MTC, act.q(s.activation, 1.0));
    return s;
  }

  double HillIntegrator::q(const HillState &state) const
  {
    return act.q(state.activation, state.l_CE / unit.parameters().l_CE_opt);
  }

  HillIntegrator::StepResult HillIntegrator::explicit_cycle(const HillState &state, const double l_MTC,
                                                            const double dl_MTC, const double STIM,
                                                            const double dt) const
  {
    StepResult   r;
    const double l_rel = state.l_CE / unit.parameters().l_CE_opt;
    r.state.activation = act.step(state.activation, STIM, dt, l_rel, ActivationStep::explicit_euler);
    r.q                = act.q(r.state.activation, l_rel);
    r.v                = unit.contraction_velocity(state.l_CE, l_MTC, dl_MTC, r.q);
    r.forces           = unit.forces(state.l_CE, r.v, l_MTC, dl_MTC, r.q);
    r.state.l_CE       = state.l_CE + r.v * dt;
    return r;
  }

  std::pair<double, double> HillIntegrator::rates(const HillState &state, const double l_MTC, const double dl_MTC,
                                                  const double STIM) const
  {
    return {unit.contraction_velocity(state.l_CE, l_MTC, dl_MTC, q(state)), act.state_rate(state.activation, STIM)};
  }

  HillIntegrator::AdvanceResult HillIntegrator::advance(const HillState &state, const double l_MTC, const double dl_MTC,
                                                        const double STIM, const double dt) const
  {
    AdvanceResult r;
    const double  lopt = unit.parameters().l_CE_opt;
    r.state.activation = act.step(state.activation, STIM, dt, state.l_CE / lopt, ActivationStep::exact);
    r.q                = act.q(r.state.activation, state.l_CE / lopt);

    // v and its partial derivatives with respect to (l_CE, l_MTC, dl_MTC).
    const auto v_ad = [&](const double l_CE) {
      const AD l(3, 0, l_CE), L(3, 1, l_MTC), dL(3, 2, dl_MTC);
      return unit.contraction_velocity(l, L, dL, AD(r.q));
    };

    // Backward Euler residual R(l) = l − l_n − dt v(l); R' = 1 − dt ∂v/∂l_CE ≥ 1 where v decreases in
    // l_CE (stable CE dynamics). Newton, bracketed by the last sign change for safety.
    double       l   = state.l_CE;
    const double tol = 1.0e-14 * lopt;
    double       lo = 0.0, hi = l_MTC + unit.parameters().l_offset;
    unsigned int iter = 0;
    for (; iter < 100; ++iter)
      {
        const AD     v  = v_ad(l);
        const double R  = l - state.l_CE - dt * v.val();
        const double dR = 1.0 - dt * v.dx(0);
        if (R == 0.0) // exact root, e.g. dt = 0 or v = 0: the bracket below would discard it
          break;
        // v is not finite only in umat41's long-CE guard (l_CE > 1.99 l_CE,opt with a slack SEE, where
        // the SEE stiffness is a negative number to a fractional power): beyond the root, so bisect.
        (R > 0.0 || !std::isfinite(R) ? hi : lo) = l;
        double next                              = l - R / dR;
        if (!(next > lo && next < hi) || !(dR > 0.0))
          next = 0.5 * (lo + hi);
        const bool converged = std::abs(next - l) < tol;
        l                    = next;
        if (converged)
          break;
      }
    AssertThrow(iter < 100,
                dealii::ExcMessage("Hill MTU advance: backward-Euler iteration for l_CE did not converge."));
    r.state.l_CE = l;

    // F_MTC(l_CE, l_MTC, dl_MTC) with v inside, and the response dl_CE/dx = dt ∂v/∂x / (1 − dt ∂v/∂l_CE).
    const AD     l_ad(3, 0, l), L(3, 1, l_MTC), dL(3, 2, dl_MTC), q_ad(r.q);
    const AD     v           = unit.contraction_velocity(l_ad, L, dL, q_ad);
    const AD     F           = unit.force_SEE(unit.l_SEE(l_ad, L)) + unit.force_SDE(l_ad, v, dL, q_ad);
    const double denominator = 1.0 - dt * v.dx(0);
    r.v                      = v.val();
    r.F_MTC                  = F.val();
    r.dF_dl                  = F.dx(1) + F.dx(0) * dt * v.dx(1) / denominator;
    r.dF_ddl                 = F.dx(2) + F.dx(0) * dt * v.dx(2) / denominator;
    return r;
  }
} // namespace hydrostat
