#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/inverse/marker_targets.h>
#include <hydrostat/io/point_probes.h>

#include <limits>

namespace hydrostat
{
  using namespace dealii;

  void MarkerTargets::declare_parameters(ParameterHandler &prm)
  {
    prm.declare_entry("Markers", "", Patterns::Anything(),
                      "Reference points [m] of the body whose displacement is targeted: 'x, y, z' entries "
                      "separated by ';'.");
    prm.declare_entry("Components", "xyz", Patterns::Anything(),
                      "The targeted displacement components, letters of x, y, z (e.g. 'z': only the axial "
                      "position): one entry for every marker, or one per marker separated by ';'.");
    prm.declare_entry("Target displacements", "", Patterns::Anything(),
                      "Target displacement [m] of the markers as expressions of t: 'ux; uy; uz' of each "
                      "marker in turn, all separated by ';' (the untargeted components are not used). Give "
                      "this or Target file.");
    prm.declare_entry("Target file", "", Patterns::FileName(),
                      "A CSV file with a column 'time' [s] and, for marker k (from 0), the columns p<k>_ux, "
                      "p<k>_uy, p<k>_uz of its target displacement [m] (those of the targeted components): "
                      "the <base>.csv of a forward run with the markers as Output/Probe points has them. "
                      "Linear between rows; a relative path is taken from the folder of the case file that sets it "
                      "(from the working directory if given with --set).");
  }

  void MarkerTargets::parse_parameters(ParameterHandler &prm, const std::string &where)
  {
    points = PointProbes::parse(prm.get("Markers"), where + "/Markers");
    require(!points.empty(), "Parameter '" + where + "/Markers' is empty: give the reference points to track.");

    const auto entries = Utilities::split_string_list(prm.get("Components"), ';');
    require(entries.size() == 1 || entries.size() == points.size(),
            "Parameter '" + where + "/Components' has " + std::to_string(entries.size()) + " entries for " +
              std::to_string(points.size()) + " markers: give one for all or one per marker.");
    targeted.clear();
    for (unsigned int m = 0; m < points.size(); ++m)
      {
        const std::string &letters = entries[entries.size() == 1 ? 0 : m];
        require(!letters.empty(), "Parameter '" + where + "/Components': marker " + std::to_string(m) +
                                    " has no component: give letters of x, y, z.");
        for (unsigned int d = 0; d < 3; ++d)
          if (letters.find("xyz"[d]) != std::string::npos)
            targeted.push_back({m, d});
        require(letters.find_first_not_of("xyz") == std::string::npos,
                "Parameter '" + where + "/Components': \"" + letters + "\" is not made of the letters x, y, z.");
      }

    const std::string text = prm.get("Target displacements"), file = prm.get("Target file");
    require(text.empty() != file.empty(), "Parameters '" + where + "/Target displacements' and '" + where +
                                            "/Target file': give exactly one of them.");
    expressions.reset();
    columns.clear();
    if (!text.empty())
      {
        const unsigned int given = Utilities::split_string_list(text, ';').size();
        require(given == 3 * points.size(),
                "Parameter '" + where + "/Target displacements' has " + std::to_string(given) + " expressions for " +
                  std::to_string(points.size()) + " markers: give 'ux; uy; uz' for each, separated by ';'.");
        expressions = std::make_unique<SpaceTimeFunction>(text, 3 * points.size(), where + "/Target displacements");
      }
    else
      for (const Component &c : targeted)
        columns.emplace_back(file, "p" + std::to_string(c.marker) + "_u" + "xyz"[c.direction], where + "/Target file",
                             -std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
  }

  std::vector<double> MarkerTargets::at(const double t) const
  {
    std::vector<double> targets;
    for (unsigned int i = 0; i < targeted.size(); ++i)
      targets.push_back(expressions ?
                          expressions->value(Point<3>(), t, 3 * targeted[i].marker + targeted[i].direction) :
                          columns[i].value(t));
    return targets;
  }
} // namespace hydrostat
