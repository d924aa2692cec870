#include <hydrostat/inverse/box_qp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
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

    /// x of ½ xᵀH x + gᵀx with the held unknowns at their bounds and the free ones at the
    /// stationary point (Cholesky on the free block), or nothing if that block is singular.
    std::optional<std::vector<double>> stationary(const dealii::FullMatrix<double> &H, const std::vector<double> &g,
                                                  const std::vector<double> &lower, const std::vector<double> &upper,
                                                  const std::vector<Hold> &hold)
    {
      const unsigned int        n = g.size();
      std::vector<double>       x(n, 0.0);
      std::vector<unsigned int> free;
      for (unsigned int i = 0; i < n; ++i)
        if (hold[i] == Hold::free)
          free.push_back(i);
        else
          x[i] = hold[i] == Hold::lower ? lower[i] : upper[i];
      const unsigned int m = free.size();
      // H_FF x_F = −(g_F + H_FB x_B)
      std::vector<double> L(m * m, 0.0), b(m);
      double              largest = 0;
      for (unsigned int a = 0; a < m; ++a)
        {
          b[a] = -g[free[a]];
          for (unsigned int j = 0; j < n; ++j)
            if (hold[j] != Hold::free)
              b[a] -= H(free[a], j) * x[j];
          largest = std::max(largest, std::abs(H(free[a], free[a])));
        }
      for (unsigned int a = 0; a < m; ++a)
        for (unsigned int c = 0; c <= a; ++c)
          {
            double sum = H(free[a], free[c]);
            for (unsigned int k = 0; k < c; ++k)
              sum -= L[a * m + k] * L[c * m + k];
            if (a == c)
              {
                if (sum <= 1e-13 * largest)
                  return std::nullopt;
                L[a * m + a] = std::sqrt(sum);
              }
            else
              L[a * m + c] = sum / L[c * m + c];
          }
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
    const unsigned int n          = g.size();
    unsigned int       candidates = 1;
    for (unsigned int i = 0; i < n; ++i)
      candidates *= 3;
    std::vector<std::vector<Hold>> holds(candidates, std::vector<Hold>(n));
    for (unsigned int c = 0; c < candidates; ++c)
      for (unsigned int i = 0, code = c; i < n; ++i, code /= 3)
        holds[c][i] = Hold(code % 3);
    std::stable_sort(holds.begin(), holds.end(), [](const auto &a, const auto &b) {
      return std::count(a.begin(), a.end(), Hold::free) > std::count(b.begin(), b.end(), Hold::free);
    });

    // Tolerances of the conditions on the scale of the problem.
    double scale = 0, width = 0;
    for (unsigned int i = 0; i < n; ++i)
      {
        scale = std::max({scale, std::abs(g[i]), std::abs(H(i, i)) * (upper[i] - lower[i])});
        width = std::max(width, upper[i] - lower[i]);
      }
    const double x_tolerance = 1e-12 * std::max(width, 1.0), gradient_tolerance = 1e-10 * scale;
    for (const std::vector<Hold> &hold : holds)
      {
        const auto x = stationary(H, g, lower, upper, hold);
        if (!x)
          continue;
        bool optimal = true;
        for (unsigned int i = 0; i < n && optimal; ++i)
          {
            double gradient = g[i];
            for (unsigned int j = 0; j < n; ++j)
              gradient += H(i, j) * (*x)[j];
            // Free: inside the box; held at the lower bound: the objective grows inwards, at the upper
            // bound likewise (the multipliers' signs).
            optimal = hold[i] == Hold::free  ? (*x)[i] >= lower[i] - x_tolerance && (*x)[i] <= upper[i] + x_tolerance :
                      hold[i] == Hold::lower ? gradient >= -gradient_tolerance :
                                               gradient <= gradient_tolerance;
          }
        if (optimal)
          {
            std::vector<double> clipped = *x;
            for (unsigned int i = 0; i < n; ++i)
              clipped[i] = std::clamp(clipped[i], lower[i], upper[i]);
            return clipped;
          }
      }
    throw std::runtime_error("The quadratic programme of the activations has no minimiser: its matrix is singular.");
  }
} // namespace hydrostat
