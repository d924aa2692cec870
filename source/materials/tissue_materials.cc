#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/materials/tissue_materials.h>

namespace hydrostat
{
  using namespace dealii;

  void TissueMaterials::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Materials");
    for (unsigned int id = 0; id < max_ids; ++id)
      {
        prm.enter_subsection("Material " + std::to_string(id));
        MooneyRivlin::declare_parameters(prm);
        prm.declare_entry("Density", "1050", Patterns::Double(0.0), "Reference density rho0 [kg/m^3].");
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  void TissueMaterials::parse_parameters(ParameterHandler &prm)
  {
    tissues.clear();
    prm.enter_subsection("Materials");
    for (unsigned int id = 0; id < max_ids; ++id)
      {
        prm.enter_subsection("Material " + std::to_string(id));
        try
          {
            tissues.push_back({MooneyRivlin(MooneyRivlin::parse_parameters(prm)), prm.get_double("Density")});
          }
        catch (const ExceptionBase &error)
          {
            AssertThrow(
              false, ExcMessage("In subsection 'Materials/Material " + std::to_string(id) + "': " + message_of(error)));
          }
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  const TissueMaterials::Tissue &TissueMaterials::operator[](const unsigned int material_id) const
  {
    AssertThrow(material_id < tissues.size(),
                ExcMessage("Material id " + std::to_string(material_id) + " is used by the mesh but only ids 0-" +
                           std::to_string(max_ids - 1) + " can be given materials."));
    return tissues[material_id];
  }
} // namespace hydrostat
