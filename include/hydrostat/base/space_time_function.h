#pragma once

#include <deal.II/base/function.h>
#include <deal.II/base/function_parser.h>
#include <deal.II/base/point.h>
#include <deal.II/base/tensor.h>

#include <memory>
#include <string>

namespace hydrostat
{
  using dealii::Point;

  /**
   * The one type for every space-time input of a case: a muParser expression of the reference
   * coordinates x, y, z [m] and the time t [s], with one expression per component separated by
   * ';'. Constants: pi. Expressions are compiled and evaluated once on construction, so a typo
   * is reported at set-up, with the name of the parameter it came from.
   */
  class SpaceTimeFunction
  {
  public:
    SpaceTimeFunction(const std::string &expression, const unsigned int n_components,
                      const std::string &parameter_name);

    double value(const Point<3> &X, const double t, const unsigned int component = 0) const;

    dealii::Tensor<1, 3> vector_value(const Point<3> &X, const double t) const;

    unsigned int       n_components() const { return n_comp; }
    const std::string &expression() const { return text; }
    /// The parameter the expression came from ("Section/Subsection/Parameter").
    const std::string &parameter() const { return name; }

    /// Empty if every component is finite at (@p X, @p t), else the input error naming the
    /// parameter, the expression, the point and the time (a 0/0 or a log of a negative number).
    std::string check_finite(const Point<3> &X, const double t) const;

  private:
    std::string                                text, name;
    unsigned int                               n_comp;
    std::unique_ptr<dealii::FunctionParser<3>> parser;
  };

  /// A SpaceTimeFunction at a fixed time, seen as a deal.II Function (for interpolation).
  class FunctionAtTime : public dealii::Function<3>
  {
  public:
    FunctionAtTime(const SpaceTimeFunction &f, const double t)
      : dealii::Function<3>(f.n_components())
      , f(f)
      , t(t)
    {}
    double value(const Point<3> &p, const unsigned int c) const override { return f.value(p, t, c); }

  private:
    const SpaceTimeFunction &f;
    const double             t;
  };
} // namespace hydrostat
