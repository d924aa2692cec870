#include <deal.II/base/exceptions.h>

#include <hydrostat/fem/formulation.h>

#include <cmath>

namespace hydrostat
{
  using namespace dealii;

  void Formulation::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Finite element");
    prm.declare_entry("Formulation", "three-field", Patterns::Selection("displacement|three-field"),
                      "displacement: pure displacement Q_k (locks when nearly incompressible); three-field: "
                      "Q_k / P_{k-1} / P_{k-1} Hu-Washizu element with p and J condensed per cell.");
    prm.declare_entry("Polynomial degree", "1", Patterns::Integer(1, 3), "Degree k of the displacement.");
    prm.leave_subsection();
  }

  void Formulation::parse_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Finite element");
    type   = prm.get("Formulation") == "displacement" ? Type::displacement : Type::three_field;
    degree = prm.get_integer("Polynomial degree");
    prm.leave_subsection();
  }

  unsigned int Formulation::n_pressure_functions() const
  {
    const unsigned int d = degree - 1;
    return (d + 1) * (d + 2) * (d + 3) / 6;
  }

  void Formulation::pressure_basis(const Point<3> &xi, std::vector<double> &values) const
  {
    values.resize(n_pressure_functions());
    const int    d = degree - 1;
    unsigned int n = 0;
    for (int total = 0; total <= d; ++total)
      for (int a = total; a >= 0; --a)
        for (int b = total - a; b >= 0; --b)
          {
            const int c = total - a - b;
            values[n++] = std::pow(xi[0] - 0.5, a) * std::pow(xi[1] - 0.5, b) * std::pow(xi[2] - 0.5, c);
          }
  }
} // namespace hydrostat
