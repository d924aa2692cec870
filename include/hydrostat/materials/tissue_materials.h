#pragma once

#include <deal.II/base/parameter_handler.h>

#include <hydrostat/materials/mooney_rivlin.h>

#include <vector>

namespace hydrostat
{
  /**
   * Passive connective tissue per material id (subsection "Materials", one subsection
   * "Material <id>" for ids 0 … max_ids − 1): Mooney–Rivlin constants and density.
   */
  class TissueMaterials
  {
  public:
    static constexpr unsigned int max_ids = 8;

    struct Tissue
    {
      MooneyRivlin law;
      double       density; // kg/m³
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    /// The tissue of @p material_id; throws naming the id if it is out of range.
    const Tissue &operator[](const unsigned int material_id) const;

  private:
    std::vector<Tissue> tissues;
  };
} // namespace hydrostat
