// A homogeneous large-strain block: uniaxial stretch λ = 1.5 of a unit-ish block with symmetry
// constraints on three faces and free lateral faces. The exact solution is homogeneous,
// x = diag(λ, μl, μl) X with the lateral stretch μl from σ_yy(λ, μl) = 0 (solved here with the
// material law alone), so a mesh of several cells reproduces it to solver tolerance, in both
// formulations.
#include <hydrostat/materials/mooney_rivlin.h>

#include <gtest/gtest.h>

#include "case_builder.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  constexpr double L = 0.01, lambda = 1.5, c1 = 2e3, c2 = 5e2, K = 1e5;

  double lateral_stretch()
  {
    const MooneyRivlin law({c1, c2, K});
    const auto         F = [](const double s) {
      dealii::Tensor<2, 3> F;
      F[0][0] = lambda;
      F[1][1] = F[2][2] = s;
      return F;
    };
    double s = 1.0 / std::sqrt(lambda);
    for (unsigned int it = 0; it < 60; ++it)
      {
        const double h  = 1e-7;
        const double f  = law.cauchy_stress(F(s))[1][1];
        const double df = (law.cauchy_stress(F(s + h))[1][1] - law.cauchy_stress(F(s - h))[1][1]) / (2 * h);
        s -= f / df;
      }
    return s;
  }
} // namespace

TEST(HomogeneousBlock, UniaxialStretchIsReproducedExactly)
{
  const double s = lateral_stretch();
  for (const std::string formulation : {"displacement", "three-field"})
    {
      test_support::Case c(R"(
subsection Mesh
  set Type = box
  set Max corner = 0.01, 0.01, 0.01
  set Box subdivisions = 3, 2, 2
end
subsection Materials
  subsection Material 0
    set c1 = 2e3
    set c2 = 5e2
    set Bulk modulus = 1e5
  end
end
subsection Finite element
  set Formulation = )" + formulation +
                           R"(
end
subsection Boundary conditions
  subsection Constraint 1
    set Boundary id = 0
    set Components = x
  end
  subsection Constraint 2
    set Boundary id = 2
    set Components = y
  end
  subsection Constraint 3
    set Boundary id = 4
    set Components = z
  end
  subsection Constraint 4
    set Boundary id = 1
    set Components = x
    set Displacement = 0.005 * t; 0; 0
  end
end
subsection Time integration
  set Mode = quasi-static
end
subsection Time stepping
  set Time step = 0.25
  set End time = 1
end
subsection Newton
  set Relative residual = 1e-12
end
subsection Linear solver
  set Solver type = CG
  set Relative tolerance = 1e-12
end
subsection Output
  set ParaView = false
  set Probe points = 0.01, 0.01, 0.01; 0.005, 0.01, 0.0025
end
)");
      c.simulation->setup();
      while (c.simulation->time() < 1 - 1e-12)
        c.simulation->advance(0.25);
      const auto u = c.simulation->probe_displacements();
      // Exact: u = (λ − 1) X_x, (μl − 1) X_y, (μl − 1) X_z at every point.
      const double points[2][3] = {{L, L, L}, {0.5 * L, L, 0.25 * L}};
      for (unsigned int k = 0; k < 2; ++k)
        {
          EXPECT_NEAR(u[k][0], (lambda - 1) * points[k][0], 1e-9 * L) << formulation;
          EXPECT_NEAR(u[k][1], (s - 1) * points[k][1], 1e-9 * L) << formulation;
          EXPECT_NEAR(u[k][2], (s - 1) * points[k][2], 1e-9 * L) << formulation;
        }
      const double volume = c.simulation->global_quantities().volume;
      EXPECT_NEAR(volume, lambda * s * s * L * L * L, 1e-9 * L * L * L) << formulation;
      std::cout << formulation << ": lateral stretch " << 1 + u[0][1] / L << " (exact " << s
                << "), J = " << volume / (L * L * L) << std::endl;
    }
}
