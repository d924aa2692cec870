#pragma once

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/lac/trilinos_vector.h>

#include <hydrostat/integration/newton_control.h>

#include <functional>
#include <vector>

namespace hydrostat
{
  /**
   * The Newton–Raphson iteration with the convergence tests and the backtracking line search of
   * NewtonControl. It owns the iteration, not the problem: the residual, the tangent system and
   * its solution come from callbacks.
   */
  class NewtonSolver
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;

    struct Problem
    {
      /// R(u) and the tangent system at u; sets @p pending_increment to the largest prescribed
      /// displacement not yet applied in u (0 if none) and @p force_scale to the size of the
      /// forces that R balances at u [N]. False if an element inverts at u.
      std::function<bool(const Vector &u, Vector &residual, double &pending_increment, double &force_scale)> system;
      /// R(u) alone, with the constrained DoFs of the last system() (line search). False if an
      /// element inverts at u.
      std::function<bool(const Vector &u, Vector &residual)> residual;
      /// The Newton update δu of the last system(), constraints applied; returns the linear
      /// iterations. May throw LinearSolverFailure.
      std::function<unsigned int(Vector &du)> solve;
      /// Optional: the part of the R just evaluated that the line search judges (default: all of
      /// R). The three-field cell equations, which Newton linearises exactly and whose residual
      /// the bulk modulus weighs, are left out (see line_search()).
      std::function<void(const Vector &residual, Vector &judged)> judged_residual;
      /// Optional, for unknowns of the problem's own that follow δu (the three-field cell fields,
      /// CondensedFields): called with α before R is evaluated at u + α δu (line search) ...
      std::function<void(double alpha)> try_step;
      /// ... and with the α taken.
      std::function<void(double alpha)> take_step;
      /// Optional: inputs of R chosen along the iteration (the inverse run's activations, theory.md
      /// eq. (77)), called with the iterate u and its update δu solved with them fixed, before δu
      /// is shortened or searched; they may change and add their linearised effect to δu.
      std::function<void(const Vector &u, Vector &du)> adjust;
      /// Optional: the longest fraction of the update δu from u the problem admits (shortened to
      /// it before the line search).
      std::function<double(const Vector &u, const Vector &du)> update_fraction;
      /// Optional: called once per solve, at the first iterate reached by a whole update whose
      /// largest component is at most @p settle_length; true ends the solve there as converged
      /// (the problem has changed at that iterate, e.g. contact multipliers updated, and the
      /// caller solves again; theory.md eq. (68a)).
      std::function<bool(const Vector &u)> settle;
      double                               settle_length = 0;
    };

    NewtonSolver(const NewtonControl &control, const dealii::ConditionalOStream &out);

    /// Iterates from @p u (a predictor) and leaves the converged state in it. False (u then
    /// undefined) if it does not converge, an element inverts, R is not finite or the linear
    /// solver fails. The relative residual test is measured against the force scale of the
    /// iterate itself, never against residuals of earlier iterations or attempts: a diverged
    /// attempt must not loosen the test of the next one.
    bool solve(const Problem &problem, Vector &u);

    /// |R| of every iterate of the last solve() (the last update of a converged solve is not
    /// followed by an evaluation, see solve()).
    const std::vector<double> &residuals() const { return residual_history; }
    /// The Newton updates (linear solves) of the last solve().
    unsigned int iterations() const { return n_updates; }
    /// Linear iterations of the last linear solve.
    unsigned int last_linear_iterations() const { return linear_iterations; }
    /// Newton/Check tangent: |dR/dα + R| / |R| along each update of the last solve() (theory.md §10).
    const std::vector<double> &tangent_mismatches() const { return mismatch_history; }

  private:
    /// What system() reports besides R.
    struct Evaluation
    {
      double pending_increment = 0, force_scale = 0;
    };

    /// The step length α along @p du (NewtonControl). If the full step α = 1 is taken, its system
    /// is assembled: @p evaluated is then true and @p residual, @p evaluation are those at u + δu.
    double line_search(const Problem &problem, const Vector &u, const Vector &du, Vector &residual,
                       Evaluation &evaluation, bool &evaluated) const;

    /// |dR/dα + R| / |R| along @p du from @p u by central differences, R the judged part of
    /// @p residual (Newton/Check tangent); the problem's state is that at u again afterwards.
    double tangent_mismatch(const Problem &problem, const Vector &u, const Vector &du, const Vector &residual) const;

    NewtonControl                     control;
    const dealii::ConditionalOStream &out;
    std::vector<double>               residual_history;
    std::vector<double>               mismatch_history;
    unsigned int                      linear_iterations = 0;
    unsigned int                      n_updates         = 0;
  };
} // namespace hydrostat
