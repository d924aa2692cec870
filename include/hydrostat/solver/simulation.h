#pragma once

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/quadrature_point_data.h>
#include <deal.II/base/timer.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>

#include <hydrostat/geometry/mesh_source.h>
#include <hydrostat/io/output_files.h>
#include <hydrostat/io/point_probes.h>
#include <hydrostat/materials/tissue_materials.h>
#include <hydrostat/muscle/muscle_groups.h>
#include <hydrostat/solver/boundary_conditions.h>
#include <hydrostat/solver/condensed_fields.h>
#include <hydrostat/solver/formulation.h>
#include <hydrostat/solver/linear_solver.h>
#include <hydrostat/solver/muscle_tendon_elements.h>
#include <hydrostat/solver/newmark.h>
#include <hydrostat/solver/newton_control.h>
#include <hydrostat/solver/newton_solver.h>
#include <hydrostat/solver/output_fields.h>
#include <hydrostat/solver/pressure_blocks.h>
#include <hydrostat/solver/water_drag.h>

#include <csignal>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hydrostat
{
  /**
   * A Hydrostat case: reads its parameters, builds the mesh and the displacement field, and
   * advances the total-Lagrangian balance of theory.md eq. (4) in time (Newmark or quasi-static)
   * with Newton–Raphson on the exact tangent, on any number of MPI ranks.
   *
   * Weak form (residual R = 0, Newton: K δu = −R):
   *   R_i = ∫ ρ0 (a + α_M v)·φ_i + β_K Grad φ_i : A0 : Grad v + P : Grad φ_i dV
   *         − ∫ ρ0 g·φ_i dV − ∫Γ t0·φ_i dA,
   * with a, v from Newmark in terms of u, P and A = dP/dF from the tissue law (and the
   * three-field volumetric term), A0 = A(F = I) for the stiffness-proportional damping.
   */
  class Simulation
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;
    using Matrix = dealii::TrilinosWrappers::SparseMatrix;

    /// Every subsection of a case file.
    static void declare_parameters(dealii::ParameterHandler &prm);

    /// Parses @p prm (throws with the parameter's name on bad values); @p out receives progress.
    Simulation(dealii::ParameterHandler &prm, MPI_Comm comm, std::ostream &out);
    ~Simulation();

    /// Mesh, degrees of freedom, initial state (including the initial acceleration).
    void setup();

    /// How the command line drives run().
    struct RunOptions
    {
      /// Continue from the newest complete checkpoint in the output directory.
      bool resume = false;
      /// Report progress at every 10 % only (as Output/Verbosity = quiet).
      bool quiet = false;
      /// Non-zero (set by a signal handler on any rank) stops the run at the end of the current
      /// step with a checkpoint.
      const volatile std::sig_atomic_t *stop = nullptr;
    };
    enum class Outcome
    {
      finished,
      interrupted
    };

    /// setup() (and the checkpoint's state if resuming), then the time loop with output and
    /// checkpoints, then the timing summary.
    Outcome run(const RunOptions &options);
    /// run() from the start without signals.
    Outcome run();

    /// Counts of the whole run (the part before a restart included), for run.json. factorizations:
    /// the tangents factorised (direct) or for which CG/GMRES built their preconditioner.
    struct RunStatistics
    {
      std::uint64_t steps = 0, newton_iterations = 0, linear_iterations = 0, factorizations = 0, cut_backs = 0;
    };
    const RunStatistics &run_statistics() const { return statistics; }

    /// One time step of nominal size @p dt with cut-back: returns the step actually taken.
    double advance(const double dt);

    struct GlobalQuantities
    {
      double kinetic_energy = 0; ///< ½ ∫ ρ0 v·v dV [J]
      double strain_energy  = 0; ///< ∫ W dV [J]
      double external_work  = 0; ///< work of the applied loads since t = 0 [J]
      double volume         = 0; ///< current volume ∫ J dV [m³]
    };
    GlobalQuantities global_quantities() const { return quantities; }

    double                            time() const { return current_time; }
    unsigned int                      n_dofs() const { return dof_handler.n_dofs(); }
    const std::vector<double>        &last_newton_residuals() const { return newton_solver->residuals(); }
    std::vector<dealii::Tensor<1, 3>> probe_displacements() const;
    std::vector<dealii::Tensor<1, 3>> probe_velocities() const;

    dealii::parallel::distributed::Triangulation<3> &get_triangulation() { return triangulation; }
    const dealii::DoFHandler<3>                     &get_dof_handler() const { return dof_handler; }
    const Vector                                    &displacement() const { return u_n; }
    const MuscleTendonElements                      &muscle_tendon_elements() const { return muscle_tendon_units; }

    /**
     * The residual R(u) and, if @p tangent is given, K = dR/du of the step from the current
     * state to time + dt, with constrained rows set by the Dirichlet conditions (homogeneous:
     * the residual is the one whose norm Newton drives to zero). Returns false if an element
     * is inverted (J ≤ 0) at u. Public for the verification tests.
     */
    bool evaluate(const Vector &u, const double dt, Vector &residual, Matrix *tangent);

    /// An empty vector and matrix of this problem's layout (for tests).
    void    reinit_vector(Vector &v) const { v.reinit(owned_dofs, comm); }
    Matrix &system_matrix() { return tangent; }

  private:
    /// Muscle data of one quadrature point (CellDataStorage needs a class type).
    struct MusclePoint
    {
      MuscleGroups::PointData groups;
    };

    void setup_dofs();
    void set_initial_conditions();
    void make_constraints(const Vector &u_ghosted, const double t, dealii::AffineConstraints<double> &inhomogeneous,
                          dealii::AffineConstraints<double> &homogeneous) const;
    /// What an assembly evaluates: the state at time @p t reached from the accepted state, with
    /// @p dt the step of the muscle state (0: the accepted state itself) and a₊, v₊ following from
    /// u₊ by the coefficients @p c (theory.md eq. (46)).
    struct StepEvaluation
    {
      double                          t;
      double                          dt;
      NewmarkIntegrator::Coefficients c;
    };
    StepEvaluation step_to(const double dt) const;
    struct ScratchData;
    struct CopyData;
    /// R(u) of @p step and, with @p tangent, K and rhs = −R with @p inhomogeneous applied (the
    /// block-preconditioner blocks as well if they are used). False if an element is inverted.
    bool assemble(const StepEvaluation &step, const Vector &u, Vector &residual, Matrix *tangent, Vector *rhs,
                  const dealii::AffineConstraints<double> &inhomogeneous,
                  const dealii::AffineConstraints<double> &homogeneous);
    void assemble_cell(const dealii::DoFHandler<3>::active_cell_iterator &cell, const StepEvaluation &step,
                       const Vector &u_ghost, const bool with_tangent, ScratchData &scratch, CopyData &copy);
    /// J̃, p̃ of the three-field element on @p cell: the Newton iterate's (CondensedFields, returns
    /// true) or projected from u.
    bool reinit_three_field(const dealii::DoFHandler<3>::active_cell_iterator &cell, ScratchData &scratch);
    /// The cell residuals condensed into the displacement residual (@p iterated) and the tangent
    /// condensed, or kept in blocks for the block preconditioner (theory.md eqs. (14), (14b), (55));
    /// @p mass the Newmark mass coefficient ρ ∂a/∂u of the cell.
    void condense_three_field(const dealii::DoFHandler<3>::active_cell_iterator &cell, const double mass,
                              const bool iterated, const bool with_tangent, ScratchData &scratch, CopyData &copy);
    /// P and A = dP/dF at point @p q of @p cell: tissue, muscle fibres, stiffness damping.
    NominalStressTangent point_response(const dealii::DoFHandler<3>::active_cell_iterator &cell, const unsigned int q,
                                        const StepEvaluation &step, const ScratchData &scratch) const;
    void                 add_cell_face_loads(const dealii::DoFHandler<3>::active_cell_iterator &cell, const double t,
                                             ScratchData &scratch, CopyData &copy, const bool with_tangent) const;
    /// Water drag on the cell's boundary faces (theory.md eqs. (60), (61)), v₊ = v_u u₊ + … .
    void add_cell_drag(const dealii::DoFHandler<3>::active_cell_iterator &cell, const double v_u, ScratchData &scratch,
                       CopyData &copy, const bool with_tangent) const;
    void copy_local_to_global(const CopyData &copy, const dealii::AffineConstraints<double> &inhomogeneous,
                              const dealii::AffineConstraints<double> &homogeneous, Vector &residual, Matrix *tangent,
                              Vector *rhs, const bool blocks);
    /// M_ij = ∫ ρ0 φ_i·φ_j dV, constrained rows by @p constraints (initial acceleration).
    void assemble_mass_matrix(Matrix &mass, const dealii::AffineConstraints<double> &constraints) const;
    /// Newton for the step to current_time + dt: the converged u₊ in @p u, or false.
    bool newton_solve(const double dt, Vector &u);
    /// Makes u₊ = @p u_new the accepted state (Newmark update of v, a) at current_time + dt.
    void accept_step(const double dt, const Vector &u_new);
    void update_global_quantities(const bool first);
    void setup_muscles();
    /// Prints the volume of the mesh and the share of each material id (a check of a Gmsh mesh's tissues).
    void print_material_volumes();
    /// Newton/Absolute residual = auto: the round-off level of the residual [N] on this mesh.
    double round_off_residual() const;
    void   commit_muscles(const double dt);
    void   write_output(const unsigned int step);
    void   write_csv_row(const unsigned int step, const double dt, const unsigned int newton_iterations);
    /// Writes the checkpoint of the accepted state at @p step, @p dt the size of the next step.
    void save_checkpoint(const unsigned int step, const double dt);
    /// After setup(): restores the newest complete checkpoint; returns its step and next step size.
    std::pair<unsigned int, double> load_checkpoint();

    MPI_Comm                    comm;
    dealii::ConditionalOStream  pcout;
    mutable dealii::TimerOutput timer;

    MeshSource                         mesh_source;
    TissueMaterials                    materials;
    BoundaryConditions                 boundary_conditions;
    WaterDrag                          water_drag;
    Formulation                        formulation;
    NewmarkIntegrator                  newmark;
    NewtonControl                      newton;
    TimeStepControl                    stepping;
    LinearSolver                       linear_solver;
    MuscleGroups                       muscles;
    MuscleTendonElements               muscle_tendon_units;
    std::unique_ptr<SpaceTimeFunction> initial_velocity;

    struct OutputSettings
    {
      std::string                   directory;
      std::string                   base_name;
      unsigned int                  interval;
      bool                          paraview;
      std::vector<dealii::Point<3>> probe_points;
      unsigned int                  checkpoint_interval; // steps, 0: none
      double                        checkpoint_minutes;  // wall clock, 0: none
      bool                          quiet;
    } output;
    std::uint64_t parameter_hash; // of every parameter: a checkpoint is resumed with the same ones

    dealii::parallel::distributed::Triangulation<3> triangulation;
    std::unique_ptr<dealii::FESystem<3>>            fe;
    dealii::DoFHandler<3>                           dof_handler;
    std::unique_ptr<dealii::QGauss<3>>              quadrature;
    std::unique_ptr<dealii::QGauss<2>>              face_quadrature;
    dealii::IndexSet                                owned_dofs, relevant_dofs;
    std::vector<dealii::Tensor<4, 3>>               small_strain_tangent; // A0 per material id
    dealii::CellDataStorage<dealii::Triangulation<3>::cell_iterator, MusclePoint> muscle_points;

    Matrix          tangent;
    PressureBlocks  pressure_blocks;  // three-field tangent uncondensed, Preconditioner = block
    CondensedFields condensed_fields; // three-field j, p as Newton unknowns (theory.md eq. (14b))
    Vector          u_n, v_n, a_n;    // accepted state at current_time (owned)
    Vector          u_n_ghost, v_n_ghost, a_n_ghost;
    Vector          f_ext_n; // external load vector of the accepted state
    // The part of the last assembled residual that comes from the three-field cell equations
    // (CondensedFields iterating; zero otherwise): the line search does not judge it.
    Vector cell_constraint_residual;
    double current_time = 0;
    /// Force scale of the last assembly [N]: √(Σ_cells |f_int,cell|² + |f_ext,cell|²), f_int with
    /// inertia and damping; the reference of Newton's relative residual test (theory.md §10).
    double                        force_scale = 0;
    std::unique_ptr<NewtonSolver> newton_solver;
    GlobalQuantities              quantities;

    std::unique_ptr<PointProbes>    probes;
    std::unique_ptr<ParaViewSeries> paraview;
    std::unique_ptr<CsvSeries>      csv;
    std::optional<unsigned int>     csv_continue_rows; // resumed: the CSV rows before the checkpoint
    RunStatistics                   statistics;
    OutputFields                    output_fields; // after triangulation: its DoFHandler goes first
  };
} // namespace hydrostat
