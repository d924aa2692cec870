#include <deal.II/base/bounding_box.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/utilities.h>
#include <deal.II/boost_adaptors/bounding_box.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/numerics/rtree.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/geometry/boundary_ids.h>
#include <hydrostat/physics/self_contact.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// The face's own coordinates (ξ, η) ∈ [0, 1]² of its nodes as 1D node numbers: 1D nodes
    /// 0, 1 and (Q2) ½ = 2; vertices in deal.II's lexicographic order, then (Q2) the lines
    /// ξ = 0, ξ = 1, η = 0, η = 1 and the centre.
    constexpr unsigned int node_i[9] = {0, 1, 0, 1, 0, 1, 2, 2, 2};
    constexpr unsigned int node_j[9] = {0, 0, 1, 1, 2, 2, 0, 1, 2};

    /// The 1D Lagrange polynomials on the nodes 0, 1 (Q1) or 0, 1, ½ (Q2): values and first
    /// derivatives.
    template <typename Number>
    void lagrange_1d(const unsigned int degree, const Number &s, Number L[3], Number dL[3])
    {
      if (degree == 1)
        {
          L[0]  = 1.0 - s;
          L[1]  = s;
          dL[0] = -1.0;
          dL[1] = 1.0;
          return;
        }
      L[0]  = 2.0 * s * s - 3.0 * s + 1.0;
      L[1]  = 2.0 * s * s - s;
      L[2]  = 4.0 * s - 4.0 * s * s;
      dL[0] = 4.0 * s - 3.0;
      dL[1] = 4.0 * s - 1.0;
      dL[2] = 4.0 - 8.0 * s;
    }

    /// The face's shape functions at ξ: N_k, ∂N_k/∂ξ_a.
    template <typename Number>
    struct FaceBasis
    {
      Number N[9], dN[9][2];

      FaceBasis(const unsigned int degree, const unsigned int n_nodes, const Number &xi, const Number &eta)
      {
        Number a[3], da[3], b[3], db[3];
        lagrange_1d(degree, xi, a, da);
        lagrange_1d(degree, eta, b, db);
        for (unsigned int k = 0; k < n_nodes; ++k)
          {
            const unsigned int i = node_i[k], j = node_j[k];
            N[k]     = a[i] * b[j];
            dN[k][0] = da[i] * b[j];
            dN[k][1] = a[i] * db[j];
          }
      }
    };

    /// A point of a face from its node positions node(k): x and its tangents x_α.
    template <typename Number>
    struct FacePoint
    {
      Tensor<1, 3, Number> x, t[2];
    };
    template <typename Number, typename BasisNumber, typename Node>
    FacePoint<Number> face_point(const FaceBasis<BasisNumber> &basis, const unsigned int n_nodes, const Node &node)
    {
      FacePoint<Number> p;
      for (unsigned int k = 0; k < n_nodes; ++k)
        {
          const Tensor<1, 3, Number> xk = node(k);
          p.x += basis.N[k] * xk;
          for (unsigned int a = 0; a < 2; ++a)
            p.t[a] += basis.dN[k][a] * xk;
        }
      return p;
    }

    template <typename Number>
    double value_of(const Number &x)
    {
      return Sacado::ScalarValue<Number>::eval(x);
    }

    /// The point of the smooth surface through a face's nodes at the face's ξ (Phong tessellation
    /// with shape factor c, lifted outward only, eq. (70e)): x̄ + c Σ_k N_k ĥ(h_k) ν_k,
    /// h_k = (x_k − x̄)·ν_k, with its tangents; x̄ the face's own point, ν_k the smoothed unit
    /// normals at its nodes, ĥ(h) = ½(h + √(h² + δ²)) − ½δ the smooth max(h, 0): where the faces
    /// are concave the surface stays on them (within cδ/2) instead of dipping below, so points
    /// held apart on it keep the faces' vertices out. c = 0: the face itself.
    template <typename Number, typename BasisNumber, typename Surface, typename Node>
    FacePoint<Number> lifted_point(const FaceBasis<BasisNumber> &basis, const Surface &surface, const Node &node)
    {
      using std::sqrt;
      const double            shape = surface.shape, rounding = surface.rounding;
      const FacePoint<Number> flat = face_point<Number>(basis, surface.n_nodes, node);
      FacePoint<Number>       p    = flat;
      if (shape == 0)
        return p;
      for (unsigned int k = 0; k < surface.n_nodes; ++k)
        {
          Tensor<1, 3, Number> n;
          for (unsigned int d = 0; d < 3; ++d)
            n[d] = surface.nu[k][d];
          const Number h = (node(k) - flat.x) * n;
          // max(h, 0) itself if δ = 0 (a penetration tolerance of 0).
          Number height = h, slope = 1.0;
          if (rounding > 0)
            {
              const Number root = sqrt(h * h + rounding * rounding);
              height            = 0.5 * (h + root) - 0.5 * rounding;
              slope             = 0.5 * (1.0 + h / root);
            }
          else if (!(value_of(h) > 0))
            height = slope = 0.0;
          p.x += Number(shape * basis.N[k] * height) * n;
          for (unsigned int a = 0; a < 2; ++a)
            p.t[a] += Number(shape * (basis.dN[k][a] * height - basis.N[k] * slope * (flat.t[a] * n))) * n;
        }
      return p;
    }

    /// node(k) of a face's reference positions X[k].
    template <typename FaceType>
    auto reference_node(const FaceType &face)
    {
      return [&face](const unsigned int k) { return Tensor<1, 3>({face.X[k][0], face.X[k][1], face.X[k][2]}); };
    }

    /// A corner point's share of its face's reference area (setup()).
    constexpr double vertex_weight = 0.05;

    /// The multiple of a motion closing a gap g at the rate ġ that carries the point at most
    /// @p depth into its partner face (theory.md eqs. (70c), (70d)).
    double closing_allowance(const double gap, const double depth, const double closing)
    {
      return (std::max(gap, 0.0) + depth) / closing;
    }
  } // namespace

  void SelfContact::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Contact");
    prm.enter_subsection("Self contact");
    prm.declare_entry("Enabled", "false", Patterns::Bool(),
                      "Contact of the body with itself (the controls of 'Contact' apply: penalty, penetration "
                      "tolerance, augmentations).");
    prm.declare_entry("Boundary ids", "", Patterns::List(Patterns::Integer(0, 255)),
                      "Boundary ids of the faces that can touch each other; empty: all.");
    prm.declare_entry("Exclusion distance", "auto", Patterns::Anything(),
                      "Faces closer than this in the reference configuration never touch each other [m]; auto: "
                      "1.5 times the median thickness of the body (the distance from a boundary face to the "
                      "nearest face on the opposite side).");
    prm.declare_entry("Vertex points", "false", Patterns::Bool(),
                      "Also a contact point at each corner of a face (a twentieth of its area), made active once "
                      "the corner has passed another face by more than the penetration tolerance: keeps the "
                      "vertices of a coarse faceted surface out, where the Gauss points let its ridges into each "
                      "other (theory.md 15.5). Costs more steps where ridges meet.");
    prm.declare_entry("Smooth surface", "false", Patterns::Bool(),
                      "Contact between the smooth surfaces through the faces' nodes (Phong, shape factor 1/2, with "
                      "the smoothed nodal normals, lifted outward only) instead of the faces themselves: a coarse "
                      "surface that bends through large angles from face to face, as the tip of a tight curl, has "
                      "no kinks between the Gauss points for the vertices to pass through, and where the faces are "
                      "concave the surface stays on them (theory.md 15.5, eq. (70e)). Flat faces and sharp edges "
                      "(more than 45 degrees) are unchanged.");
    prm.declare_entry("Friction coefficient", "0", Patterns::Double(),
                      "Coulomb friction coefficient mu >= 0 between the touching surfaces [-] (0: frictionless), "
                      "the regularised law of the obstacles (theory.md 15.5, eq. (70f)).");
    prm.leave_subsection();
    prm.leave_subsection();
  }

  std::vector<std::unique_ptr<Term>> SelfContact::create(ParameterHandler &prm, const TermSetup &setup)
  {
    std::vector<std::unique_ptr<Term>> terms;
    prm.enter_subsection("Contact");
    const RigidContact::Controls controls = RigidContact::read_controls(prm, setup);
    prm.enter_subsection("Self contact");
    if (prm.get_bool("Enabled"))
      {
        require(setup.formulation.degree <= 2, "Parameter 'Contact/Self contact/Enabled' = true needs elements of "
                                               "degree 1 or 2 ('Finite element/Polynomial degree' is " +
                                                 std::to_string(setup.formulation.degree) + ").");
        std::vector<unsigned int> ids;
        for (const int id : Utilities::string_to_int(Utilities::split_string_list(prm.get("Boundary ids"))))
          ids.push_back(static_cast<unsigned int>(id));
        const std::optional<double> exclusion =
          auto_or_number(prm.get("Exclusion distance"), "Contact/Self contact/Exclusion distance", 0);
        const double friction = prm.get_double("Friction coefficient");
        require(friction >= 0, "Parameter 'Contact/Self contact/Friction coefficient' = " +
                                 prm.get("Friction coefficient") + ": give a coefficient >= 0 (0: frictionless).");
        terms.push_back(std::make_unique<SelfContact>(ids, exclusion, controls, setup.materials,
                                                      prm.get_bool("Vertex points"), prm.get_bool("Smooth surface"),
                                                      friction));
      }
    prm.leave_subsection();
    prm.leave_subsection();
    return terms;
  }

  SelfContact::SelfContact(const std::vector<unsigned int> &boundary_ids, const std::optional<double> exclusion,
                           const RigidContact::Controls &controls, const TissueMaterials &materials,
                           const bool vertex_points, const bool smooth_surface, const double friction)
    : boundary_ids(boundary_ids)
    , exclusion_given(exclusion)
    , controls(controls)
    , materials(materials)
    , vertex_points(vertex_points)
    , shape(smooth_surface ? 0.5 : 0.0)
    , friction(friction)
  {}

  void SelfContact::setup(const DoFHandler<3> &dof_handler, const Quadrature<3> &quadrature)
  {
    comm   = dof_handler.get_communicator();
    degree = dof_handler.get_fe().degree;
    Assert(degree <= 2, ExcInternalError());
    // The Gauss points, then (with vertex points) the four corners, each with a twentieth of the
    // face's area: its multiplier holds a ridge out (eq. (68)); a quarter took the main case 175
    // steps instead of 133 (theory.md §15.5).
    const QGauss<2> gauss(degree + 1);
    n_gauss                     = gauss.size();
    std::vector<Point<2>> where = gauss.get_points();
    std::vector<double>   area  = gauss.get_weights();
    if (vertex_points)
      for (unsigned int v = 0; v < 4; ++v)
        {
          where.emplace_back(v % 2, v / 2);
          area.push_back(vertex_weight);
        }
    points = Quadrature<2>(where, area);
    n_q    = points.size();
    // This rank's faces, in the faces' own node order (independent of the cells' orientation).
    std::vector<Face>         mine;
    std::vector<unsigned int> mine_cell; // 6 · active cell index + face_no
    for (const unsigned int id : boundary_ids)
      require_boundary_id(dof_handler.get_triangulation(), id, "Contact/Self contact/Boundary ids");
    RigidContact::check_massless_cells(
      dof_handler, quadrature, controls, [this](const unsigned int id) { return massless_boundary(id); },
      "Contact/Self contact/Boundary ids");
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        for (const unsigned int f : cell->face_indices())
          if (cell->face(f)->at_boundary())
            {
              const auto face = cell->face(f);
              if (!can_touch(face->boundary_id()))
                continue;
              Face record{};
              record.n_nodes = degree == 1 ? 4 : 9;
              auto set_node  = [&](const unsigned int k, const Point<3> &X, const auto &object) {
                for (unsigned int d = 0; d < 3; ++d)
                  {
                    record.X[k][d]         = X[d];
                    record.dofs[3 * k + d] = object(d);
                  }
              };
              for (unsigned int v = 0; v < 4; ++v)
                set_node(v, face->vertex(v), [&](const unsigned int d) { return face->vertex_dof_index(v, d); });
              if (degree == 2)
                {
                  for (unsigned int l = 0; l < 4; ++l)
                    set_node(4 + l, face->line(l)->center(),
                             [&](const unsigned int d) { return face->line(l)->dof_index(d); });
                  set_node(8, face->center(), [&](const unsigned int d) { return face->dof_index(d); });
                }
              record.size = cell->diameter();
              // ε = factor · 3μ/h as for rigid obstacles (theory.md §15.2).
              record.penalty = controls.penalty ? *controls.penalty :
                                                  controls.penalty_factor * 3 *
                                                    materials[cell->material_id()].law->shear_modulus() / record.size;
              // x_ξ × x_η at the centre against the direction out of the cell.
              const auto centre = face_point<double>(FaceBasis<double>(degree, record.n_nodes, 0.5, 0.5),
                                                     record.n_nodes, reference_node(record));
              record.sign =
                cross_product_3d(centre.t[0], centre.t[1]) * (centre.x - Tensor<1, 3>(cell->center())) > 0 ? 1 : -1;
              mine.push_back(record);
              mine_cell.push_back(6 * cell->active_cell_index() + f);
            }

    // Every rank knows every face, in the order of the ranks.
    std::vector<char> bytes(mine.size() * sizeof(Face));
    std::memcpy(bytes.data(), mine.data(), bytes.size());
    const std::vector<std::vector<char>> all  = Utilities::MPI::all_gather(comm, bytes);
    const unsigned int                   rank = Utilities::MPI::this_mpi_process(comm);
    faces.clear();
    owned.clear();
    face_of_cell.clear();
    for (unsigned int r = 0; r < all.size(); ++r)
      {
        const unsigned int n = all[r].size() / sizeof(Face), first = faces.size();
        if (r == rank)
          for (unsigned int k = 0; k < n; ++k)
            {
              face_of_cell[mine_cell[k]] = owned.size();
              owned.push_back(first + k);
            }
        faces.resize(first + n);
        std::memcpy(static_cast<void *>(faces.data() + first), all[r].data(), all[r].size());
      }
    surface_dofs.clear();
    for (const Face &face : faces)
      surface_dofs.insert(surface_dofs.end(), face.dofs, face.dofs + 3 * face.n_nodes);
    std::sort(surface_dofs.begin(), surface_dofs.end());
    surface_dofs.erase(std::unique(surface_dofs.begin(), surface_dofs.end()), surface_dofs.end());
    slots.assign(faces.size(), {});
    for (unsigned int m = 0; m < faces.size(); ++m)
      for (unsigned int i = 0; i < 3 * faces[m].n_nodes; ++i)
        slots[m][i] =
          std::lower_bound(surface_dofs.begin(), surface_dofs.end(), faces[m].dofs[i]) - surface_dofs.begin();

    // The faces around each face: those that share a node with it (itself included).
    std::unordered_map<types::global_dof_index, std::vector<unsigned int>> faces_at;
    for (unsigned int m = 0; m < faces.size(); ++m)
      for (unsigned int n = 0; n < faces[m].n_nodes; ++n)
        faces_at[faces[m].dofs[3 * n]].push_back(m);
    neighbours.assign(faces.size(), {});
    for (unsigned int m = 0; m < faces.size(); ++m)
      {
        for (unsigned int n = 0; n < faces[m].n_nodes; ++n)
          for (const unsigned int other : faces_at[faces[m].dofs[3 * n]])
            neighbours[m].push_back(other);
        std::sort(neighbours[m].begin(), neighbours[m].end());
        neighbours[m].erase(std::unique(neighbours[m].begin(), neighbours[m].end()), neighbours[m].end());
      }

    // The reference area of each slave point: |X_ξ × X_η| w_q.
    weights.assign(owned.size(), std::vector<double>(n_q));
    for (unsigned int k = 0; k < owned.size(); ++k)
      {
        const Face &face = faces[owned[k]];
        for (unsigned int q = 0; q < n_q; ++q)
          {
            const auto X =
              face_point<double>(FaceBasis<double>(degree, face.n_nodes, points.point(q)[0], points.point(q)[1]),
                                 face.n_nodes, reference_node(face));
            weights[k][q] = cross_product_3d(X.t[0], X.t[1]).norm() * points.weight(q);
          }
      }

    // The thickness of the body: the median over faces of the distance to the nearest face behind
    // it whose normal is opposed (theory.md §15.5).
    std::vector<Tensor<1, 3>> centre(faces.size()), normal(faces.size());
    for (unsigned int m = 0; m < faces.size(); ++m)
      {
        const Face &face = faces[m];
        const auto  X =
          face_point<double>(FaceBasis<double>(degree, face.n_nodes, 0.5, 0.5), face.n_nodes, reference_node(face));
        centre[m] = X.x;
        normal[m] = face.sign * cross_product_3d(X.t[0], X.t[1]);
        normal[m] /= normal[m].norm();
      }
    std::vector<double> thicknesses;
    for (unsigned int m = 0; m < faces.size(); ++m)
      {
        double nearest = std::numeric_limits<double>::max();
        for (unsigned int o = 0; o < faces.size(); ++o)
          if (normal[m] * normal[o] < -0.5 && (centre[o] - centre[m]) * normal[m] < 0)
            nearest = std::min(nearest, (centre[o] - centre[m]).norm());
        if (nearest < std::numeric_limits<double>::max())
          thicknesses.push_back(nearest);
      }
    thickness = 0;
    if (!thicknesses.empty())
      {
        std::nth_element(thicknesses.begin(), thicknesses.begin() + thicknesses.size() / 2, thicknesses.end());
        thickness = thicknesses[thicknesses.size() / 2];
      }
    exclusion = exclusion_given ? *exclusion_given : 1.5 * thickness;

    multipliers.assign(owned.size() * n_q, 0.0);
    accepted.assign(owned.size() * n_q, PointRecord());
    candidates.assign(owned.size(), {});
    couplings.assign(owned.size(), {});
    partners.assign(owned.size() * n_q, -1);
    active.assign(owned.size() * n_q, false);
    for (unsigned int p = 0; p < active.size(); ++p)
      active[p] = p % n_q < n_gauss;
    force_n.assign(surface_dofs.size(), 0.0);
    u_n.assign(surface_dofs.size(), 0.0);
    traction_n.assign(owned.size() * n_q, Tensor<1, 3>());
    smooth_normals(Positions(surface_dofs.size(), 0.0));
    stale = false;
    sums  = Totals();
  }

  std::string SelfContact::report() const
  {
    double penalty_min = std::numeric_limits<double>::max(), penalty_max = 0;
    for (const Face &face : faces)
      {
        penalty_min = std::min(penalty_min, face.penalty);
        penalty_max = std::max(penalty_max, face.penalty);
      }
    std::ostringstream text;
    text << "Self-contact: " << faces.size() << " boundary faces, exclusion distance " << std::setprecision(3)
         << exclusion << " m";
    if (!exclusion_given)
      text << " (auto: 1.5 x median thickness " << thickness << " m)";
    text << ", penalty " << penalty_min;
    if (penalty_max > penalty_min * (1 + 1e-12))
      text << " to " << penalty_max;
    text << " Pa/m" << (controls.penalty ? "" : " (auto)") << ", penetration tolerance " << controls.tolerance
         << " of the cell size" << (vertex_points ? ", vertex points" : "");
    if (friction > 0)
      text << ", friction coefficient " << friction;
    return text.str();
  }

  SelfContact::Positions SelfContact::gather(const TrilinosWrappers::MPI::Vector &u) const
  {
    // Each value from its owner (a ghosted vector also holds other ranks' values).
    const IndexSet &mine = u.locally_owned_elements();
    Positions       values(surface_dofs.size(), 0.0);
    for (unsigned int i = 0; i < surface_dofs.size(); ++i)
      if (mine.is_element(surface_dofs[i]))
        values[i] = u[surface_dofs[i]];
    Utilities::MPI::sum(values, comm, values);
    return values;
  }

  Tensor<1, 3> SelfContact::node(const Positions &u, const unsigned int face, const unsigned int k) const
  {
    Tensor<1, 3> x;
    for (unsigned int d = 0; d < 3; ++d)
      x[d] = faces[face].X[k][d] + u[slots[face][3 * k + d]];
    return x;
  }

  bool SelfContact::can_touch(const unsigned int id) const
  {
    return boundary_ids.empty() || std::find(boundary_ids.begin(), boundary_ids.end(), id) != boundary_ids.end();
  }

  bool SelfContact::massless_boundary(const unsigned int id) const { return controls.modified_mass && can_touch(id); }

  bool SelfContact::excluded(const unsigned int s, const unsigned int m) const
  {
    // Faces that share a node, or whose nodes come closer than the exclusion distance in the
    // reference configuration.
    const Face &a = faces[s], &b = faces[m];
    for (unsigned int i = 0; i < a.n_nodes; ++i)
      for (unsigned int j = 0; j < b.n_nodes; ++j)
        {
          if (a.dofs[3 * i] == b.dofs[3 * j])
            return true;
          double distance_sq = 0;
          for (unsigned int d = 0; d < 3; ++d)
            distance_sq += (a.X[i][d] - b.X[j][d]) * (a.X[i][d] - b.X[j][d]);
          if (distance_sq < exclusion * exclusion)
            return true;
        }
    return false;
  }

  BoundingBox<3> SelfContact::box(const Positions &u, const unsigned int m) const
  {
    Point<3> lower(node(u, m, 0)), upper(lower);
    for (unsigned int k = 1; k < faces[m].n_nodes; ++k)
      {
        const Tensor<1, 3> x = node(u, m, k);
        for (unsigned int d = 0; d < 3; ++d)
          {
            lower[d] = std::min(lower[d], x[d]);
            upper[d] = std::max(upper[d], x[d]);
          }
      }
    return BoundingBox<3>({lower, upper});
  }

  std::vector<std::vector<unsigned int>> SelfContact::search(const Positions &u) const
  {
    // The deformed faces' bounding boxes grown by their cell size, in a tree.
    std::vector<std::pair<BoundingBox<3>, unsigned int>> boxes(faces.size());
    for (unsigned int m = 0; m < faces.size(); ++m)
      {
        boxes[m] = {box(u, m), m};
        boxes[m].first.extend(0.5 * faces[m].size);
      }
    const auto                                           tree = pack_rtree(boxes);
    std::vector<std::vector<unsigned int>>               found(owned.size());
    std::vector<std::pair<BoundingBox<3>, unsigned int>> hits;
    for (unsigned int k = 0; k < owned.size(); ++k)
      {
        hits.clear();
        tree.query(boost::geometry::index::intersects(boxes[owned[k]].first), std::back_inserter(hits));
        for (const auto &hit : hits)
          if (hit.second != owned[k] && !excluded(owned[k], hit.second))
            found[k].push_back(hit.second);
        std::sort(found[k].begin(), found[k].end());
      }
    return found;
  }

  SelfContact::SlavePoint SelfContact::slave_point(const Positions &u, const unsigned int k, const unsigned int q) const
  {
    const unsigned int      s     = owned[k];
    const Face             &slave = faces[s];
    const FaceBasis<double> basis(degree, slave.n_nodes, points.point(q)[0], points.point(q)[1]);
    const auto              on_face = [&](const unsigned int n) { return node(u, s, n); };
    const auto              x       = face_point<double>(basis, slave.n_nodes, on_face);
    // The point on the smooth surface (eq. (70e)); the facing test keeps the face's own normal.
    return {lifted_point<double>(basis, surface(s), on_face).x,
            slave.sign * cross_product_3d(x.t[0], x.t[1]) / cross_product_3d(x.t[0], x.t[1]).norm()};
  }

  bool SelfContact::Partner::in_face() const
  {
    constexpr double inside = 1e-6;
    return std::min(xi[0], xi[1]) >= -inside && std::max(xi[0], xi[1]) <= 1 + inside;
  }

  class SelfContact::DeformedFaces
  {
  public:
    DeformedFaces(const SelfContact &contact, const Positions &u)
      : u(u)
      , contact(contact)
      , starts(contact.faces.size())
    {}

    /// Face @p m's smooth surface and smoothed normal at its centre, and its nodes' box grown by
    /// a tenth of its cell (for the bulge of a Q2 face).
    struct Start
    {
      FacePoint<double> x, nu;
      BoundingBox<3>    around;
    };
    const Start &start(const unsigned int m)
    {
      if (!starts[m])
        {
          const FaceBasis<double> centre(contact.degree, contact.faces[m].n_nodes, 0.5, 0.5);
          Start                   s{lifted_point<double>(centre, contact.surface(m),
                                       [&](const unsigned int n) { return contact.node(u, m, n); }),
                  face_point<double>(centre, contact.faces[m].n_nodes,
                                     [&](const unsigned int n) { return contact.node_normals[m][n]; }),
                  contact.box(u, m)};
          s.around.extend(0.1 * contact.faces[m].size);
          starts[m] = s;
        }
      return *starts[m];
    }

    const Positions &u;

  private:
    const SelfContact                &contact;
    std::vector<std::optional<Start>> starts;
  };

  std::optional<SelfContact::Partner> SelfContact::project(DeformedFaces &at, const Tensor<1, 3> &xs,
                                                           const unsigned int m) const
  {
    // The point of the master face whose smoothed normal passes through x_s: Newton on
    // x(ξ) + α ν(ξ) − x_s = 0 for (ξ, η, α) (eq. (70b)), on the face extended by half its size
    // beyond its edges. An update that leaves that extension in two successive iterations shows
    // that the foot lies beyond it: no partner (most candidates of a tight curl; iterating on
    // against the clamp took 20 iterations for each of them).
    const Face                 &master = faces[m];
    std::array<Tensor<1, 3>, 9> xm;
    for (unsigned int n = 0; n < master.n_nodes; ++n)
      xm[n] = node(at.u, m, n);
    double            xi[2]       = {0.5, 0.5};
    bool              left_before = false;
    const auto       &start       = at.start(m);
    FacePoint<double> p = start.x, nu = start.nu;
    double            alpha = (xs - p.x) * nu.x / (nu.x * nu.x);
    for (unsigned int it = 0; it < 20; ++it)
      {
        if (it > 0)
          {
            const FaceBasis<double> basis(degree, master.n_nodes, xi[0], xi[1]);
            p  = lifted_point<double>(basis, surface(m), [&](const unsigned int n) { return xm[n]; });
            nu = face_point<double>(basis, master.n_nodes, [&](const unsigned int n) { return node_normals[m][n]; });
          }
        const Tensor<1, 3> F = p.x + alpha * nu.x - xs;
        Tensor<2, 3>       J;
        for (unsigned int d = 0; d < 3; ++d)
          {
            J[d][0] = p.t[0][d] + alpha * nu.t[0][d];
            J[d][1] = p.t[1][d] + alpha * nu.t[1][d];
            J[d][2] = nu.x[d];
          }
        const double det = determinant(J);
        if (!(std::abs(det) > 0))
          return std::nullopt;
        const Tensor<1, 3> d       = invert(J) * F;
        const double       next[2] = {xi[0] - d[0], xi[1] - d[1]};
        const bool         left    = std::min(next[0], next[1]) < -0.5 || std::max(next[0], next[1]) > 1.5;
        if (left && left_before)
          return std::nullopt;
        left_before = left;
        xi[0]       = std::clamp(next[0], -0.5, 1.5);
        xi[1]       = std::clamp(next[1], -0.5, 1.5);
        alpha -= d[2];
        if (std::abs(d[0]) + std::abs(d[1]) < 1e-12)
          {
            const FaceBasis<double> foot(degree, master.n_nodes, xi[0], xi[1]);
            const auto   x = lifted_point<double>(foot, surface(m), [&](const unsigned int n) { return xm[n]; }).x;
            Tensor<1, 3> normal =
              face_point<double>(foot, master.n_nodes, [&](const unsigned int n) { return node_normals[m][n]; }).x;
            normal /= normal.norm();
            return Partner{m, {{xi[0], xi[1]}}, (xs - x) * normal, normal};
          }
      }
    return std::nullopt;
  }

  std::optional<SelfContact::Partner> SelfContact::partner(DeformedFaces &at, const unsigned int k,
                                                           const unsigned int               q,
                                                           const std::vector<unsigned int> &masters,
                                                           const bool pressing, const bool passed_only) const
  {
    // The nearest master face whose projection lies in it, that faces the slave face and that
    // the point has not passed by more than half a cell (the other side of a thin section).
    // The faces in the order of the distance to their nodes' bounding box (grown by a tenth of the
    // cell for the bulge of a Q2 face): |g| = |x_s − x_m| is at least that distance, so the faces
    // beyond the nearest partner found need no projection. A partner that has been passed lies
    // within half a cell, and so does any nearer one: where only such a partner matters, the
    // faces beyond half a cell need none either.
    const SlavePoint                         point = slave_point(at.u, k, q);
    std::vector<std::pair<double, unsigned>> order;
    order.reserve(masters.size());
    for (const unsigned int m : masters)
      {
        const BoundingBox<3> &around      = at.start(m).around;
        double                distance_sq = 0;
        for (unsigned int d = 0; d < 3; ++d)
          {
            const double outside =
              std::max({around.lower_bound(d) - point.x[d], 0.0, point.x[d] - around.upper_bound(d)});
            distance_sq += outside * outside;
          }
        order.emplace_back(std::sqrt(distance_sq), m);
      }
    std::sort(order.begin(), order.end());
    std::optional<Partner> best;
    const double           passed_reach = 0.5 * faces[owned[k]].size;
    for (const auto &[distance, m] : order)
      {
        if ((best && distance > std::abs(best->gap)) || (passed_only && distance > passed_reach))
          break;
        const auto p = project(at, point.x, m);
        if (!p || !p->in_face() || point.normal * p->normal > (pressing ? 0.0 : -0.5) ||
            p->gap < -0.5 * std::min(faces[owned[k]].size, faces[m].size))
          continue;
        if (!best || std::abs(p->gap) < std::abs(best->gap) ||
            (std::abs(p->gap) == std::abs(best->gap) && p->face < best->face))
          best = p;
      }
    return best;
  }

  std::vector<std::optional<SelfContact::Partner>> SelfContact::select_partners(
    DeformedFaces &at, const std::vector<std::vector<unsigned int>> &among, const std::vector<double> *pressures) const
  {
    std::vector<std::optional<Partner>> selected(owned.size() * n_q);
    for (unsigned int k = 0; k < owned.size(); ++k)
      if (!among[k].empty())
        for (unsigned int q = 0; q < n_q; ++q)
          if (active[k * n_q + q])
            {
              const bool pressing   = pressures && (*pressures)[k * n_q + q] > 0;
              selected[k * n_q + q] = partner(at, k, q, among[k], pressing, pressures && !pressing);
            }
    return selected;
  }

  bool SelfContact::coupled(const unsigned int k, const unsigned int m) const
  {
    return std::binary_search(couplings[k].begin(), couplings[k].end(), m);
  }

  std::vector<types::global_dof_index> SelfContact::pair_dofs(const unsigned int s, const unsigned int m) const
  {
    std::vector<types::global_dof_index> dofs(faces[s].dofs, faces[s].dofs + 3 * faces[s].n_nodes);
    dofs.insert(dofs.end(), faces[m].dofs, faces[m].dofs + 3 * faces[m].n_nodes);
    return dofs;
  }

  template <typename Number>
  SelfContact::PairForce<Number> SelfContact::pair_residual(const unsigned int k, const unsigned int q,
                                                            const Partner &p, const std::vector<Number> &x,
                                                            std::vector<Number> &r) const
  {
    // x: the positions of the slave nodes, then of the master nodes (3 per node). The projection
    // (ξ*, α*) is exact in value; one Newton step from it carries its derivatives by the implicit
    // function theorem, so the tangent has the curvature of the master face (eq. (71)). The
    // smoothed nodal normals are fixed for the Newton solve.
    const Face        &slave = faces[owned[k]], &master = faces[p.face];
    const unsigned int ns = 3 * slave.n_nodes, nm = 3 * master.n_nodes;
    const auto         slave_node = [&](const unsigned int n) {
      return Tensor<1, 3, Number>({x[3 * n], x[3 * n + 1], x[3 * n + 2]});
    };
    const auto master_node = [&](const unsigned int n) {
      return Tensor<1, 3, Number>({x[ns + 3 * n], x[ns + 3 * n + 1], x[ns + 3 * n + 2]});
    };
    const FaceBasis<double>    at_q(degree, slave.n_nodes, points.point(q)[0], points.point(q)[1]);
    const Tensor<1, 3, Number> xs = lifted_point<Number>(at_q, surface(owned[k]), slave_node).x;
    const FaceBasis<double>    at_p(degree, master.n_nodes, p.xi[0], p.xi[1]);
    const auto                 pp       = lifted_point<Number>(at_p, surface(p.face), master_node);
    const auto                 smoothed = [&](const unsigned int n) { return node_normals[p.face][n]; };
    const auto                 nu_p     = face_point<double>(at_p, master.n_nodes, smoothed);
    const double               alpha_p  = p.gap / nu_p.x.norm();
    const Tensor<1, 3, Number> F        = pp.x + alpha_p * nu_p.x - xs;
    Tensor<2, 3, Number>       J;
    for (unsigned int d = 0; d < 3; ++d)
      {
        J[d][0] = pp.t[0][d] + alpha_p * nu_p.t[0][d];
        J[d][1] = pp.t[1][d] + alpha_p * nu_p.t[1][d];
        J[d][2] = nu_p.x[d];
      }
    const Tensor<1, 3, Number> step = invert(J) * F;
    const Number               xi = p.xi[0] - step[0], eta = p.xi[1] - step[1];

    const FaceBasis<Number>    basis(degree, master.n_nodes, xi, eta);
    const Tensor<1, 3, Number> xm     = lifted_point<Number>(basis, surface(p.face), master_node).x;
    Tensor<1, 3, Number>       normal = face_point<Number>(basis, master.n_nodes, smoothed).x;
    normal /= normal.norm();
    PairForce<Number> f{Number(0.0), (xs - xm) * normal, {}};
    // λ_N = φ(λ̄ − ε g), the ramp with its kink rounded over ±w, w = tolerance · ε h (eq. (70a)):
    // the residual is smooth in Newton's iterates, and a point presses from a gap of at most
    // the penetration tolerance.
    const Number trial = multipliers[k * n_q + q] - slave.penalty * f.gap;
    const double width = ramp_width(slave), s = value_of(trial);
    r.assign(ns + nm, Number(0.0));
    if (s <= -width)
      return f;
    f.pressure                    = s < width ? (trial + width) * (trial + width) / (4 * width) : trial;
    Tensor<1, 3, Number> traction = f.pressure * normal;
    if (friction > 0)
      {
        // The trial traction of the step's motion of x_s relative to the master face's material
        // point at ξ*, added to the last step's, in the tangent plane, returned onto the Coulomb
        // cone |t_T| ≤ μ λ_N (eq. (70f)). The slave point at u_n is a constant (in double); the
        // master's moves with ξ*.
        const auto old_slave  = [&](const unsigned int n) { return node(u_n, owned[k], n); };
        const auto old_master = [&](const unsigned int n) { return Tensor<1, 3, Number>(node(u_n, p.face, n)); };
        const Tensor<1, 3>         xs_n = lifted_point<double>(at_q, surface(owned[k]), old_slave).x;
        const Tensor<1, 3, Number> motion =
          (xs - xm) - (Tensor<1, 3, Number>(xs_n) - lifted_point<Number>(basis, surface(p.face), old_master).x);
        const Tensor<1, 3, Number> stuck = traction_n[k * n_q + q] - slave.penalty * motion;
        f.tangential                     = stuck - (stuck * normal) * normal;
        const Number norm = f.tangential.norm(), limit = friction * f.pressure;
        if (value_of(norm) > value_of(limit))
          {
            f.slip = (value_of(norm) - value_of(limit)) / slave.penalty;
            f.tangential *= limit / norm;
          }
        traction += f.tangential;
      }
    // The slave point is pushed by λ_N n + t_T, the master face back at ξ* (a load: −f in the
    // residual).
    const double w = weights[k][q];
    for (unsigned int n = 0; n < slave.n_nodes; ++n)
      for (unsigned int d = 0; d < 3; ++d)
        r[3 * n + d] = -traction[d] * at_q.N[n] * w;
    for (unsigned int n = 0; n < master.n_nodes; ++n)
      for (unsigned int d = 0; d < 3; ++d)
        r[ns + 3 * n + d] = traction[d] * basis.N[n] * w;
    return f;
  }

  std::vector<double> SelfContact::pair_positions(const Positions &u, const unsigned int k, const Partner &p) const
  {
    const unsigned int  s = owned[k];
    std::vector<double> x;
    for (const unsigned int face : {s, p.face})
      for (unsigned int i = 0; i < 3 * faces[face].n_nodes; ++i)
        x.push_back(faces[face].X[i / 3][i % 3] + u[slots[face][i]]);
    return x;
  }

  template <typename F>
  void SelfContact::for_each_pair(const Positions &u, const F &f) const
  {
    // Points whose partner face at Newton's start is coupled: on that face while the projection
    // stays in it, else on the coupled face it has moved onto (the gap is continuous across the
    // edge, eq. (70b)), else on the first face extended by up to half its size. A point whose
    // partner was farther than the couplings reach cannot press in this Newton solve; augment()
    // finds it if it does.
    DeformedFaces at(*this, u);
    for (unsigned int k = 0; k < owned.size(); ++k)
      for (unsigned int q = 0; q < n_q; ++q)
        if (const int m = partners[k * n_q + q]; m >= 0 && coupled(k, m))
          {
            auto p = project(at, slave_point(u, k, q).x, m);
            if (!p || !p->in_face())
              if (const auto other = partner(at, k, q, couplings[k], false))
                p = other;
            if (p)
              f(k, q, *p);
          }
  }

  void SelfContact::add_rows(IndexSet &rows) const
  {
    IndexSet surface(rows.size());
    surface.add_indices(surface_dofs.begin(), surface_dofs.end());
    rows.add_indices(surface);
  }

  void SelfContact::add_sparsity(DynamicSparsityPattern &dsp, const AffineConstraints<double> &) const
  {
    for (unsigned int k = 0; k < owned.size(); ++k)
      for (const unsigned int m : couplings[k])
        {
          const std::vector<types::global_dof_index> dofs = pair_dofs(owned[k], m);
          for (const auto row : dofs)
            dsp.add_entries(row, dofs.begin(), dofs.end());
        }
  }

  bool SelfContact::update_couplings(const TrilinosWrappers::MPI::Vector &u)
  {
    // The candidates and the partners of the points from where Newton starts, the partners fixed
    // during the Newton solve except for sliding onto a coupled face (augment() checks them at its
    // end). The couplings of the tangent's pattern: for every point within half a cell of its
    // partner, that face and the faces around it; the pattern is built again, reaching a cell, only
    // if a coupling it needs is missing, so that the direct solver's analysis and fill stay those of
    // the few pairs that can touch (not the thousands of candidates of a tight curl).
    const Positions positions = gather(u);
    candidates                = search(positions);
    smooth_normals(positions);
    DeformedFaces                             at(*this, positions);
    const std::vector<std::optional<Partner>> selected = select_partners(at, candidates, nullptr);
    std::vector<std::vector<unsigned int>>    needed(owned.size()), reach(owned.size());
    for (unsigned int k = 0; k < owned.size(); ++k)
      {
        for (unsigned int q = 0; q < n_q; ++q)
          {
            const std::optional<Partner> &p = selected[k * n_q + q];
            partners[k * n_q + q]           = p ? int(p->face) : -1;
            const double size               = faces[owned[k]].size;
            if (p && p->gap < size)
              for (const unsigned int n : neighbours[p->face])
                if (n != owned[k] && !excluded(owned[k], n))
                  {
                    reach[k].push_back(n);
                    if (p->gap < 0.5 * size)
                      needed[k].push_back(n);
                  }
          }
        for (auto *set : {&needed[k], &reach[k]})
          {
            std::sort(set->begin(), set->end());
            set->erase(std::unique(set->begin(), set->end()), set->end());
          }
      }
    bool changed = stale;
    for (unsigned int k = 0; k < owned.size() && !changed; ++k)
      changed = !std::includes(couplings[k].begin(), couplings[k].end(), needed[k].begin(), needed[k].end());
    changed = Utilities::MPI::logical_or(changed, comm);
    if (changed)
      couplings = reach;
    stale = false;
    return changed;
  }

  void SelfContact::smooth_normals(const Positions &u)
  {
    // Each face's unit normal at its nodes, then at every node the mean over the faces sharing
    // it (by its first DoF) whose normal there is within 45° of the face's own: the field is
    // continuous across the edges of a smooth surface and keeps the corners of a block.
    std::vector<std::array<Tensor<1, 3>, 9>>                               own(faces.size());
    std::unordered_map<types::global_dof_index, std::vector<Tensor<1, 3>>> at_node;
    for (unsigned int m = 0; m < faces.size(); ++m)
      for (unsigned int n = 0; n < faces[m].n_nodes; ++n)
        {
          constexpr double position[3] = {0, 1, 0.5};
          const auto       p =
            face_point<double>(FaceBasis<double>(degree, faces[m].n_nodes, position[node_i[n]], position[node_j[n]]),
                               faces[m].n_nodes, [&](const unsigned int k) { return node(u, m, k); });
          own[m][n] = faces[m].sign * cross_product_3d(p.t[0], p.t[1]);
          own[m][n] /= own[m][n].norm();
          at_node[faces[m].dofs[3 * n]].push_back(own[m][n]);
        }
    node_normals.assign(faces.size(), {});
    for (unsigned int m = 0; m < faces.size(); ++m)
      for (unsigned int n = 0; n < faces[m].n_nodes; ++n)
        {
          Tensor<1, 3> sum;
          for (const Tensor<1, 3> &other : at_node[faces[m].dofs[3 * n]])
            if (other * own[m][n] > std::sqrt(0.5))
              sum += other;
          node_normals[m][n] = sum / sum.norm();
        }
  }

  void SelfContact::add_to_system(const SystemState &state, SystemContribution &out) const
  {
    // The surface's displacements, and which surface DoFs are constrained (their rows and columns
    // are left to the constraints; a prescribed increment is then missing from the first Newton
    // step's linearisation only).
    const Positions     u = gather(state.u);
    std::vector<double> constrained(surface_dofs.size(), 0.0);
    const IndexSet     &mine = state.u.locally_owned_elements();
    for (unsigned int i = 0; i < surface_dofs.size(); ++i)
      if (mine.is_element(surface_dofs[i]) && state.homogeneous.is_constrained(surface_dofs[i]))
        constrained[i] = 1;
    Utilities::MPI::max(constrained, comm, constrained);

    for_each_pair(u, [&](const unsigned int k, const unsigned int q, const Partner &p) {
      // A point that does not press adds nothing; most points with a partner do not.
      const std::vector<double> x = pair_positions(u, k, p);
      std::vector<double>       r;
      if (!(pair_residual(k, q, p, x, r).pressure > 0))
        return;
      const unsigned int                         s    = owned[k];
      const std::vector<types::global_dof_index> dofs = pair_dofs(s, p.face);
      const unsigned int                         n    = dofs.size();
      std::vector<bool>                          free(n);
      for (unsigned int i = 0; i < n; ++i)
        free[i] = constrained[i < 3 * faces[s].n_nodes ? slots[s][i] : slots[p.face][i - 3 * faces[s].n_nodes]] == 0;
      if (out.matrix)
        {
          std::vector<ContactAD> x_ad(n), r_ad;
          for (unsigned int i = 0; i < n; ++i)
            x_ad[i] = ContactAD(n, i, x[i]);
          pair_residual(k, q, p, x_ad, r_ad);
          for (unsigned int i = 0; i < n; ++i)
            if (free[i])
              {
                std::vector<types::global_dof_index> columns;
                std::vector<double>                  values;
                for (unsigned int j = 0; j < n; ++j)
                  if (free[j])
                    {
                      columns.push_back(dofs[j]);
                      values.push_back(r_ad[i].dx(j));
                    }
                out.matrix->add(dofs[i], columns.size(), columns.data(), values.data());
                out.rhs->add(std::vector<types::global_dof_index>{dofs[i]}, std::vector<double>{-r[i]});
              }
        }
      for (unsigned int i = 0; i < n; ++i)
        if (free[i])
          out.residual.add(std::vector<types::global_dof_index>{dofs[i]}, std::vector<double>{r[i]});
    });
  }

  bool SelfContact::augment(const TrilinosWrappers::MPI::Vector &u_ghost, const Step &)
  {
    // Uzawa as for rigid obstacles (theory.md eq. (68)).
    const Positions                     u     = gather(u_ghost);
    double                              worst = 0;
    std::vector<double>                 updated(multipliers.size(), 0.0);
    std::vector<std::optional<Partner>> used(multipliers.size());
    for_each_pair(u, [&](const unsigned int k, const unsigned int q, const Partner &p) {
      std::vector<double>     r;
      const PairForce<double> f = pair_residual(k, q, p, pair_positions(u, k, p), r);
      updated[k * n_q + q]      = f.pressure;
      used[k * n_q + q]         = p;
      if (f.pressure > 0) // a penetrating point always presses (eq. (70a))
        worst = std::max(worst, std::abs(f.gap) / faces[owned[k]].size);
    });
    // The partners among all faces near the converged state: a point that presses, or has passed
    // its partner, on another face than the one it took (with another gap) asks for the step
    // again, with new couplings if that face is not coupled. A point that presses keeps its face
    // while the normals are within 90° of opposite (60° for a new partner): on the anatomical arm
    // four points, pushed out of their faces, turned past 60°, lost them, passed the faces again
    // unpressed and took them back, for all 20 updates of a step (theory.md §15.5).
    const auto                                near = search(u);
    DeformedFaces                             at(*this, u);
    const std::vector<std::optional<Partner>> selected = select_partners(at, near, &updated);
    bool                                      moved = false, missed = false;
    // A corner that has passed a master face by more than the tolerance becomes a slave point for
    // the rest of the run, and the step is solved again (theory.md §15.5).
    for (unsigned int k = 0; k < owned.size(); ++k)
      for (unsigned int q = n_gauss; q < n_q; ++q)
        if (!active[k * n_q + q])
          if (const auto p = partner(at, k, q, near[k], false, true);
              p && p->gap < -controls.tolerance * faces[owned[k]].size)
            {
              active[k * n_q + q]                    = true;
              (coupled(k, p->face) ? moved : missed) = true;
            }
    for (unsigned int p = 0; p < selected.size(); ++p)
      {
        const std::optional<Partner> &now = selected[p], &before = used[p];
        if (!(updated[p] > 0 || (now && now->gap < 0)))
          continue;
        const double size = faces[owned[p / n_q]].size;
        if (now && before &&
            (now->face == before->face || std::abs(now->gap - before->gap) <= 0.1 * controls.tolerance * size))
          continue;
        if (now && !coupled(p / n_q, now->face))
          missed = true;
        else
          moved = true;
      }
    worst  = Utilities::MPI::max(worst, comm);
    missed = Utilities::MPI::logical_or(missed, comm);
    moved  = Utilities::MPI::logical_or(moved, comm);
    if (controls.stop_augmenting(worst, missed || moved, augmentations, shortfall))
      return false;
    multipliers = updated;
    stale       = missed;
    ++augmentations;
    return true;
  }

  double SelfContact::closing_rate(const Positions &w, const unsigned int k, const unsigned int q,
                                   const Partner &p) const
  {
    const Face &slave = faces[owned[k]], &master = faces[p.face];
    const auto  motion = [&](const unsigned int face, const unsigned int n) {
      return Tensor<1, 3>({w[slots[face][3 * n]], w[slots[face][3 * n + 1]], w[slots[face][3 * n + 2]]});
    };
    const FaceBasis<double> at_q(degree, slave.n_nodes, points.point(q)[0], points.point(q)[1]),
      at_p(degree, master.n_nodes, p.xi[0], p.xi[1]);
    const Tensor<1, 3> relative =
      face_point<double>(at_q, slave.n_nodes, [&](const unsigned int n) { return motion(owned[k], n); }).x -
      face_point<double>(at_p, master.n_nodes, [&](const unsigned int n) { return motion(p.face, n); }).x;
    return -(relative * p.normal);
  }

  double SelfContact::predictor_horizon(const State &state) const
  {
    // The predictor may carry a point closing in on its partner face at the rate ġ at most a
    // tenth of its cell into it, and a pressed point not at all (theory.md eq. (70c)): a step
    // starts from u_n rather than from points that Newton must push back along faces they did
    // not press on, or out of the faces they press on. A pressed point on any rank settles it
    // before the positions are gathered and the partners found.
    bool pressed = false;
    for (unsigned int p = 0; p < active.size() && !pressed; ++p)
      pressed = active[p] && accepted[p].pressure > 0;
    if (Utilities::MPI::logical_or(pressed, comm))
      return 0;
    const Positions u = gather(state.u_ghosted()), v = gather(state.v_ghosted());
    DeformedFaces   at(*this, u);
    double          limit = std::numeric_limits<double>::infinity();
    for (unsigned int k = 0; k < owned.size(); ++k)
      for (unsigned int q = 0; q < n_q; ++q)
        if (active[k * n_q + q] && !candidates[k].empty())
          if (const auto p = partner(at, k, q, candidates[k], false))
            if (const double closing = closing_rate(v, k, q, *p); closing > 0)
              limit = std::min(limit, closing_allowance(p->gap, 0.1 * faces[owned[k]].size, closing));
    return limit;
  }

  double SelfContact::update_fraction(const TrilinosWrappers::MPI::Vector &u_ghost,
                                      const TrilinosWrappers::MPI::Vector &du_ghost) const
  {
    // A Newton update may carry a point that does not press at most a fiftieth of its cell into
    // its partner face (theory.md eq. (70d)): the tangent holds no contact of such a point, and the
    // whole update would carry it through the face. A tenth, the predictor's allowance, let tens
    // of points press at once in the full step, the line search back off to where they did not,
    // and the next update do it again. The points of this Newton solve's pairs, as the assembly
    // takes them.
    const Positions u = gather(u_ghost), du = gather(du_ghost);
    double          limit = std::numeric_limits<double>::infinity();
    for_each_pair(u, [&](const unsigned int k, const unsigned int q, const Partner &p) {
      const Face &slave = faces[owned[k]];
      // Pressing: the trial pressure of eq. (70a) above the rounded ramp's lower end.
      if (multipliers[k * n_q + q] - slave.penalty * p.gap > -ramp_width(slave))
        return;
      if (const double closing = closing_rate(du, k, q, p); closing > 0)
        limit = std::min(limit, closing_allowance(p.gap, 0.02 * slave.size, closing));
    });
    return limit;
  }

  double SelfContact::augmentation_resolution() const { return controls.augmentation_resolution(faces); }

  void SelfContact::retry_step()
  {
    for (unsigned int p = 0; p < multipliers.size(); ++p)
      multipliers[p] = accepted[p].multiplier;
    augmentations = 0;
  }

  void SelfContact::commit(const State &state, const double)
  {
    // The accepted point states and the totals; the work of the nodal contact forces by the
    // trapezoidal rule over the step, as the energy balance books it (theory.md eq. (69)).
    const Positions           u = gather(state.u_ghosted());
    std::vector<double>       force(surface_dofs.size(), 0.0);
    Totals                    local;
    std::vector<Tensor<1, 3>> traction(traction_n.size());
    for (PointRecord &record : accepted)
      record = {0, 0, std::numeric_limits<double>::quiet_NaN(), record.slip};
    for_each_pair(u, [&](const unsigned int k, const unsigned int q, const Partner &p) {
      const unsigned int        s = owned[k];
      const std::vector<double> x = pair_positions(u, k, p);
      std::vector<double>       r;
      const PairForce<double>   f        = pair_residual(k, q, p, x, r);
      const double              pressure = f.pressure;
      // da/dA of the slave face at the point: the Cauchy pressure is λ_N dA/da.
      const FaceBasis<double> at_q(degree, faces[s].n_nodes, points.point(q)[0], points.point(q)[1]);
      const auto              now = face_point<double>(at_q, faces[s].n_nodes, [&](const unsigned int n) {
        return Tensor<1, 3>({x[3 * n], x[3 * n + 1], x[3 * n + 2]});
      });
      const auto              ref = face_point<double>(at_q, faces[s].n_nodes, reference_node(faces[s]));
      const double            area_ratio =
        cross_product_3d(now.t[0], now.t[1]).norm() / cross_product_3d(ref.t[0], ref.t[1]).norm();
      PointRecord &record   = accepted[k * n_q + q];
      record                = {multipliers[k * n_q + q], pressure / area_ratio, f.gap, record.slip + f.slip};
      traction[k * n_q + q] = f.tangential;
      local.max_penetration = std::max(local.max_penetration, -f.gap);
      const unsigned int ns = 3 * faces[s].n_nodes;
      for (unsigned int i = 0; i < r.size(); ++i)
        force[i < ns ? slots[s][i] : slots[p.face][i - ns]] -= r[i];
      if (pressure <= 0)
        return;
      ++local.points;
      local.force += pressure * weights[k][q];
      local.friction_force += f.tangential.norm() * weights[k][q];
      if (q < n_gauss) // the Gauss weights sum to the face's area
        local.area += 0.5 * area_ratio * weights[k][q];
      local.max_pressure = std::max(local.max_pressure, record.pressure);
    });
    for (unsigned int p = 0; p < active.size(); ++p)
      local.vertex_points += p % n_q >= n_gauss && active[p];
    Utilities::MPI::sum(force, comm, force);
    double work = 0;
    for (unsigned int i = 0; i < force.size(); ++i)
      work += 0.5 * (force_n[i] + force[i]) * (u[i] - u_n[i]);
    force_n              = force;
    u_n                  = u;
    traction_n           = traction;
    sums.force           = Utilities::MPI::sum(local.force, comm);
    sums.friction_force  = Utilities::MPI::sum(local.friction_force, comm);
    sums.area            = Utilities::MPI::sum(local.area, comm);
    sums.work            = sums.work + work;
    sums.max_penetration = Utilities::MPI::max(local.max_penetration, comm);
    sums.max_pressure    = Utilities::MPI::max(local.max_pressure, comm);
    sums.points          = Utilities::MPI::sum(local.points, comm);
    sums.vertex_points   = Utilities::MPI::sum(local.vertex_points, comm);
    sums.augmentations   = augmentations;
    augmentations        = 0;
  }

  std::vector<CellField> SelfContact::output_fields() const
  {
    std::vector<CellField> fields = {{"self_contact_pressure", "contact", 1, "Pa"},
                                     {"self_contact_gap", "contact", 1, "m"}};
    if (friction > 0)
      fields.push_back({"self_contact_slip", "contact", 1, "m"});
    return fields;
  }

  void SelfContact::output_values(const CellState &cell, double *values) const
  {
    // Means over the active points of the cell's faces, the gap over those that have a partner; no
    // partner: no gap (NaN).
    double       pressure = 0, gap = 0, slip = 0;
    unsigned int n = 0, with_gap = 0;
    for (const unsigned int f : cell.cell->face_indices())
      {
        const auto found = face_of_cell.find(6 * cell.cell->active_cell_index() + f);
        if (found == face_of_cell.end())
          continue;
        for (unsigned int q = 0; q < n_q; ++q)
          {
            if (!active[found->second * n_q + q])
              continue;
            ++n;
            const PointRecord &record = accepted[found->second * n_q + q];
            pressure += record.pressure;
            slip += record.slip;
            if (std::isfinite(record.gap))
              {
                gap += record.gap;
                ++with_gap;
              }
          }
      }
    values[0] = n ? pressure / n : 0.0;
    values[1] = with_gap ? gap / with_gap : std::numeric_limits<double>::quiet_NaN();
    if (friction > 0)
      values[2] = n ? slip / n : std::numeric_limits<double>::quiet_NaN();
  }

  std::vector<std::string> SelfContact::series_columns() const
  {
    std::vector<std::string> columns = {"normal_force", "contact_area",  "contact_work",   "max_penetration",
                                        "max_pressure", "augmentations", "pressed_points", "vertex_points"};
    if (friction > 0)
      columns.insert(columns.begin() + 1, "friction_force");
    return columns;
  }

  std::vector<double> SelfContact::series_values() const
  {
    std::vector<double> values = {sums.force,          sums.area,
                                  sums.work,           sums.max_penetration,
                                  sums.max_pressure,   double(sums.augmentations),
                                  double(sums.points), double(sums.vertex_points)};
    if (friction > 0)
      values.insert(values.begin() + 1, sums.friction_force);
    return values;
  }

  void SelfContact::save(BinaryWriter &out) const
  {
    std::vector<double> data;
    for (unsigned int p = 0; p < accepted.size(); ++p)
      data.insert(data.end(), {accepted[p].multiplier, accepted[p].pressure, accepted[p].gap, accepted[p].slip,
                               traction_n[p][0], traction_n[p][1], traction_n[p][2], double(active[p])});
    out.put(data);
    out.put(force_n);
    out.put(u_n);
    out.put(sums);
  }

  void SelfContact::load(BinaryReader &in)
  {
    constexpr unsigned int    n_values = 8; // a point, in the order save() writes it
    const std::vector<double> data     = in.get_vector();
    if (data.size() != n_values * accepted.size())
      in.fail("self-contact has another number of contact points (or was saved before 2026-12-07, without "
              "friction)");
    for (unsigned int k = 0; k < accepted.size(); ++k)
      {
        const double *r = data.data() + n_values * k;
        accepted[k]     = {r[0], r[1], r[2], r[3]};
        traction_n[k]   = Tensor<1, 3>({r[4], r[5], r[6]});
        multipliers[k]  = r[0];
        active[k]       = r[7] != 0;
      }
    force_n = in.get_vector();
    u_n     = in.get_vector();
    if (force_n.size() != surface_dofs.size() || u_n.size() != surface_dofs.size())
      in.fail("self-contact has another number of surface DoFs");
    sums = in.get<Totals>();
  }
} // namespace hydrostat
