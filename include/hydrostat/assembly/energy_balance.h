#pragma once

#include <deal.II/lac/trilinos_vector.h>

#include <hydrostat/assembly/assembler.h>
#include <hydrostat/fem/newmark.h>
#include <hydrostat/fem/state.h>
#include <hydrostat/io/checkpoint_files.h>

namespace hydrostat
{
  /**
   * The energy balance of a run (theory.md §9.6, eqs. (62)–(64)): the kinetic and strain energy of
   * the accepted state and, since t = 0, the work of every term, booked by Term::work() — loads
   * (external), muscle (active), damping and drag (dissipated) — and the energy the Newmark
   * parameters take (numerical, zero for γ = ½, β = ¼). The work of a step is the trapezoidal rule
   * on the terms' nodal forces, W += ½ (f_n + f_{n+1})·(u_{n+1} − u_n), with which Newmark's update
   * balances the kinetic energy exactly (eq. (63)); so
   *
   *   balance = E_kin + E_strain + D + D_num − W_ext − W_act − (E_kin + E_strain)(t = 0)
   *
   * is the trapezoidal rule's error on the strain energy, the time-integration error. A
   * quasi-static run has no inertia: its kinetic energy (of the backward-difference velocity) is
   * reported but stays out of the balance. The work of prescribed displacements (reactions at
   * moving constraints) is not booked.
   */
  class EnergyBalance
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;

    struct Quantities
    {
      double kinetic_energy        = 0; ///< ½ ∫ ρ0 v·v dV [J]
      double strain_energy         = 0; ///< ∫ W dV [J]
      double external_work         = 0; ///< work of the loads since t = 0 [J]
      double dissipated_energy     = 0; ///< energy taken by damping and drag since t = 0 [J]
      double active_work           = 0; ///< work of the muscle since t = 0 [J]
      double numerical_dissipation = 0; ///< energy taken by the Newmark parameters since t = 0 [J]
      double volume                = 0; ///< current volume ∫ J dV [m³]
      double initial_energy        = 0; ///< the balanced energy at t = 0 [J]
      bool   dynamic               = true;

      /// The energy the balance keeps: E_kin (dynamic runs) + E_strain [J].
      double energy() const { return (dynamic ? kinetic_energy : 0.0) + strain_energy; }
      /// energy() + D + D_num − W_ext − W_act − its value at t = 0 [J]: zero but for the
      /// time-integration error.
      double balance() const
      {
        return energy() + dissipated_energy + numerical_dissipation - external_work - active_work - initial_energy;
      }
    };

    explicit EnergyBalance(const NewmarkIntegrator &newmark);

    /// The energies of the initial state; every work 0.
    void start(Assembler &assembler, const State &state);
    /// After an accepted step of size @p dt that moved the displacement by @p du to @p state.
    void step(Assembler &assembler, const State &state, const Vector &du, const double dt);

    const Quantities &quantities() const { return q; }

    void save(BinaryWriter &out) const;
    void load(BinaryReader &in);

  private:
    const NewmarkIntegrator &newmark;
    Quantities               q;
    Assembler::Energies      last;     // of the last accepted state
    Vector                   v_n, a_n; // its velocity and acceleration (owned)
  };
} // namespace hydrostat
