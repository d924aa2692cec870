#include <deal.II/base/exceptions.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/grid/grid_in.h>
#include <deal.II/grid/grid_tools.h>
#include <deal.II/grid/manifold_lib.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/space_time_function.h>
#include <hydrostat/geometry/mesh_source.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    Point<3> parse_point(const std::string &text, const std::string &name)
    {
      const auto values = Utilities::string_to_double(Utilities::split_string_list(text, ','));
      require(values.size() == 3,
              "Parameter 'Mesh/" + name + "' needs three comma-separated numbers, got \"" + text + "\".");
      return Point<3>(values[0], values[1], values[2]);
    }

    /// The disk (or quarter disk) cross-section of radius 1, refined on its manifolds and
    /// flattened, so that it can be extruded.
    void make_cross_section(Triangulation<2> &section, const bool quarter, const unsigned int refinements)
    {
      Triangulation<2> curved;
      if (quarter)
        GridGenerator::quarter_hyper_ball(curved, Point<2>(), 1.0);
      else
        GridGenerator::hyper_ball_balanced(curved, Point<2>(), 1.0);
      curved.refine_global(refinements);
      GridGenerator::flatten_triangulation(curved, section);
    }

    void set_arm_boundary_ids(Triangulation<3> &tria, const double length, const double radius)
    {
      const double tol     = 1e-8 * std::max(length, radius);
      const auto   face_on = [tol](const auto &face, const unsigned int d, const double value) {
        for (const unsigned int v : face->vertex_indices())
          if (std::abs(face->vertex(v)[d] - value) > tol)
            return false;
        return true;
      };
      for (const auto &cell : tria.active_cell_iterators())
        for (const auto &face : cell->face_iterators())
          if (face->at_boundary())
            face->set_boundary_id(face_on(face, 2, 0.0)    ? 1 :
                                  face_on(face, 2, length) ? 2 :
                                  face_on(face, 0, 0.0)    ? 3 :
                                  face_on(face, 1, 0.0)    ? 4 :
                                                             0);
    }
  } // namespace

  MeshSource::MeshSource(const Parameters &parameters)
    : param(parameters)
  {}

  void MeshSource::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Mesh");
    prm.declare_entry("Type", "box", Patterns::Selection("box|cylinder|truncated cone|quarter cylinder|gmsh"),
                      "Mesh generator, or gmsh to read Mesh file.");
    prm.declare_entry("Min corner", "0, 0, 0", Patterns::List(Patterns::Double(), 3, 3), "box: lower corner [m].");
    prm.declare_entry("Max corner", "1, 1, 1", Patterns::List(Patterns::Double(), 3, 3), "box: upper corner [m].");
    prm.declare_entry("Box subdivisions", "1, 1, 1", Patterns::List(Patterns::Integer(1), 3, 3),
                      "box: cells in x, y, z.");
    prm.declare_entry("Length", "0.1", Patterns::Double(0.0), "cylinder/cone: length along z [m].");
    prm.declare_entry("Radius", "0.005", Patterns::Double(0.0), "cylinder/cone: radius at the base z = 0 [m].");
    prm.declare_entry("Tip radius", "-1", Patterns::Double(),
                      "truncated cone: radius at the tip z = Length [m] (negative: same as Radius).");
    prm.declare_entry("Axial subdivisions", "8", Patterns::Integer(1), "cylinder/cone: cells along the axis.");
    prm.declare_entry("Cross-section refinements", "0", Patterns::Integer(0, 8),
                      "cylinder/cone: refinements of the disk cross-section (12 cells, x4 each) before extrusion.");
    prm.declare_entry("Mesh file", "", Patterns::FileName(),
                      "gmsh: path of the .msh file; a relative path is taken from the folder of the case file "
                      "that sets it (from the working directory if given with --set).");
    prm.declare_entry("Scale", "1", Patterns::Double(0.0), "gmsh: factor applied to the file's coordinates.");
    prm.declare_entry("Global refinements", "0", Patterns::Integer(0, 10), "Uniform refinements of the whole mesh.");
    prm.declare_entry("Material id field", "", Patterns::Anything(),
                      "Optional expression of the reference position x, y, z [m] whose value, rounded, "
                      "becomes the material id of each cell (taken at the cell centre), e.g. "
                      "'z > 0.05314 ? 1 : 0' for a passive club at the tip of a squid stalk. Empty: the "
                      "generator's ids (0) or the Gmsh physical volume tags.");
    prm.declare_entry("Distortion", "0", Patterns::Double(0.0, 0.4),
                      "Moves every vertex of the coarse mesh randomly (fixed seed) by up to this fraction of "
                      "the shortest adjacent edge: for robustness and verification tests.");
    prm.declare_entry("Intended material shares", "", Patterns::Anything(),
                      "Optional 'id: share' pairs, comma-separated, e.g. '1: 0.70, 2: 0.18, 3: 0.10, 4: 0.015': "
                      "the share of the volume each tissue (material id) is meant to have, as a fraction of the "
                      "volume of the listed ids (a material not listed, e.g. a passive club, is left out). The "
                      "run and --check print each listed material's measured share against it and flag those "
                      "off by more than 0.02 (2 share points).");
    prm.leave_subsection();
  }

  void MeshSource::parse_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Mesh");
    const std::string type = prm.get("Type");
    param.type             = type == "box"              ? Type::box :
                             type == "cylinder"         ? Type::cylinder :
                             type == "truncated cone"   ? Type::truncated_cone :
                             type == "quarter cylinder" ? Type::quarter_cylinder :
                                                          Type::gmsh;
    param.min_corner       = parse_point(prm.get("Min corner"), "Min corner");
    param.max_corner       = parse_point(prm.get("Max corner"), "Max corner");
    param.box_subdivisions.clear();
    for (const int n : Utilities::string_to_int(Utilities::split_string_list(prm.get("Box subdivisions"), ',')))
      param.box_subdivisions.push_back(n);
    param.length                    = prm.get_double("Length");
    param.radius                    = prm.get_double("Radius");
    param.tip_radius                = prm.get_double("Tip radius");
    param.axial_subdivisions        = prm.get_integer("Axial subdivisions");
    param.cross_section_refinements = prm.get_integer("Cross-section refinements");
    param.mesh_file                 = prm.get("Mesh file");
    param.scale                     = prm.get_double("Scale");
    param.global_refinements        = prm.get_integer("Global refinements");
    param.distortion                = prm.get_double("Distortion");
    param.material_id_field         = prm.get("Material id field");
    if (!param.material_id_field.empty())
      SpaceTimeFunction(param.material_id_field, 1, "Mesh/Material id field"); // report syntax errors now
    param.intended_shares = parse_intended_shares(prm.get("Intended material shares"));
    prm.leave_subsection();
    if (param.tip_radius < 0)
      param.tip_radius = param.radius;
    if (param.type == Type::box)
      for (unsigned int d = 0; d < 3; ++d)
        require(param.max_corner[d] > param.min_corner[d],
                "Parameter 'Mesh/Max corner' must exceed 'Mesh/Min corner' in every coordinate.");
    if (param.type == Type::gmsh)
      {
        require(!param.mesh_file.empty(), "Parameter 'Mesh/Mesh file' is empty but Mesh/Type = gmsh.");
        require(std::filesystem::exists(param.mesh_file), "Mesh file '" + param.mesh_file +
                                                            "' (parameter 'Mesh/Mesh file') does not exist" +
                                                            where_looked(param.mesh_file) + ".");
        // Gmsh would read anything else as a .geo script, and abort the program on a syntax error.
        std::ifstream file(param.mesh_file);
        std::string   first_line;
        std::getline(file, first_line);
        require(Utilities::trim(first_line) == "$MeshFormat", "Mesh file '" + param.mesh_file +
                                                                "' (parameter 'Mesh/Mesh file') is not a Gmsh .msh "
                                                                "file: its first line is not $MeshFormat.");
      }
    if (param.type != Type::box && param.type != Type::gmsh)
      require(param.length > 0 && param.radius > 0 && param.tip_radius > 0,
              "Parameters 'Mesh/Length', 'Mesh/Radius' and 'Mesh/Tip radius' must be positive.");
  }

  void MeshSource::create(Triangulation<3> &triangulation) const
  {
    Triangulation<3> coarse;
    if (param.type == Type::box)
      {
        GridGenerator::subdivided_hyper_rectangle(coarse, param.box_subdivisions, param.min_corner, param.max_corner,
                                                  /*colorize=*/true);
        // colorize also numbers the cells by octant; the box is one material.
        for (const auto &cell : coarse.active_cell_iterators())
          cell->set_material_id(0);
      }
    else if (param.type == Type::gmsh)
      {
        GridIn<3> grid_in(coarse);
        try
          {
            grid_in.read_msh(param.mesh_file);
          }
        catch (const std::exception &error)
          {
            throw InputError("Cannot read mesh file '" + param.mesh_file + "': " + message_of(error));
          }
        catch (const std::string &error) // what the Gmsh library throws
          {
            throw InputError("Cannot read mesh file '" + param.mesh_file + "': " + error);
          }
        catch (...)
          {
            throw InputError("Cannot read mesh file '" + param.mesh_file + "' (Gmsh failed).");
          }
        GridTools::scale(param.scale, coarse);
      }
    else
      {
        Triangulation<2> section;
        make_cross_section(section, param.type == Type::quarter_cylinder, param.cross_section_refinements);
        GridGenerator::extrude_triangulation(section, param.axial_subdivisions + 1, param.length, coarse);
        // Scale the unit disk to the local radius: linear taper from Radius to Tip radius.
        const double R0 = param.radius, R1 = param.tip_radius, L = param.length;
        GridTools::transform(
          [R0, R1, L](const Point<3> &p) {
            const double R = R0 + (R1 - R0) * p[2] / L;
            return Point<3>(R * p[0], R * p[1], p[2]);
          },
          coarse);
        set_arm_boundary_ids(coarse, param.length, std::max(R0, R1));
      }
    if (!param.material_id_field.empty())
      {
        const SpaceTimeFunction field(param.material_id_field, 1, "Mesh/Material id field");
        for (const auto &cell : coarse.active_cell_iterators())
          {
            const double id = std::round(field.value(cell->center(), 0.0));
            require(id >= 0 && id < 255,
                    "Parameter 'Mesh/Material id field' gives " + std::to_string(id) + ", not a material id in 0-254.");
            cell->set_material_id(static_cast<types::material_id>(id));
          }
      }
    if (param.distortion > 0)
      GridTools::distort_random(param.distortion, coarse, /*keep_boundary=*/false, /*seed=*/42);
    triangulation.copy_triangulation(coarse);
    triangulation.refine_global(param.global_refinements);
    check_cell_orientation(triangulation);
  }

  std::map<types::material_id, double> MeshSource::material_volumes(const Triangulation<3> &triangulation)
  {
    const MPI_Comm     comm   = triangulation.get_communicator();
    types::material_id max_id = 0;
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        max_id = std::max(max_id, cell->material_id());
    std::vector<double> volume(Utilities::MPI::max(max_id, comm) + 1, 0.0);
    for (const auto &cell : triangulation.active_cell_iterators())
      if (cell->is_locally_owned())
        volume[cell->material_id()] += cell->measure();
    Utilities::MPI::sum(volume, comm, volume);
    std::map<types::material_id, double> volumes;
    for (types::material_id id = 0; id < volume.size(); ++id)
      if (volume[id] > 0)
        volumes[id] = volume[id];
    return volumes;
  }

  std::map<types::material_id, double> MeshSource::parse_intended_shares(const std::string &text)
  {
    const std::string                    where = "Parameter 'Mesh/Intended material shares'";
    std::map<types::material_id, double> shares;
    double                               sum = 0;
    for (const std::string &pair : Utilities::split_string_list(text, ','))
      {
        const auto parts = Utilities::split_string_list(pair, ':');
        // string_to_int/double throw on trailing junk; the message below says what was expected.
        int    id    = -1;
        double share = -1;
        try
          {
            require(parts.size() == 2, "");
            id    = Utilities::string_to_int(parts[0]);
            share = Utilities::string_to_double(parts[1]);
          }
        catch (...)
          {
            throw InputError(where +
                             ": expected 'material id: share' pairs separated by commas (e.g. '1: 0.7, "
                             "2: 0.3'), got \"" +
                             pair + "\" in \"" + text + "\".");
          }
        require(id >= 0 && id < 255, where + ": material id " + std::to_string(id) + " is not in 0-254.");
        require(share > 0 && share <= 1, where + ": the share of material " + std::to_string(id) + " is " + parts[1] +
                                           ", not a fraction in (0, 1] (e.g. 0.18 for 18 %).");
        require(shares.emplace(id, share).second,
                where + ": material " + std::to_string(id) + " is listed more than once.");
        sum += share;
      }
    // Shares of the listed volume add up to 1: a sum far from it cannot all be met.
    std::ostringstream sums;
    sums << sum << ", not 1 (within " << share_tolerance << ")";
    require(shares.empty() || std::abs(sum - 1) <= share_tolerance,
            where + ": the shares add up to " + sums.str() + ": list every tissue the shares are of, as fractions.");
    return shares;
  }

  std::string MeshSource::volume_report(const std::map<types::material_id, double> &volumes)
  {
    double total = 0;
    for (const auto &[id, volume] : volumes)
      total += volume;
    std::ostringstream out;
    out << "Volume: " << total << " m^3";
    for (const auto &[id, volume] : volumes)
      out << (id == volumes.begin()->first ? " (" : ", ") << "material " << int(id) << ": " << 100.0 * volume / total
          << " %";
    out << (volumes.size() > 0 ? ")" : "") << "\n";
    return out.str();
  }

  std::string MeshSource::share_report(const std::map<types::material_id, double> &volumes,
                                       const std::map<types::material_id, double> &intended)
  {
    if (intended.empty())
      return "";
    double listed = 0;
    for (const auto &[id, share] : intended)
      if (const auto v = volumes.find(id); v != volumes.end())
        listed += v->second;
    std::ostringstream out;
    out << std::fixed << std::setprecision(2);
    std::vector<types::material_id> off;
    for (const auto &[id, share] : intended)
      {
        const auto   v        = volumes.find(id);
        const double measured = (v != volumes.end() && listed > 0) ? v->second / listed : 0.0;
        const bool   bad      = std::abs(measured - share) > share_tolerance;
        // in share points, rounded as printed; + 0.0 turns a -0 into 0 (no "-0.00")
        const double difference = std::round(1e4 * (measured - share)) / 1e2 + 0.0;
        out << "Tissue share of material " << int(id) << ": " << 100 * measured << " % (intended " << 100 * share
            << " %, " << std::showpos << difference << std::noshowpos << " points)"
            << (v == volumes.end() ? " -- not in the mesh" : "") << (bad ? " -- OFF by more than 2 points" : "")
            << "\n";
        if (bad)
          off.push_back(id);
      }
    out << "Tissue shares (of the volume of the " << intended.size() << " listed materials): ";
    if (off.empty())
      out << "all within " << 100 * share_tolerance << " points of the intended ones\n";
    else
      {
        out << off.size() << " off by more than " << 100 * share_tolerance << " points (material";
        for (const auto id : off)
          out << " " << int(id);
        out << "): check the mesh's layer radii or the parameter 'Mesh/Intended material shares'\n";
      }
    return out.str();
  }

  void MeshSource::check_cell_orientation(const Triangulation<3> &triangulation)
  {
    // Vertices catch cells folded at a corner, Gauss points cells that are inverted inside.
    const FE_Q<3>       fe(1);
    const MappingQ1<3>  mapping;
    const QTrapezoid<1> trapezoid;
    const QGauss<1>     gauss(2);
    const QIterated<1>  both(trapezoid, 2); // vertices, edge midpoints, centre
    for (const Quadrature<3> &quadrature : {Quadrature<3>(both), Quadrature<3>(QGauss<3>(2))})
      {
        FEValues<3> fe_values(mapping, fe, quadrature, update_jacobians);
        std::string first_bad;
        for (const auto &cell : triangulation.active_cell_iterators())
          if (cell->is_locally_owned())
            {
              fe_values.reinit(cell);
              const double h = cell->diameter();
              for (unsigned int q = 0; q < quadrature.size(); ++q)
                if (determinant(Tensor<2, 3>(fe_values.jacobian(q))) <= 1e-8 * h * h * h)
                  {
                    std::ostringstream where;
                    where << "cell with centre (" << cell->center() << ") and material id " << cell->material_id();
                    first_bad = where.str();
                    break;
                  }
              if (!first_bad.empty())
                break;
            }
        // Every rank reports the first bad cell of the lowest rank that has one.
        for (const std::string &bad : Utilities::MPI::all_gather(triangulation.get_communicator(), first_bad))
          require(bad.empty(), "The mesh has an inverted or degenerate " + bad +
                                 " (Jacobian determinant <= 0). Check the vertex order of that cell.");
      }
  }
} // namespace hydrostat
