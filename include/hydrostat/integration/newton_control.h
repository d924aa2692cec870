#pragma once

#include <limits>

#include <deal.II/base/parameter_handler.h>
#include <deal.II/grid/tria.h>

#include <hydrostat/materials/tissue_materials.h>

namespace hydrostat
{
  /**
   * Convergence tests and globalisation of the Newton–Raphson iteration (subsection "Newton").
   * An iteration has converged when both hold:
   *   |R| ≤ max(Absolute residual, Relative residual · f_ref) (Absolute residual = auto: the
   *   round-off level of R, set by the Simulation, theory.md §10), f_ref the force scale of the
   *   iterate, √(Σ_cells |f_int,cell|² + |f_ext,cell|²) (internal forces with inertia and
   *   damping, and the loads): the size of the forces R balances, which a diverged iterate of an
   *   earlier attempt cannot inflate;
   *   |δu| ≤ max(Absolute update, Relative update · |u|).
   * An update within its tolerance solved at a converged residual is the last (theory.md §10).
   * After Max iterations the step is cut back, unless |R| halved in each of the last two
   * iterations: then up to Contracting iterations more are made while it keeps halving.
   * Maximum update > 0 shortens an update whose largest component exceeds it to that length.
   * Check tangent compares the residual's derivative along every update with −R (a diagnostic).
   * Backtracking line search halves the step, at most Line search steps times, until no element
   * is inverted (J ≤ 0) and either the directional derivative of the potential along the step
   * has dropped, |δu·R(u + α δu)| ≤ 0.9 |δu·R(u)|, or |R| has (Armijo, c = 1e-4); if no
   * halving achieves it, the longest step that inverts nothing is taken.
   * Three-field cell fields: iterated (J̃, p̃ are unknowns of the iteration, updated by the
   * linearised cell equations, theory.md eq. (14b)) or projected from every iterate (eq. (13)).
   */
  struct NewtonControl
  {
    unsigned int max_iterations              = 15;
    unsigned int contracting_iterations      = 0; // beyond max_iterations while |R| halves per iteration
    double       max_update                  = 0; // [m] largest |δu_i| of an update; 0: none
    double       residual_relative           = 1e-8;
    double       residual_absolute           = 1e-12;
    bool         automatic_absolute_residual = true; // residual_absolute from the mesh and tissues
    double       update_relative             = 1e-8;
    double       update_absolute             = 1e-14;
    bool         line_search                 = true;
    unsigned int line_search_steps           = 5;
    bool         verbose                     = false;
    bool         check_tangent               = false; // central differences of R along each update
    bool         iterate_cell_fields         = true;

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);
  };

  /// Newton/Absolute residual = auto: the round-off level of the residual [N] of the tissues
  /// @p materials on this rank's cells of @p triangulation, summed over @p comm (theory.md eq. (52a)).
  double round_off_residual(const dealii::Triangulation<3> &triangulation, const TissueMaterials &materials,
                            MPI_Comm comm);

  /**
   * Step size control (subsection "Time stepping"): the nominal Time step is cut by Cut-back
   * factor when Newton fails or an element inverts, down to Minimum time step (then the run
   * stops with an error), and grows back by 1/Cut-back factor after each converged step (only
   * after steps that needed at most Growth iterations Newton iterations, if that is set: a step
   * that converged with difficulty is not followed by a bigger one that would likely fail).
   */
  struct TimeStepControl
  {
    double       end_time          = 1.0;
    double       time_step         = 0.01;
    double       minimum_step      = 1e-6;
    double       cut_back          = 0.5;
    unsigned int growth_iterations = 0;  // 0: always grow
    unsigned int retry_after       = 4;  // converged steps before a size that failed is tried again
    int          max_cut_backs     = -1; // cut-backs the run may make; -1: no limit

    /// The next step after a converged step of size @p taken that needed @p newton_iterations:
    /// back towards Time step after a cut-back, but not to a size that failed within the last
    /// retry_after steps (retrying it at once costs a failed attempt every other step).
    double next_step(double taken, unsigned int newton_iterations);

    /// Records that a step of size @p dt failed and was cut back.
    void record_cut_back(double dt);

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

  private:
    double       smallest_failed = std::numeric_limits<double>::infinity();
    unsigned int since_failure   = 0;
  };
} // namespace hydrostat
