#include <hydrostat/materials/nominal_stress.h>

namespace hydrostat
{
  NominalStressTangent nominal_from_kirchhoff(const Tensor<2, 3> &F, const SymmetricTensor<2, 3> &tau,
                                              const SymmetricTensor<4, 3> &Jc)
  {
    const Tensor<2, 3> F_inv = dealii::invert(F);

    // Read from full copies: an element of a SymmetricTensor is found through an index table.
    const Tensor<2, 3> t(tau);
    const Tensor<4, 3> c(Jc);

    NominalStressTangent result;
    result.P = t * dealii::transpose(F_inv);

    // B_ijkL = (Jc_ijkl + δ_ik τ_jl) F^{-1}_Ll, then A_iJkL = F^{-1}_Jj B_ijkL.
    Tensor<4, 3> B;
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int j = 0; j < 3; ++j)
        for (unsigned int k = 0; k < 3; ++k)
          for (unsigned int L = 0; L < 3; ++L)
            {
              double sum = 0.0;
              for (unsigned int l = 0; l < 3; ++l)
                sum += (c[i][j][k][l] + (i == k ? t[j][l] : 0.0)) * F_inv[L][l];
              B[i][j][k][L] = sum;
            }
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int J = 0; J < 3; ++J)
        for (unsigned int k = 0; k < 3; ++k)
          for (unsigned int L = 0; L < 3; ++L)
            {
              double sum = 0.0;
              for (unsigned int j = 0; j < 3; ++j)
                sum += F_inv[J][j] * B[i][j][k][L];
              result.A[i][J][k][L] = sum;
            }
    return result;
  }
} // namespace hydrostat
