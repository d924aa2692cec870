// A 1D Hill muscle-tendon unit between two interior points of a distorted block (routed with a
// length offset): the assembled tangent K = dR/du against central finite differences of the
// residual, dynamic and quasi-static, at a state where the unit is active (direct activation,
// STIM = 1), its SEE is stretched and the points move relative to each other (so the rate terms
// of the damper and of the rotating direction e enter). FD perturbs u only; the unit's state at
// t_n is fixed, as in a Newton iteration.
#include <gtest/gtest.h>

#include "case_builder.h"

#include <cmath>

using namespace hydrostat;

namespace
{
  std::string parameters(const std::string &mode, const unsigned int n_units)
  {
    return R"(
subsection Mesh
  set Type = box
  set Max corner = 0.02, 0.01, 0.01
  set Box subdivisions = 3, 2, 2
  set Distortion = 0.25
end
subsection Materials
  subsection Material 0
    set c1 = 3e3
    set c2 = 1e3
    set Bulk modulus = 4e5
  end
end
subsection Boundary conditions
  subsection Constraint 1
    set Boundary id = 0
    set Components = xyz
  end
  set Body acceleration = 0; 0; -9.81
end
subsection Time integration
  set Mode = )" +
           mode + R"(
  set Mass damping = 3
end
subsection Initial conditions
  set Velocity = 0.1 * y; -0.2 * z; 0.3 * x
end
subsection Linear solver
  set Solver type = direct
end
subsection Muscle-tendon units
  set Number of units = )" +
           std::to_string(n_units) + R"(
  subsection Unit 1
    set First point  = 0.004, 0.003, 0.004
    set Second point = 0.015, 0.007, 0.006
    set Stimulation  = 1
    subsection Hill
      set Fmax    = 1
      set dFSEE0  = 2
      set lOffset = 0.05
    end
    subsection Activation
      set Model = direct
    end
  end
end
)";
  }

  /// A smooth non-affine displacement of the block (stretches of some 10 %, shear).
  void displacement(const Simulation &sim, Simulation::Vector &u)
  {
    test_support::interpolate_displacement(sim, u, [](const dealii::Point<3> &X) {
      const double x = X[0] / 0.02, y = X[1] / 0.01, z = X[2] / 0.01;
      return dealii::Tensor<1, 3>(
        {0.002 * x * x - 0.001 * y * z, 0.0015 * x * y + 0.0005 * std::sin(3 * z), -0.001 * x + 0.001 * y * y * x});
    });
  }
} // namespace

class MuscleTendonTangent : public ::testing::TestWithParam<std::string>
{};

TEST_P(MuscleTendonTangent, MatchesFiniteDifferencesOfResidual)
{
  const std::string  mode = GetParam();
  test_support::Case c(parameters(mode, 1)), bare(parameters(mode, 0));
  Simulation        &sim = *c.simulation;
  sim.setup();
  bare.simulation->setup();

  Simulation::Vector u, residual, r_bare;
  for (auto *v : {&u, &residual, &r_bare})
    sim.reinit_vector(*v);
  displacement(sim, u);

  const double dt = 0.01;
  ASSERT_TRUE(sim.evaluate(u, dt, residual, nullptr));
  ASSERT_TRUE(bare.simulation->evaluate(u, dt, r_bare, &bare.simulation->system_matrix()));

  // The unit must be loaded: its share of R and K.
  Simulation::Vector r_unit = residual;
  r_unit -= r_bare;
  std::cout << mode << ": |R_unit| = " << r_unit.l2_norm() << " N, |R| = " << residual.l2_norm() << " N" << std::endl;
  EXPECT_GT(r_unit.l2_norm(), 0.1);

  const auto [max_error, max_entry, max_unit_entry] =
    test_support::compare_tangent_with_finite_differences(sim, u, dt, &bare.simulation->system_matrix());
  std::cout << mode << ": max |K - K_fd| / max |K| = " << max_error / max_entry
            << ", max |K - K_fd| / max |K_unit| = " << max_error / max_unit_entry
            << " (max |K_unit| / max |K| = " << max_unit_entry / max_entry << ")" << std::endl;
  EXPECT_LT(max_error / max_entry, 1e-6);
  EXPECT_LT(max_error / max_unit_entry, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Modes, MuscleTendonTangent, ::testing::Values("dynamic", "quasi-static"));
