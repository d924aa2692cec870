#include <hydrostat/geometry/boundary_ids.h>
#include <hydrostat/physics/surface_loads.h>

#include <cmath>

namespace hydrostat
{
  using namespace dealii;

  void SurfaceLoad::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Boundary conditions");
    for (unsigned int k = 1; k <= max_slots; ++k)
      {
        prm.enter_subsection("Load " + std::to_string(k));
        prm.declare_entry("Boundary id", "-1", Patterns::Integer(-1, 255), "Boundary id loaded (-1: unused).");
        prm.declare_entry("Type", "dead traction", Patterns::Selection("dead traction|follower pressure"),
                          "dead traction: force per reference area in a fixed direction; follower pressure: "
                          "pressure on the current surface, along the current inward normal.");
        prm.declare_entry("Value", "0; 0; 0", Patterns::Anything(),
                          "dead traction: three expressions [Pa]; follower pressure: one expression [Pa]; "
                          "functions of x, y, z, t.");
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  std::vector<std::unique_ptr<Term>> SurfaceLoad::create(ParameterHandler &prm, const TermSetup &)
  {
    std::vector<std::unique_ptr<Term>> terms;
    prm.enter_subsection("Boundary conditions");
    for (unsigned int k = 1; k <= max_slots; ++k)
      {
        const std::string name = "Boundary conditions/Load " + std::to_string(k);
        prm.enter_subsection("Load " + std::to_string(k));
        const int id = prm.get_integer("Boundary id");
        if (id >= 0)
          {
            const bool pressure = prm.get("Type") == "follower pressure";
            auto       value = std::make_unique<SpaceTimeFunction>(prm.get("Value"), pressure ? 1 : 3, name + "/Value");
            if (pressure)
              terms.push_back(std::make_unique<FollowerPressure>(id, std::move(value), name + "/Boundary id"));
            else
              terms.push_back(std::make_unique<DeadTraction>(id, std::move(value), name + "/Boundary id"));
          }
        prm.leave_subsection();
      }
    prm.leave_subsection();
    return terms;
  }

  SurfaceLoad::SurfaceLoad(const unsigned int boundary_id, std::unique_ptr<SpaceTimeFunction> value,
                           const std::string &id_parameter)
    : boundary_id(boundary_id)
    , value(std::move(value))
    , id_parameter(id_parameter)
  {}

  void SurfaceLoad::setup(const DoFHandler<3> &dof_handler, const Quadrature<3> &)
  {
    require_boundary_id(dof_handler.get_triangulation(), boundary_id, id_parameter);
  }

  void SurfaceLoad::add_face(const FaceState &face, CellContribution &out) const
  {
    // A load enters the residual as −f and the tangent as −∂f/∂u (theory.md eqs. (4), (5)).
    out.face_matrix = 0;
    add_face_force(face, out.external, out.with_tangent ? &out.face_matrix : nullptr);
    if (out.with_tangent)
      out.matrix.add(-1.0, out.face_matrix);
    if (out.bad_input.empty() && !std::isfinite(out.external.l2_norm()))
      for (unsigned int q = 0; q < face.fe_values.n_quadrature_points && out.bad_input.empty(); ++q)
        out.bad_input = value->check_finite(face.fe_values.quadrature_point(q), face.step.t);
  }

  void DeadTraction::add_face_force(const FaceState &face, dealii::Vector<double> &f, FullMatrix<double> *) const
  {
    const FEFaceValues<3>  &fe_values = face.fe_values;
    const FiniteElement<3> &fe        = fe_values.get_fe();
    for (unsigned int q = 0; q < fe_values.n_quadrature_points; ++q)
      {
        const Tensor<1, 3> traction = value->vector_value(fe_values.quadrature_point(q), face.step.t);
        const double       dA       = fe_values.JxW(q);
        for (unsigned int i = 0; i < fe.n_dofs_per_cell(); ++i)
          f[i] += traction[fe.system_to_component_index(i).first] * fe_values.shape_value(i, q) * dA;
      }
  }

  void FollowerPressure::add_face_force(const FaceState &face, dealii::Vector<double> &f, FullMatrix<double> *K_f) const
  {
    const FEFaceValues<3>  &fe_values = face.fe_values;
    const FiniteElement<3> &fe        = fe_values.get_fe();
    const unsigned int      n_dofs    = fe.n_dofs_per_cell();
    for (unsigned int q = 0; q < fe_values.n_quadrature_points; ++q)
      {
        const double       pressure = value->value(fe_values.quadrature_point(q), face.step.t);
        const double       dA       = fe_values.JxW(q);
        const double       J        = face.kinematics.J[q];
        const Tensor<2, 3> F_inv_T  = transpose(invert(face.kinematics.F[q]));
        const Tensor<1, 3> n        = F_inv_T * fe_values.normal_vector(q);
        for (unsigned int i = 0; i < n_dofs; ++i)
          {
            const unsigned int ci = fe.system_to_component_index(i).first;
            const double       Ni = fe_values.shape_value(i, q);
            f[i] -= pressure * J * n[ci] * Ni * dA;
            if (!K_f)
              continue;
            for (unsigned int j = 0; j < n_dofs; ++j)
              {
                const Tensor<1, 3> da = area_vector_derivative(F_inv_T, n, J, fe_values.shape_grad(j, q),
                                                               fe.system_to_component_index(j).first);
                (*K_f)(i, j) -= pressure * Ni * da[ci] * dA;
              }
          }
      }
  }
} // namespace hydrostat
