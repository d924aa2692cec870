#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>

#include <hydrostat/activation/activation_dynamics.h>
#include <hydrostat/base/space_time_function.h>
#include <hydrostat/base/time_table.h>
#include <hydrostat/materials/nominal_stress.h>
#include <hydrostat/muscle/fibre_field.h>
#include <hydrostat/muscle/van_leeuwen_kier.h>

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Named muscle groups (subsection "Muscles", theory.md §5): each a region of the body
   * (material ids and/or a geometric predicate on the reference position) with one to three
   * fibre families, a fibre stress law and an activation source. Their stresses add to the
   * connective tissue's at every quadrature point that lies in the group.
   *
   * Fibre stress law (per group):
   *  - `Van Leeuwen-Kier`: σm0 = σpass(ε) + σmax fa fl(ε) fv(ε̇) (theory.md §6), with the
   *    myosin and rest sarcomere lengths optionally fields of the position (squid stalk);
   *  - `constant`: σm0 = σmax fa (no length or rate dependence: simple active-stress models and
   *    closed-form checks).
   * Activation source (per group, theory.md §7):
   *  - `prescribed`: the pattern of theory.md eq. (27) with an onset that may be a field of the position
   *    (travelling waves ti = z̄/c);
   *  - `expression`: fa = any expression of x, y, z, t (clipped to [0, 1]);
   *  - `table`: fa(t) from a column of a CSV file (TimeTable), e.g. what an inverse run wrote;
   *  - `controlled`: fa uniform over the group, set in every step by the inverse run
   *    (set_control(), theory.md §16), 0 at t = 0;
   *  - with `Control nodes` z_1 < … < z_N, a `table` or `controlled` group's activation is a
   *    profile along the arm, fa = Σ_k a_k φ_k(Z) with hat functions of the reference Z (theory.md
   *    eq. (76)): one control a_k per node, column <column>_k of the table;
   *  - `stimulation`: STIM(x, y, z, t) through the activation dynamics (direct, Zajac or Hatze;
   *    Hatze's l_rel is the fibre stretch over the stretch at the middle of the fl plateau). Their
   *    state lives at the quadrature points and is advanced exactly over each step.
   */
  class MuscleGroups
  {
  public:
    static constexpr unsigned int max_groups   = 6;
    static constexpr unsigned int max_families = 3;

    /// What a group knows at one quadrature point: precomputed at set-up, plus the activation
    /// state of the last accepted step.
    struct GroupAtPoint
    {
      unsigned int                           group;
      VanLeeuwenKierMuscle                   law;
      std::array<Tensor<1, 3>, max_families> N;
      double                                 onset = 0;
      ActivationState                        state;
      // Control nodes: fa = weight a_node + (1 − weight) a_node+1 (eq. (76)).
      unsigned int node   = 0;
      double       weight = 1;
    };
    using PointData = std::vector<GroupAtPoint>;

    /// Per-point results for output.
    struct PointOutput
    {
      double activation   = 0; ///< fa
      double stretch      = 1; ///< λ of the group's first family
      double fibre_stress = 0; ///< σm0 of the first family [Pa]
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    unsigned int       n_groups() const { return groups.size(); }
    const std::string &name(const unsigned int g) const { return groups[g].name; }

    /// Whether group @p g has Source = controlled; its number of controls (of Control nodes, 1 for
    /// a uniform activation), their names in tables (the group's Name, or Name_k of node k from 1),
    /// and control @p k's value for the step being solved.
    bool         controlled(const unsigned int g) const { return groups[g].source == Group::Source::controlled; }
    unsigned int n_controls(const unsigned int g) const { return std::max<std::size_t>(groups[g].nodes.size(), 1); }
    std::string  control_name(const unsigned int g, const unsigned int k) const;
    void         set_control(const unsigned int g, const unsigned int k, const double a) { groups[g].controls[k] = a; }

    /// Empty if every expression input of the groups of @p material_id (Region, the law's fields,
    /// Onset, and Level and Stimulation at t = 0) is finite at @p X, else the input error naming
    /// the first one that is not (a Region that is NaN would put the point in the group).
    std::string check_finite(const dealii::Point<3> &X, const unsigned int material_id) const;
    /// "'Muscles/Group k/Region' = "..."" and the group's Material ids if it has any: what
    /// decides which points group @p g holds.
    std::string region_text(const unsigned int g) const;
    /// The first fibre family of group @p g that follows the arm's taper (whose L, R0, R1 its
    /// directions assume), null if none does.
    const FibreField *tapered_family(const unsigned int g) const;
    /// A warning (empty if none) when the points of group @p g reach beyond the arm its fibre
    /// directions assume: @p z_max the largest z of its points, @p r_over_R the largest ratio of a
    /// point's distance from the axis to the assumed radius R(z) there (both over all ranks).
    std::string arm_warning(const unsigned int g, const double z_max, const double r_over_R) const;
    /// The groups a point with reference position @p X in a cell of @p material_id belongs to.
    PointData point_data(const dealii::Point<3> &X, const unsigned int material_id) const;

    /**
     * Sum of the fibre stresses at a point and their derivative with respect to F, at time
     * @p t = t_n + dt with activation states advanced from the stored ones; F_dot = Grad v and
     * alpha = ∂F_dot/∂F. If @p output is given, it receives one entry per group at the point.
     */
    NominalStressTangent response(const PointData &point, const dealii::Point<3> &X, const Tensor<2, 3> &F,
                                  const Tensor<2, 3> &F_dot, const double alpha, const double t, const double dt,
                                  std::vector<PointOutput> *output = nullptr) const;

    /**
     * ∂P/∂a of each control of a controlled group at a point (theory.md eq. (74)): P is linear
     * in fa, so it is the fibre stress of fa = 1 less that of fa = 0, times the control's weight
     * at the point (eq. (76)); given to @p add as (group, node, ∂P/∂a).
     */
    void control_derivatives(const PointData &point, const Tensor<2, 3> &F, const Tensor<2, 3> &F_dot,
                             const std::function<void(unsigned int, unsigned int, const Tensor<2, 3> &)> &add) const;

    /// Advances the stored activation states over an accepted step to time @p t.
    void commit(PointData &point, const dealii::Point<3> &X, const Tensor<2, 3> &F, const double t,
                const double dt) const;

  private:
    struct Group
    {
      std::string                        name;
      std::vector<unsigned int>          material_ids;
      std::unique_ptr<SpaceTimeFunction> region;
      std::vector<FibreField>            families;
      bool                               constant_law;
      VanLeeuwenKierMuscle::Parameters   law;
      std::unique_ptr<SpaceTimeFunction> myosin_length, rest_sarcomere_length;
      bool                               rate_dependent;
      enum class Source
      {
        prescribed,
        expression,
        table,
        stimulation,
        controlled
      } source;
      std::vector<double>                 nodes;    // Control nodes [m]
      std::vector<double>                 controls; // Source = controlled: one per node (or 1)
      std::unique_ptr<SpaceTimeFunction>  onset;
      std::optional<PrescribedActivation> pattern; // Source = prescribed
      std::unique_ptr<SpaceTimeFunction>  level;
      std::vector<TimeTable>              tables; // Source = table: one per node (or 1)
      std::unique_ptr<SpaceTimeFunction>  stimulation;
      std::optional<ActivationDynamics>   dynamics;

      /// Whether the group may hold points of @p material_id (no Material ids: all).
      bool has_material(const unsigned int material_id) const;
    };

    /// fa and dfa/dλ of group @p g at a point with fibre stretch λ.
    std::pair<double, double> activation(const Group &g, const GroupAtPoint &p, const dealii::Point<3> &X,
                                         const double lambda, const double t, const double dt) const;

    std::vector<Group> groups;
  };
} // namespace hydrostat
