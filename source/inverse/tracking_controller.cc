#include <deal.II/lac/lapack_full_matrix.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/integration/step_solver.h>
#include <hydrostat/inverse/box_qp.h>
#include <hydrostat/inverse/tracking_controller.h>
#include <hydrostat/io/progress.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>

namespace hydrostat
{
  using namespace dealii;

  void TrackingController::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Inverse");
    prm.declare_entry("Enabled", "false", Patterns::Bool(),
                      "Choose the activations of the muscle groups with Activation/Source = controlled in every "
                      "step so that the Markers follow their targets (theory.md §16).");
    MarkerTargets::declare_parameters(prm);
    prm.declare_entry("Activation weight", "0", Patterns::Double(0.0),
                      "w_a [m^2]: the squared marker error that a squared activation of 1 is worth (theory.md eq. "
                      "(75)); > 0 when the markers do not determine every activation.");
    prm.declare_entry("Change weight", "0", Patterns::Double(0.0),
                      "w_c [m^2]: the same for the change of an activation over a step (smooths the time course).");
    prm.declare_entry("Tolerance", "1e-6", Patterns::Double(0.0),
                      "A step's activations are converged when an update changes none by more than this.");
    prm.declare_entry("Objective tolerance", "1e-6", Patterns::Double(0.0),
                      "... or when an update promises to lower the objective (theory.md eq. (75)) by less than this "
                      "fraction of it: activations that the markers hardly determine need not settle.");
    prm.declare_entry("Maximum updates", "20", Patterns::Integer(1),
                      "Updates of the activations per step; a step that needs more is cut back.");
    prm.leave_subsection();
  }

  TrackingController::Parameters TrackingController::parse_parameters(ParameterHandler   &prm,
                                                                      const MuscleGroups &muscles)
  {
    Parameters p;
    prm.enter_subsection("Inverse");
    p.enabled = prm.get_bool("Enabled");
    if (p.enabled)
      p.targets.parse_parameters(prm, "Inverse");
    p.activation_weight   = prm.get_double("Activation weight");
    p.change_weight       = prm.get_double("Change weight");
    p.tolerance           = prm.get_double("Tolerance");
    p.objective_tolerance = prm.get_double("Objective tolerance");
    p.max_updates         = prm.get_integer("Maximum updates");
    prm.leave_subsection();
    bool any = false;
    for (unsigned int g = 0; g < muscles.n_groups(); ++g)
      {
        require(p.enabled || !muscles.controlled(g),
                "Parameter 'Muscles/Group " + std::to_string(g + 1) +
                  "/Activation/Source' = controlled: its activation is chosen by an inverse run, set "
                  "'Inverse/Enabled' = true (with Markers and targets), or choose another source.");
        any = any || muscles.controlled(g);
      }
    require(!p.enabled || any, "Parameter 'Inverse/Enabled' = true, but no muscle group has 'Activation/Source' = "
                               "controlled: set it for the groups whose activation the inverse run chooses.");
    return p;
  }

  TrackingController::TrackingController(Parameters controls, MuscleGroups &muscles, const std::string &csv_path,
                                         MPI_Comm comm, const ConditionalOStream &out)
    : parameters(std::move(controls))
    , muscles(muscles)
    , path(csv_path)
    , comm(comm)
    , out(out)
  {
    columns.resize(muscles.n_groups());
    for (unsigned int g = 0; g < muscles.n_groups(); ++g)
      {
        columns[g].assign(muscles.n_controls(g), numbers::invalid_unsigned_int);
        if (muscles.controlled(g))
          for (unsigned int k = 0; k < muscles.n_controls(g); ++k)
            {
              columns[g][k] = exciters.size();
              exciters.push_back({g, k});
            }
      }
    accepted.assign(exciters.size(), 0.0);
    current = accepted;
    rates.assign(exciters.size(), 0.0);
    previous_rates = rates;
    apply(current);
  }

  std::string TrackingController::report() const
  {
    std::ostringstream text;
    text << "Inverse: activations of";
    for (const Control &c : exciters)
      text << " '" << muscles.control_name(c.group, c.node) << "'";
    text << " follow " << parameters.targets.components().size() << " marker components of "
         << parameters.targets.markers().size() << " markers (weights: activation "
         << shortest_text(parameters.activation_weight) << " m^2, change " << shortest_text(parameters.change_weight)
         << " m^2; tolerance " << shortest_text(parameters.tolerance) << ")";
    if (parameters.targets.components().size() < exciters.size())
      text << "; fewer components than activations: the minimum-norm ones of the weighted problem";
    return text.str();
  }

  std::string TrackingController::summary() const
  {
    std::ostringstream text;
    text << "Inverse: " << total_updates << " updates of the activations in " << steps << " steps ("
         << std::setprecision(3) << (steps ? double(total_updates) / steps : 0.0) << " per step), largest marker error "
         << scientific(largest_error, 3) << " m";
    if (redundant_steps > 0)
      text << "; in " << redundant_steps << " steps the markers determined fewer activations than there are";
    text << "; activations: " << path;
    return text.str();
  }

  void TrackingController::apply(const std::vector<double> &a)
  {
    for (unsigned int k = 0; k < exciters.size(); ++k)
      muscles.set_control(exciters[k].group, exciters[k].node, a[k]);
  }

  std::vector<double> TrackingController::errors(const Vector &u_ghosted, const double t) const
  {
    const auto          u      = probes->values(u_ghosted);
    const auto          target = parameters.targets.at(t);
    const auto         &comps  = parameters.targets.components();
    std::vector<double> e(comps.size());
    for (unsigned int i = 0; i < comps.size(); ++i)
      e[i] = u[comps[i].marker][comps[i].direction] - target[i];
    return e;
  }

  std::vector<double> TrackingController::row(const double t)
  {
    const unsigned int  n_markers = parameters.targets.markers().size();
    std::vector<double> values{t}, marker_error(n_markers, 0.0);
    values.insert(values.end(), accepted.begin(), accepted.end());
    for (unsigned int i = 0; i < error.size(); ++i)
      marker_error[parameters.targets.components()[i].marker] += error[i] * error[i];
    for (const double squared : marker_error)
      {
        values.push_back(std::sqrt(squared));
        largest_error = std::max(largest_error, std::sqrt(squared));
      }
    values.push_back(updates + adjustments);
    return values;
  }

  void TrackingController::write(const std::vector<double> &values)
  {
    if (!csv) // with the first step: a --check writes nothing
      {
        std::vector<std::string> columns{"time"};
        for (const Control &c : exciters)
          columns.push_back(muscles.control_name(c.group, c.node));
        for (unsigned int m = 0; m < parameters.targets.markers().size(); ++m)
          columns.push_back("error_" + std::to_string(m));
        columns.push_back("updates");
        csv = std::make_unique<CsvSeries>(path, columns, comm);
        csv->write_row(initial_row);
      }
    csv->write_row(values);
  }

  void TrackingController::start(const StepSolver &solver)
  {
    probes =
      std::make_unique<PointProbes>(solver.assembler().dof_handler(), parameters.targets.markers(), "Inverse/Markers");
    error         = errors(solver.state().u_ghosted(), solver.state().time());
    initial_row   = row(solver.state().time());
    accepted_time = solver.state().time();
  }

  void TrackingController::start_step(const double t)
  {
    // The step starts from the activations extrapolated with the smaller of the last two steps'
    // rates, and with none where they differ in sign (minmod, the limiter of TVD schemes: a
    // zig-zag of the activations is not amplified). Along a smooth time course the first update
    // is then of second order in the step, and the step again from it short.
    const double dt = t - accepted_time;
    for (unsigned int k = 0; k < exciters.size(); ++k)
      {
        const double slope = rates[k] * previous_rates[k] <= 0                ? 0.0 :
                             std::abs(rates[k]) < std::abs(previous_rates[k]) ? rates[k] :
                                                                                previous_rates[k];
        current[k]         = std::clamp(accepted[k] + dt * slope, 0.0, 1.0);
      }
    apply(current);
    updates     = 0;
    radius      = 1;
    iterations  = 0;
    adjustments = 0;
    adjusting   = false;
    // A step cut back (its first solve failed, or its activations did not settle) is solved again
    // without updates within Newton, as are its parts until one is accepted.
    stopped       = !accepted_last;
    accepted_last = false;
    ranked        = false;
  }

  bool TrackingController::adjust(StepSolver &solver, const Vector &u, Vector &du, const double dt,
                                  const TangentSolve &solve)
  {
    // From the second iteration of the step's first Newton solve on, when the iterate is near the
    // step's solution, the update (75) for the markers that the Newton update predicts, taken
    // together with it (eq. (77)). The sensitivities come from the iterate's tangent (eq. (73)),
    // again whenever the activations changed by more than 10 Tolerance since they were computed,
    // so that the last update is planned with those of nearly the converged activations. The
    // updates stop when one settles or is not half the one before; the converged solve then
    // goes to update().
    const State &state = solver.state();
    if (++iterations < 2 || stopped)
      return false;
    if (!adjusting || drift > 10 * parameters.tolerance)
      {
        sensitivities(solver, u, dt, solve);
        adjusting = true;
        drift     = 0;
      }
    Vector predicted = u, predicted_ghosted = state.ghosted_vector();
    predicted += du;
    predicted_ghosted           = predicted;
    const std::vector<double> e = errors(predicted_ghosted, state.time() + dt);
    const Plan                p = plan(e);
    if (settled(p, objective(e, current)) || (adjustments > 0 && p.largest > 0.5 * adjusted))
      {
        stopped = true;
        return false;
      }
    for (unsigned int k = 0; k < exciters.size(); ++k)
      {
        current[k] = std::clamp(current[k] + p.delta[k], 0.0, 1.0);
        du.add(p.delta[k], model.du[k]);
      }
    apply(current);
    adjusted = p.largest;
    drift += p.largest;
    ++adjustments;
    return true;
  }

  double TrackingController::objective(const std::vector<double> &e, const std::vector<double> &a) const
  {
    double J = 0;
    for (const double ec : e)
      J += 0.5 * ec * ec;
    for (unsigned int k = 0; k < a.size(); ++k)
      J += 0.5 * (parameters.activation_weight * a[k] * a[k] +
                  parameters.change_weight * (a[k] - accepted[k]) * (a[k] - accepted[k]));
    return J;
  }

  void TrackingController::linearise(StepSolver &solver, const Vector &u, const double dt)
  {
    model.u         = u;
    model.a         = current;
    model.error     = error;
    model.objective = objective(error, current);
    sensitivities(solver, u, dt, [&](std::vector<Vector> &derivatives) { solver.sensitivities(u, dt, derivatives); });
  }

  void TrackingController::sensitivities(StepSolver &solver, const Vector &u, const double dt,
                                         const TangentSolve &solve)
  {
    const State       &state = solver.state();
    const double       t     = state.time() + dt;
    const unsigned int n = exciters.size(), m = parameters.targets.components().size();
    // ∂R/∂a_k of all exciters in one pass over the cells (eq. (74)), then the sensitivities (73).
    model.du.assign(n, state.owned_vector());
    solver.control_derivatives(u, dt, columns, model.du);
    solve(model.du);
    // S_ck = ∂u_c/∂a_k of the targeted components (eq. (73)).
    model.S.reinit(m, n);
    Vector u_ghosted = state.ghosted_vector();
    for (unsigned int k = 0; k < n; ++k)
      {
        u_ghosted        = model.du[k];
        const auto value = probes->values(u_ghosted);
        for (unsigned int c = 0; c < m; ++c)
          model.S(c, k) =
            value[parameters.targets.components()[c].marker][parameters.targets.components()[c].direction];
      }

    // Whether the markers determine every activation: the rank of S.
    LAPACKFullMatrix<double> S(m, n);
    S = model.S;
    S.compute_svd();
    unsigned int rank = 0;
    for (unsigned int k = 0; k < std::min(m, n); ++k)
      rank += S.singular_value(k) > 1e-8 * S.singular_value(0);
    if (rank < n && !ranked)
      {
        require(parameters.activation_weight + parameters.change_weight > 0,
                "Parameter 'Inverse/Activation weight' = 0, but at t = " + scientific(t) + " s the " +
                  std::to_string(m) + " marker components determine only " + std::to_string(rank) + " of the " +
                  std::to_string(n) +
                  " activations: give a weight > 0 (e.g. 1e-12 m^2) for the minimum-norm activations.");
        if (redundant_steps++ == 0)
          out << "Inverse: at t = " << scientific(t) << " s the " << m << " marker components determine only " << rank
              << " of the " << n << " activations: they are the minimum-norm ones of the weighted problem" << std::endl;
      }
    ranked = true;
  }

  TrackingController::Plan TrackingController::plan(const std::vector<double> &e) const
  {
    // The box QP of eq. (75) in the update δ: ½|e + Sδ|² + ½w_a|a + δ|² + ½w_c|a + δ − a_n|², |δ_k| ≤ radius.
    const unsigned int  n = exciters.size(), m = e.size();
    FullMatrix<double>  H(n, n);
    std::vector<double> g(n), lower(n), upper(n);
    for (unsigned int k = 0; k < n; ++k)
      {
        for (unsigned int j = 0; j < n; ++j)
          for (unsigned int c = 0; c < m; ++c)
            H(k, j) += model.S(c, k) * model.S(c, j);
        H(k, k) += parameters.activation_weight + parameters.change_weight;
        for (unsigned int c = 0; c < m; ++c)
          g[k] += model.S(c, k) * e[c];
        g[k] += parameters.activation_weight * current[k] + parameters.change_weight * (current[k] - accepted[k]);
        lower[k] = std::max(-current[k], -radius);
        upper[k] = std::min(1 - current[k], radius);
      }
    Plan p;
    p.delta = minimise_on_box(H, g, lower, upper);
    // The objective's decrease that the update promises: −(gᵀδ + ½δᵀHδ).
    for (unsigned int k = 0; k < n; ++k)
      {
        p.largest = std::max(p.largest, std::abs(p.delta[k]));
        p.promised -= g[k] * p.delta[k];
        for (unsigned int j = 0; j < n; ++j)
          p.promised -= 0.5 * p.delta[k] * H(k, j) * p.delta[j];
      }
    return p;
  }

  bool TrackingController::settled(const Plan &p, const double J) const
  {
    return p.largest <= parameters.tolerance || p.promised <= parameters.objective_tolerance * J;
  }

  StepController::Update TrackingController::update(StepSolver &solver, Vector &u, const double dt)
  {
    const unsigned int n         = exciters.size();
    Vector             u_ghosted = solver.state().ghosted_vector();
    u_ghosted                    = u;
    error                        = errors(u_ghosted, solver.state().time() + dt);
    // An update that did not lower the objective (75) went farther than its linearisation holds
    // (a target out of reach, activations at their bounds): from that linearisation again with a
    // quarter of the step as the trust radius. One that did lowers it lets the radius grow again.
    const bool rejected = updates > 0 && objective(error, current) > model.objective;
    if (rejected)
      {
        radius  = 0.25 * model.step;
        current = model.a;
        error   = model.error;
      }
    else
      {
        // The first solve's sensitivities (eq. (77)) judge its converged state as the last ones do
        // a re-solved one.
        if (updates == 0 && adjusting && plan(error).largest <= parameters.tolerance)
          return Update::converged;
        if (updates > 0)
          {
            radius = std::min(1.0, 2 * radius);
            // An update too small to take, judged with the last linearisation's sensitivities, ends
            // the step without new ones (n solves saved). Its promised decrease is not trusted: on
            // the reach's bell it ended steps early (median marker error 0.16 -> 0.22 mm).
            if (plan(error).largest <= parameters.tolerance)
              return Update::converged;
          }
        linearise(solver, u, dt);
      }

    const Plan p = plan(model.error);
    if (settled(p, model.objective))
      {
        if (rejected) // the rejected update's state is gone: the step ends at the linearisation's
          {
            u = model.u;
            apply(current);
          }
        return Update::converged;
      }
    if (updates == parameters.max_updates)
      {
        out << "  inverse: the activations changed by " << scientific(p.largest, 2) << " after " << updates
            << " updates (parameter 'Inverse/Maximum updates')" << std::endl;
        return Update::failed;
      }
    // The step again from the linearised solution of the new activations.
    u = model.u;
    for (unsigned int k = 0; k < n; ++k)
      {
        current[k] = std::clamp(current[k] + p.delta[k], 0.0, 1.0);
        u.add(p.delta[k], model.du[k]);
      }
    model.step = p.largest;
    apply(current);
    ++updates;
    return Update::changed;
  }

  void TrackingController::commit(const StepSolver &solver)
  {
    const double dt = solver.state().time() - accepted_time;
    for (unsigned int k = 0; k < exciters.size(); ++k)
      {
        previous_rates[k] = rates[k];
        rates[k]          = (current[k] - accepted[k]) / dt;
      }
    accepted      = current;
    accepted_time = solver.state().time();
    accepted_last = true;
    total_updates += updates + adjustments;
    ++steps;
    write(row(solver.state().time()));
  }
} // namespace hydrostat
