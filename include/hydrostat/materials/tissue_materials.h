#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/types.h>

#include <hydrostat/materials/tissue_law.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Passive connective tissue per material id (subsection "Materials", one subsection
   * "Material <id>" for ids 0 … max_ids − 1): a TissueLaw chosen by 'Law', with its constants,
   * and the density. Material 0 is the default tissue, with the declared defaults when its
   * subsection is missing; any other id must have its subsection (operator[] throws otherwise).
   */
  class TissueMaterials
  {
  public:
    static constexpr unsigned int max_ids = 8;

    struct Tissue
    {
      std::shared_ptr<const TissueLaw> law;
      double                           density; // kg/m³
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);
    /// Gives @p material_id the tissue @p law with @p density [kg/m³] (a material built in code).
    void set(const unsigned int material_id, std::shared_ptr<const TissueLaw> law, const double density);

    /// Whether @p material_id has a material: id 0 always, others if the input has their subsection.
    bool defined(const unsigned int material_id) const;

    /// Throws, naming the id, if one of the material ids @p used by the mesh has no material; ids out
    /// of range are reported before ids without a subsection.
    void check_used(const std::set<dealii::types::material_id> &used) const;

    /// "Material <id>: <constants> -> mu = ... Pa, nu = ..., density = ... kg/m^3" for the log.
    std::string describe(const unsigned int material_id) const;

    /// The plausible range of tissue moduli: outside it, warnings() speaks [Pa, -].
    static constexpr double min_shear_modulus = 10, max_shear_modulus = 1e7, min_bulk_ratio = 10, max_bulk_ratio = 1e5;
    /// One line "Warning: ..." per modulus of @p material_id outside the plausible range (μ, K/μ).
    std::vector<std::string> warnings(const unsigned int material_id) const;

    /// The tissue of @p material_id; throws naming the id if it is out of range or has no subsection.
    const Tissue &operator[](const unsigned int material_id) const;

  private:
    std::vector<Tissue> tissues;
    std::vector<bool>   given;
  };
} // namespace hydrostat
