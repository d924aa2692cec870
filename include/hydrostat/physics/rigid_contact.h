#pragma once

#include <deal.II/base/quadrature_lib.h>
#include <deal.II/fe/fe_values.h>

#include <hydrostat/physics/rigid_obstacle.h>
#include <hydrostat/physics/term.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace hydrostat
{
  /**
   * Contact of the body's boundary faces with one rigid obstacle (subsection 'Contact', theory.md
   * §15): at every face quadrature point the pressure per reference area
   *
   *   λ_N = max(0, λ̄ − ε g)                                                              (eq. (66))
   *
   * pushes along the obstacle's normal, with g the gap of the current position x = X + u, ε the
   * penalty and λ̄ the augmented-Lagrangian multiplier of the point; with a friction coefficient
   * μ > 0 a regularised Coulomb traction t_T, elastic up to μ λ_N and sliding beyond, acts in the
   * tangent plane (eq. (66b)). After Newton has converged on a step, augment() raises λ̄ ← λ_N
   * (Uzawa) and asks for another solve until the largest penetration is below the tolerance
   * (eq. (68)), so the answer does not depend on ε. The tangent is exact: the derivative of the
   * point force by automatic differentiation (eq. (67)); symmetric without friction. Contact is a
   * load on the body: its work is booked as external work, and in the term's own CSV (eq. (69)).
   */
  class RigidContact : public Term
  {
  public:
    static constexpr unsigned int max_obstacles = 4;

    /// The numerical controls shared by the obstacles (subsection 'Contact').
    struct Controls
    {
      std::optional<double> penalty;                     ///< ε [Pa/m]; none: auto, factor · 3μ / h
      double                penalty_factor    = 100;     ///< of the automatic penalty [-]
      double                tolerance         = 0.001;   ///< largest penetration / h of its cell [-]
      unsigned int          max_augmentations = 20;      ///< Uzawa updates per step
      bool                  modified_mass     = false;   ///< contact nodes without mass (eq. (72))
      const MuscleGroups   *muscles           = nullptr; ///< the body's, kept off the massless nodes

      /// Whether augment() must stop with the largest penetration @p worst (/ h) and @p moving
      /// partners: settled, or the limit of updates reached after @p augmentations; then @p
      /// unsettled says why (else it is cleared).
      bool stop_augmenting(const double worst, const bool moving, const unsigned int augmentations,
                           std::string &unsettled) const;
      /// Term::augmentation_resolution() of @p faces (each with the size of its cell [m]): a tenth
      /// of the penetration tolerated at the smallest (eq. (68a)); infinity without updates or faces.
      template <typename Faces>
      double augmentation_resolution(const Faces &faces) const
      {
        double h = std::numeric_limits<double>::infinity();
        for (const auto &face : faces)
          h = std::min(h, face.size);
        return max_augmentations > 0 ? 0.1 * tolerance * h : std::numeric_limits<double>::infinity();
      }
    };

    /// The controls of the current subsection 'Contact' (shared with self-contact), the modified
    /// mass only in a dynamic run; an InputError names a penalty or factor of 0.
    static Controls read_controls(dealii::ParameterHandler &prm, const TermSetup &setup);
    /// With a modified mass: an InputError, on every rank, if a cell with a node on a boundary for
    /// which @p massless holds has a quadrature point of @p quadrature in a muscle group, whose
    /// force–velocity law would see the velocity of the massless node (theory.md §15.6);
    /// @p parameter names the boundaries' input.
    static void check_massless_cells(const dealii::DoFHandler<3> &dof_handler, const dealii::Quadrature<3> &quadrature,
                                     const Controls &controls, const std::function<bool(unsigned int)> &massless,
                                     const std::string &parameter);

    static void declare_parameters(dealii::ParameterHandler &prm);
    /// A RigidContact per obstacle whose Type is not none.
    static std::vector<std::unique_ptr<Term>> create(dealii::ParameterHandler &prm, const TermSetup &setup);
    /// Contact field selectors of 'Output/Fields'.
    static std::vector<std::string> field_selectors() { return {"contact"}; }

    /// Contact of @p obstacle (number @p index, from 1) with the faces of @p boundary_ids (empty:
    /// every boundary of the mesh).
    RigidContact(const unsigned int index, std::unique_ptr<RigidObstacle> obstacle,
                 const std::vector<unsigned int> &boundary_ids, const double friction, const Controls &controls,
                 const TissueMaterials &materials);

    std::string name() const override;
    Work        work() const override { return Work::external; }
    bool        symmetric() const override { return friction == 0; }

    /// Finds this rank's contact faces, their penalties and cell sizes; an InputError if a boundary
    /// id is not on the mesh.
    void        setup(const dealii::DoFHandler<3> &dof_handler, const dealii::Quadrature<3> &quadrature) override;
    std::string report() const override;

    bool on_boundary(const unsigned int id) const override;
    bool massless_boundary(const unsigned int id) const override { return controls.modified_mass && on_boundary(id); }
    void add_face(const FaceState &face, CellContribution &out) const override;

    bool        augment(const dealii::TrilinosWrappers::MPI::Vector &u, const Step &step) override;
    void        retry_step() override;
    std::string unsettled() const override { return shortfall; }
    double      augmentation_resolution() const override;

    std::vector<CellField> output_fields() const override;
    void                   output_values(const CellState &cell, double *values) const override;

    std::string              series_name() const override;
    std::vector<std::string> series_columns() const override;
    std::vector<double>      series_values() const override;

    void commit(const State &state, const double dt) override;
    void save(BinaryWriter &out) const override;
    void load(BinaryReader &in) override;

    /// Totals of the accepted state over all ranks (the CSV columns).
    struct Totals
    {
      dealii::Tensor<1, 3> force;               ///< on the body [N]
      double               normal_force    = 0; ///< Σ λ_N dA, the normal part alone, summed as magnitudes [N]
      double               area            = 0; ///< current area in contact [m²]
      double               work            = 0; ///< of the contact force on the body since t = 0 [J]
      double               max_penetration = 0; ///< [m]
      double               max_pressure    = 0; ///< largest Cauchy contact pressure [Pa]
      unsigned int         augmentations   = 0; ///< Uzawa updates of the last step
    };
    const Totals &totals() const { return sums; }

  private:
    /// A boundary face of this rank in contact with the obstacle, its points at [first, first + n_q).
    struct Face
    {
      CellIterator cell;
      unsigned int face_no, first;
      double       penalty, size; // ε [Pa/m], h of its cell [m]
    };
    /// What commit() keeps of a point: its state of the accepted step.
    struct PointRecord
    {
      double               multiplier = 0, pressure = 0, gap = 0, slip = 0; // λ̄, Cauchy pressure [Pa], g, slip [m]
      dealii::Tensor<1, 3> force, u;                                        // λ_N n + t_T [Pa], u [m]
      dealii::Tensor<1, 3> anchor; // where the point sticks, relative to the obstacle's point [m]
    };
    /// The force of one point per reference area (eqs. (66), (66b)): λ_N, λ_N n + t_T, t_T, g, n.
    template <typename Number>
    struct PointForce
    {
      Number                           pressure;
      dealii::Tensor<1, 3, Number>     force, tangential;
      RigidObstacle::Proximity<Number> proximity;
    };
    template <typename Number>
    PointForce<Number> at(const dealii::Tensor<1, 3, Number> &x, const RigidObstacle::Placement &where,
                          const double multiplier, const PointRecord &record, const double penalty) const;
    /// Calls @p f(face, q, x, u, kinematics) at every contact point of this rank for the ghosted @p u.
    template <typename F>
    void        for_each_point(const dealii::TrilinosWrappers::MPI::Vector &u, const F &f);
    const Face *face_of(const CellIterator &cell, const unsigned int face_no) const;

    const unsigned int                             index;
    const std::unique_ptr<RigidObstacle>           obstacle;
    const std::vector<unsigned int>                boundary_ids;
    const double                                   friction; // μ
    const Controls                                 controls;
    const TissueMaterials                         &materials;
    MPI_Comm                                       comm = MPI_COMM_SELF;
    std::unique_ptr<dealii::QGauss<2>>             face_quadrature;
    std::unique_ptr<dealii::FEFaceValues<3>>       fe_face_values;
    std::vector<Face>                              faces;
    std::unordered_map<unsigned int, unsigned int> face_index;  // 6 · active cell index + face_no → faces
    std::vector<double>                            multipliers; // λ̄ of the step being solved
    std::vector<PointRecord>                       accepted;    // of the last accepted step
    unsigned int                                   n_q = 0, augmentations = 0;
    std::string                                    shortfall; // unsettled() of the last augment()
    double                                         penalty_min = 0, penalty_max = 0;
    Totals                                         sums;
  };
} // namespace hydrostat
