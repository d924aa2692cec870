#include <deal.II/base/exceptions.h>

#include <hydrostat/muscle/closed_forms.h>

#include <cmath>

namespace hydrostat
{
  namespace
  {
    /**
     * Root of a scalar function that changes sign once near x0 > 0: bracket by widening
     * [x0/q, x0 q] geometrically, then bisect to round-off. Robust and exact enough for
     * reference values; speed does not matter here.
     */
    template <typename Function>
    double find_root(const Function &f, const double x0)
    {
      double lo = x0, hi = x0;
      for (double q = 1.01; f(lo) * f(hi) > 0.0; q *= q)
        {
          AssertThrow(q < 1e100, dealii::ExcMessage("Closed form: no sign change found."));
          lo = x0 / q;
          hi = x0 * q;
        }
      const bool rising = f(hi) > 0.0;
      for (unsigned int it = 0; it < 200 && hi - lo > 2e-16 * hi; ++it)
        {
          const double mid                     = 0.5 * (lo + hi);
          ((f(mid) > 0.0) == rising ? hi : lo) = mid;
        }
      return 0.5 * (lo + hi);
    }
  } // namespace

  CylinderStretches incompressible_active_cylinder(const MooneyRivlin::Parameters &tissue,
                                                   const double                    transverse_fibre_stress,
                                                   const double                    axial_fibre_stress)
  {
    const double c1 = tissue.c1, c2 = tissue.c2;
    const auto   residual = [&](const double l) {
      return 2.0 * (l * l - 1.0 / l) * (c1 + c2 / l) - transverse_fibre_stress / std::sqrt(l) + axial_fibre_stress * l;
    };
    const double axial = find_root(residual, 1.0);
    return {1.0 / std::sqrt(axial), axial};
  }

  CylinderStretches active_cylinder(const MooneyRivlin::Parameters &tissue, const double transverse_fibre_stress,
                                    const double axial_fibre_stress)
  {
    const double c1 = tissue.c1, c2 = tissue.c2, K = tissue.K;
    const double Tr = transverse_fibre_stress, Tz = axial_fibre_stress;
    // Given λr = a, the volumetric equation is a quadratic in J; its root near 1:
    // 3K J² − (3K − Tz/a²) J + 2 Tr a = 0.
    const auto stretches = [&](const double a) {
      const double B            = 3.0 * K - Tz / (a * a);
      const double discriminant = B * B - 24.0 * K * Tr * a;
      AssertThrow(discriminant >= 0.0 && B > 0.0,
                  dealii::ExcMessage("Closed form: fibre stress too large for the bulk modulus."));
      const double J = (B + std::sqrt(discriminant)) / (6.0 * K);
      return CylinderStretches{a, J / (a * a)};
    };
    const auto residual = [&](const double a) {
      const auto   s   = stretches(a);
      const double J   = a * a * s.axial;
      const double j23 = std::pow(J, -2.0 / 3.0);
      return 2.0 * j23 * (s.axial * s.axial - a * a) * (c1 + c2 * j23 * a * a) - Tr * a + Tz * s.axial;
    };
    return stretches(find_root(residual, incompressible_active_cylinder(tissue, Tr, Tz).radial));
  }
} // namespace hydrostat
