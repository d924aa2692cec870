// One time step: Newton–Raphson with line search from the Newmark predictor, cut-back, Newmark
// corrector, the terms' history and the energy balance.
#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/numerics/vector_tools.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/integration/step_solver.h>
#include <hydrostat/io/progress.h>

#include <cmath>
#include <iomanip>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  StepSolver::StepSolver(Assembler &assembler, RunComponents &components, State &state, EnergyBalance &energy,
                         TimerOutput &timer, const ConditionalOStream &out)
    : problem(assembler)
    , constraints(components.constraints)
    , linear_solver(components.linear_solver)
    , newmark(components.newmark)
    , stepping(components.stepping)
    , accepted(state)
    , energy(energy)
    , timer(timer)
    , out(out)
    , control(components.newton)
    , newton_solver(std::make_unique<NewtonSolver>(components.newton, out))
  {}

  void StepSolver::setup()
  {
    problem.distribute_dofs();
    const DoFHandler<3> &dof_handler = problem.dof_handler();
    linear_solver.choose(dof_handler.n_dofs(), problem.formulation().type == Formulation::Type::three_field);
    accepted.reinit(problem.owned_dofs(), problem.relevant_dofs(), problem.comm());
    AffineConstraints<double> zero_constraints, unused;
    constraints.make(dof_handler, problem.relevant_dofs(), accepted.u_ghosted(), 0.0, zero_constraints, unused);
    problem.setup_system(zero_constraints, linear_solver.block_preconditioner(), control.iterate_cell_fields);
    if (control.automatic_absolute_residual)
      {
        control.residual_absolute =
          round_off_residual(dof_handler.get_triangulation(), problem.materials(), problem.comm());
        newton_solver = std::make_unique<NewtonSolver>(control, out);
      }
    constraints.check(dof_handler);
  }

  Step StepSolver::step_to(const double dt) const { return {accepted.time() + dt, dt, newmark.coefficients(dt)}; }

  void StepSolver::start(const SpaceTimeFunction &initial_velocity)
  {
    const DoFHandler<3> &dof_handler = problem.dof_handler();
    Vector               u = accepted.owned_vector(), v = accepted.owned_vector(), a = accepted.owned_vector();
    VectorTools::interpolate(MappingQ1<3>(), dof_handler, FunctionAtTime(initial_velocity, 0.0), v);
    accepted.accept(0.0, u, v, a);
    if (newmark.dynamic())
      {
        // M a0 = f_ext(0) − f_int(u0) − C v0 (theory.md eq. (50)): the residual of the accepted
        // state with a = 0, v = v0; accelerations of constrained DoFs are taken as zero.
        AffineConstraints<double> inhomogeneous, homogeneous;
        constraints.make(dof_handler, problem.relevant_dofs(), accepted.u_ghosted(), 0.0, inhomogeneous, homogeneous);
        Vector residual = accepted.owned_vector();
        require(
          problem.assemble(Step::accepted(0.0), u, accepted, residual, nullptr, nullptr, homogeneous, homogeneous),
          "The initial mesh has an element with J <= 0: check the mesh file or Mesh parameters.");
        problem.assemble_mass_matrix(problem.tangent(), homogeneous);
        residual *= -1.0;
        for (const auto i : problem.massless_dofs())
          if (residual.in_local_range(i))
            residual[i] = 0;
        residual.compress(VectorOperation::insert);
        linear_solver.solve(problem.tangent(), a, residual, dof_handler, &timer);
        homogeneous.distribute(a);
        problem.follow_mass_carriers(a); // massless DoFs start as the tissue behind them (eq. (72))
        accepted.accept(0.0, u, v, a);
      }
    energy.start(problem, accepted);
    if (step_controller)
      step_controller->start(*this);
  }

  void StepSolver::constraints_at(const Vector &u, const double dt, AffineConstraints<double> &homogeneous) const
  {
    Vector u_ghost = accepted.ghosted_vector();
    u_ghost        = u;
    AffineConstraints<double> inhomogeneous;
    constraints.make(problem.dof_handler(), problem.relevant_dofs(), u_ghost, accepted.time() + dt, inhomogeneous,
                     homogeneous);
  }

  bool StepSolver::assemble_at(const Vector &u, const double dt, Vector &residual,
                               TrilinosWrappers::SparseMatrix *tangent, AffineConstraints<double> &homogeneous)
  {
    constraints_at(u, dt, homogeneous);
    Vector rhs = accepted.owned_vector();
    return problem.assemble(step_to(dt), u, accepted, residual, tangent, tangent ? &rhs : nullptr, homogeneous,
                            homogeneous);
  }

  bool StepSolver::evaluate(const Vector &u, const double dt, Vector &residual, TrilinosWrappers::SparseMatrix *tangent)
  {
    AffineConstraints<double> homogeneous;
    return assemble_at(u, dt, residual, tangent, homogeneous);
  }

  void StepSolver::control_derivatives(const Vector &u, const double dt, const ControlColumns &columns,
                                       std::vector<Vector> &derivatives)
  {
    AffineConstraints<double> homogeneous;
    constraints_at(u, dt, homogeneous);
    problem.assemble_control_derivatives(step_to(dt), u, accepted, columns, derivatives, homogeneous);
  }

  void StepSolver::sensitivities(const Vector &u, const double dt, std::vector<Vector> &derivatives)
  {
    AffineConstraints<double> homogeneous;
    Vector                    residual = accepted.owned_vector();
    AssertThrow(assemble_at(u, dt, residual, &problem.tangent(), homogeneous),
                ExcMessage("The tangent of the sensitivities is evaluated at a converged state with J <= 0."));
    linear_solver.renew_factorization();
    solve_tangent(homogeneous, derivatives);
  }

  void StepSolver::solve_tangent(const AffineConstraints<double> &homogeneous, std::vector<Vector> &columns)
  {
    for (Vector &column : columns)
      {
        Vector x = accepted.owned_vector();
        column *= -1.0;
        const LinearSolver::Statistics statistics =
          linear_solver.solve(problem.tangent(), x, column, problem.dof_handler(), &timer, problem.pressure_blocks());
        homogeneous.distribute(x);
        counts.linear_iterations += statistics.iterations;
        counts.factorizations += statistics.factorised;
        column = x;
      }
  }

  StepSolver::Solve StepSolver::newton_solve(const double dt, Vector &u, const bool from_u,
                                             const bool fresh_factorization)
  {
    // Newton starts from the Newmark predictor: starting from u_n instead makes the first Newton
    // step linearise every rotation of the step, which in bending of nearly incompressible tissue
    // produces a large spurious volume change.
    const dealii::DoFHandler<3> &dof_handler = problem.dof_handler();
    CondensedFields             &cell_fields = problem.condensed_fields();
    if (!from_u)
      {
        // Newton starts from u_n where the predictor would carry surfaces into each other (eq. (70c)).
        u = accepted.owned_vector();
        if (dt <= problem.predictor_horizon(accepted))
          newmark.predict(accepted.u(), accepted.v(), accepted.a(), dt, u);
        else
          u = accepted.u();
        // Massless DoFs (eq. (72)) move as the DoFs that carry their mass: their own trapezoidal
        // velocity alternates in sign after an impact.
        problem.follow_mass_carriers(u, &accepted.u_ghosted());
      }

    // Couplings that follow the state (self-contact pairs) from where Newton starts.
    problem.update_couplings(u, [&]() { linear_solver.release_factorization(); });

    Vector                    u_ghost = accepted.ghosted_vector(), rhs = accepted.owned_vector();
    AffineConstraints<double> inhomogeneous, homogeneous;
    NewtonSolver::Problem     newton_problem;
    newton_problem.system = [&](const Vector &u_trial, Vector &residual, double &pending_increment, double &scale) {
      u_ghost = u_trial;
      constraints.make(dof_handler, problem.relevant_dofs(), u_ghost, accepted.time() + dt, inhomogeneous, homogeneous);
      pending_increment = 0;
      for (const auto &line : inhomogeneous.get_lines())
        pending_increment = std::max(pending_increment, std::abs(line.inhomogeneity));
      pending_increment = Utilities::MPI::max(pending_increment, problem.comm());
      const bool ok     = problem.assemble(step_to(dt), u_trial, accepted, residual, &problem.tangent(), &rhs,
                                           inhomogeneous, homogeneous);
      scale             = problem.force_scale();
      return ok;
    };
    newton_problem.residual = [&](const Vector &u_trial, Vector &residual) {
      return problem.assemble(step_to(dt), u_trial, accepted, residual, nullptr, nullptr, homogeneous, homogeneous);
    };
    newton_problem.solve = [&](Vector &du) {
      const LinearSolver::Statistics statistics =
        linear_solver.solve(problem.tangent(), du, rhs, dof_handler, &timer, problem.pressure_blocks());
      inhomogeneous.distribute(du);
      if (cell_fields.follows_updates())
        {
          u_ghost = du;
          cell_fields.set_increment(dof_handler, u_ghost);
        }
      counts.linear_iterations += statistics.iterations;
      counts.factorizations += statistics.factorised;
      return statistics.iterations;
    };
    if (cell_fields.follows_updates())
      newton_problem.judged_residual = [&](const Vector &residual, Vector &judged) {
        judged = residual;
        judged -= problem.cell_constraint_residual();
      };
    // The controller's inputs along the first solve of the step (theory.md eq. (77)); the cell
    // fields follow the whole update.
    if (step_controller && !from_u)
      newton_problem.adjust = [&](const Vector &u_iterate, Vector &du) {
        const StepController::TangentSolve solve = [&](std::vector<Vector> &columns) {
          solve_tangent(homogeneous, columns);
        };
        if (step_controller->adjust(*this, u_iterate, du, dt, solve) && cell_fields.follows_updates())
          {
            u_ghost = du;
            cell_fields.set_increment(dof_handler, u_ghost);
          }
      };
    // The terms shorten updates that would carry surfaces into each other (eq. (70d)).
    Vector du_ghost                = accepted.ghosted_vector();
    newton_problem.update_fraction = [&](const Vector &u_iterate, const Vector &du) {
      u_ghost  = u_iterate;
      du_ghost = du;
      return problem.update_fraction(u_ghost, du_ghost);
    };
    // The terms' augmentations near convergence (eq. (68a)).
    bool augmented = false;
    if (const double resolution = problem.augmentation_resolution(); std::isfinite(resolution))
      {
        newton_problem.settle_length = resolution;
        newton_problem.settle        = [&](const Vector &u_iterate) { return augmented = augment(u_iterate, dt); };
      }
    newton_problem.try_step  = [&](const double alpha) { cell_fields.try_step(alpha); };
    newton_problem.take_step = [&](const double alpha) { cell_fields.take_step(alpha); };
    cell_fields.start();
    if (fresh_factorization)
      linear_solver.renew_factorization();
    bool converged = newton_solver->solve(newton_problem, u);
    // A predictor that inverts an element (the extrapolation overshoots where the motion turns)
    // is not a reason to cut the step: start again from the accepted accepted.
    if (!converged && newton_solver->residuals().empty() && !from_u)
      {
        u = accepted.u();
        cell_fields.start();
        linear_solver.renew_factorization();
        converged = newton_solver->solve(newton_problem, u);
      }
    if (converged)
      cell_fields.accept();
    cell_fields.project(); // evaluations outside Newton project
    return !converged ? Solve::failed : augmented ? Solve::augmented : Solve::converged;
  }

  bool StepSolver::augment(const Vector &u, const double dt)
  {
    Vector u_ghost = accepted.ghosted_vector();
    u_ghost        = u;
    bool augmented = false;
    for (const auto &term : problem.terms())
      augmented = term->augment(u_ghost, step_to(dt)) || augmented;
    return augmented;
  }

  double StepSolver::advance(const double dt_nominal)
  {
    double dt = dt_nominal;
    while (true)
      {
        Vector                     u_new;
        const bool                 converged        = solve_augmented(dt, u_new);
        const std::vector<double> &newton_residuals = newton_solver->residuals();
        if (converged)
          {
            accept(dt, u_new);
            ++counts.steps;
            return dt;
          }
        if (!newton_residuals.empty() && !std::isfinite(newton_residuals.front()))
          {
            // Not finite where Newton starts, from a finite state: an input or a law gives NaN or
            // inf, which no smaller step mends.
            const std::string start =
              "The residual at the start of the step to t = " + scientific(accepted.time() + dt) + " s is not finite: ";
            const std::string  advice = ". A smaller time step does not mend that: check the inputs of that term there "
                                        "(expressions of x, y, z, t, constants of its law).";
            const std::string &origin = problem.non_finite_origin();
            require_on_all_ranks(origin.empty() ? "" : start + origin + advice, problem.comm());
            throw InputError(start +
                             "no cell term is, so it comes from a term of the whole system (contact, "
                             "muscle-tendon units)" +
                             advice);
          }
        // What failed: Newton, or (after Newton converged) the inverse run's activations.
        const std::string failed  = controls_failed ? "The inverse run's activations did not settle (parameter "
                                                      "'Inverse/Maximum updates')" :
                                                      "Newton did not converge";
        const std::string advice  = controls_failed ? "Check that the targets are within reach of the controlled "
                                                      "groups, or give Inverse/Change weight > 0." :
                                                      "Try a smaller Time step, a finer mesh, or check loads and "
                                                      "constraints.";
        const double      reduced = dt * stepping.cut_back;
        const std::string residuals =
          ". Last residuals: " + (newton_residuals.empty() ? std::string("none") :
                                                             scientific(newton_residuals.front()) + " ... " +
                                                               scientific(newton_residuals.back()));
        AssertThrow(stepping.max_cut_backs < 0 || counts.cut_backs < std::uint64_t(stepping.max_cut_backs),
                    ExcMessage(failed + " at t = " + scientific(accepted.time() + dt) +
                               " s with dt = " + scientific(dt) + " s, after " + std::to_string(counts.cut_backs) +
                               " cut-backs of the step, all that parameter 'Time stepping/Maximum cut-backs' allows" +
                               residuals + "."));
        AssertThrow(reduced >= stepping.minimum_step * (1 - 1e-12),
                    ExcMessage(failed + " at t = " + scientific(accepted.time() + dt) +
                               " s even with the time step cut to " + scientific(dt) +
                               " s (parameter 'Time stepping/Minimum time step' = " +
                               scientific(stepping.minimum_step) + ")" + residuals + ". " + advice));
        out << "  step cut back: dt " << scientific(dt, 2) << " -> " << scientific(reduced, 2) << " s ("
            << (newton_residuals.empty() ? "" : "residual " + scientific(newton_residuals.back(), 2) + ", ")
            << newton_residuals.size() << " iterations)" << std::endl;
        stepping.record_cut_back(dt);
        for (const auto &term : problem.terms())
          term->retry_step();
        dt = reduced;
        ++counts.cut_backs;
      }
  }

  bool StepSolver::solve_augmented(const double dt, Vector &u)
  {
    controls_failed = false;
    if (step_controller)
      step_controller->start_step(accepted.time() + dt);
    Solve solve = newton_solve(dt, u);
    counts.newton_iterations += newton_solver->iterations();
    while (solve != Solve::failed)
      {
        const bool augmented = solve == Solve::augmented || augment(u, dt);
        if (augmented)
          ++counts.augmentations;
        else
          {
            // The contact multipliers are settled: the controller's inputs next (eq. (74)).
            const auto update =
              step_controller ? step_controller->update(*this, u, dt) : StepController::Update::converged;
            if (update == StepController::Update::converged)
              {
                for (const auto &term : problem.terms())
                  if (const std::string why = term->unsettled(); !why.empty())
                    out << "  warning: t = " << scientific(accepted.time() + dt) << " s: " << term->name()
                        << " not settled: " << why << std::endl;
                break;
              }
            if (update == StepController::Update::failed)
              {
                controls_failed = true;
                return false;
              }
            ++counts.control_updates;
          }
        // After a controller's update the factorisation of its sensitivities (at the converged
        // state of the previous activations) preconditions the first solves.
        solve = newton_solve(dt, u, true, augmented);
        counts.newton_iterations += newton_solver->iterations();
      }
    return solve != Solve::failed;
  }

  void StepSolver::accept(const double dt, const Vector &u_new)
  {
    // v₊, a₊ from u₊ = u_new and the previous state.
    Vector v_new = accepted.owned_vector(), a_new = accepted.owned_vector();
    newmark.correct(accepted.u(), accepted.v(), accepted.a(), u_new, dt, v_new, a_new);
    Vector du = u_new;
    du -= accepted.u();
    accepted.accept(accepted.time() + dt, u_new, v_new, a_new);
    for (const auto &term : problem.terms())
      term->commit(accepted, dt);
    energy.step(problem, accepted, du, dt);
    if (step_controller)
      step_controller->commit(*this);
  }
} // namespace hydrostat
