#pragma once

#include <hydrostat/physics/term.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Inertia with mass-proportional Rayleigh damping, ∫ ρ0 (a₊ + α_M v₊)·φ dV, and its tangent
   * ρ0 (a_u + α_M v_u) ∫ φ·φ dV (theory.md eqs. (4), (46), (49)), with the shapes that carry the mass
   * (CellState::mass_shapes, eq. (72)); dynamic runs only. The damping
   * rides on the inertial force (one kernel, one force per point); its work is dissipated, the
   * kinetic energy is the Assembler's (theory.md eq. (62)).
   */
  class Inertia : public Term
  {
  public:
    /// Declares 'Time integration/Mass damping'.
    static void                               declare_parameters(dealii::ParameterHandler &prm);
    static std::vector<std::unique_ptr<Term>> create(dealii::ParameterHandler &prm, const TermSetup &setup);

    Inertia(const TissueMaterials &materials, const double mass_damping);

    std::string name() const override { return "inertia"; }
    Work        work() const override { return Work::stored; }
    bool        on_cells() const override { return true; }
    void        add_point(const CellState &cell, const unsigned int q, CellContribution &out) const override;
    void        add_point_energy(const CellState &cell, const unsigned int q, CellEnergy &out) const override;

  private:
    const TissueMaterials &materials;
    const double           alpha_M; // [1/s]
  };
} // namespace hydrostat
