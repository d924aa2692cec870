#include <hydrostat/materials/mooney_rivlin.h>
#include <hydrostat/materials/neo_hookean.h>
#include <hydrostat/materials/tissue_law.h>

namespace hydrostat
{
  const std::vector<TissueLawType> &tissue_law_types()
  {
    // The first is the default of 'Law'.
    static const std::vector<TissueLawType> types = {
      {"Mooney-Rivlin",
       "c1 (I1_bar - 3) + c2 (I2_bar - 3) (constants c1, c2)",
       {"c1", "c2"},
       MooneyRivlin::declare_parameters,
       MooneyRivlin::create},
      {"neo-Hookean",
       "mu/2 (I1_bar - 3) (constant Shear modulus)",
       {"Shear modulus"},
       NeoHookean::declare_parameters,
       NeoHookean::create},
    };
    return types;
  }
} // namespace hydrostat
