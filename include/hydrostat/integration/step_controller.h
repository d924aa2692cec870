#pragma once

#include <deal.II/lac/trilinos_vector.h>

#include <functional>
#include <vector>

namespace hydrostat
{
  class StepSolver;
  class State;

  /**
   * Inputs of the residual chosen while a step is solved (the inverse run's activations, theory.md
   * §16): StepSolver solves the step with the current inputs, asks update() for better ones at the
   * converged state and solves again from there until they no longer change.
   */
  class StepController
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;
    /// Replaces each right-hand side b by x = −K⁻¹ b, K the tangent of the current Newton iterate.
    using TangentSolve = std::function<void(std::vector<Vector> &columns)>;

    /// What update() decided.
    enum class Update
    {
      converged, ///< the inputs stay: the step is solved
      changed,   ///< new inputs, and @p u moved to their linearised solution: solve again from it
      failed     ///< no convergence within the allowed updates: cut the step back
    };

    virtual ~StepController() = default;

    /// The state at t = 0 is accepted (its inputs are the initial ones).
    virtual void start(const StepSolver &solver) = 0;
    /// Before the first solve of a step (again after a cut-back): the inputs to start from.
    virtual void start_step(const double t) = 0;
    /// In the first Newton solve of the step to time + @p dt, after the update @p du of the iterate
    /// @p u was solved with the current inputs: new inputs, their linearised effect added to @p du
    /// (through @p solve). True if they changed. Default: none.
    virtual bool adjust(StepSolver & /*solver*/, const Vector & /*u*/, Vector & /*du*/, const double /*dt*/,
                        const TangentSolve & /*solve*/)
    {
      return false;
    }
    /// After a converged solve of the step to time + @p dt at @p u.
    virtual Update update(StepSolver &solver, Vector &u, const double dt) = 0;
    /// The step is accepted.
    virtual void commit(const StepSolver &solver) = 0;
  };
} // namespace hydrostat
