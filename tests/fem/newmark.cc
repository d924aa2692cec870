// NewmarkIntegrator predictor and corrector: the trapezoidal rule integrates a constant
// acceleration exactly, and the corrector is the update whose derivatives coefficients() gives.
#include <deal.II/lac/vector.h>

#include <hydrostat/fem/newmark.h>

#include <gtest/gtest.h>

#include <tuple>

using namespace hydrostat;
using Vector = dealii::Vector<double>;

namespace
{
  Vector values(const double x, const double y)
  {
    Vector v(2);
    v[0] = x;
    v[1] = y;
    return v;
  }
} // namespace

// u(t) = u0 + v0 t + ½ g t² with g constant: predictor and corrector are exact for every β, γ.
TEST(Newmark, ConstantAccelerationIsExact)
{
  const double      dt = 0.1;
  NewmarkIntegrator newmark;
  for (const auto &[beta, gamma] : {std::pair{0.25, 0.5}, std::pair{0.3025, 0.6}})
    {
      newmark.set(true, beta, gamma);
      const Vector u = values(0.2, -0.1), v = values(1.0, 0.5), a = values(-9.81, 2.0);
      Vector       u_new, v_new(2), a_new(2);
      newmark.predict(u, v, a, dt, u_new);
      for (unsigned int i = 0; i < 2; ++i)
        EXPECT_NEAR(u_new[i], u[i] + v[i] * dt + 0.5 * a[i] * dt * dt, 1e-15);
      newmark.correct(u, v, a, u_new, dt, v_new, a_new);
      for (unsigned int i = 0; i < 2; ++i)
        {
          EXPECT_NEAR(a_new[i], a[i], 1e-12);
          EXPECT_NEAR(v_new[i], v[i] + a[i] * dt, 1e-13);
        }
    }
}

// The corrector is linear in u₊ with slopes a_u and v_u of coefficients(); quasi-static: a₊ = 0,
// v₊ = (u₊ − u)/Δt.
TEST(Newmark, CorrectorMatchesCoefficients)
{
  const double      dt = 0.05;
  NewmarkIntegrator newmark;
  const Vector      u = values(0.0, 1.0), v = values(0.3, -0.2), a = values(1.5, 0.7);
  Vector            v1(2), a1(2), v2(2), a2(2);
  newmark.set(true, 0.25, 0.5);
  const auto c = newmark.coefficients(dt);
  newmark.correct(u, v, a, values(0.01, 1.02), dt, v1, a1);
  newmark.correct(u, v, a, values(0.02, 1.02), dt, v2, a2);
  EXPECT_NEAR((a2[0] - a1[0]) / 0.01, c.a_u, 1e-9 * c.a_u);
  EXPECT_NEAR((v2[0] - v1[0]) / 0.01, c.v_u, 1e-9 * c.v_u);
  newmark.set(false, 0.25, 0.5);
  newmark.correct(u, v, a, values(0.01, 1.02), dt, v1, a1);
  EXPECT_EQ(a1.l2_norm(), 0.0);
  EXPECT_NEAR(v1[0], 0.01 / dt, 1e-14);
  EXPECT_NEAR(v1[1], 0.02 / dt, 1e-12);
}

// 'Predictor = constant velocity' starts Newton from u + Δt v, whatever the acceleration,
// 'constant displacement' from u; the default keeps ½ Δt² a (theory.md eq. (51)).
TEST(Newmark, Predictors)
{
  const double             dt = 0.1;
  const Vector             u = values(0.2, -0.1), v = values(1.0, 0.5), a = values(-9.81, 2.0);
  dealii::ParameterHandler prm;
  NewmarkIntegrator::declare_parameters(prm);
  for (const auto &[name, velocity, acceleration] :
       {std::tuple{"constant acceleration", 1.0, 1.0}, std::tuple{"constant velocity", 1.0, 0.0},
        std::tuple{"constant displacement", 0.0, 0.0}})
    {
      prm.enter_subsection("Time integration");
      prm.set("Predictor", name);
      prm.leave_subsection();
      NewmarkIntegrator newmark;
      newmark.parse_parameters(prm);
      Vector u_new;
      newmark.predict(u, v, a, dt, u_new);
      for (unsigned int i = 0; i < 2; ++i)
        EXPECT_NEAR(u_new[i], u[i] + velocity * v[i] * dt + acceleration * 0.5 * a[i] * dt * dt, 1e-15) << name;
    }
}
