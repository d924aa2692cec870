#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>

#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * The finite element for the displacement and how the volumetric response is treated
   * (subsection "Finite element").
   *
   * - `displacement`: Q_k displacement only; W(F) as it stands. Locks for K ≫ μ with k = 1.
   * - `three-field`: Hu–Washizu (u, p̃, J̃) with Q_k displacement and discontinuous P_{k−1}
   *   pressure p̃ and dilatation J̃ (Simo, Taylor & Pister 1985; deal.II step-44). The cell
   *   equations ∫ψ (J − J̃) = 0 and ∫ψ (U'(J̃) − p̃) = 0 give J̃ as the L² projection of J and
   *   p̃ as the projection of U'(J̃), so p̃ and J̃ are explicit functions of u on each cell and
   *   are condensed exactly: the global system stays displacement-only, with the tangent
   *   K̄ = K_uu + K_up M⁻¹ K_JJ M⁻¹ K_pu. Only the volumetric energy U is replaced; the
   *   isochoric tissue response and all fibre stresses act on F as they stand (fibre stresses are
   *   kept out of the volumetric–isochoric split, so a fibre's stretch is the real one).
   */
  struct Formulation
  {
    enum class Type
    {
      displacement,
      three_field
    };

    Type         type   = Type::displacement;
    unsigned int degree = 1;

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    /// Number of P_{k−1} functions for p̃ and J̃ on a cell.
    unsigned int n_pressure_functions() const;

    /// Their values at reference point @p xi: monomials ξ^a η^b ζ^c (a + b + c ≤ k − 1) of the
    /// coordinates centred at the cell centre.
    void pressure_basis(const dealii::Point<3> &xi, std::vector<double> &values) const;
  };
} // namespace hydrostat
