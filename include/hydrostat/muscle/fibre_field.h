#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>
#include <deal.II/base/tensor.h>

#include <string>

namespace hydrostat
{
  using dealii::Point;
  using dealii::Tensor;

  /**
   * Unit reference fibre directions N(X) for an arm along the z axis, base at z = 0 with radius
   * R0, tip at z = L with radius R1 (a cylinder when R0 = R1), r = √(x² + y²), e_r, e_θ the
   * cylindrical unit vectors (theory.md §5.1):
   *
   * - longitudinal: along the cone's generators, t ∝ (R1 − R0)/L · (r/R(z)) e_r + e_z, so that a
   *   fibre keeps its relative radius r/R(z) from base to tip (e_z on the axis and in a cylinder);
   * - radial e_r and circumferential e_θ, in the cross-section plane z = const;
   * - cross-section x, cross-section y: e_x and e_y, the two orthogonal transverse families of
   *   the squid stalk and octopus core;
   * - helical right/left: cos φ t ± sin φ e_θ, oblique muscle at pitch angle φ to the axis;
   * - constant: a given vector, normalised.
   *
   * On the axis (r ≤ 1e-12 R0), where e_r and e_θ are undefined, e_r := e_x and e_θ := e_y: any
   * orthonormal in-plane pair is as right there, and this one is continuous along the half-plane
   * y = 0, x > 0. The longitudinal direction is smooth through the axis.
   */
  class FibreField
  {
  public:
    enum class Type
    {
      longitudinal,
      radial,
      circumferential,
      cross_section_x,
      cross_section_y,
      helical_right,
      helical_left,
      constant
    };

    struct Parameters
    {
      Type         type        = Type::longitudinal;
      double       arm_length  = 0.1;  // L [m]
      double       base_radius = 5e-3; // R0 [m]
      double       tip_radius  = 5e-3; // R1 [m]
      double       pitch_angle = 45.0; // φ [degrees] from the arm axis
      Tensor<1, 3> direction{{0.0, 0.0, 1.0}};
    };

    explicit FibreField(const Parameters &parameters);

    /// Declares the entries of Parameters in the current subsection of @p prm.
    static void       declare_parameters(dealii::ParameterHandler &prm);
    static Parameters parse_parameters(dealii::ParameterHandler &prm);
    static Type       type_from_string(const std::string &name);

    /// N(X), unit length.
    Tensor<1, 3> direction(const Point<3> &X) const;

    const Parameters &parameters() const { return param; }
    /// Whether the direction follows the arm's taper, L, R0 and R1 (longitudinal and helical).
    bool tapered() const;
    /// The arm's radius R(z) = R0 + (R1 − R0) z/L that the taper assumes.
    double radius(const double z) const { return param.base_radius + taper_slope * z; }

  private:
    Tensor<1, 3> longitudinal(const Point<3> &X) const;

    Parameters   param;
    double       taper_slope; // (R1 − R0)/L
    double       cos_pitch, sin_pitch;
    Tensor<1, 3> constant_direction;
  };
} // namespace hydrostat
