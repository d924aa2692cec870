#pragma once

#include <deal.II/lac/trilinos_precondition.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>

namespace hydrostat
{
  class PressureBlocks;

  /**
   * Coarse correction of the pressure Schur complement estimate Ŝ = C + M/μ̂ of PressureBlocks for
   * the Q1–P0 element. Q1–P0 is not inf-sup stable: pressures alternating in sign across cells in
   * two or three directions ((−1)^{i+j} f(k), (−1)^{i+j+k} on a structured mesh, and nearly so
   * when modulated by any smooth envelope) are (nearly) orthogonal to the divergence of every Q1
   * field. On them the exact Schur complement C + B A⁻¹ Bᵀ is only C (the compressibility, ~M/K)
   * while Ŝ is K/μ times larger, and GMRES iterates once per such mode the mesh resolves.
   *
   * The correction adds Z S_c⁻¹ Zᵀ to Ŝ⁻¹, where Z holds the checkerboard sign patterns of each
   * family of 8 sibling cells (PressureBlocks) and S_c = Zᵀ (C + B D⁻¹ Bᵀ) Z, D = diag(A), is the
   * Galerkin coarse Schur complement with A⁻¹ replaced by D⁻¹: exact for the divergence-free
   * patterns (Bᵀ Z = 0 → S_c = Zᵀ C Z) and of the right size for the others, whose Bᵀ z
   * alternates node by node, where A acts like its diagonal. The smooth pressures that Ŝ treats
   * well are orthogonal to Z (the patterns have zero mean on every family and are orthogonal to
   * linear functions), so the two parts add.
   *
   * S_c⁻¹ is approximated by a fixed number of AMG-preconditioned Richardson steps (a linear
   * operator, as GMRES needs), ML with one constant near-null mode per sign pattern. On box meshes
   * S_c keeps exact near-null modes (the patterns whose envelope varies only across them, e.g.
   * (−1)^{i+j} f(k), cost only C), which one V-cycle resolves poorly: step-44 indentation,
   * K/μ = 5000, first solve: 16³ cells, 77 GMRES iterations with one cycle (no modes) vs 47 with a
   * direct coarse solve; 32³ cells, 63 with the 3 cycles used here vs 53 direct
   * (benchmarks/README.md).
   */
  class CheckerboardCorrection
  {
  public:
    using Matrix = dealii::TrilinosWrappers::SparseMatrix;
    using Vector = dealii::TrilinosWrappers::MPI::Vector;

    /// Builds S_c from the displacement block @p A (K_uu) and the blocks' B, C and Z; S_c⁻¹ is
    /// applied as @p coarse_cycles AMG-Richardson steps.
    CheckerboardCorrection(const Matrix &A, const PressureBlocks &blocks, unsigned int coarse_cycles);

    /// dst += Z S_c⁻¹ Zᵀ src (pressure vectors).
    void vmult_add(Vector &dst, const Vector &src) const;

  private:
    const Matrix                             &Z;
    const unsigned int                        coarse_cycles;
    Matrix                                    coarse;
    dealii::TrilinosWrappers::PreconditionAMG amg;
    mutable Vector                            z_src, z_dst, z_residual, z_update, correction;
  };
} // namespace hydrostat
