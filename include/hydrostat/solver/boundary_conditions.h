#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/tensor.h>

#include <hydrostat/base/space_time_function.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Constraints and loads by boundary id (subsection "Boundary conditions"), each a
   * SpaceTimeFunction of the reference position and time so that ramps and waves need no
   * separate time-function type.
   *
   *  - Constraint k: on boundary id b, the displacement components named in Components
   *    (any of x, y, z) follow Displacement (three expressions, ';'-separated; 0 = fixed).
   *  - Load k: on boundary id b, a dead traction (force per reference area, fixed direction,
   *    three expressions [Pa]) or a follower pressure (one expression [Pa], acting against the
   *    current outward normal: t0 = −p J F^{-T} N).
   *  - Body force: gravity/acceleration g (three expressions [m/s²]), force ρ0 g per volume.
   *  - Point constraints: a list "x, y, z: components" of reference points (mesh vertices) whose
   *    listed displacement components are held at zero, e.g. to remove rigid motion.
   * Slots with Boundary id = -1 are unused.
   */
  class BoundaryConditions
  {
  public:
    static constexpr unsigned int max_slots = 8;

    struct Constraint
    {
      unsigned int                       boundary_id;
      std::array<bool, 3>                components;
      std::unique_ptr<SpaceTimeFunction> displacement;
    };

    struct Load
    {
      enum class Type
      {
        dead_traction,
        follower_pressure
      };
      unsigned int                       boundary_id;
      Type                               type;
      std::unique_ptr<SpaceTimeFunction> value;
    };

    struct PointConstraint
    {
      dealii::Point<3>    position;
      std::array<bool, 3> components;
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    const std::vector<Constraint>      &constraints() const { return constraint_list; }
    const std::vector<Load>            &loads() const { return load_list; }
    const std::vector<PointConstraint> &point_constraints() const { return point_list; }
    const SpaceTimeFunction            &body_acceleration() const { return *gravity; }
    bool                                has_follower_loads() const;

  private:
    std::vector<Constraint>            constraint_list;
    std::vector<Load>                  load_list;
    std::vector<PointConstraint>       point_list;
    std::unique_ptr<SpaceTimeFunction> gravity;
  };

  /// "x", "yz", "xyz", … → which displacement components; throws naming @p parameter.
  std::array<bool, 3> parse_components(const std::string &text, const std::string &parameter);
} // namespace hydrostat
