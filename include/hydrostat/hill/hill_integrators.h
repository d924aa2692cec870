#pragma once

#include <hydrostat/activation/activation_dynamics.h>
#include <hydrostat/hill/muscle_tendon_unit.h>

namespace hydrostat
{
  /// Internal state of one MTU: CE length [m] and activation state.
  struct HillState
  {
    double          l_CE = 0.0;
    ActivationState activation;
  };

  /**
   * Time integration of the MTU's internal state for a given MTC length history.
   *
   * - explicit_cycle(): the umat41 cycle of LS-DYNA (theory.md §8.6): explicit-Euler
   *   activation with STIM_{n+1} (Hatze's ρ from the stored l_CE), v from the stored l_CE and the
   *   current l_MTC, dl_MTC, forces at that (l_CE_n, v), then l_CE ← l_CE + v dt. First order;
   *   reproduces the published transients when used with the authors' dt.
   * - rates(): the state ODE (dl_CE/dt = v, q̇ or γ̇) for the adaptive integrators of
   *   hill_experiment.h; Hatze's q uses the current l_CE there.
   * - advance(): the step of a 1D element in an implicit solver: activation exact over the step
   *   (Hatze ρ at l_CE_n, as umat41), then backward Euler l_CE,{n+1} = l_CE,n + dt v(l_CE,{n+1},
   *   l_MTC,{n+1}, dl_MTC,{n+1}, q_{n+1}) solved by safeguarded Newton to 1e-14 l_CE,opt.
   *   F_MTC = F_SEE + F_SDE at the new state; its derivatives with respect to l_MTC,{n+1} and
   *   dl_MTC,{n+1} include the response of l_CE,{n+1} (implicit function theorem on the
   *   backward-Euler residual; partial derivatives by forward automatic differentiation), so they
   *   are the exact linearisation of this update.
   */
  class HillIntegrator
  {
  public:
    struct StepResult
    {
      HillState                    state;  // state_{n+1}
      double                       v;      // contraction velocity of the step [m/s]
      double                       q;      // activity used in the step
      HillMuscleTendonUnit::Forces forces; // forces reported for the step [N]
    };

    struct AdvanceResult
    {
      HillState state;
      double    v, q;
      double    F_MTC;  // N
      double    dF_dl;  // dF_MTC/dl_MTC,{n+1} [N/m]
      double    dF_ddl; // dF_MTC/d(dl_MTC,{n+1}) [N s/m]
    };

    HillIntegrator(const HillMuscleTendonUnit &mtu, const ActivationDynamics &activation);

    /// theory.md eq. (42): activation at rest for STIM_0, l_CE in equilibrium with l_MTC (F_SDE = 0).
    HillState initial_state(const double l_MTC, const double STIM_0) const;

    /// Activity at a state (Hatze: at the state's own l_CE).
    double q(const HillState &state) const;

    StepResult explicit_cycle(const HillState &state, const double l_MTC, const double dl_MTC, const double STIM,
                              const double dt) const;

    /// dl_CE/dt, and the activation state rate (q̇ Zajac, γ̇ Hatze, 0 direct).
    std::pair<double, double> rates(const HillState &state, const double l_MTC, const double dl_MTC,
                                    const double STIM) const;

    AdvanceResult advance(const HillState &state, const double l_MTC, const double dl_MTC, const double STIM,
                          const double dt) const;

    const HillMuscleTendonUnit &mtu() const { return unit; }
    const ActivationDynamics   &activation() const { return act; }

  private:
    const HillMuscleTendonUnit &unit;
    const ActivationDynamics   &act;
  };
} // namespace hydrostat
