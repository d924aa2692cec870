#include <hydrostat/physics/inertia.h>

namespace hydrostat
{
  using namespace dealii;

  void Inertia::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Time integration");
    prm.declare_entry("Mass damping", "0", Patterns::Double(0.0),
                      "Rayleigh mass-proportional damping alpha_M [1/s]: force alpha_M M v (dynamic runs).");
    prm.leave_subsection();
  }

  std::vector<std::unique_ptr<Term>> Inertia::create(ParameterHandler &prm, const TermSetup &setup)
  {
    std::vector<std::unique_ptr<Term>> terms;
    prm.enter_subsection("Time integration");
    const double alpha_M = prm.get_double("Mass damping");
    prm.leave_subsection();
    if (setup.dynamic)
      terms.push_back(std::make_unique<Inertia>(setup.materials, alpha_M));
    return terms;
  }

  Inertia::Inertia(const TissueMaterials &materials, const double mass_damping)
    : materials(materials)
    , alpha_M(mass_damping)
  {}

  void Inertia::add_point(const CellState &cell, const unsigned int q, CellContribution &out) const
  {
    const NewmarkIntegrator::Coefficients &c   = cell.step.c;
    const double                           rho = materials[cell.cell->material_id()].density;
    out.mass                                   = rho * (c.a_u + alpha_M * c.v_u); // ∂(inertia)/∂u₊
    add_volume_force(cell.mass_shapes, q, rho * (cell.a[q] + alpha_M * cell.v[q]), out.internal);
    if (out.with_tangent)
      add_mass(cell.mass_shapes, q, out.mass, out.matrix);
  }

  void Inertia::add_point_energy(const CellState &cell, const unsigned int q, CellEnergy &out) const
  {
    if (alpha_M != 0)
      add_volume_force(cell.mass_shapes, q, -materials[cell.cell->material_id()].density * alpha_M * cell.v[q],
                       out.dissipated);
  }
} // namespace hydrostat
