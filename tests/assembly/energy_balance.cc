// The energy balance (theory.md eqs. (62)–(64)): each energy column against a known answer, and
// the balance of a dynamic muscle run with every kind of work.
//  - kinetic energy: ½ m v² of a rigid translation, constant in time;
//  - external work: a body falling from rest under gravity, W = ½ m g² t² = E_kin (Newmark is
//    exact for a constant acceleration);
//  - dissipated energy: a rigid translation under mass damping, D = E_kin(0) − E_kin(t);
//  - active work: a bar whose axial fibres carry a constant stress ramped up quasi-statically
//    deforms homogeneously (include/hydrostat/muscle/closed_forms.h); its strain energy is V0 W(F)
//    of the closed form, and the active work equals it but for the trapezoidal rule's error,
//    which falls as Δt²;
//  - the balance of a cantilever bent by a rate-dependent muscle group, with mass and stiffness
//    damping and water drag, stays at the time-integration error (second order in Δt), also with
//    Newmark's numerical damping (γ = 0.6), which the balance books.
#include <hydrostat/muscle/closed_forms.h>
#include <hydrostat/physics/water_drag.h>

#include <gtest/gtest.h>

#include "problem.h"

#include <algorithm>
#include <cmath>

using namespace hydrostat;

namespace
{
  constexpr double rho = 1000, volume = 0.02 * 0.01 * 0.01;

  /// A free 20 × 10 × 10 mm block (no constraints), dynamic, with gravity @p g and mass damping.
  void free_block(test_support::Problem &problem, const std::string &g, const double alpha_M, const std::string &v0)
  {
    problem.mooney_rivlin(1e3, 0, 1e6, rho);
    problem.add_solid_stress();
    problem.add_inertia(alpha_M);
    problem.add_body_force(g);
    problem.setup(v0);
  }
} // namespace

TEST(EnergyBalance, KineticEnergyOfARigidTranslation)
{
  test_support::Problem problem(test_support::box({0.02, 0.01, 0.01}, {2, 1, 1}));
  free_block(problem, "0; 0; 0", 0, "0.3; -0.2; 0.1");
  const double kinetic = 0.5 * rho * volume * (0.09 + 0.04 + 0.01);
  for (unsigned int step = 0; step < 5; ++step)
    {
      const auto &q = problem.energy();
      EXPECT_NEAR(q.kinetic_energy, kinetic, 1e-12 * kinetic);
      EXPECT_LT(q.strain_energy, 1e-12 * kinetic);
      EXPECT_LT(std::abs(q.balance()), 1e-12 * kinetic);
      problem.steps().advance(1e-3);
    }
}

TEST(EnergyBalance, ExternalWorkOfGravityOnAFallingBody)
{
  test_support::Problem problem(test_support::box({0.02, 0.01, 0.01}, {2, 1, 1}));
  free_block(problem, "0; 0; -9.81", 0, "0; 0; 0");
  problem.advance_to(0.05, 5e-3);
  const double t = problem.state.time(), work = 0.5 * rho * volume * 9.81 * 9.81 * t * t;
  const auto  &q = problem.energy();
  std::cout << "falling block: W_ext = " << q.external_work << " J, closed form " << work << " J, E_kin "
            << q.kinetic_energy << " J, balance " << q.balance() << " J" << std::endl;
  EXPECT_NEAR(q.external_work, work, 1e-10 * work);
  EXPECT_NEAR(q.kinetic_energy, work, 1e-10 * work);
  EXPECT_LT(std::abs(q.balance()), 1e-10 * work);
}

TEST(EnergyBalance, DissipatedEnergyOfMassDamping)
{
  test_support::Problem problem(test_support::box({0.02, 0.01, 0.01}, {2, 1, 1}));
  const double          alpha = 10;
  free_block(problem, "0; 0; 0", alpha, "0.3; 0; 0");
  const double kinetic_0 = problem.energy().kinetic_energy;
  problem.advance_to(0.1, 1e-3);
  // v(t) = v0 exp(−α t): D = E_kin(0) (1 − exp(−2 α t)), to the time discretisation (α Δt = 0.01).
  const double expected = kinetic_0 * (1 - std::exp(-2 * alpha * 0.1));
  const auto  &q        = problem.energy();
  std::cout << "mass damping: D = " << q.dissipated_energy << " J, closed form " << expected << " J, balance "
            << q.balance() << " J" << std::endl;
  EXPECT_NEAR(q.dissipated_energy, expected, 1e-4 * expected);
  EXPECT_LT(std::abs(q.balance()), 1e-12 * kinetic_0);
}

namespace
{
  constexpr double c1 = 1e3, c2 = 4e2, K = 2.8e6, T = 6e3;

