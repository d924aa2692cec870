#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/tensor.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/vector.h>

#include <hydrostat/fem/cell_kernels.h>
#include <hydrostat/physics/term.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Quadratic water drag on the surface of a body moving through still water (subsection "Water
   * drag", theory.md §9.5): per unit current area
   *
   *   t = −½ ρ_w (C_n |v_n| v_n + C_t |v_t| v_t),   v_n = (v·n) n,   v_t = v − v_n        (eq. (60))
   *
   * with v the surface velocity and n the current outward normal, integrated over the current
   * surface (n da = J F^{-T} N dA). Dynamic runs only (v is the Newmark velocity v₊). A load whose
   * work is dissipated (theory.md eq. (62)); its tangent is unsymmetric.
   */
  class WaterDrag : public Term
  {
  public:
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// A WaterDrag if 'Water drag/Boundary ids' names surfaces (dynamic runs only).
    static std::vector<std::unique_ptr<Term>> create(dealii::ParameterHandler &prm, const TermSetup &setup);
    void                                      parse_parameters(dealii::ParameterHandler &prm);

    std::string name() const override { return "water drag"; }
    Work        work() const override { return Work::dissipated; }
    bool        symmetric() const override { return false; }
    bool        on_boundary(const unsigned int id) const override { return acts_on(id); }
    void        add_face(const FaceState &face, CellContribution &out) const override;

    /// Whether some boundary carries drag.
    bool enabled() const { return !boundary_ids.empty(); }
    /// Whether faces with @p boundary_id carry drag.
    bool acts_on(const unsigned int boundary_id) const;

    /**
     * The drag force per reference area h = |a| t(v, a/|a|) at one point, with a = J F^{-T} N the
     * current area vector per reference area, and its derivatives ∂h/∂v and ∂h/∂a (theory.md
     * eq. (61)).
     */
    struct PointForce
    {
      dealii::Tensor<1, 3> force;
      dealii::Tensor<2, 3> d_velocity, d_area;
    };
    PointForce point_force(const dealii::Tensor<1, 3> &v, const dealii::Tensor<1, 3> &a) const;

    /**
     * Adds f_i = ∫ h·φ_i dA over one face to @p f and, if @p K_f is given, ∂f/∂u to it: through the
     * velocity (∂v₊/∂u₊ = @p v_u, theory.md eq. (46)) and through the area vector (theory.md
     * eq. (5)). @p kinematics holds F, J and @p velocity v₊ at the face points.
     */
    void add_face_force(const dealii::FEFaceValues<3> &fe_face_values, const CellKinematics &kinematics,
                        const std::vector<dealii::Tensor<1, 3>> &velocity, const double v_u, dealii::Vector<double> &f,
                        dealii::FullMatrix<double> *K_f) const;

    std::vector<unsigned int> boundary_ids;
    double                    fluid_density          = 1000;   // ρ_w [kg/m³]
    double                    normal_coefficient     = 1.013;  // C_n [-]
    double                    tangential_coefficient = 0.0256; // C_t [-]
  };
} // namespace hydrostat
