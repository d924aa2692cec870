#include <hydrostat/linalg/checkerboard_correction.h>
#include <hydrostat/linalg/pressure_blocks.h>

namespace hydrostat
{
  using namespace dealii;

  CheckerboardCorrection::CheckerboardCorrection(const Matrix &A, const PressureBlocks &blocks,
                                                 const unsigned int coarse_cycles)
    : Z(*blocks.checkerboard_basis())
    , coarse_cycles(coarse_cycles)
  {
    const MPI_Comm comm = A.get_mpi_communicator();
    Vector         d_inv(A.locally_owned_range_indices(), comm);
    for (const auto i : A.locally_owned_range_indices())
      if (const double a = A.diag_element(i); a != 0.0)
        d_inv[i] = 1.0 / a;
    d_inv.compress(VectorOperation::insert);

    Matrix Bt_Z, C_Z, Zt_C_Z;
    blocks.B().Tmmult(Bt_Z, Z);       // Bᵀ Z
    Bt_Z.Tmmult(coarse, Bt_Z, d_inv); // Zᵀ B D⁻¹ Bᵀ Z
    blocks.C().mmult(C_Z, Z);
    Z.Tmmult(Zt_C_Z, C_Z); // Zᵀ C Z: within families, in the pattern of the above
    coarse.add(1.0, Zt_C_Z);

    // One constant mode per sign pattern (PressureBlocks numbers Z's columns 4 per family, so the
    // pattern of a column is its index mod 4). The threshold 0.05 drops the weak couplings
    // across the patterns' near-null directions: 72 → 63 GMRES iterations at 32³ cells.
    TrilinosWrappers::PreconditionAMG::AdditionalData data;
    data.elliptic              = true;
    data.aggregation_threshold = 0.05;
    const IndexSet owned       = coarse.locally_owned_range_indices();
    data.constant_modes.assign(4, std::vector<bool>(owned.n_elements(), false));
    for (unsigned int k = 0; k < owned.n_elements(); ++k)
      data.constant_modes[owned.nth_index_in_set(k) % 4][k] = true;
    amg.initialize(coarse, data);
    z_src.reinit(owned, comm);
    z_dst.reinit(z_src);
    z_residual.reinit(z_src);
    z_update.reinit(z_src);
    correction.reinit(Z.locally_owned_range_indices(), comm);
  }

  void CheckerboardCorrection::vmult_add(Vector &dst, const Vector &src) const
  {
    Z.Tvmult(z_src, src);
    amg.vmult(z_dst, z_src);
    for (unsigned int k = 1; k < coarse_cycles; ++k)
      {
        coarse.residual(z_residual, z_dst, z_src);
        amg.vmult(z_update, z_residual);
        z_dst += z_update;
      }
    Z.vmult(correction, z_dst);
    dst += correction;
  }
} // namespace hydrostat
