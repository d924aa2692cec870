#include <deal.II/base/mpi.h>

#include <hydrostat/integration/newton_solver.h>
#include <hydrostat/io/progress.h>
#include <hydrostat/linalg/linear_solver.h>

#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>

namespace hydrostat
{
  NewtonSolver::NewtonSolver(const NewtonControl &control, const dealii::ConditionalOStream &out)
    : control(control)
    , out(out)
  {}

  bool NewtonSolver::solve(const Problem &problem, Vector &u)
  {
    residual_history.clear();
    mismatch_history.clear();
    n_updates = 0;
    Vector du, residual;
    du.reinit(u);
    residual.reinit(u);
    Evaluation evaluation;
    bool       evaluated = false; // the system at u is assembled (by the line search's full step)
    // The iteration limit grows one at a time, up to max_iterations + contracting_iterations,
    // while |R| halves in each iteration (theory.md §10).
    const auto contracting = [&]() {
      const std::size_t n = residual_history.size();
      return n >= 3 && residual_history[n - 1] <= 0.5 * residual_history[n - 2] &&
             residual_history[n - 2] <= 0.5 * residual_history[n - 3];
    };
    unsigned int limit   = control.max_iterations;
    bool         settled = !problem.settle; // settle() asked, or none to ask
    for (unsigned int it = 0; it <= limit; ++it)
      {
        if (!evaluated && !problem.system(u, residual, evaluation.pending_increment, evaluation.force_scale))
          return false;
        evaluated      = false;
        const double r = residual.l2_norm();
        residual_history.push_back(r);
        if (!std::isfinite(r))
          return false;

        // Prescribed displacements not yet applied count as an unconverged update.
        const bool residual_ok =
          r <= std::max(control.residual_absolute, control.residual_relative * evaluation.force_scale) &&
          evaluation.pending_increment == 0;
        const double update_tolerance = std::max(control.update_absolute, control.update_relative * u.l2_norm());
        if (residual_ok && ((it > 0 && du.l2_norm() <= update_tolerance) || r == 0 || it == 0))
          return true;
        if (it == limit && limit < control.max_iterations + control.contracting_iterations && contracting())
          ++limit;
        if (it == limit)
          return false;

        du = 0;
        try
          {
            linear_iterations = problem.solve(du);
          }
        catch (const LinearSolverFailure &failure)
          {
            out << "  linear solver: " << failure.what() << std::endl;
            return false;
          }
        if (control.check_tangent)
          {
            mismatch_history.push_back(tangent_mismatch(problem, u, du, residual));
            out << "    tangent check: |dR/da + R| / |R| = " << scientific(mismatch_history.back())
                << " along the update (|du|inf = " << scientific(du.linfty_norm()) << ")" << std::endl;
          }
        if (problem.adjust)
          problem.adjust(u, du);
        // An update that moves a DoF further than Maximum update is shortened to it: where the
        // tangent is nearly singular (a contact point meeting a new face) the full update runs
        // off by far more than a cell, and halving it in the line search rarely suffices.
        if (control.max_update > 0)
          {
            const double largest = du.linfty_norm();
            if (largest > control.max_update)
              du *= control.max_update / largest;
          }
        // The terms may shorten it further (self-contact, theory.md eq. (70d)). Both shortenings
        // leave the three-field cell fields their whole update (scaling theirs too: 870 Newton
        // iterations instead of 731 in the main case).
        if (problem.update_fraction)
          if (const double fraction = problem.update_fraction(u, du); fraction < 1)
            du *= fraction;
        // With the residual converged, an update within its tolerance is the last: it is taken
        // whole, and the system at u + δu, which would only confirm convergence, is not assembled
        // (one assembly per time step saved; the converged state is the same).
        const bool last = residual_ok && du.l2_norm() <= update_tolerance;
        // An update this short is taken whole, and the problem is asked at the iterate whether it
        // changes there (contact's augmentations): if so, converging further on the problem as it
        // was would be wasted (eq. (68a)). The next iteration assembles at the iterate, as the
        // line search's full step would have.
        const bool settling =
          !settled && !last && evaluation.pending_increment == 0 && du.linfty_norm() <= problem.settle_length;
        const double alpha = last || settling ? 1.0 : line_search(problem, u, du, residual, evaluation, evaluated);
        u.add(alpha, du);
        if (problem.take_step)
          problem.take_step(alpha);
        ++n_updates;
        if (control.verbose)
          out << "    Newton " << it << ": |R| = " << scientific(r) << ", |du| = " << scientific(du.l2_norm())
              << ", line search " << alpha << ", linear iterations " << linear_iterations << std::endl;
        if (last)
          return true;
        if (settling)
          {
            settled = true;
            if (problem.settle(u))
              return true;
          }
      }
    return false;
  }

