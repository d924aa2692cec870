#pragma once

#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/timer.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>

#include <hydrostat/fem/condensed_fields.h>
#include <hydrostat/fem/formulation.h>
#include <hydrostat/fem/state.h>
#include <hydrostat/linalg/pressure_blocks.h>
#include <hydrostat/materials/tissue_materials.h>
#include <hydrostat/physics/term.h>

#include <functional>
#include <memory>
#include <vector>

namespace hydrostat
{
  /**
   * The discrete problem of a run: the displacement element on the mesh, its DoFs and tangent, and
   * the list of terms whose sum is the residual of theory.md eq. (4),
   *
   *   R(u₊) = Σ_terms (f_int − f_ext),   K = ∂R/∂u₊,
   *
   * evaluated cell by cell: at every quadrature point each cell term adds its part (SolidStress,
   * Inertia, BodyForce, ...), then the three-field element's cell fields are condensed (theory.md
   * eq. (14)), then the face terms act on the cell's boundary faces; terms that are not local to a
   * cell act on the assembled system. The cell work (assemble_cell) and the global addition
   * (copy_local_to_global) are separate, with the per-cell buffers in ScratchData and the results
   * in CopyData, as deal.II's WorkStream wants them. The same cell loop gives the energies of the
   * accepted state (energies()) and the cells the output fields see (for_each_cell()).
   */
  class Assembler
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;
    using Matrix = dealii::TrilinosWrappers::SparseMatrix;

    Assembler(dealii::parallel::distributed::Triangulation<3> &triangulation, const Formulation &formulation,
              const TissueMaterials &materials, const bool dynamic, dealii::TimerOutput &timer);
    ~Assembler();

    /// Appends @p term to the list (before setup()).
    void                                      add_term(std::unique_ptr<Term> term);
    const std::vector<std::unique_ptr<Term>> &terms() const { return term_list; }
    /// The first term with an unsymmetric tangent, or null.
    const Term *unsymmetric_term() const;

    /// Distributes the DoFs on the (created) mesh, sets up every term and moves the mass of the
    /// terms' massless boundaries across their cells (theory.md eq. (72)).
    void distribute_dofs();
    /**
     * The tangent's sparsity pattern with @p constraints (and the terms' couplings), the
     * three-field cell fields (iterated by Newton if @p iterate_cell_fields) and, with
     * @p pressure_blocks, the uncondensed three-field blocks of the block preconditioner.
     */
    void setup_system(const dealii::AffineConstraints<double> &constraints, const bool pressure_blocks,
                      const bool iterate_cell_fields);

    /// Lets every term update its couplings to @p u (Term::update_couplings()); true if the
    /// tangent's pattern changed and the tangent was built again (release the linear solver's
    /// factorisation of the old one first: @p release runs before it is destroyed).
    bool update_couplings(const Vector &u, const std::function<void()> &release);
    /// The smallest Term::predictor_horizon() over the terms and the ranks.
    double predictor_horizon(const State &state) const;
    /// The smallest Term::update_fraction() over the terms and the ranks (ghosted @p u, @p du).
    double update_fraction(const Vector &u, const Vector &du) const;
    /// The smallest Term::augmentation_resolution() over the terms and the ranks.
    double augmentation_resolution() const;

    const dealii::DoFHandler<3> &dof_handler() const { return dofs; }
    const dealii::Quadrature<3> &quadrature() const { return *cell_quadrature; }
    const dealii::IndexSet      &owned_dofs() const { return owned; }
    const dealii::IndexSet      &relevant_dofs() const { return relevant; }
    MPI_Comm                     comm() const { return communicator; }
    Matrix                      &tangent() { return system_matrix; }
    const PressureBlocks        *pressure_blocks() const { return blocks ? &pressure_block_data : nullptr; }
    CondensedFields             &condensed_fields() { return cell_fields; }
    const Formulation           &formulation() const { return element; }
    const TissueMaterials       &materials() const { return tissues; }

    /**
     * R(u₊) of @p step from @p accepted and, with @p tangent, K and rhs = −R with @p inhomogeneous
     * applied (the pressure blocks as well if they are set up); constrained rows by
     * @p homogeneous. False if an element is inverted (J ≤ 0) at @p u.
     */
    bool assemble(const Step &step, const Vector &u, const State &accepted, Vector &residual, Matrix *tangent,
                  Vector *rhs, const dealii::AffineConstraints<double> &inhomogeneous,
                  const dealii::AffineConstraints<double> &homogeneous);
    /**
     * ∂R/∂c of @p step at @p u for the controls of muscle groups in @p columns
     * (Term::add_control_derivatives(), theory.md eq. (74)), one cell loop for all of them: column
     * k into @p derivatives[k] (owned entries), constrained rows by @p homogeneous.
     */
    void assemble_control_derivatives(const Step &step, const Vector &u, const State &accepted,
                                      const ControlColumns &columns, std::vector<Vector> &derivatives,
                                      const dealii::AffineConstraints<double> &homogeneous);
    /// Force scale of the last assembly [N]: √(Σ_cells |f_int,cell|² + |f_ext,cell|²), f_int with
    /// inertia and damping; the reference of Newton's relative residual test (theory.md §10).
    double force_scale() const { return scale; }
    /// Where the last assembly's residual was first not finite on this rank: the term and the cell
    /// (empty if every cell's residual was finite there).
    const std::string &non_finite_origin() const { return non_finite; }
    /// The part of the last residual that comes from the three-field cell equations (Newton
    /// iterating the cell fields; zero otherwise): the line search does not judge it.
    const Vector &cell_constraint_residual() const { return constraint_residual; }

