#pragma once

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/trilinos_vector.h>
#include <deal.II/lac/vector.h>

#include <hydrostat/fem/three_field_cell.h>

#include <vector>

namespace hydrostat
{
  /**
   * The three-field element's cell unknowns j, p (the coefficients of J̃ and p̃, theory.md eq.
   * (13)) as unknowns of the Newton iteration, as deal.II's step-44 keeps them, instead of their
   * exact values j = M⁻¹∫ψJ(u), p = M⁻¹∫ψU'(J̃) at every iterate. A Newton solve starts from
   * their values of the last accepted step (projected from u in the first step), and every update
   * δu moves them by the linearised cell equations (theory.md eq. (14b))
   *
   *   δj = M⁻¹ (K_upᵀ δu + R_p),   δp = M⁻¹ (K_JJ δj + R_J),
   *
   * whose operators the assembly records per cell. The pressure then follows the linearised volume
   * change: with the projection it is U'(ΠJ(u)), whose second-order part in δu is multiplied by
   * K (K/μ up to 5000) and spoils the next iterate of a nearly incompressible body; projected at
   * the extrapolated predictor of a step, the pressure can be so far off that its geometric
   * stiffness makes the first tangent nearly singular.
   * Evaluations outside Newton (output, energies, tests) project.
   */
  class CondensedFields
  {
  public:
    /// Storage for the @p n_cells active cells of the local triangulation, @p n_p pressure
    /// functions and @p n_dofs displacement DoFs per cell. @p iterated false: j, p are projected
    /// at every iterate (Newton/Three-field cell fields = projected).
    void reinit(const unsigned int n_cells, const unsigned int n_p, const unsigned int n_dofs, const bool iterated);

    /// A Newton solve begins: j, p from the last accepted step, or projected if there is none.
    void start();
    /// The converged iterate's j, p become the accepted ones.
    void accept();
    /// The next assemblies project j, p from u (evaluations outside Newton).
    void project();
    /// Whether j, p follow the Newton updates (set_increment()): a three-field run with
    /// Newton/Three-field cell fields = iterated.
    bool follows_updates() const { return iterated; }
    /// Whether assemblies use the iterate's j, p (false: they project them from u).
    bool iterating() const { return iterate; }

    /// j, p of the cell with active index @p cell at the current step length along δj, δp.
    void values(const unsigned int cell, dealii::Vector<double> &j, dealii::Vector<double> &p) const;

    /// Records the update operators of @p cell from the assembly at its current values (and,
    /// when projecting, the projected j, p as the values of the iterate).
    void record(const unsigned int cell, ThreeFieldCell &three_field, const dealii::FullMatrix<double> &K_up);

    /// δj, δp of every locally owned cell from the Newton update @p du (with ghost values).
    void set_increment(const dealii::DoFHandler<3> &dof_handler, const dealii::TrilinosWrappers::MPI::Vector &du);

    /// Evaluations that follow are at j + α δj, p + α δp (line search trial @p alpha).
    void try_step(const double alpha) { step_length = alpha; }
    /// The iterate moves by @p alpha along δj, δp.
    void take_step(const double alpha);

    /// The accepted j, p of the locally owned cells of @p dof_handler, in its cell order
    /// (checkpoints); empty if there are none.
    std::vector<double> accepted_values(const dealii::DoFHandler<3> &dof_handler) const;
    /// Restores what accepted_values() gave; false if @p values do not fit the mesh.
    bool set_accepted_values(const dealii::DoFHandler<3> &dof_handler, const std::vector<double> &values);

  private:
    // Per cell, contiguous: j, p, δj, δp, a, b, accepted j, accepted p (n_p each), B (n_p²),
    // A (n_p × n_dofs).
    double       *cell_data(const unsigned int cell) { return data.data() + std::size_t(cell) * stride; }
    const double *cell_data(const unsigned int cell) const { return data.data() + std::size_t(cell) * stride; }

    static constexpr unsigned int accepted = 6; // offset of the accepted j, p in units of n_p
    unsigned int                  n_p = 0, n_dofs = 0;
    bool                          iterated = false, have_accepted = false; // iterated: set by reinit()
    std::size_t                   stride = 0;
    std::vector<double>           data;
    bool                          iterate     = false;
    double                        step_length = 0;

    // Buffers of record() and set_increment().
    dealii::FullMatrix<double> A, B;
    dealii::Vector<double>     a, b, du_cell, dj;
  };
} // namespace hydrostat
