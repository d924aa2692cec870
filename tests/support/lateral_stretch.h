#pragma once
// The homogeneous compression of a block between frictionless plates (theory.md §15.4): F =
// diag(s, s, λ) with the lateral stretch s from σ_xx(λ, s) = 0 of the law alone.
#include <hydrostat/materials/mooney_rivlin.h>

#include <cmath>

namespace hydrostat::test_support
{
  inline dealii::Tensor<2, 3> stretch(const double s, const double lambda)
  {
    dealii::Tensor<2, 3> F;
    F[0][0] = F[1][1] = s;
    F[2][2]           = lambda;
    return F;
  }

  /// The lateral stretch s of σ_xx(λ, s) = 0 (Newton on the law's stress).
  inline double lateral_stretch(const MooneyRivlin &law, const double lambda)
  {
    double s = 1.0 / std::sqrt(lambda);
    for (unsigned int it = 0; it < 60; ++it)
      {
        const double h = 1e-7;
        const double f = law.cauchy_stress(stretch(s, lambda))[0][0];
        const double df =
          (law.cauchy_stress(stretch(s + h, lambda))[0][0] - law.cauchy_stress(stretch(s - h, lambda))[0][0]) / (2 * h);
        s -= f / df;
      }
    return s;
  }
} // namespace hydrostat::test_support
