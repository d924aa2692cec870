#pragma once

#include <deal.II/lac/full_matrix.h>

#include <vector>

namespace hydrostat
{
  /**
   * The minimiser of ½ xᵀH x + gᵀx over the box lower ≤ x ≤ upper, for a small symmetric positive
   * definite H (one unknown per exciter of the inverse run, theory.md eq. (75)). The convex
   * problem has exactly one point that satisfies the optimality (KKT) conditions; with n ≤ 6
   * unknowns it is found by trying the 3ⁿ ≤ 729 ways of holding each unknown free, at its lower
   * or at its upper bound, fewest held first. A singular H (positive semi-definite) gives one of
   * its minimisers on the box.
   */
  std::vector<double> minimise_on_box(const dealii::FullMatrix<double> &H, const std::vector<double> &g,
                                      const std::vector<double> &lower, const std::vector<double> &upper);
} // namespace hydrostat
