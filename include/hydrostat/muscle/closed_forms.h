#pragma once

#include <hydrostat/materials/mooney_rivlin.h>

namespace hydrostat
{
  /**
   * Closed forms for verification (theory.md eqs. (58)–(59); derivation in doc/muscle.md). A Mooney–Rivlin
   * cylinder along z, free ends and free lateral surface, whose fibres carry a constant nominal
   * stress (Kirchhoff τf = T λ m⊗m per family) deforms homogeneously, F = diag(λr, λr, λz):
   *
   *  (a) transverse_fibre_stress = T, axial = 0: two orthogonal families along x and y in the
   *      cross-section (in-plane isotropic active stress): the cylinder thins and elongates;
   *  (b) transverse = 0, axial_fibre_stress = T: fibres along the axis: the bar shortens.
   *
   * Both may be non-zero. Stresses in Pa.
   */
  struct CylinderStretches
  {
    double radial = 1.0; // λr
    double axial  = 1.0; // λz
  };

  /**
   * Incompressible limit (J = 1, λr = λz^{-1/2}): λz is the root of
   *   2 (λz² − 1/λz)(c1 + c2/λz) = T_transverse λz^{-1/2} − T_axial λz.
   */
  CylinderStretches incompressible_active_cylinder(const MooneyRivlin::Parameters &tissue,
                                                   const double                    transverse_fibre_stress,
                                                   const double                    axial_fibre_stress);

  /**
   * The nearly incompressible law of the FE code, K/2 (J − 1)² included: with J = λr² λz, the
   * stretches solve
   *   2 J^{-2/3} (λz² − λr²)(c1 + c2 J^{-2/3} λr²) = T_transverse λr − T_axial λz,
   *   3 K J (J − 1) = −(2 T_transverse λr + T_axial λz).
   * This is what a homogeneous FE solution must match to solver tolerance. Throws when the
   * fibre stress is too large for K for a root to exist (T of order K; K ≥ 10³ μ is fine).
   */
  CylinderStretches active_cylinder(const MooneyRivlin::Parameters &tissue, const double transverse_fibre_stress,
                                    const double axial_fibre_stress);
} // namespace hydrostat
