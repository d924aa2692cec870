#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/physics/water_drag.h>

#include <algorithm>
#include <cmath>

namespace hydrostat
{
  using namespace dealii;

  void WaterDrag::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Water drag");
    prm.declare_entry("Boundary ids", "", Patterns::List(Patterns::Integer(0, 255)),
                      "Boundary ids whose faces feel quadratic water drag, e.g. '0' (the lateral surface of the "
                      "built-in arm meshes); empty: no drag. Dynamic runs only.");
    prm.declare_entry("Fluid density", "1000", Patterns::Double(0), "Density of the water rho_w [kg/m^3].");
    prm.declare_entry("Normal coefficient", "1.013", Patterns::Double(0),
                      "C_n [-] of the velocity component along the surface normal (Yekutieli et al. 2005: 1.013).");
    prm.declare_entry("Tangential coefficient", "0.0256", Patterns::Double(0),
                      "C_t [-] of the velocity component in the surface (Yekutieli et al. 2005: 0.0256).");
    prm.leave_subsection();
  }

  void WaterDrag::parse_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Water drag");
    boundary_ids.clear();
    for (const int id : Utilities::string_to_int(Utilities::split_string_list(prm.get("Boundary ids"))))
      boundary_ids.push_back(static_cast<unsigned int>(id));
    fluid_density          = prm.get_double("Fluid density");
    normal_coefficient     = prm.get_double("Normal coefficient");
    tangential_coefficient = prm.get_double("Tangential coefficient");
    prm.leave_subsection();
    require(!enabled() || fluid_density > 0,
            "Parameter 'Water drag/Fluid density' is 0 but 'Water drag/Boundary ids' names surfaces: give the "
            "water's density (1000 kg/m^3) or leave Boundary ids empty.");
  }

  std::vector<std::unique_ptr<Term>> WaterDrag::create(ParameterHandler &prm, const TermSetup &setup)
  {
    auto drag = std::make_unique<WaterDrag>();
    drag->parse_parameters(prm);
    std::vector<std::unique_ptr<Term>> terms;
    if (!drag->enabled())
      return terms;
    require(setup.dynamic,
            "Parameter 'Water drag/Boundary ids' is set, but drag needs the velocity of a dynamic run: set 'Time "
            "integration/Mode' = dynamic, or leave 'Water drag/Boundary ids' empty.");
    terms.push_back(std::move(drag));
    return terms;
  }

  void WaterDrag::add_face(const FaceState &face, CellContribution &out) const
  {
    // Drag is a load: −f in the residual, −∂f/∂u in the tangent (theory.md eqs. (60), (61)).
    out.face_matrix = 0;
    add_face_force(face.fe_values, face.kinematics, face.v, face.step.c.v_u, out.external,
                   out.with_tangent ? &out.face_matrix : nullptr);
    if (out.with_tangent)
      out.matrix.add(-1.0, out.face_matrix);
  }

  bool WaterDrag::acts_on(const unsigned int boundary_id) const
  {
    return std::find(boundary_ids.begin(), boundary_ids.end(), boundary_id) != boundary_ids.end();
  }

  WaterDrag::PointForce WaterDrag::point_force(const Tensor<1, 3> &v, const Tensor<1, 3> &a) const
  {
    // h = |a| g(v, n), g = −½ ρ_w (C_n |s| s n + C_t |v_t| v_t), s = v·n, n = a/|a| (theory.md
    // eqs. (60), (61)); both terms are C¹ in v (|v_t| v_t has derivative 0 at v_t = 0).
    const double       area = a.norm();
    const Tensor<1, 3> n    = a / area;
    const double       s    = v * n;
    const Tensor<1, 3> v_t  = v - s * n;
    const double       w    = v_t.norm();
    const double       c = -0.5 * fluid_density, C_n = normal_coefficient, C_t = tangential_coefficient;
    const Tensor<2, 3> I = unit_symmetric_tensor<3>();
    const Tensor<2, 3> Q = I - outer_product(n, n);
    // D = ∂(|v_t| v_t)/∂v_t.
    Tensor<2, 3> D = w * I;
    if (w > 0)
      D += outer_product(v_t, v_t) / w;
    const Tensor<1, 3> g     = c * (C_n * std::abs(s) * s * n + C_t * w * v_t);
    const Tensor<2, 3> dg_dv = c * (2 * C_n * std::abs(s) * outer_product(n, n) + C_t * D * Q);
    // ∂g/∂n at fixed v, n taken as a free vector: ∂s/∂n = v, ∂v_t/∂n = −(n ⊗ v + s I).
    const Tensor<2, 3> nv    = outer_product(n, v);
    const Tensor<2, 3> dg_dn = c * (C_n * std::abs(s) * (2 * nv + s * I) - C_t * D * (nv + s * I));
    // ∂|a|/∂a = n, ∂n/∂a = Q/|a|.
    return {area * g, area * dg_dv, outer_product(g, n) + dg_dn * Q};
  }

  void WaterDrag::add_face_force(const FEFaceValues<3> &fe_face_values, const CellKinematics &kinematics,
                                 const std::vector<Tensor<1, 3>> &velocity, const double v_u, dealii::Vector<double> &f,
                                 FullMatrix<double> *K_f) const
  {
    const FiniteElement<3>   &fe     = fe_face_values.get_fe();
    const unsigned int        n_dofs = fe.n_dofs_per_cell();
    std::vector<Tensor<1, 3>> d_force(n_dofs); // ∂h/∂a · Δa of the shape function φ_j
    for (unsigned int q = 0; q < fe_face_values.n_quadrature_points; ++q)
      {
        const double       dA      = fe_face_values.JxW(q);
        const double       J       = kinematics.J[q];
        const Tensor<2, 3> F_inv_T = transpose(invert(kinematics.F[q]));
        const Tensor<1, 3> m       = F_inv_T * fe_face_values.normal_vector(q); // F^{-T} N
        const PointForce   h       = point_force(velocity[q], J * m);
        if (K_f)
          for (unsigned int j = 0; j < n_dofs; ++j)
            d_force[j] = h.d_area * area_vector_derivative(F_inv_T, m, J, fe_face_values.shape_grad(j, q),
                                                           fe.system_to_component_index(j).first);
        for (unsigned int i = 0; i < n_dofs; ++i)
          {
            const unsigned int ci = fe.system_to_component_index(i).first;
            const double       Ni = fe_face_values.shape_value(i, q) * dA;
            f[i] += h.force[ci] * Ni;
            if (!K_f || Ni == 0)
              continue;
            for (unsigned int j = 0; j < n_dofs; ++j)
              {
                const unsigned int cj = fe.system_to_component_index(j).first;
                const double       Nj = fe_face_values.shape_value(j, q);
                (*K_f)(i, j) += Ni * (h.d_velocity[ci][cj] * v_u * Nj + d_force[j][ci]);
              }
          }
      }
  }
} // namespace hydrostat
