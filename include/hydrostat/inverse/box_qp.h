#pragma once

#include <deal.II/lac/full_matrix.h>

#include <vector>

namespace hydrostat
{
  /**
   * The minimiser of ½ xᵀH x + gᵀx over the box lower ≤ x ≤ upper, for a small symmetric positive
   * (semi-)definite H (one unknown per exciter of the inverse run, theory.md eq. (75)), by a primal
   * active-set search: a few Cholesky solves on the free unknowns, for any number of exciters. The
   * convex problem has exactly one point that satisfies the optimality (KKT) conditions when H is
   * definite; a singular H gives one of its minimisers on the box.
   */
  std::vector<double> minimise_on_box(const dealii::FullMatrix<double> &H, const std::vector<double> &g,
                                      const std::vector<double> &lower, const std::vector<double> &upper);
} // namespace hydrostat
