#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>
#include <deal.II/base/tensor.h>
#include <deal.II/differentiation/ad/sacado_math.h>
#include <deal.II/differentiation/ad/sacado_number_types.h>
#include <deal.II/differentiation/ad/sacado_product_types.h>

#include <hydrostat/base/space_time_function.h>

#include <memory>
#include <string>

namespace hydrostat
{
  /// The forward automatic-differentiation number (Sacado) whose derivatives give the exact tangent
  /// of contact at a point (theory.md eq. (67)).
  using ContactAD =
    dealii::Differentiation::AD::NumberTraits<double, dealii::Differentiation::AD::NumberTypes::sacado_dfad>::ad_type;

  /**
   * A rigid obstacle of a 'Contact/Obstacle k' subsection: a plane, sphere, cylinder or capsule
   * (a cylinder of finite length with hemispherical ends) placed by a point and an axis that may be
   * expressions of t. Its one question is the closest point to a current position x (theory.md
   * §15, eq. (65)): the signed gap g(x) (positive outside) and the outward normal n = ∂g/∂x.
   */
  class RigidObstacle
  {
  public:
    enum class Shape
    {
      plane,
      sphere,
      cylinder,
      capsule
    };

    /// Declares the obstacle's entries in the current subsection.
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// The obstacle of the current subsection @p path (e.g. "Contact/Obstacle 1"), null if its
    /// Type is none; an InputError names the parameter of a radius ≤ 0, a length < 0 or an axis of
    /// zero length at t = 0.
    static std::unique_ptr<RigidObstacle> parse(dealii::ParameterHandler &prm, const std::string &path);

    RigidObstacle(const Shape shape, std::unique_ptr<SpaceTimeFunction> position,
                  std::unique_ptr<SpaceTimeFunction> axis, const double radius, const double length,
                  const std::string &path);

    /// Where the obstacle is at time t: the point and the unit axis.
    struct Placement
    {
      dealii::Tensor<1, 3> point, axis;
    };
    /// The placement at @p t; an InputError naming 'Axis' if it has zero length or is not finite.
    Placement placement(const double t) const;

    /// The closest point of the surface to x: the gap g and the outward normal n (eq. (65)), for
    /// Number = double and the automatic-differentiation type of the contact tangent (ContactAD).
    template <typename Number>
    struct Proximity
    {
      Number                       gap;
      dealii::Tensor<1, 3, Number> normal;
    };
    template <typename Number>
    Proximity<Number> proximity(const dealii::Tensor<1, 3, Number> &x, const Placement &where) const;

    Shape              shape() const { return kind; }
    const std::string &shape_name() const;
    /// The subsection it came from, e.g. "Contact/Obstacle 1".
    const std::string &path() const { return subsection; }

  private:
    Shape                              kind;
    std::unique_ptr<SpaceTimeFunction> position, axis;
    double                             radius, length;
    std::string                        subsection;
  };
} // namespace hydrostat
