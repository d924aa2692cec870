#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/trilinos_vector.h>

#include <hydrostat/base/space_time_function.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Prescribed displacements (subsection "Boundary conditions"):
   *  - Constraint k: on boundary id b, the displacement components named in Components (any of
   *    x, y, z) follow Displacement (three expressions of x, y, z, t, ';'-separated; 0 = fixed);
   *    Boundary id = -1: unused;
   *  - Point constraints: a list "x, y, z: components" of reference points (mesh vertices) whose
   *    listed displacement components are held at zero, e.g. to remove rigid motion.
   * They become the AffineConstraints of the Newton system at a time t (make()).
   */
  class DirichletConstraints
  {
  public:
    static constexpr unsigned int max_slots = 8;

    struct Constraint
    {
      unsigned int                       boundary_id;
      std::array<bool, 3>                components;
      std::unique_ptr<SpaceTimeFunction> displacement;
      std::string                        id_parameter; ///< the parameter that names the boundary id
    };

    struct PointConstraint
    {
      dealii::Point<3>    position;
      std::array<bool, 3> components;
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);
    /// Adds a constraint in code: on @p boundary_id, the components named in @p components
    /// (x, y, z) follow @p displacement (three expressions of x, y, z, t).
    void add(const unsigned int boundary_id, const std::string &components,
             const std::string &displacement = "0; 0; 0");

    const std::vector<Constraint>      &constraints() const { return constraint_list; }
    const std::vector<PointConstraint> &point_constraints() const { return point_list; }

    /// Every constraint's boundary id must be on @p dof_handler's mesh and every point constraint
    /// must sit on a vertex of it: one that matches none would hold nothing (InputError listing the
    /// mesh's boundary ids or naming the nearest vertex).
    void check(const dealii::DoFHandler<3> &dof_handler) const;

    /**
     * The constraints of the state at time @p t reached from @p u_ghosted: @p inhomogeneous moves
     * the constrained DoFs to their prescribed values, @p homogeneous holds their increments at
     * zero. Both on the @p relevant DoFs. A displacement that is not finite is an InputError.
     */
    void make(const dealii::DoFHandler<3> &dof_handler, const dealii::IndexSet &relevant,
              const dealii::TrilinosWrappers::MPI::Vector &u_ghosted, const double t,
              dealii::AffineConstraints<double> &inhomogeneous, dealii::AffineConstraints<double> &homogeneous) const;

  private:
    std::vector<Constraint>      constraint_list;
    std::vector<PointConstraint> point_list;
  };

  /// "x", "yz", "xyz", … → which displacement components; throws naming @p parameter.
  std::array<bool, 3> parse_components(const std::string &text, const std::string &parameter);
} // namespace hydrostat
