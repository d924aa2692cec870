// The box-constrained quadratic programme of the inverse run (theory.md eq. (75)) against
// minimisers known in closed form, and against every point of a fine grid of the box.
#include <hydrostat/inverse/box_qp.h>

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

using namespace hydrostat;

namespace
{
  dealii::FullMatrix<double> matrix(const std::vector<std::vector<double>> &rows)
  {
    dealii::FullMatrix<double> H(rows.size(), rows.size());
    for (unsigned int i = 0; i < rows.size(); ++i)
      for (unsigned int j = 0; j < rows.size(); ++j)
        H(i, j) = rows[i][j];
    return H;
  }

  double objective(const dealii::FullMatrix<double> &H, const std::vector<double> &g, const std::vector<double> &x)
  {
    double f = 0;
    for (unsigned int i = 0; i < x.size(); ++i)
      {
        f += g[i] * x[i];
        for (unsigned int j = 0; j < x.size(); ++j)
          f += 0.5 * x[i] * H(i, j) * x[j];
      }
    return f;
  }
} // namespace

TEST(BoxQP, InteriorMinimiserIsTheStationaryPoint)
{
  // H x = −g at x = (0.2, 0.3).
  const auto H = matrix({{2, 1}, {1, 3}});
  const auto x = minimise_on_box(H, {-0.7, -1.1}, {0, 0}, {1, 1});
  EXPECT_NEAR(x[0], 0.2, 1e-14);
  EXPECT_NEAR(x[1], 0.3, 1e-14);
}

TEST(BoxQP, BoundsHoldWhereTheStationaryPointLiesOutside)
{
  // Separable: x_i = clamp(−g_i/H_ii, l_i, u_i).
  const auto x = minimise_on_box(matrix({{1, 0, 0}, {0, 2, 0}, {0, 0, 4}}), {1, -4, -2}, {0, 0, 0}, {1, 1, 1});
  EXPECT_EQ(x[0], 0.0);
  EXPECT_EQ(x[1], 1.0);
  EXPECT_NEAR(x[2], 0.5, 1e-14);
}

TEST(BoxQP, CoupledMinimiserIsNoWorseThanAnyPointOfAGrid)
{
  // Three coupled unknowns whose stationary point (−1.69, 2.92, 2.33) lies outside [0, 1]³.
  const auto                H = matrix({{4, 1.5, 0.5}, {1.5, 3, -1}, {0.5, -1, 2}});
  const std::vector<double> g{1.2, -3.9, -0.9};
  const auto                x    = minimise_on_box(H, g, {0, 0, 0}, {1, 1, 1});
  const double              best = objective(H, g, x);
  for (unsigned int i = 0; i <= 40; ++i)
    for (unsigned int j = 0; j <= 40; ++j)
      for (unsigned int k = 0; k <= 40; ++k)
        EXPECT_LE(best, objective(H, g, {i / 40.0, j / 40.0, k / 40.0}) + 1e-14);
  for (const double xi : x)
    {
      EXPECT_GE(xi, 0.0);
      EXPECT_LE(xi, 1.0);
    }
}

TEST(BoxQP, SingularMatrixGivesAMinimiserOfTheBox)
{
  // ½ (x0 + x1)² − (x0 + x1): every point with x0 + x1 = 1 is a minimiser (f = −½).
  const auto H = matrix({{1, 1}, {1, 1}});
  const auto x = minimise_on_box(H, {-1, -1}, {-10, -10}, {10, 10});
  EXPECT_NEAR(objective(H, {-1, -1}, x), -0.5, 1e-14);
}

TEST(BoxQP, ManyUnknownsMeetTheOptimalityConditions)
{
  // Twelve unknowns with half of the stationary point outside the box: at the minimiser every
  // free unknown has a zero gradient, every one at a bound a gradient that points outwards.
  const unsigned int         n = 12;
  dealii::FullMatrix<double> H(n, n);
  std::vector<double>        g(n), lower(n, 0.0), upper(n, 1.0);
  for (unsigned int i = 0; i < n; ++i)
    {
      for (unsigned int j = 0; j < n; ++j)
        H(i, j) = std::cos(0.7 * i + 1.3 * j) * std::cos(0.4 * j + 0.9 * i) +
                  std::cos(0.7 * j + 1.3 * i) * std::cos(0.4 * i + 0.9 * j);
      H(i, i) += 6; // smallest eigenvalue 0.47
      g[i] = 6 * std::sin(2.1 * i);
    }
  const auto   x        = minimise_on_box(H, g, lower, upper);
  unsigned int at_bound = 0;
  for (unsigned int i = 0; i < n; ++i)
    {
      double gradient = g[i];
      for (unsigned int j = 0; j < n; ++j)
        gradient += H(i, j) * x[j];
      if (x[i] == lower[i])
        EXPECT_GE(gradient, -1e-12);
      else if (x[i] == upper[i])
        EXPECT_LE(gradient, 1e-12);
      else
        {
          EXPECT_NEAR(gradient, 0.0, 1e-12);
          EXPECT_GT(x[i], lower[i]);
          EXPECT_LT(x[i], upper[i]);
        }
      at_bound += x[i] == lower[i] || x[i] == upper[i];
    }
  EXPECT_GE(at_bound, 4u);
  EXPECT_LE(at_bound, 10u);
}
