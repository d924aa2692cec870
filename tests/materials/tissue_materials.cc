// Material subsections: the law chosen by 'Law', material 0 as the default tissue, and a missing
// subsection of another id as an error naming it.
#include <hydrostat/base/errors.h>
#include <hydrostat/materials/mooney_rivlin.h>
#include <hydrostat/materials/neo_hookean.h>
#include <hydrostat/materials/tissue_materials.h>

#include <gtest/gtest.h>

using namespace hydrostat;

namespace
{
  TissueMaterials parse(const std::string &input)
  {
    dealii::ParameterHandler prm;
    TissueMaterials::declare_parameters(prm);
    prm.parse_input_from_string(input);
    TissueMaterials materials;
    materials.parse_parameters(prm);
    return materials;
  }

  /// The user-facing message of what @p f throws ("" if nothing).
  template <typename Function>
  std::string error_of(const Function &f)
  {
    try
      {
        f();
      }
    catch (const std::exception &error)
      {
        return message_of(error);
      }
    return "";
  }
} // namespace

TEST(TissueMaterials, LawIsChosenPerMaterial)
{
  const TissueMaterials materials     = parse("subsection Materials\n"
                                                  "  subsection Material 1\n"
                                                  "    set c1 = 2e3\n"
                                                  "    set c2 = 5e2\n"
                                                  "  end\n"
                                                  "  subsection Material 3\n"
                                                  "    set Law           = neo-Hookean\n"
                                                  "    set Shear modulus = 4e3\n"
                                                  "    set Bulk modulus  = 3e6\n"
                                                  "    set Density       = 1100\n"
                                                  "  end\n"
                                                  "end\n");
  const auto           *mooney_rivlin = dynamic_cast<const MooneyRivlin *>(materials[1].law.get());
  ASSERT_NE(mooney_rivlin, nullptr);
  EXPECT_EQ(mooney_rivlin->parameters().c1, 2e3);
  EXPECT_EQ(mooney_rivlin->shear_modulus(), 5e3);

  const auto *neo_hookean = dynamic_cast<const NeoHookean *>(materials[3].law.get());
  ASSERT_NE(neo_hookean, nullptr);
  EXPECT_EQ(neo_hookean->shear_modulus(), 4e3);
  EXPECT_EQ(neo_hookean->bulk_modulus(), 3e6);
  EXPECT_EQ(materials[3].density, 1100);
}

// Material 0 keeps its defaults without a subsection (the generated meshes have only id 0); any
// other id must be given, even if only with default values.
TEST(TissueMaterials, OnlyMaterialZeroHasADefault)
{
  const TissueMaterials materials = parse("subsection Materials\n"
                                          "  subsection Material 2\n"
                                          "    set Density = 1050\n"
                                          "  end\n"
                                          "end\n");
  EXPECT_TRUE(materials.defined(0));
  EXPECT_NE(dynamic_cast<const MooneyRivlin *>(materials[0].law.get()), nullptr);
  EXPECT_EQ(materials[0].law->shear_modulus(), 2e3);
  EXPECT_TRUE(materials.defined(2));
  for (const unsigned int id : {1u, 3u, 7u, 9u})
    EXPECT_FALSE(materials.defined(id));
  EXPECT_EQ(error_of([&] { materials[1]; }),
            "Material id 1 is used by the mesh but the input has no subsection 'Materials/Material 1': add it "
            "(only material 0 has a default).");
  EXPECT_EQ(error_of([&] { materials[9]; }),
            "Material id 9 is used by the mesh but only ids 0-7 can be given materials.");
}

// Constants of the law not chosen would be ignored: they are an error.
TEST(TissueMaterials, ConstantsOfTheOtherLawAreAnError)
{
  EXPECT_EQ(error_of([] {
              parse("subsection Materials\n  subsection Material 4\n    set Law = neo-Hookean\n"
                    "    set c1 = 1e3\n  end\nend\n");
            }),
            "In subsection 'Materials/Material 4': 'c1' is not a constant of Law = neo-Hookean.");
  EXPECT_EQ(error_of([] {
              parse("subsection Materials\n  subsection Material 0\n    set Shear modulus = 1e3\n"
                    "  end\nend\n");
            }),
            "In subsection 'Materials/Material 0': 'Shear modulus' is not a constant of Law = Mooney-Rivlin.");
  EXPECT_EQ(error_of([] {
              parse("subsection Materials\n  subsection Material 0\n    set Law = neo-Hookean\n"
                    "    set Shear modulus = -1\n  end\nend\n");
            }),
            "In subsection 'Materials/Material 0': neo-Hookean: the shear modulus must be positive.");
}

// The mesh's ids: one out of range is reported before one without a subsection.
TEST(TissueMaterials, CheckOfTheMeshIds)
{
  const TissueMaterials materials = parse("subsection Materials\n  subsection Material 2\n    set c1 = 3e3\n"
                                          "  end\nend\n");
  EXPECT_EQ(error_of([&] { materials.check_used({0, 2}); }), "");
  EXPECT_EQ(error_of([&] {
              materials.check_used({1, 2, 9});
            }),
            "Material id 9 is used by the mesh but only ids 0-7 can be given materials.");
  EXPECT_EQ(error_of([&] {
              materials.check_used({0, 2, 5});
            }),
            "Material id 5 is used by the mesh but the input has no subsection 'Materials/Material 5': add it "
            "(only material 0 has a default).");
}
