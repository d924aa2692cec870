#include <deal.II/base/exceptions.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/integration/newton_control.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace hydrostat
{
  using namespace dealii;

  void NewtonControl::declare_parameters(ParameterHandler &prm)
  {
    const NewtonControl d;
    prm.enter_subsection("Newton");
    prm.declare_entry("Max iterations", std::to_string(d.max_iterations), Patterns::Integer(1),
                      "Newton iterations per step before the step is cut back.");
    prm.declare_entry("Contracting iterations", "0", Patterns::Integer(0),
                      "Iterations beyond Max iterations while the residual converges: made one at a time as long "
                      "as |R| halved in each of the last two iterations (a step about to converge is not cut back "
                      "and started again). 0: cut back at Max iterations.");
    prm.declare_entry("Maximum update", "0", Patterns::Double(0.0),
                      "Largest displacement of a DoF in one Newton update [m]; a longer update is shortened to it "
                      "(before the line search). 0: no limit. Self-contact: a fraction of the cell size, e.g. 2 mm "
                      "on the octopus arm's 5 mm cells.");
    prm.declare_entry("Relative residual", "1e-8", Patterns::Double(0.0),
                      "Residual tolerance relative to the force scale of the iterate, sqrt(sum over cells of "
                      "|f_int|^2 + |f_ext|^2) [N] (internal forces incl. inertia and damping, and loads).");
    prm.declare_entry("Absolute residual", "auto", Patterns::Anything(),
                      "Residual tolerance [N], or auto: 100 eps sqrt(sum over cells of (M h^2)^2), M = K + 4/3 mu of "
                      "the cell's tissue and h its diameter, the round-off level of R (the pressure is known to "
                      "about K eps; 1e-12 N until 2026-12, below round-off on meshes of a few thousand cells).");
    prm.declare_entry("Relative update", "1e-8", Patterns::Double(0.0),
                      "Update tolerance relative to the norm of the displacement vector.");
    prm.declare_entry("Absolute update", "1e-14", Patterns::Double(0.0), "Update tolerance [m].");
    prm.declare_entry("Line search", "true", Patterns::Bool(), "Backtracking line search.");
    prm.declare_entry("Line search steps", "5", Patterns::Integer(0, 30), "Halvings of the step at most.");
    prm.declare_entry("Three-field cell fields", "iterated", Patterns::Selection("iterated|projected"),
                      "Three-field element: J~ and p~ as unknowns of the Newton iteration, moved by the linearised "
                      "cell equations (iterated, as deal.II step-44), or projected from every iterate u (projected, "
                      "the scheme before 2026-12). Same converged answer; iterated needs fewer iterations in "
                      "nearly incompressible tissue.");
    prm.declare_entry("Verbose", "false", Patterns::Bool(),
                      "Print the residual, update and line-search factor of every iteration.");
    prm.declare_entry("Check tangent", "false", Patterns::Bool(),
                      "Diagnostic: after every linear solve, the derivative of the residual along the update by "
                      "central differences (three more residual evaluations: two differences, then R again) against "
                      "-R, which it equals for the exact tangent; prints |dR/da + R| / |R| (about 1e-6 or less for an "
                      "exact tangent while |R| is well above its tolerance; of order 1 for a wrong one). For authors "
                      "of terms and laws.");
    prm.leave_subsection();
  }

  void NewtonControl::parse_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Newton");
    max_iterations              = prm.get_integer("Max iterations");
    contracting_iterations      = prm.get_integer("Contracting iterations");
    max_update                  = prm.get_double("Maximum update");
    residual_relative           = prm.get_double("Relative residual");
    const auto absolute         = auto_or_number(prm.get("Absolute residual"), "Newton/Absolute residual", 0);
    automatic_absolute_residual = !absolute;
    residual_absolute           = absolute.value_or(residual_absolute);
    update_relative             = prm.get_double("Relative update");
    update_absolute             = prm.get_double("Absolute update");
    line_search                 = prm.get_bool("Line search");
    line_search_steps           = prm.get_integer("Line search steps");
    verbose                     = prm.get_bool("Verbose");
    check_tangent               = prm.get_bool("Check tangent");
    iterate_cell_fields         = prm.get("Three-field cell fields") == "iterated";
    prm.leave_subsection();
    require(residual_relative > 0 || residual_absolute > 0 || automatic_absolute_residual,
            "Parameters 'Newton/Relative residual' and 'Newton/Absolute residual' are both 0: "
            "Newton could never converge.");
  }

  double round_off_residual(const Triangulation<3> &triangulation, const TissueMaterials &materials, MPI_Comm comm)
  {
    // The pressure is known to about K ε (it is K times a volume change computed from F), a nodal
    // force to K ε h²: R cannot be converged below ε √(Σ (M h²)²); 100 times that is the floor
    // (theory.md eq. (52a)). M = K + 4μ/3 also covers compressible tissue.
    double sum = 0;
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          const TissueLaw &law = *materials[cell->material_id()].law;
          const double     M   = law.bulk_modulus() + 4.0 / 3.0 * law.shear_modulus();
          const double     h   = cell->diameter();
          sum += Utilities::fixed_power<2>(M * h * h);
        }
    return 100 * std::numeric_limits<double>::epsilon() * std::sqrt(Utilities::MPI::sum(sum, comm));
  }

  void TimeStepControl::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Time stepping");
    prm.declare_entry("End time", "1", Patterns::Double(0.0), "Simulated time [s].");
    prm.declare_entry("Time step", "0.01", Patterns::Double(0.0), "Nominal time step [s].");
    prm.declare_entry("Minimum time step", "1e-6", Patterns::Double(0.0),
                      "Smallest step [s] the automatic cut-back may reach before the run stops.");
    prm.declare_entry("Cut-back factor", "0.5", Patterns::Double(0.0, 1.0),
                      "Factor applied to the step when Newton fails or an element inverts.");
    prm.declare_entry("Growth iterations", "0", Patterns::Integer(0),
                      "After a cut-back, grow the step again only after steps that converged in at most "
                      "this many Newton iterations; 0: after every converged step.");
    prm.declare_entry("Retry after steps", "4", Patterns::Integer(0),
                      "After a step of size h failed and was cut back, the step grows back to h only after "
                      "this many converged steps; 0: at once.");
    prm.declare_entry("Maximum cut-backs", "-1", Patterns::Integer(-1),
                      "The run stops when Newton fails once more after this many cut-backs of the step: a "
                      "budget, so that a batch run or a test stops at the first difficulty it does not expect "
                      "instead of crawling at tiny steps; -1: no limit.");
    prm.leave_subsection();
  }

  void TimeStepControl::parse_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Time stepping");
    end_time          = prm.get_double("End time");
    time_step         = prm.get_double("Time step");
    minimum_step      = prm.get_double("Minimum time step");
    cut_back          = prm.get_double("Cut-back factor");
    growth_iterations = prm.get_integer("Growth iterations");
    retry_after       = prm.get_integer("Retry after steps");
    max_cut_backs     = prm.get_integer("Maximum cut-backs");
    prm.leave_subsection();
    require(time_step > 0, "Parameter 'Time stepping/Time step' must be positive.");
    require(minimum_step > 0 && minimum_step <= time_step,
            "Parameter 'Time stepping/Minimum time step' must lie in (0, Time step].");
    require(cut_back > 0 && cut_back < 1, "Parameter 'Time stepping/Cut-back factor' must lie in (0, 1).");
  }

  double TimeStepControl::next_step(const double taken, const unsigned int newton_iterations)
  {
    if (++since_failure > retry_after)
      smallest_failed = std::numeric_limits<double>::infinity();
    if (growth_iterations > 0 && newton_iterations > growth_iterations)
      return taken;
    const double grown = std::min(time_step, taken / cut_back);
    return grown < smallest_failed * (1 - 1e-12) ? grown : taken;
  }

  void TimeStepControl::record_cut_back(const double dt)
  {
    smallest_failed = std::min(smallest_failed, dt);
    since_failure   = 0;
  }
} // namespace hydrostat
