#include <hydrostat/assembly/energy_balance.h>

#include <algorithm>

namespace hydrostat
{
  namespace
  {
    /// ½ (f_old + f_new)·du: the trapezoidal work of a force over a step.
    double trapezoidal_work(const EnergyBalance::Vector &f_old, const EnergyBalance::Vector &f_new,
                            const EnergyBalance::Vector &du)
    {
      EnergyBalance::Vector f_mean = f_old;
      f_mean += f_new;
      return 0.5 * (f_mean * du);
    }
  } // namespace

  EnergyBalance::EnergyBalance(const NewmarkIntegrator &newmark)
    : newmark(newmark)
  {
    q.dynamic = newmark.dynamic();
  }

  void EnergyBalance::start(Assembler &assembler, const State &state)
  {
    assembler.energies(state, last);
    v_n                     = state.v();
    a_n                     = state.a();
    q.kinetic_energy        = last.kinetic;
    q.strain_energy         = last.strain;
    q.volume                = last.volume;
    q.external_work         = 0;
    q.dissipated_energy     = 0;
    q.active_work           = 0;
    q.numerical_dissipation = 0;
    q.initial_energy        = 0;
    q.initial_energy        = q.energy();
  }

  void EnergyBalance::step(Assembler &assembler, const State &state, const Vector &du, const double dt)
  {
    Assembler::Energies next;
    assembler.energies(state, next);
    q.kinetic_energy = next.kinetic;
    q.strain_energy  = next.strain;
    q.volume         = next.volume;
    q.external_work += trapezoidal_work(last.external, next.external, du);
    q.active_work += trapezoidal_work(last.active, next.active, du);
    // The dissipated forces act against the motion: their work on the body is −D.
    q.dissipated_energy -= trapezoidal_work(last.dissipated, next.dissipated, du);
    if (newmark.dynamic())
      {
        // What Newmark's update adds to the kinetic energy beyond the trapezoidal work
        // (theory.md eq. (64)): Δt (γ − ½) ⟨v⟩ᵀ M [a] − Δt² (β − γ/2) [a]ᵀ M ⟨a⟩, taken out.
        Vector v_mean = v_n, a_mean = a_n, a_jump = state.a();
        v_mean += state.v();
        v_mean *= 0.5;
        a_mean += state.a();
        a_mean *= 0.5;
        a_jump -= a_n;
        const double gamma = newmark.gamma(), beta = newmark.beta();
        q.numerical_dissipation -= dt * (gamma - 0.5) * assembler.mass_product(v_mean, a_jump) -
                                   dt * dt * (beta - 0.5 * gamma) * assembler.mass_product(a_jump, a_mean);
      }
    last = std::move(next);
    v_n  = state.v();
    a_n  = state.a();
  }

  void EnergyBalance::save(BinaryWriter &out) const
  {
    out.put(q);
    for (const Vector *f : {&last.external, &last.dissipated, &last.active, &v_n, &a_n})
      out.put(std::vector<double>(f->begin(), f->end()));
  }

  void EnergyBalance::load(BinaryReader &in)
  {
    q = in.get<Quantities>();
    for (Vector *f : {&last.external, &last.dissipated, &last.active, &v_n, &a_n})
      {
        const std::vector<double> values = in.get_vector();
        if (values.size() != f->locally_owned_size())
          in.fail("its vectors do not fit this mesh");
        std::copy(values.begin(), values.end(), f->begin());
      }
  }
} // namespace hydrostat
