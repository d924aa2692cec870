#pragma once

#include <deal.II/base/quadrature.h>
#include <deal.II/base/tensor.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <hydrostat/materials/tissue_law.h>
#include <hydrostat/solver/boundary_conditions.h>
#include <hydrostat/solver/formulation.h>

#include <vector>

namespace hydrostat
{
  /**
   * Kinematics at the quadrature points of a cell or face: F = I + Grad u, J = det F and, if a
   * velocity is given, Ḟ = Grad v, from the cell's DoF values of the vector-valued displacement
   * element (one place for what was written out per caller).
   */
  class CellKinematics
  {
  public:
    /// F, J at the points of @p fe_values (reinitialised on the cell or face) from @p u_local.
    void reinit(const dealii::FEValuesBase<3> &fe_values, const dealii::Vector<double> &u_local);
    /// Also Ḟ from @p v_local.
    void reinit(const dealii::FEValuesBase<3> &fe_values, const dealii::Vector<double> &u_local,
                const dealii::Vector<double> &v_local);

    /// Whether some point has J ≤ 0.
    bool inverted() const;

    std::vector<Tensor<2, 3>> F, F_dot;
    std::vector<double>       J;
  };

  /**
   * Values and gradients of the vector displacement shape functions at the points of one cell,
   * each φ_i with its one nonzero component c_i (FE_Q^3 is primitive): read once per cell, so
   * that the inner loops of the kernels below index plain arrays instead of asking FEValues.
   */
  class CellShapes
  {
  public:
    void reinit(const dealii::FEValuesBase<3> &fe_values);

    unsigned int                           n_dofs = 0;
    std::vector<unsigned int>              component; // c_i
    std::vector<std::vector<double>>       N;         // [q][i]
    std::vector<std::vector<Tensor<1, 3>>> grad;      // [q][i], Grad N_i
    std::vector<double>                    JxW;       // [q]
  };

  /**
   * The internal-force kernel at point @p q (theory.md eq. (4) and its derivative): adds
   * P : Grad φ_i dV to @p r_i and, if @p K is given, Grad φ_i : A : Grad φ_j dV to K_ij. A is a
   * general fourth-order tensor (no symmetry assumed).
   */
  void add_stress_divergence(const CellShapes &shapes, const unsigned int q, const Tensor<2, 3> &P,
                             const Tensor<4, 3> &A, dealii::Vector<double> &r, dealii::FullMatrix<double> *K);

  /// Adds b·φ_i dV to @p f_i at point @p q: a force per reference volume (inertia, body force).
  void add_volume_force(const CellShapes &shapes, const unsigned int q, const Tensor<1, 3> &b,
                        dealii::Vector<double> &f);

  /// Adds m φ_i·φ_j dV to K_ij at point @p q: a mass per reference volume (ρ0, or ρ0 ∂a/∂u).
  void add_mass(const CellShapes &shapes, const unsigned int q, const double m, dealii::FullMatrix<double> &K);

  /// The vector values Σ_i d_i φ_i at the points of @p fe_values of the cell DoF values @p local.
  void vector_values(const dealii::FEValuesBase<3> &fe_values, const dealii::Vector<double> &local,
                     std::vector<Tensor<1, 3>> &values);

  /**
   * The derivative of the current area vector per reference area, a = J F^{-T} N (Nanson), with
   * respect to the DoF whose shape function has gradient @p grad (Grad φ) and component @p c:
   * ∂a/∂u = J [(F^{-T} Grad φ)_c m − m_c F^{-T} Grad φ], m = F^{-T} N (theory.md eq. (5)). Follower
   * pressure and water drag both act on a.
   */
  Tensor<1, 3> area_vector_derivative(const Tensor<2, 3> &F_inv_T, const Tensor<1, 3> &m, const double J,
                                      const Tensor<1, 3> &grad, const unsigned int c);

  /**
   * The load vector f_i = ∫ t0·φ_i dA of @p load on one boundary face at time @p t, added to @p f,
   * and, if @p K_f is given, its derivative ∂f/∂u added to it (nonzero for the follower pressure
   * only). t0 is the nominal traction: the given vector for a dead traction, t0 = −p cof(F) N =
   * −p J F^{-T} N for a follower pressure p. @p kinematics holds F at the face points (follower
   * pressure only).
   */
  void add_face_load(const BoundaryConditions::Load &load, const dealii::FEFaceValues<3> &fe_face_values,
                     const CellKinematics &kinematics, const double t, dealii::Vector<double> &f,
                     dealii::FullMatrix<double> *K_f);

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
