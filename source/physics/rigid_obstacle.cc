#include <hydrostat/base/errors.h>
#include <hydrostat/physics/rigid_obstacle.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    const std::array<std::string, 4> shape_names = {{"plane", "sphere", "cylinder", "capsule"}};

    /// The gap and normal of the sphere of radius @p r about @p c (theory.md eq. (65)).
    template <typename Number>
    RigidObstacle::Proximity<Number> around_point(const Tensor<1, 3, Number> &x, const Tensor<1, 3> &c, const double r)
    {
      const Tensor<1, 3, Number> d = x - c;
      const Number               s = d.norm();
      return {s - r, d / s};
    }
  } // namespace

  void RigidObstacle::declare_parameters(ParameterHandler &prm)
  {
    prm.declare_entry("Type", "none", Patterns::Selection("none|plane|sphere|cylinder|capsule"),
                      "none: unused; plane, sphere, cylinder (infinite), capsule (a cylinder of length Length with "
                      "hemispherical ends).");
    prm.declare_entry("Position", "0; 0; 0", Patterns::Anything(),
                      "A point of the obstacle [m], three expressions of t: a point of the plane, the centre of the "
                      "sphere or capsule, a point of the cylinder's axis.");
    prm.declare_entry("Axis", "0; 0; 1", Patterns::Anything(),
                      "Three expressions of t (normalised): the plane's normal, pointing to the side of the body; the "
                      "axis of the cylinder or capsule.");
    prm.declare_entry("Radius", "0", Patterns::Double(), "Radius of the sphere, cylinder or capsule [m].");
    prm.declare_entry("Length", "0", Patterns::Double(),
                      "Capsule: length of its straight part, between the centres of the end caps [m].");
  }

  std::unique_ptr<RigidObstacle> RigidObstacle::parse(ParameterHandler &prm, const std::string &path)
  {
    const std::string type = prm.get("Type");
    if (type == "none")
      return nullptr;
    const Shape shape =
      static_cast<Shape>(std::find(shape_names.begin(), shape_names.end(), type) - shape_names.begin());
    const double radius = prm.get_double("Radius"), length = prm.get_double("Length");
    require(shape == Shape::plane || radius > 0,
            "Parameter '" + path + "/Radius' = " + prm.get("Radius") + ": a " + type + " needs a radius > 0 [m].");
    require(shape != Shape::capsule || length >= 0,
            "Parameter '" + path + "/Length' = " + prm.get("Length") + ": give the capsule's length >= 0 [m].");
    auto obstacle = std::make_unique<RigidObstacle>(
      shape, std::make_unique<SpaceTimeFunction>(prm.get("Position"), 3, path + "/Position"),
      std::make_unique<SpaceTimeFunction>(prm.get("Axis"), 3, path + "/Axis"), radius, length, path);
    obstacle->placement(0.0);
    return obstacle;
  }

  RigidObstacle::RigidObstacle(const Shape shape, std::unique_ptr<SpaceTimeFunction> position,
                               std::unique_ptr<SpaceTimeFunction> axis, const double radius, const double length,
                               const std::string &path)
    : kind(shape)
    , position(std::move(position))
    , axis(std::move(axis))
    , radius(radius)
    , length(length)
    , subsection(path)
  {}

  const std::string &RigidObstacle::shape_name() const { return shape_names[static_cast<unsigned int>(kind)]; }

  RigidObstacle::Placement RigidObstacle::placement(const double t) const
  {
    const Point<3>     origin;
    const Tensor<1, 3> p = position->vector_value(origin, t), a = axis->vector_value(origin, t);
    require(std::isfinite(p.norm()), position->check_finite(origin, t));
    const double norm = a.norm();
    if (!(std::isfinite(norm) && norm > 0))
      {
        std::ostringstream message;
        message << "Parameter '" << subsection << "/Axis' = '" << axis->expression() << "' has length " << norm
                << " at t = " << t << " s: give a direction of non-zero, finite length.";
        throw InputError(message.str());
      }
    return {p, a / norm};
  }

  template <typename Number>
  RigidObstacle::Proximity<Number> RigidObstacle::proximity(const Tensor<1, 3, Number> &x, const Placement &where) const
  {
    const Tensor<1, 3>        &a = where.axis;
    const Tensor<1, 3, Number> d = x - where.point;
    switch (kind)
      {
        case Shape::plane:
          return {d * a, Tensor<1, 3, Number>(a)};
        case Shape::sphere:
          return around_point(x, where.point, radius);
        case Shape::capsule:
          {
            // Beyond the straight part the closest point is on an end cap: a sphere about its centre.
            const double along = Sacado::ScalarValue<Number>::eval(d * a);
            if (std::abs(along) > 0.5 * length)
              return around_point(x, where.point + std::copysign(0.5 * length, along) * a, radius);
          }
          [[fallthrough]];
        case Shape::cylinder:
          {
            // The sphere's formula in the plane normal to the axis.
            const Tensor<1, 3, Number> radial = d - (d * a) * a;
            const Number               rho    = radial.norm();
            return {rho - radius, radial / rho};
          }
      }
    return {};
  }

  template RigidObstacle::Proximity<double>    RigidObstacle::proximity(const Tensor<1, 3, double> &,
                                                                        const Placement &) const;
  template RigidObstacle::Proximity<ContactAD> RigidObstacle::proximity(const Tensor<1, 3, ContactAD> &,
                                                                        const Placement &) const;
} // namespace hydrostat
