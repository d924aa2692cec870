#include <deal.II/base/symmetric_tensor.h>

#include <hydrostat/physics/solid_stress.h>

#include <cmath>
#include <iomanip>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// Volume averages of the PointModel's response over one cell (over the part of the cell in a
    /// group for the group's).
    struct CellAverages
    {
      struct Group
      {
        double       volume = 0, activation = 0, stretch = 0, stress = 0;
        Tensor<1, 3> direction; // Σ m w, normalised in finish()
      };
      double             volume = 0, J = 0, p = 0;
      Tensor<2, 3>       sigma, P;
      Tensor<1, 3>       stretches;
      std::vector<Group> groups;

      void finish()
      {
        J /= volume;
        p /= volume;
        sigma /= volume;
        P /= volume;
        stretches /= volume;
        for (Group &g : groups)
          if (g.volume > 0)
            {
              g.activation /= g.volume;
              g.stretch /= g.volume;
              g.stress /= g.volume;
              g.direction /= g.direction.norm();
            }
      }
    };

    void tensor_components(const Tensor<2, 3> &T, double *out)
    {
      for (unsigned int i = 0; i < 3; ++i)
        for (unsigned int j = 0; j < 3; ++j)
          out[3 * i + j] = T[i][j]; // row-major, as ParaView reads a 9-component array
    }

    void vector_components(const Tensor<1, 3> &v, double *out)
    {
      for (unsigned int d = 0; d < 3; ++d)
        out[d] = v[d];
    }

    using Group = CellAverages::Group;

    /// The output fields of the solid, in the order they are written (units: README "Output
    /// fields"). A new field is one line here, computed from CellAverages.
    struct FieldDefinition
    {
      const char  *name;
      unsigned int n_components; // 1 scalar, 3 vector, 9 tensor
      bool         per_group;    // one field per muscle group, named <name>_<group>
      const char  *unit;         // written to the VTU (unyt spelling)
      void (*value)(const CellAverages &a, const CellAverages::Group &g, double *out);
    };

    const FieldDefinition fields[] = {
      {"J", 1, false, "dimensionless", [](const CellAverages &a, const Group &, double *out) { out[0] = a.J; }},
      {"cauchy_stress", 9, false, "Pa",
       [](const CellAverages &a, const Group &, double *out) { tensor_components(a.sigma, out); }},
      {"piola_stress", 9, false, "Pa",
       [](const CellAverages &a, const Group &, double *out) { tensor_components(a.P, out); }},
      {"principal_stretches", 3, false, "dimensionless",
       [](const CellAverages &a, const Group &, double *out) { vector_components(a.stretches, out); }},
      {"von_mises", 1, false, "Pa",
       [](const CellAverages &a, const Group &, double *out) {
         out[0] = std::sqrt(1.5) * deviator(symmetrize(a.sigma)).norm();
       }},
      {"pressure", 1, false, "Pa", [](const CellAverages &a, const Group &, double *out) { out[0] = a.p; }},
      {"activation", 1, true, "dimensionless",
       [](const CellAverages &, const Group &g, double *out) { out[0] = g.activation; }},
      {"fibre_stretch", 1, true, "dimensionless",
       [](const CellAverages &, const Group &g, double *out) { out[0] = g.stretch; }},
      {"fibre_stress", 1, true, "Pa", [](const CellAverages &, const Group &g, double *out) { out[0] = g.stress; }},
      {"fibre_direction", 3, true, "dimensionless",
       [](const CellAverages &, const Group &g, double *out) { vector_components(g.direction, out); }},
      {"active_fibre", 3, true, "dimensionless",
       [](const CellAverages &, const Group &g, double *out) { vector_components(g.activation * g.direction, out); }}};
  } // namespace

  void SolidStress::declare_parameters(ParameterHandler &prm) { PointModel::declare_parameters(prm); }

  std::vector<std::unique_ptr<Term>> SolidStress::create(ParameterHandler &prm, const TermSetup &setup)
  {
    std::vector<std::unique_ptr<Term>> terms;
    terms.push_back(std::make_unique<SolidStress>(setup.materials, setup.muscles, setup.formulation,
                                                  PointModel::stiffness_damping(prm, setup.dynamic)));
    return terms;
  }

  std::vector<std::string> SolidStress::field_selectors()
  {
    std::vector<std::string> names;
    for (const FieldDefinition &f : fields)
      names.emplace_back(f.name);
    return names;
  }

  SolidStress::SolidStress(const TissueMaterials &materials, const MuscleGroups &muscles,
                           const Formulation &formulation, const double stiffness_damping)
    : model(materials, muscles, formulation, stiffness_damping)
  {}

  void SolidStress::setup(const DoFHandler<3> &dof_handler, const Quadrature<3> &quadrature)
  {
    model.setup(dof_handler, quadrature);
  }

  std::string SolidStress::report() const
  {
    const unsigned int n_groups = model.muscles().n_groups();
    if (n_groups == 0)
      return "";
    std::ostringstream text;
    text << "Muscles: " << n_groups << " group(s) at " << model.n_muscle_points()
         << " quadrature points; share of the volume:" << std::fixed << std::setprecision(1);
    for (unsigned int g = 0; g < n_groups; ++g)
      text << (g ? ", " : " ") << model.muscles().name(g) << " " << 100 * model.group_shares()[g] << " %";
    for (const std::string &warning : model.group_warnings())
      text << "\n" << warning;
    return text.str();
  }

  void SolidStress::add_point(const CellState &cell, const unsigned int q, CellContribution &out) const
  {
    const PointModel::Response r = model.evaluate(cell, q, PointModel::tangent);
    add_stress_divergence(cell.shapes, q, r.total.P, r.total.A, out.internal, out.with_tangent ? &out.matrix : nullptr);
  }

  void SolidStress::add_control_derivatives(const CellState &cell, const unsigned int q, const ControlColumns &columns,
                                            std::vector<dealii::Vector<double>> &out) const
  {
    const Tensor<4, 3> no_tangent;
    model.control_derivatives(cell, q, [&](const unsigned int group, const unsigned int node, const Tensor<2, 3> &dP) {
      if (const unsigned int column = columns[group][node]; column != numbers::invalid_unsigned_int)
        add_stress_divergence(cell.shapes, q, dP, no_tangent, out[column], nullptr);
    });
  }

  void SolidStress::add_point_energy(const CellState &cell, const unsigned int q, CellEnergy &out) const
  {
    const PointModel::Response r = model.evaluate(cell, q, PointModel::energy | PointModel::parts);
    out.strain += r.energy * cell.shapes.JxW[q];
    // The three-field element's volumetric energy ∫ U(J̃) dV is the cell's (theory.md eq. (12)).
    if (cell.three_field && q + 1 == cell.shapes.JxW.size())
      out.strain += cell.three_field->volumetric_energy();
    // Forces on the body: −∫ P_part : Grad φ dV.
    const Tensor<4, 3> no_tangent;
    if (r.fibre.norm_square() > 0)
      add_stress_divergence(cell.shapes, q, -r.fibre, no_tangent, out.active, nullptr);
    if (r.viscous.norm_square() > 0)
      add_stress_divergence(cell.shapes, q, -r.viscous, no_tangent, out.dissipated, nullptr);
  }

  std::vector<CellField> SolidStress::output_fields() const
  {
    std::vector<CellField> list;
    for (const FieldDefinition &f : fields)
      if (f.per_group)
        for (unsigned int g = 0; g < model.muscles().n_groups(); ++g)
          list.push_back({std::string(f.name) + "_" + model.muscles().name(g), f.name, f.n_components, f.unit});
      else
        list.push_back({f.name, f.name, f.n_components, f.unit});
    return list;
  }

  void SolidStress::output_values(const CellState &cell, double *values) const
  {
    CellAverages a;
    a.groups.resize(model.muscles().n_groups());
    for (unsigned int q = 0; q < cell.shapes.JxW.size(); ++q)
      {
        const PointModel::Response r = model.evaluate(cell, q, PointModel::stress | PointModel::groups);
        const Tensor<2, 3>        &F = cell.kinematics.F[q];
        const double               J = cell.kinematics.J[q], w = cell.shapes.JxW[q];
        for (const PointModel::GroupResponse &m : r.groups)
          {
            CellAverages::Group &g = a.groups[m.group];
            g.volume += w;
            g.activation += m.activation * w;
            g.stretch += m.stretch * w;
            g.stress += m.fibre_stress * w;
            g.direction += m.direction * w;
          }
        // Cauchy σ = sym(P Fᵀ)/J and first Piola–Kirchhoff J σ F⁻ᵀ (theory.md §2: τ = P Fᵀ = J σ).
        const Tensor<2, 3> sigma          = Tensor<2, 3>(symmetrize(r.total.P * transpose(F))) / J;
        const auto         lambda_squared = eigenvalues(symmetrize(transpose(F) * F)); // descending
        a.volume += w;
        a.J += J * w;
        a.p += r.pressure * w;
        a.sigma += sigma * w;
        a.P += J * sigma * transpose(invert(F)) * w;
        for (unsigned int d = 0; d < 3; ++d)
          a.stretches[d] += std::sqrt(lambda_squared[d]) * w;
      }
    a.finish();
    const CellAverages::Group none;
    for (const FieldDefinition &f : fields)
      for (unsigned int g = 0; g < (f.per_group ? a.groups.size() : 1); ++g)
        {
          f.value(a, f.per_group ? a.groups[g] : none, values);
          values += f.n_components;
        }
  }
} // namespace hydrostat
