#include <hydrostat/inverse/box_qp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace hydrostat
{
  namespace
  {
    enum class Hold
    {
      free,
      lower,
      upper
    };

    /// The stationary point of ½ xᵀH x + gᵀx in the free unknowns with the held ones at their
    /// bounds: H_FF x_F = −(g_F + H_FB x_B) by Cholesky. A singular (semi-definite) H_FF gets a
    /// shift of 1e-12 of its largest diagonal entry, which picks a minimiser along the flat
    /// directions or, where the objective falls without end, a far point that the box then cuts.
    std::vector<double> stationary(const dealii::FullMatrix<double> &H, const std::vector<double> &g,
                                   const std::vector<double> &x_held, const std::vector<Hold> &hold)
    {
      const unsigned int        n = g.size();
      std::vector<double>       x = x_held;
      std::vector<unsigned int> free;
      for (unsigned int i = 0; i < n; ++i)
        if (hold[i] == Hold::free)
          free.push_back(i);
      const unsigned int  m = free.size();
      std::vector<double> b(m);
      double              largest = 0;
      for (unsigned int a = 0; a < m; ++a)
        {
          b[a] = -g[free[a]];
          for (unsigned int j = 0; j < n; ++j)
            if (hold[j] != Hold::free)
              b[a] -= H(free[a], j) * x[j];
          largest = std::max(largest, std::abs(H(free[a], free[a])));
        }
      const auto cholesky = [&](const double shift, std::vector<double> &L) {
        for (unsigned int a = 0; a < m; ++a)
          for (unsigned int c = 0; c <= a; ++c)
            {
              double sum = H(free[a], free[c]) + (a == c ? shift : 0.0);
              for (unsigned int k = 0; k < c; ++k)
                sum -= L[a * m + k] * L[c * m + k];
              if (a == c)
                {
                  if (sum <= 1e-13 * largest)
                    return false;
                  L[a * m + a] = std::sqrt(sum);
                }
              else
                L[a * m + c] = sum / L[c * m + c];
            }
        return true;
      };
      std::vector<double> L(m * m, 0.0);
      if (!cholesky(0.0, L) && !cholesky(1e-12 * std::max(largest, 1e-300), L))
        throw std::runtime_error("The quadratic programme of the activations has no minimiser: its matrix is "
                                 "not positive semi-definite.");
      for (unsigned int a = 0; a < m; ++a) // L y = b
        {
          for (unsigned int k = 0; k < a; ++k)
            b[a] -= L[a * m + k] * b[k];
          b[a] /= L[a * m + a];
        }
      for (unsigned int a = m; a-- > 0;) // Lᵀ x = y
        {
          for (unsigned int k = a + 1; k < m; ++k)
            b[a] -= L[k * m + a] * b[k];
          b[a] /= L[a * m + a];
        }
      for (unsigned int a = 0; a < m; ++a)
        x[free[a]] = b[a];
      return x;
    }
  } // namespace

  std::vector<double> minimise_on_box(const dealii::FullMatrix<double> &H, const std::vector<double> &g,
                                      const std::vector<double> &lower, const std::vector<double> &upper)
  {
    const unsigned int n = g.size();
    // Tolerances of the conditions on the scale of the problem.
    double scale = 0, width = 0;
    for (unsigned int i = 0; i < n; ++i)
      {
        scale = std::max({scale, std::abs(g[i]), std::abs(H(i, i)) * (upper[i] - lower[i])});
        width = std::max(width, upper[i] - lower[i]);
      }
    const double x_tolerance = 1e-12 * std::max(width, 1.0), gradient_tolerance = 1e-10 * scale;

    // Primal active set (Nocedal & Wright 2006, Algorithm 16.3, for bounds): from the feasible
    // point nearest 0, step towards the stationary point of the free unknowns, hold the first bound
    // that blocks the step, and at a stationary point release the held unknown whose multiplier
    // (its gradient component) has the wrong sign. Each working set lowers the objective, so none
    // repeats and the search ends at the one KKT point of a convex problem.
    std::vector<double> x(n);
    std::vector<Hold>   hold(n, Hold::free);
    for (unsigned int i = 0; i < n; ++i)
      {
        x[i]    = std::clamp(0.0, lower[i], upper[i]);
        hold[i] = x[i] == lower[i] ? Hold::lower : x[i] == upper[i] ? Hold::upper : Hold::free;
      }
    for (unsigned int iteration = 0; iteration < 10 * n + 20; ++iteration)
      {
        const std::vector<double> y     = stationary(H, g, x, hold);
        double                    alpha = 1, moved = 0;
        int                       blocking = -1;
        for (unsigned int i = 0; i < n; ++i)
          if (hold[i] == Hold::free)
            {
              const double p    = y[i] - x[i];
              moved             = std::max(moved, std::abs(p));
              const double room = p < 0 ? lower[i] - x[i] : upper[i] - x[i];
              if (p != 0 && room / p < alpha)
                {
                  alpha    = std::max(room / p, 0.0);
                  blocking = i;
                }
            }
        if (moved > x_tolerance)
          {
            for (unsigned int i = 0; i < n; ++i)
              if (hold[i] == Hold::free)
                x[i] += alpha * (y[i] - x[i]);
            if (blocking >= 0)
              {
                hold[blocking] = y[blocking] < x[blocking] ? Hold::lower : Hold::upper;
                x[blocking]    = hold[blocking] == Hold::lower ? lower[blocking] : upper[blocking];
              }
            continue;
          }
        // Stationary in the free unknowns: a held one whose gradient points out of the box
        // (a negative multiplier) is released, the most negative first.
        int    release = -1;
        double worst   = gradient_tolerance;
        for (unsigned int i = 0; i < n; ++i)
          if (hold[i] != Hold::free)
            {
              double gradient = g[i];
              for (unsigned int j = 0; j < n; ++j)
                gradient += H(i, j) * x[j];
              const double wrong = hold[i] == Hold::lower ? -gradient : gradient;
              if (wrong > worst)
                {
                  worst   = wrong;
                  release = i;
                }
            }
        if (release < 0)
          return x;
        hold[release] = Hold::free;
      }
    throw std::runtime_error("The quadratic programme of the activations did not find its minimiser in " +
                             std::to_string(10 * n + 20) + " active-set iterations.");
  }
} // namespace hydrostat
