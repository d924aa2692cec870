#pragma once

#include <deal.II/base/tensor.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <vector>

namespace hydrostat
{
  using dealii::Tensor;

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
    /// Moves the values of each φ_i onto φ_target[i] (same component): φ̃_j = Σ_{target[i] = j} φ_i,
    /// a partition of unity again (the modified mass of theory.md eq. (72)).
    void move_onto(const std::vector<unsigned int> &target);

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
  /// The same with the functions of @p shapes.
  void vector_values(const CellShapes &shapes, const dealii::Vector<double> &local, std::vector<Tensor<1, 3>> &values);

  /**
   * The derivative of the current area vector per reference area, a = J F^{-T} N (Nanson), with
   * respect to the DoF whose shape function has gradient @p grad (Grad φ) and component @p c:
   * ∂a/∂u = J [(F^{-T} Grad φ)_c m − m_c F^{-T} Grad φ], m = F^{-T} N (theory.md eq. (5)). Follower
   * pressure and water drag both act on a.
   */
  Tensor<1, 3> area_vector_derivative(const Tensor<2, 3> &F_inv_T, const Tensor<1, 3> &m, const double J,
                                      const Tensor<1, 3> &grad, const unsigned int c);


} // namespace hydrostat
