#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/space_time_function.h>

#include <cmath>
#include <sstream>

namespace hydrostat
{
  SpaceTimeFunction::SpaceTimeFunction(const std::string &expression, const unsigned int n_components,
                                       const std::string &parameter_name)
    : text(expression)
    , name(parameter_name)
    , n_comp(n_components)
  {
    const auto parts = dealii::Utilities::split_string_list(expression, ';');
    require(parts.size() == n_components, "Parameter '" + parameter_name + "': expected " +
                                            std::to_string(n_components) + " expression(s) separated by ';', got " +
                                            std::to_string(parts.size()) + " in \"" + expression + "\".");
    try
      {
        parser = std::make_unique<dealii::FunctionParser<3>>(n_components);
        parser->initialize("x,y,z,t", parts, {{"pi", dealii::numbers::PI}}, /*time_dependent=*/true);
        // muParser compiles lazily: evaluate once so that syntax errors surface here.
        for (unsigned int c = 0; c < n_components; ++c)
          parser->value(Point<3>(), c);
      }
    catch (const std::exception &error)
      {
        throw InputError("Parameter '" + parameter_name + "': cannot parse \"" + expression +
                         "\" as a function of x, y, z, t: " + message_of(error));
      }
  }

  double SpaceTimeFunction::value(const Point<3> &X, const double t, const unsigned int component) const
  {
    parser->set_time(t);
    return parser->value(X, component);
  }

  dealii::Tensor<1, 3> SpaceTimeFunction::vector_value(const Point<3> &X, const double t) const
  {
    Assert(n_comp == 3, dealii::ExcInternalError());
    parser->set_time(t);
    dealii::Tensor<1, 3> v;
    for (unsigned int c = 0; c < 3; ++c)
      v[c] = parser->value(X, c);
    return v;
  }

  std::string SpaceTimeFunction::check_finite(const Point<3> &X, const double t) const
  {
    for (unsigned int c = 0; c < n_comp; ++c)
      if (const double v = value(X, t, c); !std::isfinite(v))
        {
          std::ostringstream message;
          message << "Parameter '" << name << "': \"" << text << "\" is " << v << " at x = (" << X[0] << ", " << X[1]
                  << ", " << X[2] << ") m, t = " << t << " s (component " << c + 1
                  << "): change the expression so that it is finite there "
                  << "(a division by zero, a log or sqrt of a negative number).";
          return message.str();
        }
    return "";
  }
} // namespace hydrostat
