// The assembled tangent K = dR/du against central finite differences of the assembled residual
// on a distorted mesh with a large displacement field: dynamic (Newmark terms, both Rayleigh
// damping terms) and quasi-static, displacement and three-field formulations (Q1 and Q2), with
// gravity, a dead traction, a follower pressure (whose tangent is unsymmetric) and constraints;
// and with active, passive and rate-dependent fibre stresses of two muscle groups.
#include <gtest/gtest.h>

#include "case_builder.h"

#include <cmath>
#include <tuple>

using namespace hydrostat;

namespace
{
  // Two muscle groups over the whole block: a Van Leeuwen-Kier group with two families (one
  // oblique) under the prescribed pattern, rate-dependent; and a constant-stress group driven
  // through Hatze dynamics, whose activation depends on the fibre stretch (dfa/dλ ≠ 0).
  const std::string muscles = R"(
subsection Muscles
  set Number of groups = 2
  subsection Group 1
    set Fibre families = cross-section x, helical right
    set Pitch angle = 30
    subsection Activation
      set Rise time = 0.02
    end
  end
  subsection Group 2
    set Fibre direction = constant
    set Constant direction = 1, 1, 0
    set Law = constant
    subsection Muscle law
      set Maximum isometric stress = 3e4
    end
    subsection Activation
      set Source = stimulation
      set Stimulation = 1
      set Model = hatze
    end
  end
end
)";

  std::string parameters(const std::string &formulation, const unsigned int degree, const std::string &mode,
                         const bool with_muscles)
  {
    return (with_muscles ? muscles : std::string()) + R"(
subsection Mesh
  set Type = box
  set Max corner = 0.02, 0.01, 0.01
  set Box subdivisions = 2, 1, 1
  set Distortion = 0.25
end
subsection Materials
  subsection Material 0
    set c1 = 3e3
    set c2 = 1e3
    set Bulk modulus = 4e5
  end
end
subsection Finite element
  set Formulation = )" +
           formulation + R"(
  set Polynomial degree = )" +
           std::to_string(degree) + R"(
end
subsection Boundary conditions
  subsection Constraint 1
    set Boundary id = 0
    set Components = xz
  end
  subsection Load 1
    set Boundary id = 1
    set Type = follower pressure
    set Value = 2e3 * (1 + y / 0.01)
  end
  subsection Load 2
    set Boundary id = 3
    set Value = 100; -300 * x / 0.02; 50
  end
  set Body acceleration = 0; 0; -9.81
end
subsection Time integration
  set Mode = )" +
           mode + R"(
  set Mass damping = 3
  set Stiffness damping = 0.01
end
subsection Initial conditions
  set Velocity = 0.1 * y; -0.2 * z; 0.3 * x
end
subsection Linear solver
  set Solver type = direct
end
)";
  }
} // namespace

class GlobalTangent : public ::testing::TestWithParam<std::tuple<std::string, unsigned int, std::string, bool>>
{};

TEST_P(GlobalTangent, MatchesFiniteDifferencesOfResidual)
{
  const auto [formulation, degree, mode, with_muscles] = GetParam();
  test_support::Case c(parameters(formulation, degree, mode, with_muscles));
  Simulation        &sim = *c.simulation;
  sim.setup();

  // A large, smooth, non-affine displacement (stretches of ~±25 %, shear, twist).
  Simulation::Vector u;
  sim.reinit_vector(u);
  test_support::interpolate_displacement(sim, u, [](const dealii::Point<3> &X) {
    const double x = X[0] / 0.02, y = X[1] / 0.01, z = X[2] / 0.01;
    return dealii::Tensor<1, 3>(
      {0.005 * x * x - 0.002 * y * z, 0.003 * x * y + 0.001 * std::sin(3 * z), -0.002 * x + 0.0025 * y * y * x});
  });
  const auto fd = test_support::compare_tangent_with_finite_differences(sim, u, 0.01);
  // Central differences with h = 1e-8 m on entries ~max_entry: truncation O(h²·R''') and
  // round-off O(ε|R|/h) are both below 1e-6 relative here.
  std::cout << formulation << " Q" << degree << " " << mode << (with_muscles ? " with muscles" : "")
            << ": max |K - K_fd| / max |K| = " << fd.max_error / fd.max_entry << std::endl;
  EXPECT_LT(fd.max_error / fd.max_entry, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Formulations, GlobalTangent,
                         ::testing::Values(std::make_tuple("displacement", 1u, "dynamic", false),
                                           std::make_tuple("displacement", 1u, "quasi-static", false),
                                           std::make_tuple("three-field", 1u, "dynamic", false),
                                           std::make_tuple("three-field", 2u, "quasi-static", false),
                                           std::make_tuple("three-field", 1u, "dynamic", true),
                                           std::make_tuple("displacement", 1u, "quasi-static", true)));
