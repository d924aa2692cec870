#include <hydrostat/driver/terms.h>
#include <hydrostat/physics/body_force.h>
#include <hydrostat/physics/inertia.h>
#include <hydrostat/physics/muscle_tendon_units.h>
#include <hydrostat/physics/rigid_contact.h>
#include <hydrostat/physics/self_contact.h>
#include <hydrostat/physics/solid_stress.h>
#include <hydrostat/physics/surface_loads.h>
#include <hydrostat/physics/water_drag.h>

namespace hydrostat
{
  const std::vector<TermType> &term_types()
  {
    // The order is the order of summation in every cell (theory.md eq. (4)).
    static const std::vector<TermType> types = {
      {SolidStress::declare_parameters, SolidStress::create, SolidStress::field_selectors},
      {Inertia::declare_parameters, Inertia::create, nullptr},
      {BodyForce::declare_parameters, BodyForce::create, nullptr},
      {SurfaceLoad::declare_parameters, SurfaceLoad::create, nullptr},
      {WaterDrag::declare_parameters, WaterDrag::create, nullptr},
      {MuscleTendonUnits::declare_parameters, MuscleTendonUnits::create, nullptr},
      {RigidContact::declare_parameters, RigidContact::create, RigidContact::field_selectors},
      {SelfContact::declare_parameters, SelfContact::create, nullptr},
    };
    return types;
  }

  std::vector<std::string> term_field_selectors()
  {
    std::vector<std::string> names;
    for (const TermType &type : term_types())
      if (type.field_selectors)
        for (const std::string &name : type.field_selectors())
          names.push_back(name);
    return names;
  }
} // namespace hydrostat
