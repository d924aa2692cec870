#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>
#include <deal.II/grid/tria.h>

#include <map>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * Where the reference mesh comes from: a built-in generator or a Gmsh file. Coordinates in m.
   *
   * Generators (the arm axis is z, base at z = 0, tip at z = Length):
   *  - `box`: [Min corner, Max corner] with Box subdivisions; boundary ids 0/1 at x = min/max,
   *    2/3 at y, 4/5 at z (deal.II's colorized hyper_rectangle).
   *  - `cylinder`, `truncated cone` (radius Radius at the base, Tip radius at the tip) and
   *    `quarter cylinder` (x ≥ 0, y ≥ 0, for models with two symmetry planes): a disk cross-section,
   *    refined Cross-section refinements times on the circle, extruded in Axial subdivisions
   *    slices. Boundary ids: 0 lateral surface, 1 base (z = 0), 2 tip (z = Length),
   *    3 symmetry plane x = 0, 4 symmetry plane y = 0.
   *  - `gmsh`: a .msh file; physical volume tags become material ids, physical surface tags
   *    boundary ids; Scale multiplies the coordinates (0.001 for a file in mm).
   * Material id field (an expression of x, y, z at the cell centres of the coarse mesh) sets
   * material ids, e.g. for a passive club or a stiffer core. Global refinements then refine the
   * whole mesh uniformly (straight-sided).
   * Every cell is checked for a positive Jacobian at its vertices and Gauss points; an inverted
   * or degenerate cell is rejected with its position.
   */
  class MeshSource
  {
  public:
    /// Mesh/Type, parsed once.
    enum class Type
    {
      box,
      cylinder,
      truncated_cone,
      quarter_cylinder,
      gmsh
    };

    struct Parameters
    {
      Type                      type = Type::box;
      dealii::Point<3>          min_corner{0, 0, 0};
      dealii::Point<3>          max_corner{1, 1, 1};
      std::vector<unsigned int> box_subdivisions{1, 1, 1};
      double                    length                    = 0.1;
      double                    radius                    = 0.005;
      double                    tip_radius                = 0.005;
      unsigned int              axial_subdivisions        = 8;
      unsigned int              cross_section_refinements = 0;
      std::string               mesh_file;
      double                    scale              = 1.0;
      unsigned int              global_refinements = 0;
      double                    distortion         = 0;
      std::string               material_id_field;
      /// Mesh/Intended material shares: material id -> intended share of the volume of the listed
      /// ids (a fraction); empty: no share check.
      std::map<dealii::types::material_id, double> intended_shares;
    };

    /// A mesh described by parse_parameters(), or in code (@p parameters).
    MeshSource() = default;
    explicit MeshSource(const Parameters &parameters);

    /// Declares the subsection "Mesh".
    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    const Parameters &parameters() const { return param; }

    /// Builds the mesh into an empty (usually distributed) triangulation.
    void create(dealii::Triangulation<3> &triangulation) const;

    /// Throws, naming the cell's position, if any locally owned cell has a Jacobian ≤ 0 at a
    /// vertex or Gauss point (tolerance relative to the cell's size).
    static void check_cell_orientation(const dealii::Triangulation<3> &triangulation);

    /// Volume [m³] of the cells of each material id, summed over all ranks (straight-sided cells:
    /// the volume of the mesh, not of the curved body it approximates).
    static std::map<dealii::types::material_id, double> material_volumes(const dealii::Triangulation<3> &triangulation);

    /// "Volume: V m^3 (material 0: 70 %, material 1: 30 %)" of the @p volumes, with a newline.
    static std::string volume_report(const std::map<dealii::types::material_id, double> &volumes);

    /// Largest difference [share points / 100, i.e. a fraction] between a tissue's measured and
    /// intended share that the share report accepts.
    static constexpr double share_tolerance = 0.02;

    /// Parses Mesh/Intended material shares ("1: 0.70, 2: 0.18, ..."); throws, naming the parameter,
    /// on malformed pairs, repeated ids, shares outside (0, 1] or a sum that is not 1 within
    /// share_tolerance. Empty text: an empty map.
    static std::map<dealii::types::material_id, double> parse_intended_shares(const std::string &text);

    /// Lines comparing each intended share with the measured share of the @p volumes (of the
    /// listed ids only, so that e.g. a passive club left out of the list does not count), the ones
    /// off by more than share_tolerance flagged, and a summary line; empty if @p intended is.
    static std::string share_report(const std::map<dealii::types::material_id, double> &volumes,
                                    const std::map<dealii::types::material_id, double> &intended);

  private:
    Parameters param;
  };
} // namespace hydrostat
