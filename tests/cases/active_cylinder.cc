// Verification of the fibre stress in the continuum (theory.md §12.3) against closed forms
// (include/hydrostat/muscle/closed_forms.h, derivation in doc/muscle.md): a Mooney–Rivlin
// cylinder with free ends and free lateral surface whose fibres carry a constant nominal stress T
// deforms homogeneously, so the FE solution must match the closed form to solver tolerance:
//  - in-plane isotropic active stress (two families x, y in the cross-section): it elongates;
//  - axial fibres: it shortens and thickens.
// Both formulations; the constant-stress fibre law is ramped up in four quasi-static steps.
#include <hydrostat/muscle/closed_forms.h>

#include <gtest/gtest.h>

#include "active_cylinder.h"
#include "case_builder.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  constexpr double L = 0.02, R = 0.005, T = 6e3;

} // namespace

TEST(ActiveCylinder, MatchesClosedFormForTransverseAndAxialFibres)
{
  MooneyRivlin::Parameters tissue;
  tissue.c1 = 1e3;
  tissue.c2 = 4e2;
  tissue.K  = 2.8e6; // K = 1000 μ
  for (const std::string formulation : {"displacement", "three-field"})
    for (const bool transverse : {true, false})
      {
        test_support::Case c(
          test_support::active_cylinder(formulation, transverse ? "cross-section x, cross-section y" : "longitudinal",
                                        "      set Source = expression\n      set Level = t\n"));
        c.simulation->setup();
        while (c.simulation->time() < 1 - 1e-12)
          c.simulation->advance(0.25);
        const auto              u     = c.simulation->probe_displacements();
        const CylinderStretches exact = active_cylinder(tissue, transverse ? T : 0.0, transverse ? 0.0 : T);
        const double            lz = 1 + u[0][2] / L, lr = 1 + u[1][0] / R;
        std::cout << formulation << (transverse ? " transverse" : " axial") << ": lambda_z = " << lz << " (closed form "
                  << exact.axial << "), lambda_r = " << lr << " (" << exact.radial << ")" << std::endl;
        // A homogeneous deformation is represented exactly by Q1; what remains is the Newton
        // and direct-solver tolerance (residual 1e-12 relative), far below 1e-8.
        EXPECT_NEAR(lz, exact.axial, 1e-8);
        EXPECT_NEAR(lr, exact.radial, 1e-8);
        // The deformation must be substantial for the test to mean anything.
        EXPECT_GT(std::abs(exact.axial - 1), 0.1);
      }
}