  double NewtonSolver::tangent_mismatch(const Problem &problem, const Vector &u, const Vector &du,
                                        const Vector &residual) const
  {
    // The update solves K δu = −R, so with the exact tangent the residual's derivative along it,
    // the cell fields moved along (try_step), is −R in its judged part (eq. (53)). Central
    // differences over a move of 6e-6 |u|∞ (|δu|∞ from u = 0): about the cube root of the
    // round-off, where their truncation and round-off errors balance, and independent of the
    // update's length (an update that runs off would carry the differences across a kink).
    const double largest = du.linfty_norm();
    if (!(largest > 0))
      return 0;
    const double scale = u.linfty_norm() > 0 ? u.linfty_norm() : largest;
    const double alpha = 6e-6 * scale / largest;
    const auto   judge = [&](const Vector &r, Vector &judged) {
      if (problem.judged_residual)
        problem.judged_residual(r, judged);
      else
        judged = r;
    };
    Vector judged(residual), slope(residual), trial(u), r(residual), judged_trial(residual);
    judge(residual, judged);
    slope   = 0;
    bool ok = true;
    for (const double sign : {1.0, -1.0})
      {
        trial = u;
        trial.add(sign * alpha, du);
        if (problem.try_step)
          problem.try_step(sign * alpha);
        ok = problem.residual(trial, r) && ok;
        judge(r, judged_trial);
        slope.add(sign / (2 * alpha), judged_trial);
      }
    // The state of the problem at u again (the line search reads what the last evaluation left).
    if (problem.try_step)
      problem.try_step(0);
    problem.residual(u, r);
    if (!ok)
      return std::numeric_limits<double>::quiet_NaN();
    slope += judged;
    return slope.l2_norm() / judged.l2_norm();
  }

  double NewtonSolver::line_search(const Problem &problem, const Vector &u, const Vector &du, Vector &residual,
                                   Evaluation &evaluation, bool &evaluated) const
  {
    // A step is accepted if it inverts no element and either the directional derivative of the
    // potential, g(α) = δu·R(u + α δu), has dropped (strong Wolfe, |g(α)| ≤ 0.9 |g(0)|) or |R|
    // has (Armijo, c = 1e-4). |R| alone is dominated by the second-order volume change that any
    // linearised step produces in nearly incompressible tissue and would reject good full Newton
    // steps; g is not. The step is halved otherwise (not while a prescribed displacement is being
    // applied); if no halving is accepted, the longest step that inverts nothing is taken. Without
    // line search an inversion is found at the next assembly and cuts the time step. The tests
    // judge the part of R the problem names (Problem::judged_residual: without the three-field
    // cell residuals, which Newton linearises exactly and K weighs; theory.md eq. (53)).
    // The full step is evaluated with its tangent: it is accepted in most iterations, and its
    // system is then the next iteration's (one assembly per iteration instead of two).
    const bool prescribing = evaluation.pending_increment > 0;
    Vector     judged      = residual, trial_residual;
    trial_residual.reinit(u);
    if (problem.judged_residual)
      problem.judged_residual(residual, judged);
    const double g0 = std::abs(du * judged), r0 = judged.l2_norm();
    double       alpha = 1.0, longest_admissible = 0.0;
    Evaluation   trial_evaluation;
    while (control.line_search || alpha == 1.0)
      {
        Vector trial = u;
        trial.add(alpha, du);
        const bool full = alpha == 1.0;
        if (problem.try_step)
          problem.try_step(alpha);
        const bool ok = full ? problem.system(trial, trial_residual, trial_evaluation.pending_increment,
                                              trial_evaluation.force_scale) :
                               problem.residual(trial, trial_residual);
        if (!control.line_search)
          {
            evaluated = ok;
            break;
          }
        if (ok && longest_admissible == 0.0)
          longest_admissible = alpha;
        judged = trial_residual;
        if (ok && problem.judged_residual)
          problem.judged_residual(trial_residual, judged);
        if (ok && (prescribing || std::abs(du * judged) <= 0.9 * g0 || judged.l2_norm() <= (1.0 - 1e-4 * alpha) * r0))
          {
            evaluated = full;
            break;
          }
        if (alpha <= std::ldexp(1.0, -int(control.line_search_steps)))
          return longest_admissible > 0 ? longest_admissible : alpha;
        alpha *= 0.5;
      }
    if (evaluated)
      {
        residual   = trial_residual;
        evaluation = trial_evaluation;
      }
    return alpha;
  }
} // namespace hydrostat
