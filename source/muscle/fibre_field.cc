#include <deal.II/base/exceptions.h>
#include <deal.II/base/numbers.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/muscle/fibre_field.h>

#include <cmath>
#include <iterator>

namespace hydrostat
{
  namespace
  {
    constexpr const char *type_names[] = {"longitudinal",    "radial",        "circumferential", "cross-section x",
                                          "cross-section y", "helical right", "helical left",    "constant"};
  } // namespace

  FibreField::Type FibreField::type_from_string(const std::string &name)
  {
    for (unsigned int t = 0; t < std::size(type_names); ++t)
      if (name == type_names[t])
        return static_cast<Type>(t);
    throw InputError("Unknown fibre direction type: " + name);
    return Type::constant;
  }

  FibreField::FibreField(const Parameters &parameters)
    : param(parameters)
    , taper_slope((parameters.tip_radius - parameters.base_radius) / parameters.arm_length)
    , cos_pitch(std::cos(parameters.pitch_angle * dealii::numbers::PI / 180.0))
    , sin_pitch(std::sin(parameters.pitch_angle * dealii::numbers::PI / 180.0))
  {
    require(param.arm_length > 0.0 && param.base_radius > 0.0 && param.tip_radius > 0.0,
            "Fibre field: arm length and radii must be positive.");
    require(param.direction.norm() > 0.0, "Fibre field: the constant direction is zero.");
    constant_direction = param.direction / param.direction.norm();
  }

  bool FibreField::tapered() const
  {
    return param.type == Type::longitudinal || param.type == Type::helical_right || param.type == Type::helical_left;
  }

  void FibreField::declare_parameters(dealii::ParameterHandler &prm)
  {
    const Parameters d;
    std::string      names;
    for (const char *n : type_names)
      names += (names.empty() ? "" : "|") + std::string(n);
    prm.declare_entry("Fibre direction", type_names[0], dealii::Patterns::Selection(names),
                      "Reference fibre direction field for an arm along z from z = 0 (base) to z = L (tip).");
    prm.declare_entry("Arm length", shortest_text(d.arm_length), dealii::Patterns::Double(0.0),
                      "L [m], for the taper of the longitudinal direction.");
    prm.declare_entry("Base radius", shortest_text(d.base_radius), dealii::Patterns::Double(0.0), "R0 [m] at z = 0.");
    prm.declare_entry("Tip radius", shortest_text(d.tip_radius), dealii::Patterns::Double(0.0),
                      "R1 [m] at z = L; equal to R0 for a cylinder.");
    prm.declare_entry("Pitch angle", shortest_text(d.pitch_angle), dealii::Patterns::Double(-90, 90),
                      "Angle [degrees] of the helical families to the arm axis.");
    prm.declare_entry("Constant direction", "0, 0, 1", dealii::Patterns::List(dealii::Patterns::Double(), 3, 3),
                      "Direction vector (normalised) of the constant field.");
  }

  FibreField::Parameters FibreField::parse_parameters(dealii::ParameterHandler &prm)
  {
    Parameters p;
    p.type        = type_from_string(prm.get("Fibre direction"));
    p.arm_length  = prm.get_double("Arm length");
    p.base_radius = prm.get_double("Base radius");
    p.tip_radius  = prm.get_double("Tip radius");
    p.pitch_angle = prm.get_double("Pitch angle");
    const auto v =
      dealii::Utilities::string_to_double(dealii::Utilities::split_string_list(prm.get("Constant direction")));
    for (unsigned int d = 0; d < 3; ++d)
      p.direction[d] = v[d];
    return p;
  }

  Tensor<1, 3> FibreField::longitudinal(const Point<3> &X) const
  {
    // Generator of the cone through X: dr/dz = (r/R(z)) (R1 − R0)/L, written in x, y so that it
    // is smooth through the axis.
    const double s = taper_slope / radius(X[2]);
    Tensor<1, 3> t({s * X[0], s * X[1], 1.0});
    return t / t.norm();
  }

  Tensor<1, 3> FibreField::direction(const Point<3> &X) const
  {
    const double r       = std::hypot(X[0], X[1]);
    const bool   on_axis = r <= 1e-12 * param.base_radius;
    const auto   e_r     = on_axis ? Tensor<1, 3>({1.0, 0.0, 0.0}) : Tensor<1, 3>({X[0] / r, X[1] / r, 0.0});
    const auto   e_theta = on_axis ? Tensor<1, 3>({0.0, 1.0, 0.0}) : Tensor<1, 3>({-X[1] / r, X[0] / r, 0.0});
    switch (param.type)
      {
        case Type::longitudinal:
          return longitudinal(X);
        case Type::radial:
          return e_r;
        case Type::circumferential:
          return e_theta;
        case Type::cross_section_x:
          return Tensor<1, 3>({1.0, 0.0, 0.0});
        case Type::cross_section_y:
          return Tensor<1, 3>({0.0, 1.0, 0.0});
        case Type::helical_right:
          return cos_pitch * longitudinal(X) + sin_pitch * e_theta;
        case Type::helical_left:
          return cos_pitch * longitudinal(X) - sin_pitch * e_theta;
        case Type::constant:
          return constant_direction;
      }
    return constant_direction;
  }
} // namespace hydrostat
