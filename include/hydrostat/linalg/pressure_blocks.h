#pragma once

#include <deal.II/base/index_set.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_dgp.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace hydrostat
{
  /**
   * The three-field tangent before condensation, for the block preconditioner (Linear solver/
   * Preconditioner = block). The condensed tangent K̄ = A + Bᵀ C⁻¹ B, with A = K_uu, B = K_upᵀ
   * and per cell C = M K_JJ⁻¹ M = (M⁻¹ K_JJ M⁻¹)⁻¹ (see Formulation), is the Schur complement of
   * the saddle-point system
   *
   *     [ A   Bᵀ ] [ Δu ]   [ r   ]
   *     [ B  −C  ] [ q  ] = [ r_q ],    q = C⁻¹ B Δu,  r_q = −B Δu_c (prescribed increments),
   *
   * whose Δu is the condensed Newton update. Its pressure Schur complement C + B A⁻¹ Bᵀ is
   * spectrally close to Ŝ = C + M / μ̂ per cell (μ̂: the cell's shear modulus, plus ρ a_u h² for
   * the Newmark mass), which unlike K̄ does not degrade as K/μ grows (Klawonn 1998, SIAM J. Sci.
   * Comput. 19: 172). This class owns the pressure numbering (the P_{k−1} cell functions of
   * Formulation, one DoFHandler of FE_DGP), B, C and Ŝ⁻¹ (block diagonal) and r_q.
   *
   * For k = 1 (Q1–P0, not inf-sup stable) it also owns the checkerboard basis Z of
   * CheckerboardCorrection: on every family of 8 sibling cells (meshes with at least one
   * refinement), the four sign patterns w_a(c) = (−1)^{popcount(c & a)}, a = 011, 110, 101, 111 in
   * the bits (x, y, z) of the child number c, times the cell's pressure scaling d.
   */
  class PressureBlocks
  {
  public:
    using Matrix = dealii::TrilinosWrappers::SparseMatrix;
    using Vector = dealii::TrilinosWrappers::MPI::Vector;

    /// Numbers the pressure functions (@p n_p per cell, P_{degree−1}) and sizes B, C, Ŝ⁻¹.
    void setup(const dealii::DoFHandler<3> &u_dofs, const dealii::IndexSet &owned_u_dofs, unsigned int degree,
               MPI_Comm comm);

    /// Zeroes the matrices and r_q before an assembly.
    void zero();

    /// Adds one locally owned cell: @p K_up (n_u × n_p), its C and M (n_p × n_p), μ̂ and the
    /// mean diagonal entry @p a_scale of its K_uu (for scaling). Columns of constrained
    /// displacement DoFs go through @p constraints, their inhomogeneities into r_q.
    void add_cell(const dealii::DoFHandler<3>::active_cell_iterator  &cell,
                  const std::vector<dealii::types::global_dof_index> &u_dofs, const dealii::FullMatrix<double> &K_up,
                  const dealii::FullMatrix<double> &C, const dealii::FullMatrix<double> &M, double mu_hat,
                  double a_scale, const dealii::AffineConstraints<double> &constraints);

    void compress();

    const Matrix           &B() const { return b_matrix; }
    const Matrix           &C() const { return c_matrix; }
    const Matrix           &S_hat_inverse() const { return s_hat_inverse; }
    const Vector           &pressure_rhs() const { return r_q; }
    const dealii::IndexSet &owned_pressure_dofs() const { return owned_p; }
    /// Z (pressure DoFs × 4 per family), or nullptr if the mesh has no family of 8 active
    /// sibling cells on any rank or k > 1.
    const Matrix *checkerboard_basis() const { return n_families > 0 ? &z_matrix : nullptr; }
    /// Number of families of 8 sibling cells on all ranks (0 for k > 1).
    dealii::types::global_dof_index n_checkerboard_families() const { return n_families; }

  private:
    /// The same cell as seen by the pressure numbering.
    dealii::DoFHandler<3>::active_cell_iterator pressure_cell(
      const dealii::DoFHandler<3>::active_cell_iterator &cell) const;

    /// Finds the families of 8 sibling cells and sizes Z (P0 pressures only).
    void setup_checkerboard_basis(MPI_Comm comm);

    std::unique_ptr<dealii::FE_DGP<3>> fe;
    dealii::DoFHandler<3>              dof_handler;
    dealii::IndexSet                   owned_p;
    dealii::AffineConstraints<double>  no_constraints;
    Matrix                             b_matrix, c_matrix, s_hat_inverse;
    Vector                             r_q;

    /// Pressure DoF of a cell in a family → (first of the family's 4 columns of Z, child number).
    std::map<dealii::types::global_dof_index, std::pair<dealii::types::global_dof_index, unsigned int>> family_of;
    dealii::types::global_dof_index                                                                     n_families = 0;
    Matrix                                                                                              z_matrix;
  };
} // namespace hydrostat
