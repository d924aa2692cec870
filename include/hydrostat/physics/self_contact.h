#pragma once

#include <deal.II/base/bounding_box.h>
#include <deal.II/base/index_set.h>
#include <deal.II/base/quadrature_lib.h>

#include <hydrostat/physics/rigid_contact.h>
#include <hydrostat/physics/term.h>

#include <array>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace hydrostat
{
  /**
   * Contact of the body with itself (subsection 'Contact/Self contact', theory.md §15.5). Every
   * Gauss point of the chosen boundary faces (the slave side) is pushed out of the nearest boundary
   * face it has passed (the master side) with the law of rigid contact,
   *
   *   λ_N = φ(λ̄ − ε g),   g = (x_s − x_m(ξ*))·n_m(ξ*),                          (eq. (70))
   *
   * where x_m(ξ*) is the point of the deformed master face whose smoothed normal n_m (the nodal
   * normals averaged over the faces that share a node, eq. (70b)) passes through x_s, so that the
   * gap is continuous across the faces' edges; the master face takes the reaction at ξ*, so the
   * pair exchanges equal and opposite forces. Every
   * face is slave and master (two passes), so neither side is favoured. Faces close to each other in
   * the reference configuration never form a pair (the exclusion distance), nor faces whose normals
   * do not face each other or that have passed more than half a cell through each other (the
   * opposite side of a thin section). The boundary faces of all ranks are known on every rank (their
   * reference geometry once, their displacements at every evaluation), so faces owned by other
   * ranks are found; a bounding-box tree over the deformed faces gives the candidate pairs before
   * each Newton solve; only the faces around the partners of points within half a cell enter
   * the tangent's pattern, and a point may slide onto them within the solve. The tangent is exact
   * (automatic differentiation through the projection, eq. (71)) and unsymmetric. Surfaces that
   * close in or press keep the predictor from extrapolating (eq. (70c)). With 'Vertex points', a
   * face's corner becomes a slave point too once it has passed a master face by more than the
   * penetration tolerance, and stays one: the Gauss points of a coarse faceted surface let its
   * ridges into each other (theory.md §15.5). With 'Smooth surface', both sides are the smooth
   * surface through the faces' nodes and their smoothed normals (Phong, eq. (70e)), lifted outward
   * only, instead of the faces themselves. With a friction coefficient μ > 0, the regularised
   * Coulomb law of rigid contact acts on the slave point's motion relative to the master face's
   * material point at ξ* (eq. (70f)).
   */
  class SelfContact : public Term
  {
  public:
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// The term if 'Contact/Self contact/Enabled' is true.
    static std::vector<std::unique_ptr<Term>> create(dealii::ParameterHandler &prm, const TermSetup &setup);

    /// Self-contact of the faces of @p boundary_ids (empty: every boundary of the mesh); pairs
    /// closer than @p exclusion in the reference configuration are excluded (none: automatic);
    /// with @p vertex_points, the faces' corners also become slave points once they pass a face;
    /// with @p smooth_surface, the slave points and master faces lie on the smooth surface through
    /// the faces' nodes (eq. (70e)); with @p friction μ > 0, Coulomb friction (eq. (70f)).
    SelfContact(const std::vector<unsigned int> &boundary_ids, const std::optional<double> exclusion,
                const RigidContact::Controls &controls, const TissueMaterials &materials,
                const bool vertex_points = false, const bool smooth_surface = false, const double friction = 0);

    std::string name() const override { return "self-contact"; }
    Work        work() const override { return Work::external; }
    /// The force along the smoothed normal is not the gradient of a potential (eq. (70b)).
    bool symmetric() const override { return false; }

    void        setup(const dealii::DoFHandler<3> &dof_handler, const dealii::Quadrature<3> &quadrature) override;
    std::string report() const override;
    void        add_rows(dealii::IndexSet &rows) const override;
    void        add_sparsity(dealii::DynamicSparsityPattern          &dsp,
                             const dealii::AffineConstraints<double> &constraints) const override;
    bool        update_couplings(const dealii::TrilinosWrappers::MPI::Vector &u) override;
    bool        massless_boundary(const unsigned int id) const override;
    void        add_to_system(const SystemState &state, SystemContribution &out) const override;

    bool        augment(const dealii::TrilinosWrappers::MPI::Vector &u, const Step &step) override;
    void        retry_step() override;
    std::string unsettled() const override { return shortfall; }
    double      augmentation_resolution() const override;

    std::vector<CellField> output_fields() const override;
    void                   output_values(const CellState &cell, double *values) const override;

    std::string              series_name() const override { return "self_contact"; }
    std::vector<std::string> series_columns() const override;
    std::vector<double>      series_values() const override;

    void   commit(const State &state, const double dt) override;
    double predictor_horizon(const State &state) const override;
    double update_fraction(const dealii::TrilinosWrappers::MPI::Vector &u,
                           const dealii::TrilinosWrappers::MPI::Vector &du) const override;
    void   save(BinaryWriter &out) const override;
    void   load(BinaryReader &in) override;

    /// Totals of the accepted state over all ranks (the CSV columns).
    struct Totals
    {
      double       force           = 0; ///< Σ λ_N dA of both passes: the force the surfaces press with [N]
      double       friction_force  = 0; ///< Σ |t_T| dA of both passes [N]
      double       area            = 0; ///< current area in contact, each side once [m²]
      double       work            = 0; ///< of the contact forces on the body since t = 0 [J]
      double       max_penetration = 0; ///< [m]
      double       max_pressure    = 0; ///< largest Cauchy pressure of one pass [Pa]
      unsigned int augmentations   = 0; ///< Uzawa updates of the last step
      unsigned int points          = 0; ///< pressed points (Gauss and vertex points)
      unsigned int vertex_points   = 0; ///< vertex points made active since t = 0
    };
    const Totals &totals() const { return sums; }
    /// The exclusion distance in use [m].
    double exclusion_distance() const { return exclusion; }

  private:
    /// Whether faces of boundary id @p id take part.
    bool can_touch(const unsigned int id) const;
    /// A boundary face as every rank knows it: its nodes in the face's own lexicographic order
    /// (4 for Q1, 9 for Q2), their reference positions and DoFs (3 per node).
    struct Face
    {
      double                          X[9][3];
      dealii::types::global_dof_index dofs[27];
      double                          size, penalty; // h of its cell [m], ε [Pa/m]
      int                             sign;          // +1 if x_ξ × x_η points out of the body
      unsigned int                    n_nodes;
    };
    /// What commit() keeps of a slave point.
    struct PointRecord
    {
      double multiplier = 0, pressure = 0, gap = std::numeric_limits<double>::quiet_NaN(); // λ̄, Cauchy [Pa], g [m]
      double slip = 0; // relative to the master faces since t = 0 [m] (eq. (70f))
    };
    /// The master face of a slave point and its projection there (eq. (70)).
    struct Partner
    {
      unsigned int          face = 0;
      std::array<double, 2> xi{};
      double                gap = 0;
      dealii::Tensor<1, 3>  normal; // the unit smoothed normal at ξ
      /// Whether ξ lies in the face (not on its extension beyond the edges).
      bool in_face() const;
    };
    /// The current node positions of every face, from the displacement at the surface DoFs.
    using Positions = std::vector<double>; // u at surface_dofs

    Positions gather(const dealii::TrilinosWrappers::MPI::Vector &u) const;
    /// The rate −(w_s − w_m(ξ*))·n at which slave point @p q of owned face @p k closes in on its
    /// partner @p p under the nodal motion @p w (a velocity, or a Newton update).
    double closing_rate(const Positions &w, unsigned int k, unsigned int q, const Partner &p) const;
    /// The half-width w of the rounded ramp of eq. (70a) for slave face @p face [Pa].
    double ramp_width(const Face &face) const { return controls.tolerance * face.penalty * face.size; }
    /// What the smooth surface of eq. (70e) over a face takes besides its node positions.
    struct Surface
    {
      unsigned int                               n_nodes;
      const std::array<dealii::Tensor<1, 3>, 9> &nu;              // the smoothed normals at its nodes
      double                                     shape, rounding; // c; δ [m], its penetration tolerance
    };
    Surface surface(const unsigned int m) const
    {
      return {faces[m].n_nodes, node_normals[m], shape, controls.tolerance * faces[m].size};
    }
    dealii::Tensor<1, 3> node(const Positions &u, const unsigned int face, const unsigned int k) const;
    /// The bounding box of the nodes of face @p m at @p u.
    dealii::BoundingBox<3> box(const Positions &u, const unsigned int m) const;
    /// The candidate masters of every owned face at @p u: the faces whose boxes, grown by the cell
    /// sizes, overlap, less the excluded ones.
    std::vector<std::vector<unsigned int>> search(const Positions &u) const;
    bool                                   excluded(const unsigned int s, const unsigned int m) const;
    /// The smoothed outward normals of every face's nodes at @p u (eq. (70b)): at a node, the
    /// mean of the unit normals there of the faces that share it and are within 45° of the face.
    void smooth_normals(const Positions &u);
    /// Point @p q of owned face @p k and its face's outward normal at @p u.
    struct SlavePoint
    {
      dealii::Tensor<1, 3> x, normal;
    };
    SlavePoint slave_point(const Positions &u, const unsigned int k, const unsigned int q) const;
    /// The faces at one set of positions, with what every projection onto a face starts from
    /// (its smooth surface and smoothed normal at ξ = (½, ½)) and the box that orders the faces
    /// for a point, each computed once, when first needed, for all the points projected there.
    class DeformedFaces;
    /// The point of face @p m whose smoothed normal passes through @p xs (ξ may lie up to ½
    /// beyond the edges); none if the projection does not converge.
    std::optional<Partner> project(DeformedFaces &at, const dealii::Tensor<1, 3> &xs, const unsigned int m) const;
    /// The partner of every owned point among the faces @p among of its face; the points whose
    /// @p pressures are > 0 press (none: no point presses). Given @p pressures, the points that do
    /// not press have only the partners they have passed (g < 0), as partner() with passed_only.
    std::vector<std::optional<Partner>> select_partners(DeformedFaces                                &at,
                                                        const std::vector<std::vector<unsigned int>> &among,
                                                        const std::vector<double>                    *pressures) const;
    /// Whether face @p m is coupled to owned face @p k in the tangent's pattern.
    bool coupled(const unsigned int k, const unsigned int m) const;
    /// The partner of point @p q of owned face @p k among @p masters, if any; a point that presses
    /// keeps a partner whose normal is further from opposite to its face's (up to 90°, else 60°).
    /// With @p passed_only the partner is the same where it has been passed (g < 0); where it has
    /// not, none or another one not passed (the faces beyond half a cell are not projected).
    std::optional<Partner> partner(DeformedFaces &at, const unsigned int k, const unsigned int q,
                                   const std::vector<unsigned int> &masters, const bool pressing,
                                   const bool passed_only = false) const;
    /// The force of a slave point per reference area: λ_N = φ(λ̄ − ε g) (eq. (70a)), g, and the
    /// friction traction t_T with the slip of the step beyond the elastic stick (eq. (70f)).
    template <typename Number>
    struct PairForce
    {
      Number                       pressure, gap;
      dealii::Tensor<1, 3, Number> tangential;
      double                       slip = 0;
    };
    /// The force of point @p q of owned face @p k on @p p and the residual of the pair's DoFs into
    /// @p r (slave DoFs, then master DoFs), for double and ContactAD.
    template <typename Number>
    PairForce<Number> pair_residual(const unsigned int k, const unsigned int q, const Partner &p,
                                    const std::vector<Number> &x, std::vector<Number> &r) const;
    /// The current positions of the pair's DoFs (slave face, then @p p's face).
    std::vector<double> pair_positions(const Positions &u, const unsigned int k, const Partner &p) const;
    /// The pair's DoFs in the order of pair_residual().
    std::vector<dealii::types::global_dof_index> pair_dofs(const unsigned int s, const unsigned int m) const;
    /// Calls @p f(k, q, partner) for every owned slave point with a partner face (partners) at @p u.
    template <typename F>
    void for_each_pair(const Positions &u, const F &f) const;

    const std::vector<unsigned int>                  boundary_ids;
    const std::optional<double>                      exclusion_given;
    const RigidContact::Controls                     controls;
    const TissueMaterials                           &materials;
    const bool                                       vertex_points;
    const double                                     shape;    ///< c of eq. (70e): ½ (smooth surface) or 0
    const double                                     friction; ///< μ of eq. (70f)
    MPI_Comm                                         comm   = MPI_COMM_SELF;
    unsigned int                                     degree = 1, n_q = 0, n_gauss = 0;
    dealii::Quadrature<2>                            points;       // the Gauss points, then the corners
    std::vector<bool>                                active;       // of each owned point: Gauss, or activated
    std::vector<Face>                                faces;        // of all ranks
    std::vector<unsigned int>                        owned;        // indices of this rank's faces
    std::vector<std::array<unsigned int, 27>>        slots;        // face DoF → index in surface_dofs
    std::vector<dealii::types::global_dof_index>     surface_dofs; // sorted
    std::vector<std::vector<double>>                 weights;      // reference area of each point of owned faces
    std::unordered_map<unsigned int, unsigned int>   face_of_cell; // 6 · active cell index + face_no → owned
    std::vector<std::vector<unsigned int>>           neighbours;   // faces sharing a node with each face
    std::vector<std::vector<unsigned int>>           candidates;   // masters of each owned face
    std::vector<std::vector<unsigned int>>           couplings;    // of each owned face in the pattern
    std::vector<int>                                 partners;     // master face of each owned point, −1: none
    std::vector<std::array<dealii::Tensor<1, 3>, 9>> node_normals; // smoothed, of every face's nodes
    double                                           exclusion = 0, thickness = 0;
    std::vector<double>                              multipliers;  // λ̄ of the step being solved
    std::vector<PointRecord>                         accepted;     // of the last accepted step
    std::vector<double>                              force_n, u_n; // nodal contact force and u at surface_dofs
    std::vector<dealii::Tensor<1, 3>>                traction_n;   // t_T of each owned point [Pa] (eq. (70f))
    unsigned int                                     augmentations = 0;
    std::string                                      shortfall;     // unsettled() of the last augment()
    bool                                             stale = false; // a pair outside the candidates
    Totals                                           sums;
  };
} // namespace hydrostat
