// The inverse run against a closed form (theory.md §16, issue 28): the Mooney–Rivlin cylinder of
// tests/cases/active_cylinder.cc with axial fibres of the constant law (σ = σmax fa), free ends and
// free lateral surface, deforms homogeneously; the activation fa0 gives the axial stretch λ(fa0)
// of the closed form (closed_forms.h). Targeting the end's displacement (λ(fa0) − 1) L t in four
// quasi-static steps, the inverse run must return fa0 at t = 1 to 1e-6 relative.
// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 30
#include <hydrostat/base/number_text.h>
#include <hydrostat/muscle/closed_forms.h>

#include <gtest/gtest.h>

#include "active_cylinder.h"
#include "case_builder.h"

#include <fstream>
#include <iomanip>
#include <sstream>

using namespace hydrostat;

namespace
{
  constexpr double L = 0.02, sigma_max = 6e3, fa0 = 0.37;

  /// The last row of a CSV file.
  std::vector<double> last_row(const std::string &path)
  {
    std::ifstream file(path);
    EXPECT_TRUE(file) << path;
    std::string line, last;
    while (std::getline(file, line))
      if (!line.empty())
        last = line;
    std::vector<double> values;
    std::stringstream   row(last);
    for (std::string cell; std::getline(row, cell, ',');)
      values.push_back(std::stod(cell));
    return values;
  }
} // namespace

TEST(InverseActiveCylinder, ReturnsTheActivationOfTheClosedForm)
{
  MooneyRivlin::Parameters tissue;
  tissue.c1                     = 1e3;
  tissue.c2                     = 4e2;
  tissue.K                      = 2.8e6;
  const CylinderStretches exact = active_cylinder(tissue, 0.0, sigma_max * fa0);
  const double            u_end = (exact.axial - 1) * L;
  test_support::Case c(test_support::active_cylinder("three-field", "longitudinal", "      set Source = controlled\n",
                                                     R"(
subsection Inverse
  set Enabled = true
  set Markers = 0, 0, 0.02
  set Components = z
  set Target displacements = 0; 0; )" + shortest_text(u_end) +
                                                       R"( * t
  set Tolerance = 1e-10
  set Maximum updates = 8
end
subsection Output
  set Directory = inverse_active_cylinder
  set Verbosity = quiet
end
)"));
  ASSERT_EQ(c.simulation->run(), Simulation::Outcome::finished) << c.log.str();
  const auto row = last_row("inverse_active_cylinder/solution_inverse.csv"); // time, fibres, error_0, updates
  ASSERT_EQ(row.size(), 4u);
  std::cout << std::setprecision(12) << "fa = " << row[1] << " (closed form " << fa0 << "), marker error " << row[2]
            << " m, " << row[3] << " updates in the last step, end displacement " << u_end << " m" << std::endl;
  EXPECT_NEAR(row[0], 1.0, 1e-12);
  EXPECT_NEAR(row[1], fa0, 1e-6 * fa0);
  EXPECT_LT(row[2], 1e-9 * L);
  EXPECT_LT(std::abs(exact.axial - 1), 1.0); // a substantial shortening
  EXPECT_GT(1 - exact.axial, 0.05);
}
