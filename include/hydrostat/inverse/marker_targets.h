#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>

#include <hydrostat/base/space_time_function.h>
#include <hydrostat/base/time_table.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * The markers of an inverse run (subsection "Inverse"): reference points of the body, the
   * components of their displacement that are targeted, and the target displacements as
   * expressions of t or as columns of a CSV file (the <base>.csv a forward run with the markers as
   * probe points writes).
   */
  class MarkerTargets
  {
  public:
    /// A targeted displacement component: marker (from 0) and direction (0, 1, 2 for x, y, z).
    struct Component
    {
      unsigned int marker, direction;
    };

    /// Declares the entries in the current subsection.
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// Reads them from the current subsection; @p where is its name for the messages.
    void parse_parameters(dealii::ParameterHandler &prm, const std::string &where);

    const std::vector<dealii::Point<3>> &markers() const { return points; }
    const std::vector<Component>        &components() const { return targeted; }
    /// The target displacement [m] of each targeted component at time @p t.
    std::vector<double> at(const double t) const;

  private:
    std::vector<dealii::Point<3>>      points;
    std::vector<Component>             targeted;
    std::unique_ptr<SpaceTimeFunction> expressions; // 3 per marker
    std::vector<TimeTable>             columns;     // one per targeted component
  };
} // namespace hydrostat
