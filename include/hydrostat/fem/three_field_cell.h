#pragma once

#include <deal.II/base/quadrature.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <hydrostat/fem/cell_kernels.h>
#include <hydrostat/fem/formulation.h>
#include <hydrostat/materials/tissue_law.h>

#include <vector>

namespace hydrostat
{
  /**
   * The three-field element on one cell (Formulation): J̃ = Π J and p̃ = Π U'(J̃), Π the L²
   * projection onto the discontinuous pressure space P_{k−1}, at the quadrature points, with the
   * matrices M = ∫ ψ ψᵀ and K_JJ = ∫ ψ U''(J̃) ψᵀ of the condensation. Assembly, energy and output
   * all take the volumetric response from here.
   */
  class ThreeFieldCell
  {
  public:
    ThreeFieldCell(const Formulation &formulation, const dealii::Quadrature<3> &quadrature);

    /// Projects @p J (at the points of @p fe_values) with the volumetric energy of @p law.
    void reinit(const dealii::FEValues<3> &fe_values, const std::vector<double> &J, const TissueLaw &law);

    /**
     * J̃ and p̃ from given coefficients @p j, @p p (an iterate of the mixed Newton iteration,
     * CondensedFields), with the local residuals R_p = ∫ ψ (J − J̃) dV and R_J = ∫ ψ (U'(J̃) − p̃) dV
     * of eq. (12); the projection above is the case R_p = R_J = 0.
     */
    void reinit(const dealii::FEValues<3> &fe_values, const std::vector<double> &J, const TissueLaw &law,
                const dealii::Vector<double> &j, const dealii::Vector<double> &p);

    /**
     * The local residuals condensed into the displacement residual, f_i += (K_up w)_i with
     * w = M⁻¹ (K_JJ M⁻¹ R_p + R_J) (theory.md eq. (14b)); zero after a projection.
     */
    void add_condensed_residual(const dealii::FullMatrix<double> &K_up, dealii::Vector<double> &f);

    /**
     * The operators that map a displacement update δu of the cell to the updates of its
     * coefficients, δj = A δu + a, δp = B δj + b (theory.md eq. (14b)): A = M⁻¹ K_upᵀ,
     * a = M⁻¹ R_p, B = M⁻¹ K_JJ, b = M⁻¹ R_J.
     */
    void local_update(const dealii::FullMatrix<double> &K_up, dealii::FullMatrix<double> &A, dealii::Vector<double> &a,
                      dealii::FullMatrix<double> &B, dealii::Vector<double> &b);

    /**
     * Adds the coupling of the displacement to the projected dilatation at point @p q,
     * (K_up)_ia += J F^{-T} : Grad φ_i ψ_a dV (theory.md eq. (14)), F^{-T} given as @p F_inv_T.
     */
    void add_coupling(const CellShapes &shapes, const unsigned int q, const double J, const Tensor<2, 3> &F_inv_T,
                      dealii::FullMatrix<double> &K_up) const;

    /// The condensed tangent K̄ = K_uu + K_up G K_upᵀ, G = M⁻¹ K_JJ M⁻¹ (theory.md eq. (14)), in @p K.
    void condense(const dealii::FullMatrix<double> &K_up, dealii::FullMatrix<double> &K);

    /// G⁻¹ = M K_JJ⁻¹ M, the pressure block of the uncondensed tangent (block preconditioner).
    void pressure_compliance(dealii::FullMatrix<double> &C);

    /// ∫ U(J̃) dV, the volumetric energy of the element.
    double volumetric_energy() const { return energy; }
    /// ∫ p̃ dV / ∫ dV.
    double mean_pressure() const { return pressure_integral / volume; }

    std::vector<std::vector<double>> psi; // ψ_a at each quadrature point
    std::vector<double>              J_tilde, p_tilde;
    dealii::FullMatrix<double>       M, M_inv, K_JJ;
    dealii::Vector<double>           j_coeff, p_coeff; // j, p of eq. (13)
    dealii::Vector<double>           R_p, R_J;         // local residuals of eq. (12)

  private:
    /// Both reinit(): projects j (p) unless @p j_given (@p p_given) is set.
    void evaluate(const dealii::FEValues<3> &fe_values, const std::vector<double> &J, const TissueLaw &law,
                  const dealii::Vector<double> *j_given, const dealii::Vector<double> *p_given);

    dealii::Vector<double>     b, w;
    dealii::FullMatrix<double> G, tmp, K_up_G;
    double                     energy = 0, pressure_integral = 0, volume = 0;
  };
} // namespace hydrostat
