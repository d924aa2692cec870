#pragma once

#include <deal.II/dofs/dof_handler.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/trilinos_vector.h>
#include <deal.II/lac/vector.h>

#include <hydrostat/solver/cell_kernels.h>

#include <vector>

namespace hydrostat
{
  /**
   * The three-field element's cell unknowns j, p (the coefficients of J̃ and p̃, theory.md eq.
   * (13)) as unknowns of the Newton iteration, as deal.II's step-44 keeps them, instead of their
   * exact values j = M⁻¹∫ψJ(u), p = M⁻¹∫ψU'(J̃) at every iterate. At the first iterate of a
   * Newton solve they are projected from u; after that every update δu moves them by the
   * linearised cell equations (theory.md eq. (14b))
   *
   *   δj = M⁻¹ (K_upᵀ δu + R_p),   δp = M⁻¹ (K_JJ δj + R_J),
   *
   * whose operators the assembly records per cell. The pressure then follows the linearised volume
   * change: with the projection it is U'(ΠJ(u)), whose second-order part in δu is multiplied by
   * K (K/μ up to 5000) and spoils the next iterate of a nearly incompressible body.
   */
  class CondensedFields
  {
  public:
    /// Storage for the @p n_cells active cells of the local triangulation, @p n_p pressure
    /// functions and @p n_dofs displacement DoFs per cell; the next assemblies project.
    void reinit(const unsigned int n_cells, const unsigned int n_p, const unsigned int n_dofs);

    /// The next assemblies project j, p from u (a new Newton solve).
    void project();
    /// Whether j, p are iteration unknowns (set_increment() has been called since project()).
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

  private:
    // Per cell, contiguous: j, p, δj, δp, a, b (n_p each), B (n_p²), A (n_p × n_dofs).
    double       *cell_data(const unsigned int cell) { return data.data() + std::size_t(cell) * stride; }
    const double *cell_data(const unsigned int cell) const { return data.data() + std::size_t(cell) * stride; }

    unsigned int        n_p = 0, n_dofs = 0;
    std::size_t         stride = 0;
    std::vector<double> data;
    bool                iterate     = false;
    double              step_length = 0;

    // Buffers of record() and set_increment().
    dealii::FullMatrix<double> A, B;
    dealii::Vector<double>     a, b, du_cell, dj;
  };
} // namespace hydrostat
