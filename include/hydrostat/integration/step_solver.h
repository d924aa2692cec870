#pragma once

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/timer.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/trilinos_vector.h>

#include <hydrostat/assembly/assembler.h>
#include <hydrostat/assembly/dirichlet_constraints.h>
#include <hydrostat/assembly/energy_balance.h>
#include <hydrostat/base/space_time_function.h>
#include <hydrostat/fem/newmark.h>
#include <hydrostat/fem/state.h>
#include <hydrostat/integration/newton_control.h>
#include <hydrostat/integration/newton_solver.h>
#include <hydrostat/integration/step_controller.h>
#include <hydrostat/linalg/linear_solver.h>
#include <hydrostat/materials/tissue_materials.h>
#include <hydrostat/muscle/muscle_groups.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace hydrostat
{
  /// What a run is made of besides its mesh and terms: the tissues and muscle groups, the element,
  /// Newmark, Newton's and the step's controls, the linear solver and the Dirichlet constraints. A
  /// Simulation parses them; a test sets them in code.
  struct RunComponents
  {
    TissueMaterials      materials;
    MuscleGroups         muscles;
    Formulation          formulation;
    NewmarkIntegrator    newmark;
    NewtonControl        newton;
    TimeStepControl      stepping;
    LinearSolver         linear_solver;
    DirichletConstraints constraints;
  };

  /**
   * One time step of the run: Newton–Raphson (NewtonSolver) on the residual of the Assembler from
   * the Newmark predictor (theory.md eq. (51)), with the Dirichlet constraints of the step's end
   * and the linear solves of LinearSolver; a step that does not converge is cut back (TimeStepControl,
   * eq. (54)); a converged one becomes the accepted State (Newmark corrector, eqs. (45)–(47)), the
   * terms commit their history and the EnergyBalance books the step.
   */
  class StepSolver
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;

    /// Counts of the whole run (the part before a restart included), for run.json. factorizations:
    /// the tangents factorised (direct) or for which CG/GMRES built their preconditioner;
    /// augmentations: the solves again after a term updated its multipliers (contact, eq. (68));
    /// control_updates: the solves again after the StepController changed its inputs (eq. (74)).
    struct Statistics
    {
      std::uint64_t steps = 0, newton_iterations = 0, linear_iterations = 0, factorizations = 0, cut_backs = 0,
                    augmentations = 0, control_updates = 0;
    };

    StepSolver(Assembler &assembler, RunComponents &components, State &state, EnergyBalance &energy,
               dealii::TimerOutput &timer, const dealii::ConditionalOStream &out);

    /**
     * The discrete problem on the created mesh: the Assembler's DoFs and terms, the linear
     * solver's choice, the State's layout, the tangent's sparsity with the constraints of t = 0
     * (which must hold on the mesh), and Newton/Absolute residual = auto resolved (theory.md
     * eq. (52a)).
     */
    void setup();

    /// The state at t = 0: u = 0, v = @p initial_velocity and, in a dynamic run, the acceleration
    /// of M a0 = f_ext(0) − f_int(u0) − C v0 (theory.md eq. (50)); its energies.
    void start(const SpaceTimeFunction &initial_velocity);

    /// One time step of nominal size @p dt with cut-back: returns the step actually taken.
    double advance(const double dt);

    /// R(u) and, with @p tangent, K of the step from the accepted state to time + @p dt, with the
    /// constrained rows of the step's constraints (homogeneous). False if an element inverts.
    bool evaluate(const Vector &u, const double dt, Vector &residual, dealii::TrilinosWrappers::SparseMatrix *tangent);

    /// ∂R/∂c at @p u of the step to time + @p dt for the controls of muscle groups in @p columns,
    /// column k into @p derivatives[k] (constrained rows zero; Assembler::assemble_control_derivatives()).
    void control_derivatives(const Vector &u, const double dt, const ControlColumns &columns,
                             std::vector<Vector> &derivatives);
    /**
     * The sensitivities of the step's solution to parameters of the residual (theory.md eq. (73)):
     * each of @p derivatives, ∂R/∂p at the converged @p u of the step to time + @p dt (constrained
     * rows zero), becomes du/dp = −K⁻¹ ∂R/∂p, with K the tangent at @p u factorised once.
     */
    void sensitivities(const Vector &u, const double dt, std::vector<Vector> &derivatives);

    /// @p controller chooses inputs of the residual within each step (null: none).
    void set_controller(StepController *controller) { step_controller = controller; }

    const NewtonSolver &newton() const { return *newton_solver; }
    /// Newton's tolerances (Absolute residual resolved by setup()).
    const NewtonControl             &newton_control() const { return control; }
    Statistics                      &statistics() { return counts; }
    const State                     &state() const { return accepted; }
    const Assembler                 &assembler() const { return problem; }
    bool                             dynamic() const { return newmark.dynamic(); }
    const EnergyBalance::Quantities &energy_balance() const { return energy.quantities(); }

  private:
    /// What an evaluation of the step to time + @p dt evaluates.
    Step step_to(const double dt) const;
    /// How a Newton solve ended.
    enum class Solve
    {
      failed,
      converged,
      augmented // a term updated its multipliers at an iterate near convergence (eq. (68a))
    };
    /// Newton for the step to time + @p dt: the converged u₊ (or the iterate where a term
    /// augmented) in @p u. It starts from the Newmark predictor, or from @p u if @p from_u (a solve
    /// again after an augmentation). Without @p fresh_factorization the linear solver's current
    /// factorisation or preconditioner is kept for its first solves.
    Solve newton_solve(const double dt, Vector &u, const bool from_u = false, const bool fresh_factorization = true);
    /// Term::augment() of every term at @p u (ghosted); true if one asks for the step again.
    bool augment(const Vector &u, const double dt);
    /// Newton, and again while a term updates its multipliers at the converged u₊ (eq. (68)) or
    /// the StepController its inputs (eq. (74)).
    bool solve_augmented(const double dt, Vector &u);
    /// The constraints of a correction of the step to time + @p dt at @p u, in @p homogeneous.
    void constraints_at(const Vector &u, const double dt, dealii::AffineConstraints<double> &homogeneous) const;
    /// The residual (and, if @p tangent, the tangent) of the step to time + @p dt at @p u, with the
    /// constraints of a correction there in @p homogeneous; false if J ≤ 0 somewhere.
    bool assemble_at(const Vector &u, const double dt, Vector &residual,
                     dealii::TrilinosWrappers::SparseMatrix *tangent, dealii::AffineConstraints<double> &homogeneous);
    /// Replaces each of @p columns, b, by x = −K⁻¹ b with the current tangent and factorisation,
    /// @p homogeneous distributed.
    void solve_tangent(const dealii::AffineConstraints<double> &homogeneous, std::vector<Vector> &columns);
    /// Makes u₊ = @p u_new the accepted state at time + dt.
    void accept(const double dt, const Vector &u_new);

    Assembler                        &problem;
    const DirichletConstraints       &constraints;
    LinearSolver                     &linear_solver;
    const NewmarkIntegrator          &newmark;
    TimeStepControl                  &stepping;
    State                            &accepted;
    EnergyBalance                    &energy;
    dealii::TimerOutput              &timer;
    const dealii::ConditionalOStream &out;
    NewtonControl                     control;
    std::unique_ptr<NewtonSolver>     newton_solver;
    Statistics                        counts;
    StepController                   *step_controller = nullptr;
    bool                              controls_failed = false; // the last solve_augmented(): the controller gave up
  };
} // namespace hydrostat
