#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/materials/tissue_materials.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    std::string subsection_name(const unsigned int id) { return "Material " + std::to_string(id); }

    /// The prefix of the ParameterHandler keys of the entries in 'Materials/Material <id>':
    /// names joined by '.', every character but [a-zA-Z0-9] written as _XX (hexadecimal ASCII),
    /// as documented for ParameterHandler.
    std::string key_prefix(const unsigned int id) { return "Materials.Material_20" + std::to_string(id) + "."; }

    /// An entry name from its key (the inverse of the mangling above).
    std::string demangle(const std::string &key)
    {
      std::string name;
      for (std::size_t i = 0; i < key.size(); ++i)
        if (key[i] == '_' && i + 2 < key.size())
          {
            name += static_cast<char>(std::stoi(key.substr(i + 1, 2), nullptr, 16));
            i += 2;
          }
        else
          name += key[i];
      return name;
    }

    /// Per material id, the entries of its subsection that the input set. Every entry there is
    /// declared with has_to_be_set only for this: ParameterHandler reports no other way whether an
    /// entry was given (set to its default value, it still counts). Nothing asserts them.
    std::vector<std::set<std::string>> entries_given(const ParameterHandler &prm)
    {
      ParameterHandler declared;
      TissueMaterials::declare_parameters(declared);
      const std::set<std::string>        not_set = prm.get_entries_wrongly_not_set();
      std::vector<std::set<std::string>> given(TissueMaterials::max_ids);
      for (const std::string &key : declared.get_entries_wrongly_not_set())
        for (unsigned int id = 0; id < TissueMaterials::max_ids; ++id)
          if (key.compare(0, key_prefix(id).size(), key_prefix(id)) == 0 && not_set.count(key) == 0)
            given[id].insert(demangle(key.substr(key_prefix(id).size())));
      return given;
    }
  } // namespace

  void TissueMaterials::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Materials");
    for (unsigned int id = 0; id < max_ids; ++id)
      {
        prm.enter_subsection(subsection_name(id));
        TissueLaw::declare_parameters(prm, true);
        prm.declare_entry("Density", "1050", Patterns::Double(0.0), "Reference density rho0 [kg/m^3].", true);
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  void TissueMaterials::parse_parameters(ParameterHandler &prm)
  {
    tissues.clear();
    given.clear();
    const std::vector<std::set<std::string>> entries = entries_given(prm);
    ParameterHandler                         defaults;
    declare_parameters(defaults);
    prm.enter_subsection("Materials");
    for (unsigned int id = 0; id < max_ids; ++id)
      {
        given.push_back(id == 0 || !entries[id].empty());
        prm.enter_subsection(subsection_name(id));
        try
          {
            // Constants of the other laws would be ignored without a word; at their default values
            // they are harmless (a run's parameters.prm lists every entry).
            const TissueLawType &law = tissue_law_type(prm.get("Law"));
            for (const TissueLawType &other : tissue_law_types())
              for (const std::string &entry : other.constants)
                require(std::find(law.constants.begin(), law.constants.end(), entry) != law.constants.end() ||
                          entries[id].count(entry) == 0 ||
                          prm.get(entry) == defaults.get({"Materials", subsection_name(id)}, entry),
                        "'" + entry + "' is not a constant of Law = " + law.name + ".");
            tissues.push_back({TissueLaw::create(prm), prm.get_double("Density")});
            const double mu = tissues.back().law->shear_modulus(), K = tissues.back().law->bulk_modulus();
            if (!std::isfinite(mu) || !std::isfinite(K))
              {
                std::ostringstream message;
                message << "the moduli are not finite (mu = " << mu << " Pa, K = " << K
                        << " Pa): give them in Pa, e.g. c1 = 2e3 for mu = 4 kPa.";
                throw InputError(message.str());
              }
          }
        catch (const std::exception &error) // InputError of the law's checks, or a ParameterHandler error
          {
            throw InputError("In subsection 'Materials/" + subsection_name(id) + "': " + message_of(error));
          }
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  void TissueMaterials::set(const unsigned int material_id, std::shared_ptr<const TissueLaw> law, const double density)
  {
    require(material_id < max_ids, "Material id " + std::to_string(material_id) + " is out of range.");
    tissues.resize(max_ids);
    given.resize(max_ids, false);
    tissues[material_id] = {std::move(law), density};
    given[material_id]   = true;
  }

  bool TissueMaterials::defined(const unsigned int material_id) const
  {
    return material_id < given.size() && given[material_id];
  }

  void TissueMaterials::check_used(const std::set<types::material_id> &used) const
  {
    for (const bool out_of_range : {true, false})
      for (const types::material_id id : used)
        if ((id >= max_ids) == out_of_range)
          (*this)[id];
  }

  std::string TissueMaterials::describe(const unsigned int material_id) const
  {
    const Tissue      &tissue = (*this)[material_id];
    std::ostringstream out;
    out << "Material " << material_id << ": ";
    tissue.law->print_constants(out);
    out << " -> mu = " << tissue.law->shear_modulus() << " Pa, nu = " << tissue.law->poisson_ratio()
        << ", density = " << tissue.density << " kg/m^3";
    return out.str();
  }

  std::vector<std::string> TissueMaterials::warnings(const unsigned int material_id) const
  {
    // Values that run but are unlikely for tissue: a modulus in the wrong unit (c1 = 2 meant as
    // 2 kPa), or a bulk modulus that makes the body compressible or the system needlessly stiff.
    const TissueLaw         &law = *(*this)[material_id].law;
    const double             mu = law.shear_modulus(), ratio = law.bulk_modulus() / mu;
    const std::string        where = "Materials/Material " + std::to_string(material_id);
    std::vector<std::string> found;
    std::ostringstream       text;
    if (mu < min_shear_modulus || mu > max_shear_modulus)
      {
        text << "Warning: " << where << ": mu = " << mu << " Pa lies outside " << min_shear_modulus << " to "
             << max_shear_modulus << " Pa (soft tissue: about 100 Pa to 1 MPa); are the constants in Pa?";
        found.push_back(text.str());
        text.str("");
      }
    if (ratio < min_bulk_ratio || ratio > max_bulk_ratio)
      {
        text << "Warning: " << where << ": K/mu = " << ratio << " lies outside " << min_bulk_ratio << " to "
             << max_bulk_ratio << " (nu = 0.45 to 0.499995): tissue is nearly incompressible, and above "
             << max_bulk_ratio << " Newton and the linear solver lose digits for no gain in accuracy.";
        found.push_back(text.str());
      }
    return found;
  }

  const TissueMaterials::Tissue &TissueMaterials::operator[](const unsigned int material_id) const
  {
    // Called for every cell in assembly: the messages are built only when a check fails.
    if (material_id >= tissues.size())
      throw InputError("Material id " + std::to_string(material_id) + " is used by the mesh but only ids 0-" +
                       std::to_string(max_ids - 1) + " can be given materials.");
    if (!given[material_id])
      throw InputError("Material id " + std::to_string(material_id) +
                       " is used by the mesh but the input has no subsection 'Materials/" +
                       subsection_name(material_id) + "': add it (only material 0 has a default).");
    return tissues[material_id];
  }
} // namespace hydrostat
