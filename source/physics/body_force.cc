#include <hydrostat/physics/body_force.h>

#include <cmath>

namespace hydrostat
{
  using namespace dealii;

  void BodyForce::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Boundary conditions");
    prm.declare_entry("Body acceleration", "0; 0; 0", Patterns::Anything(),
                      "Gravity g [m/s^2] (three expressions of x, y, z, t); body force rho0 g.");
    prm.leave_subsection();
  }

  std::vector<std::unique_ptr<Term>> BodyForce::create(ParameterHandler &prm, const TermSetup &setup)
  {
    prm.enter_subsection("Boundary conditions");
    auto g =
      std::make_unique<SpaceTimeFunction>(prm.get("Body acceleration"), 3, "Boundary conditions/Body acceleration");
    prm.leave_subsection();
    std::vector<std::unique_ptr<Term>> terms;
    terms.push_back(std::make_unique<BodyForce>(setup.materials, std::move(g)));
    return terms;
  }

  BodyForce::BodyForce(const TissueMaterials &materials, std::unique_ptr<SpaceTimeFunction> acceleration)
    : materials(materials)
    , g(std::move(acceleration))
  {}

  void BodyForce::add_point(const CellState &cell, const unsigned int q, CellContribution &out) const
  {
    const Point<3>    &X     = cell.fe_values.quadrature_point(q);
    const Tensor<1, 3> value = g->vector_value(X, cell.step.t);
    if (!std::isfinite(value.norm_square()) && out.bad_input.empty())
      out.bad_input = g->check_finite(X, cell.step.t);
    add_volume_force(cell.shapes, q, materials[cell.cell->material_id()].density * value, out.external);
  }
} // namespace hydrostat
