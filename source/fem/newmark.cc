#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/fem/newmark.h>

namespace hydrostat
{
  using namespace dealii;

  void NewmarkIntegrator::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Time integration");
    prm.declare_entry("Mode", "dynamic", Patterns::Selection("dynamic|quasi-static"),
                      "dynamic: Newmark with inertia; quasi-static: a sequence of equilibria.");
    prm.declare_entry("Newmark beta", "0.25", Patterns::Double(0.0, 0.5), "Newmark beta.");
    prm.declare_entry("Newmark gamma", "0.5", Patterns::Double(0.0, 1.0), "Newmark gamma.");
    prm.declare_entry("Predictor", "constant acceleration",
                      Patterns::Selection("constant acceleration|constant velocity|constant displacement"),
                      "Where Newton starts in each step of a dynamic run: u + dt v + dt^2 a / 2, u + dt v, or "
                      "u. Constant velocity suits loads that change the acceleration sharply (rigid contact "
                      "of an impact, an activation pulse). With self-contact every predictor starts from u "
                      "where it would carry surfaces into each other or points press (theory.md eqs. (51), "
                      "(70c)).");
    prm.leave_subsection();
  }

  void NewmarkIntegrator::parse_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Time integration");
    set(prm.get("Mode") == "dynamic", prm.get_double("Newmark beta"), prm.get_double("Newmark gamma"));
    const std::string name = prm.get("Predictor");
    predictor              = name == "constant acceleration" ? Predictor::constant_acceleration :
                             name == "constant velocity"     ? Predictor::constant_velocity :
                                                               Predictor::constant_displacement;
    prm.leave_subsection();
  }

  void NewmarkIntegrator::set(const bool dynamic, const double beta, const double gamma)
  {
    require(!dynamic || beta > 0.0, "Parameter 'Time integration/Newmark beta' must be > 0 (implicit Newmark).");
    require(!dynamic || gamma >= 0.5, "Parameter 'Time integration/Newmark gamma' must be >= 0.5 for stability.");
    is_dynamic    = dynamic;
    newmark_beta  = beta;
    newmark_gamma = gamma;
  }

  NewmarkIntegrator::Coefficients NewmarkIntegrator::coefficients(const double dt) const
  {
    if (!is_dynamic)
      return {0.0, 0.0, 0.0, 1.0 / dt, 0.0, 0.0};
    const double b = newmark_beta, g = newmark_gamma;
    const double a_u = 1.0 / (b * dt * dt), a_v = 1.0 / (b * dt), a_a = 0.5 / b - 1.0;
    // v₊ = v + Δt (1 − γ) a + Δt γ a₊
    return {a_u, a_v, a_a, dt * g * a_u, 1.0 - dt * g * a_v, dt * (1.0 - g) - dt * g * a_a};
  }
} // namespace hydrostat