  /// The active bar quasi-statically to t = 1 in steps of @p dt: returns (strain energy, active work).
  std::pair<double, double> active_bar(const double dt)
  {
    test_support::Problem problem(test_support::box({0.01, 0.01, 0.02}, {2, 2, 4}));
    problem.mooney_rivlin(c1, c2, K);
    problem.newmark.set(false, 0.25, 0.5);
    problem.newton.residual_relative = 1e-12;
    problem.muscle_groups(R"(
subsection Muscles
  set Number of groups = 1
  subsection Group 1
    set Fibre direction = constant
    set Constant direction = 0, 0, 1
    set Law = constant
    subsection Muscle law
      set Maximum isometric stress = 6e3
    end
    subsection Activation
      set Source = expression
      set Level = t
    end
  end
end
)");
    problem.add_standard_terms();
    for (const auto &[id, component] : {std::pair{0u, "x"}, {2u, "y"}, {4u, "z"}})
      problem.constraints.add(id, component);
    problem.setup();
    problem.advance_to(1, dt);
    return {problem.energy().strain_energy, problem.energy().active_work};
  }
} // namespace

TEST(EnergyBalance, ActiveWorkOfAHomogeneousActiveBar)
{
  const CylinderStretches s = active_cylinder({c1, c2, K}, 0, T);
  dealii::Tensor<2, 3>    F;
  F[0][0] = F[1][1]             = s.radial;
  F[2][2]                       = s.axial;
  const double strain           = volume * MooneyRivlin({c1, c2, K}).energy(F);
  const auto [coarse_W, coarse] = active_bar(0.1);
  const auto [fine_W, fine]     = active_bar(0.05);
  std::cout << "active bar: lambda_z = " << s.axial << ", V0 W(F) = " << strain << " J; strain energy " << fine_W
            << " J; active work " << coarse << " J (dt = 0.1), " << fine << " J (dt = 0.05)" << std::endl;
  EXPECT_NEAR(fine_W, strain, 1e-8 * strain);
  EXPECT_NEAR(coarse_W, strain, 1e-8 * strain);
  // The trapezoidal rule on the fibre force: second order.
  EXPECT_LT(std::abs(fine - strain), 1e-3 * strain);
  EXPECT_LT(std::abs(fine - strain), 0.35 * std::abs(coarse - strain));
}

namespace
{
  struct Balance
  {
    double worst = 0; // max |balance| over the run [J]
    double scale = 0; // max of E_kin, E_strain, W_act [J]
    double D = 0, D_num = 0, W_act = 0;
  };

  /// A 40 × 10 × 10 mm cantilever bent by a rate-dependent fibre group on its upper half
  /// (prescribed activation, rise time 50 ms), with mass and stiffness damping and water drag on
  /// its upper face, to t = 0.15 s in steps of @p dt with Newmark @p gamma (β = (γ + ½)²/4).
  Balance muscle_run(const double dt, const double gamma)
  {
    test_support::Problem problem(test_support::box({0.04, 0.01, 0.01}, {4, 2, 2}));
    problem.mooney_rivlin(2e3, 0, 2e6);
    problem.newmark.set(true, (gamma + 0.5) * (gamma + 0.5) / 4, gamma);
    problem.muscle_groups(R"(
subsection Muscles
  set Number of groups = 1
  subsection Group 1
    set Region = y - 0.005
    set Fibre direction = constant
    set Constant direction = 1, 0, 0
    subsection Activation
      set Rise time = 0.05
    end
  end
end
)");
    problem.add_solid_stress(1e-4);
    problem.add_inertia(5);
    problem.add_body_force("0; 0; 0");
    auto drag          = std::make_unique<WaterDrag>();
    drag->boundary_ids = {3};
    problem.add(std::move(drag));
    problem.constraints.add(0, "xyz");
    problem.setup();
    Balance b;
    while (problem.state.time() < 0.15 - 1e-12)
      {
        problem.steps().advance(dt);
        const auto &q = problem.energy();
        b.worst       = std::max(b.worst, std::abs(q.balance()));
        b.scale       = std::max({b.scale, q.kinetic_energy, q.strain_energy, q.active_work});
        b.D           = q.dissipated_energy;
        b.D_num       = q.numerical_dissipation;
        b.W_act       = q.active_work;
      }
    return b;
  }
} // namespace

TEST(EnergyBalance, MuscleRunBalancesToTheTimeIntegrationError)
{
  for (const double gamma : {0.5, 0.6})
    {
      const Balance coarse = muscle_run(4e-3, gamma), fine = muscle_run(2e-3, gamma);
      std::cout << "gamma = " << gamma << ": W_act = " << fine.W_act << " J, D = " << fine.D
                << " J, D_num = " << fine.D_num << " J; max |balance| / max energy = " << coarse.worst / coarse.scale
                << " (dt = 4 ms), " << fine.worst / fine.scale << " (dt = 2 ms)" << std::endl;
      EXPECT_GT(fine.D, 0.01 * fine.W_act);
      EXPECT_LT(fine.worst, 1e-2 * fine.scale);
      EXPECT_LT(fine.worst, 0.35 * coarse.worst); // second order
      if (gamma > 0.5)
        EXPECT_GT(fine.D_num, 0.0);
      else
        EXPECT_EQ(fine.D_num, 0.0);
    }
}
