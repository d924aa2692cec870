#pragma once

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/parameter_handler.h>

#include <deal.II/lac/full_matrix.h>

#include <hydrostat/integration/step_controller.h>
#include <hydrostat/inverse/marker_targets.h>
#include <hydrostat/io/output_files.h>
#include <hydrostat/io/point_probes.h>
#include <hydrostat/muscle/muscle_groups.h>
#include <hydrostat/physics/term.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * The inverse run (subsection "Inverse", theory.md §16): in every step the activations of the
   * muscle groups with Activation/Source = controlled (the exciters, 0 ≤ a ≤ 1) are chosen so that
   * the markers' displacements at the step's end follow their targets. At the converged state of
   * the step with the current activations, the residual's derivative with respect to each
   * activation (exact: R is linear in fa, eq. (74)) gives the markers' sensitivities
   * (StepSolver::sensitivities, eq. (73)); a box-constrained quadratic programme (eq. (75)) gives
   * the update of the activations, the step is solved again from the linearised state, and so on
   * until no activation changes by more than the tolerance. Along the step's first Newton solve
   * the same updates already come with the Newton updates (adjust(), eq. (77)). Writes
   * <base>_inverse.csv: time, the activation of each exciter (named as its group, so that
   * Source = table replays it), the markers' errors and the updates of the step. A group with Control nodes has one exciter per
   * node (eq. (76)), named <Name>_k.
   */
  class TrackingController : public StepController
  {
  public:
    struct Parameters
    {
      bool          enabled = false;
      MarkerTargets targets;
      double        activation_weight   = 0; // [m²]
      double        change_weight       = 0; // [m²]
      double        tolerance           = 1e-6;
      double        objective_tolerance = 1e-6; // relative
      unsigned int  max_updates         = 20;
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    /// The subsection "Inverse"; an InputError if it is enabled without a controlled muscle group,
    /// or a group is controlled while it is not.
    static Parameters parse_parameters(dealii::ParameterHandler &prm, const MuscleGroups &muscles);

    /// The run of @p controls; writes the CSV to @p csv_path (rank 0 of @p comm).
    TrackingController(Parameters controls, MuscleGroups &muscles, const std::string &csv_path, MPI_Comm comm,
                       const dealii::ConditionalOStream &out);

    void   start(const StepSolver &solver) override;
    void   start_step(const double t) override;
    bool   adjust(StepSolver &solver, const Vector &u, Vector &du, const double dt, const TangentSolve &solve) override;
    Update update(StepSolver &solver, Vector &u, const double dt) override;
    void   commit(const StepSolver &solver) override;

    /// One line for the log before the run, and one after it.
    std::string        report() const;
    std::string        summary() const;
    const std::string &csv_path() const { return path; }

  private:
    /// Sets the groups' activations to @p a.
    void apply(const std::vector<double> &a);
    /// The objective (75) of marker errors @p e and activations @p a.
    double objective(const std::vector<double> &e, const std::vector<double> &a) const;
    /// The model of the step's solution around the converged @p u of the current activations:
    /// the sensitivities (73) and the markers' S.
    void linearise(StepSolver &solver, const Vector &u, const double dt);
    /// The sensitivities model.du (73) at @p u, the tangent solved by @p solve, and the markers'
    /// S from them; says once per step whether the markers determine every activation.
    void sensitivities(StepSolver &solver, const Vector &u, const double dt, const TangentSolve &solve);
    /// An update of the activations from the linearisation (model) and marker errors @p e.
    struct Plan
    {
      std::vector<double> delta;        // δ of eq. (75)
      double              largest  = 0; // max |δ_k|
      double              promised = 0; // the decrease of the objective it promises
    };
    /// The box QP of eq. (75) at the current activations, with the model's S and errors @p e.
    Plan plan(const std::vector<double> &e) const;
    /// Whether @p p changes too little to be taken at objective @p J ('Tolerance', 'Objective tolerance').
    bool settled(const Plan &p, const double J) const;
    /// Marker displacement minus target of each targeted component at @p u_ghosted and time @p t.
    std::vector<double> errors(const Vector &u_ghosted, const double t) const;
    /// The CSV row of the accepted step at time @p t.
    std::vector<double> row(const double t);
    /// Writes @p values, after the header and the row of t = 0 if it is the first step's.
    void write(const std::vector<double> &values);

    Parameters                        parameters;
    MuscleGroups                     &muscles;
    std::string                       path;
    MPI_Comm                          comm;
    const dealii::ConditionalOStream &out;
    struct Control
    {
      unsigned int group, node; // node of the group's Control nodes, 0 for a uniform activation
    };
    std::vector<Control>         exciters; // the activations the run chooses
    ControlColumns               columns;  // exciter k of each control of the groups (or none)
    std::unique_ptr<PointProbes> probes;
    std::unique_ptr<CsvSeries>   csv;
    std::vector<double>          accepted, current;     // activations of the last step and of this one
    std::vector<double>          rates, previous_rates; // da/dt over the last step and the one before [1/s]
    double                       accepted_time = 0;     // the end of the last step [s]
    std::vector<double>          error;                 // at the last converged solve
    std::vector<double>          initial_row;           // of t = 0
    struct Linearisation
    {
      Vector                     u;         // converged for a
      std::vector<double>        a, error;  // activations and marker errors there
      dealii::FullMatrix<double> S;         // ∂u_c/∂a_k
      std::vector<Vector>        du;        // ∂u₊/∂a_k
      double                     objective; // (75) there
      double                     step = 0;  // the largest change of the update taken from it
    } model;
    double       radius  = 1; // trust radius of an update
    unsigned int updates = 0; // of this step, after a converged solve
    // Of the step's first Newton solve (eq. (77)): its iterations so far, the updates within it,
    // the largest change of the last one, the sum of the largest changes since the sensitivities,
    // whether they are the model, whether its updates have stopped; and whether the step's rank
    // of S was judged.
    unsigned int iterations = 0, adjustments = 0;
    double       adjusted = 0, drift = 0;
    bool         adjusting = false, stopped = false, ranked = false;
    bool         accepted_last = true; // no step was cut back since the last accepted one
    // Of the run: updates (both kinds), steps, the steps whose markers determine fewer activations
    // than there are exciters, the largest marker error.
    unsigned long total_updates = 0, steps = 0, redundant_steps = 0;
    double        largest_error = 0;
  };
} // namespace hydrostat