    /// M_ij = ∫ ρ0 φ_i·φ_j dV, constrained rows by @p constraints (initial acceleration, eq. (50)),
    /// with the shapes that carry the mass (eq. (72)); the rows of massless DoFs hold 1 on the diagonal.
    void assemble_mass_matrix(Matrix &mass, const dealii::AffineConstraints<double> &constraints) const;
    /// The DoFs without mass (locally relevant; empty unless a term has a massless boundary).
    const dealii::IndexSet &massless_dofs() const { return massless; }
    /// Gives the massless DoFs of @p x (owned entries) the values of DoFs that carry their mass, or
    /// with @p origin (ghosted) their increments from it (eq. (72)): the initial acceleration and the
    /// predictor, which the dynamics does not govern for them.
    void follow_mass_carriers(Vector &x, const Vector *origin = nullptr) const;

    /// xᵀ M y = ∫ ρ0 x·y dV of two displacement-like fields (owned entries), summed over the ranks.
    double mass_product(const Vector &x, const Vector &y) const;

    /// The energies of an accepted state and the nodal forces whose work the energy balance books
    /// (theory.md eq. (62)), summed over the ranks (vectors: owned entries).
    struct Energies
    {
      double kinetic = 0, strain = 0, volume = 0; // [J], [J], [m³]
      Vector external, dissipated, active;        // forces on the body [N]
    };
    void energies(const State &accepted, Energies &out);

    /// Calls @p f on every locally owned cell of the accepted state (the output fields).
    void for_each_cell(const State &accepted, const std::function<void(const CellState &)> &f) const;

  private:
    /// The smallest of @p of_term(term) over the terms and the ranks (∞ without terms).
    template <typename OfTerm>
    double smallest_over_terms(const OfTerm &of_term) const;
    struct ScratchData;
    struct CopyData;

    /// The evaluated state on one cell: values, kinematics, the three-field fields; false if an
    /// element is inverted.
    bool reinit_cell(const CellIterator &cell, const Step &step, const Vector &u_ghost, const State &accepted,
                     ScratchData &scratch) const;
    /// The massless DoFs and, for the cells that have some, where their mass goes (mass_targets).
    void move_mass_off_massless_boundaries();
    /// The shapes that carry the mass on @p cell, from its @p shapes (into @p buffer if moved).
    const CellShapes &mass_shapes(const CellIterator &cell, const CellShapes &shapes, CellShapes &buffer) const;
    /// What the terms see of a cell prepared in @p scratch.
    CellState state_of(const CellIterator &cell, const Step &step, const ScratchData &scratch) const;
    void      assemble_cell(const CellIterator &cell, const Step &step, const Vector &u_ghost, const State &accepted,
                            const bool with_tangent, ScratchData &scratch, CopyData &copy);
    /// Which term makes the residual of @p cell, prepared in @p scratch, not finite, and where.
    std::string locate_non_finite(const CellIterator &cell, const Step &step, ScratchData &scratch) const;
    /// The face terms on the cell's boundary faces, each into @p target(term).
    void add_faces(const CellIterator &cell, const Step &step, ScratchData &scratch,
                   const std::function<CellContribution &(const Term &)> &target) const;
    /// The cell residuals condensed into the displacement residual (@p iterated) and the tangent
    /// condensed, or kept in blocks for the block preconditioner (theory.md eqs. (14), (14b), (55)).
    void condense_three_field(const CellIterator &cell, const bool iterated, const bool with_tangent,
                              ScratchData &scratch, CopyData &copy);
    /// The tangent with the pattern of the cells, the constraints and the terms' couplings.
    void make_tangent();
    void copy_local_to_global(const CopyData &copy, const dealii::AffineConstraints<double> &inhomogeneous,
                              const dealii::AffineConstraints<double> &homogeneous, Vector &residual, Matrix *tangent,
                              Vector *rhs);

    MPI_Comm                                         communicator;
    dealii::parallel::distributed::Triangulation<3> &triangulation;
    const Formulation                               &element;
    const TissueMaterials                           &tissues;
    const bool                                       point_velocities; // dynamic: a₊, v₊ at the points
    dealii::TimerOutput                             &timer;

    std::vector<std::unique_ptr<Term>> term_list;
    std::vector<const Term *>          cell_terms;

    std::unique_ptr<dealii::FESystem<3>> fe;
    dealii::DoFHandler<3>                dofs;
    std::unique_ptr<dealii::QGauss<3>>   cell_quadrature;
    std::unique_ptr<dealii::QGauss<2>>   face_quadrature;
    dealii::IndexSet                     owned, relevant;
    dealii::IndexSet                     massless; // DoFs without mass (eq. (72)), locally relevant
    // Per active cell with massless DoFs, the local DoF that carries each one's mass; else empty.
    std::vector<std::vector<unsigned int>> mass_targets;
    // Owned massless DoFs and a DoF that carries their mass (of one of their cells).
    std::vector<std::pair<dealii::types::global_dof_index, dealii::types::global_dof_index>> mass_carriers;
    Matrix                                                                                   system_matrix;
    dealii::AffineConstraints<double> pattern_constraints; // of setup_system(), for make_tangent()
    bool                              blocks = false;
    PressureBlocks                    pressure_block_data; // the uncondensed three-field tangent
    CondensedFields                   cell_fields;         // three-field j, p as Newton unknowns (eq. (14b))
    Vector                            constraint_residual;
    double                            scale = 0;
    std::string                       non_finite;
  };
} // namespace hydrostat
