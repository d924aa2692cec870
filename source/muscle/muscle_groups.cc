#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/base/number_text.h>
#include <hydrostat/muscle/fibre_stress.h>
#include <hydrostat/muscle/muscle_groups.h>

#include <algorithm>
#include <cmath>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// Fibre stretch at the middle of the fl plateau: Hatze's optimal length in the continuum.
    double optimal_stretch(const VanLeeuwenKierMuscle &law)
    {
      const auto &kinks = law.force_length_kinks();
      return 1.0 + 0.5 * (kinks[2] + kinks[3]);
    }

    /// fa at point @p p from the values of its group's controls, value(k) of node k (eq. (76)); a
    /// uniform group has the one control 0 with weight 1.
    template <typename Value>
    double at_nodes(const MuscleGroups::GroupAtPoint &p, const Value &value)
    {
      return p.weight == 1 ? value(p.node) : p.weight * value(p.node) + (1 - p.weight) * value(p.node + 1);
    }
  } // namespace

  void MuscleGroups::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Muscles");
    prm.declare_entry("Number of groups", "0", Patterns::Integer(0, max_groups),
                      "Muscle groups in use: subsections Group 1 ... Group N.");
    for (unsigned int k = 1; k <= max_groups; ++k)
      {
        prm.enter_subsection("Group " + std::to_string(k));
        prm.declare_entry("Name", "group" + std::to_string(k), Patterns::Anything(),
                          "Name in the output (fields activation_<name>, fibre_stretch_<name>).");
        prm.declare_entry("Material ids", "", Patterns::List(Patterns::Integer(0, 255)),
                          "Cells of these material ids belong to the group (empty: any).");
        prm.declare_entry("Region", "1", Patterns::Anything(),
                          "Expression of the reference position x, y, z [m]: the point belongs to the "
                          "group where it is > 0 (and the material id matches).");
        FibreField::declare_parameters(prm);
        prm.declare_entry("Fibre families", "", Patterns::Anything(),
                          "Comma-separated list of up to three fibre directions (names as for Fibre "
                          "direction), e.g. 'cross-section x, cross-section y'; empty: the one Fibre direction.");
        prm.declare_entry("Law", "Van Leeuwen-Kier", Patterns::Selection("Van Leeuwen-Kier|constant"),
                          "Fibre stress: Van Leeuwen-Kier (theory.md eq. 20) or constant (sigma_m0 = sigma_max fa).");
        prm.enter_subsection("Muscle law");
        VanLeeuwenKierMuscle::declare_parameters(prm);
        prm.leave_subsection();
        prm.declare_entry("Myosin filament length field", "", Patterns::Anything(),
                          "Optional expression of x, y, z [micrometre] overriding Muscle law/Myosin filament "
                          "length point by point (e.g. a linear fall along the squid stalk).");
        prm.declare_entry("Rest sarcomere length field", "", Patterns::Anything(),
                          "Optional expression of x, y, z [micrometre] overriding Muscle law/Rest sarcomere length.");
        prm.declare_entry("Rate dependence", "true", Patterns::Bool(), "Use the force-velocity law fv; false: fv = 1.");
        prm.enter_subsection("Activation");
        prm.declare_entry("Source", "prescribed",
                          Patterns::Selection("prescribed|expression|table|stimulation|controlled"),
                          "prescribed: theory.md eq. 27; expression: fa(x, y, z, t); table: fa(t) from Table "
                          "file; stimulation: STIM(x, y, z, t) through the activation dynamics (Model); "
                          "controlled: fa(t), uniform over the group, chosen in every step by the inverse run "
                          "(subsection Inverse) so that the markers follow their targets.");
        prm.declare_entry("Onset", "0", Patterns::Anything(),
                          "prescribed: onset ti [s], an expression of x, y, z (e.g. (z/0.1)/0.2 for a wave).");
        PrescribedActivation::declare_parameters(prm);
        prm.declare_entry("Level", "0", Patterns::Anything(), "expression: fa as an expression of x, y, z, t.");
        prm.declare_entry("Table file", "", Patterns::FileName(),
                          "table: a CSV file with a header row, a column 'time' [s] (increasing) and the column "
                          "Table column of fa in [0, 1], linear between rows (e.g. the activations an inverse run "
                          "wrote); a relative path is taken from the folder of the case file that sets it (from the "
                          "working directory if given with --set).");
        prm.declare_entry("Table column", "", Patterns::Anything(),
                          "table: the column of fa; empty: the group's Name. With Control nodes the columns "
                          "<column>_1 ... <column>_N.");
        prm.declare_entry("Control nodes", "", Patterns::List(Patterns::Double(), 0, 100),
                          "controlled and table: increasing reference z [m] of N >= 2 nodes along the arm; fa is "
                          "then the piecewise-linear profile of one control per node (constant beyond the end "
                          "nodes, theory.md eq. 76), e.g. a wave whose shape the inverse run chooses. Empty: fa "
                          "uniform over the group.");
        prm.declare_entry("Stimulation", "0", Patterns::Anything(),
                          "stimulation: STIM in [0, 1] as an expression of x, y, z, t.");
        ActivationDynamics::declare_parameters(prm);
        prm.leave_subsection();
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  void MuscleGroups::parse_parameters(ParameterHandler &prm)
  {
    groups.clear();
    prm.enter_subsection("Muscles");
    const unsigned int n = prm.get_integer("Number of groups");
    for (unsigned int k = 1; k <= n; ++k)
      {
        const std::string where = "Muscles/Group " + std::to_string(k);
        prm.enter_subsection("Group " + std::to_string(k));
        try
          {
            Group g;
            g.name = prm.get("Name");
            for (const int id : Utilities::string_to_int(Utilities::split_string_list(prm.get("Material ids"))))
              g.material_ids.push_back(id);
            g.region = std::make_unique<SpaceTimeFunction>(prm.get("Region"), 1, where + "/Region");
            FibreField::Parameters geometry = FibreField::parse_parameters(prm);
            auto                   names    = Utilities::split_string_list(prm.get("Fibre families"));
            if (names.empty())
              names.push_back(prm.get("Fibre direction"));
            require(names.size() <= max_families, "Parameter '" + where + "/Fibre families': at most three families.");
            for (const std::string &family : names)
              {
                geometry.type = FibreField::type_from_string(family);
                g.families.emplace_back(geometry);
              }
            g.constant_law = prm.get("Law") == "constant";
            prm.enter_subsection("Muscle law");
            g.law = VanLeeuwenKierMuscle::parse_parameters(prm);
            prm.leave_subsection();
            require(!g.constant_law || g.law.max_isometric_stress.has_value(),
                    "Parameter '" + where +
                      "/Muscle law/Maximum isometric stress' must be set "
                      "(> 0) for Law = constant.");
            if (!prm.get("Myosin filament length field").empty())
              g.myosin_length = std::make_unique<SpaceTimeFunction>(prm.get("Myosin filament length field"), 1,
                                                                    where + "/Myosin filament length field");
            if (!prm.get("Rest sarcomere length field").empty())
              g.rest_sarcomere_length = std::make_unique<SpaceTimeFunction>(prm.get("Rest sarcomere length field"), 1,
                                                                            where + "/Rest sarcomere length field");
            g.rate_dependent = prm.get_bool("Rate dependence");

            prm.enter_subsection("Activation");
            const std::string source = prm.get("Source");
            g.source                 = source == "prescribed" ? Group::Source::prescribed :
                                       source == "expression" ? Group::Source::expression :
                                       source == "table"      ? Group::Source::table :
                                       source == "controlled" ? Group::Source::controlled :
                                                                Group::Source::stimulation;
            g.onset = std::make_unique<SpaceTimeFunction>(prm.get("Onset"), 1, where + "/Activation/Onset");
            if (g.source == Group::Source::prescribed)
              g.pattern.emplace(PrescribedActivation::parse_parameters(prm, "Activation"));
            g.level = std::make_unique<SpaceTimeFunction>(prm.get("Level"), 1, where + "/Activation/Level");
            g.nodes = Utilities::string_to_double(Utilities::split_string_list(prm.get("Control nodes")));
            require(g.nodes.empty() || g.source == Group::Source::controlled || g.source == Group::Source::table,
                    "Parameter 'Activation/Control nodes' is given, but Source = " + source +
                      ": nodes shape a controlled or table activation; leave them empty.");
            require(g.nodes.empty() || g.nodes.size() >= 2,
                    "Parameter 'Activation/Control nodes' has one node: give two or more, or none for a "
                    "uniform activation.");
            for (unsigned int k = 1; k < g.nodes.size(); ++k)
              require(g.nodes[k] > g.nodes[k - 1], "Parameter 'Activation/Control nodes': node " +
                                                     std::to_string(k + 1) + " (" + shortest_text(g.nodes[k]) +
                                                     ") must lie beyond node " + std::to_string(k) + ".");
            g.controls.assign(std::max<std::size_t>(g.nodes.size(), 1), 0.0);
            if (g.source == Group::Source::table)
              {
                const std::string column = prm.get("Table column").empty() ? g.name : prm.get("Table column");
                for (unsigned int k = 0; k < g.controls.size(); ++k)
                  g.tables.emplace_back(prm.get("Table file"),
                                        g.nodes.empty() ? column : column + "_" + std::to_string(k + 1),
                                        where + "/Activation/Table file", 0.0, 1.0);
              }
            g.stimulation =
              std::make_unique<SpaceTimeFunction>(prm.get("Stimulation"), 1, where + "/Activation/Stimulation");
            g.dynamics.emplace(ActivationDynamics::parse_parameters(prm));
            prm.leave_subsection();
            // Construct the law once so that bad constants are reported here, not in assembly.
            VanLeeuwenKierMuscle check(g.law);
            (void)check;
            groups.push_back(std::move(g));
          }
        catch (const std::exception &error)
          {
            throw InputError("In subsection '" + where + "': " + message_of(error));
          }
        prm.leave_subsection();
      }
    prm.leave_subsection();
  }

  std::string MuscleGroups::control_name(const unsigned int g, const unsigned int k) const
  {
    return groups[g].nodes.empty() ? groups[g].name : groups[g].name + "_" + std::to_string(k + 1);
  }

  bool MuscleGroups::Group::has_material(const unsigned int material_id) const
  {
    return material_ids.empty() ||
           std::find(material_ids.begin(), material_ids.end(), material_id) != material_ids.end();
  }

  std::string MuscleGroups::check_finite(const Point<3> &X, const unsigned int material_id) const
  {
    for (const Group &group : groups)
      if (group.has_material(material_id))
        {
          // The activation input of the group's source only: the others are not used.
          // (A table's values were checked when it was read.)
          const SpaceTimeFunction *source = group.source == Group::Source::prescribed  ? group.onset.get() :
                                            group.source == Group::Source::expression  ? group.level.get() :
                                            group.source == Group::Source::stimulation ? group.stimulation.get() :
                                                                                         nullptr;
          for (const SpaceTimeFunction *f : std::initializer_list<const SpaceTimeFunction *>{
                 group.region.get(), group.myosin_length.get(), group.rest_sarcomere_length.get(), source})
            if (f)
              if (std::string message = f->check_finite(X, 0.0); !message.empty())
                return message;
        }
    return "";
  }

  const FibreField *MuscleGroups::tapered_family(const unsigned int g) const
  {
    for (const FibreField &family : groups[g].families)
      if (family.tapered())
        return &family;
    return nullptr;
  }

  std::string MuscleGroups::arm_warning(const unsigned int g, const double z_max, const double r_over_R) const
  {
    // 5 % of slack: quadrature points lie inside the mesh, whose faceted surface lies inside the
    // round arm it approximates.
    const FibreField *family = tapered_family(g);
    if (!family)
      return "";
    const FibreField::Parameters &arm   = family->parameters();
    const std::string             where = "'Muscles/Group " + std::to_string(g + 1) + "' (" + groups[g].name + ")";
    if (z_max > 1.05 * arm.arm_length)
      return "Warning: muscle group " + where + " reaches z = " + shortest_text(z_max) + " m, beyond its Arm length " +
             shortest_text(arm.arm_length) +
             " m: its fibre directions taper as if the arm ended there; give the length of the mesh.";
    if (r_over_R > 1.05)
      return "Warning: muscle group " + where + " has points " + shortest_text(std::round(100 * (r_over_R - 1))) +
             " % farther from the axis than the cone of Base radius " + shortest_text(arm.base_radius) +
             " m and Tip radius " + shortest_text(arm.tip_radius) +
             " m that its fibre directions assume: give the radii of the mesh.";
    return "";
  }

  std::string MuscleGroups::region_text(const unsigned int g) const
  {
    const Group &group = groups[g];
    std::string  text  = "'" + group.region->parameter() + "' = \"" + group.region->expression() + "\"";
    if (!group.material_ids.empty())
      {
        text += " and 'Muscles/Group " + std::to_string(g + 1) + "/Material ids' =";
        for (unsigned int k = 0; k < group.material_ids.size(); ++k)
          text += (k ? ", " : " ") + std::to_string(group.material_ids[k]);
      }
    return text;
  }

  MuscleGroups::PointData MuscleGroups::point_data(const Point<3> &X, const unsigned int material_id) const
  {
    PointData data;
    for (unsigned int g = 0; g < groups.size(); ++g)
      {
        const Group &group = groups[g];
        if (!group.has_material(material_id))
          continue;
        if (group.region->value(X, 0.0) <= 0)
          continue;
        VanLeeuwenKierMuscle::Parameters law = group.law;
        if (group.myosin_length)
          law.myosin_length = group.myosin_length->value(X, 0.0);
        if (group.rest_sarcomere_length)
          law.rest_sarcomere_length = group.rest_sarcomere_length->value(X, 0.0);
        GroupAtPoint p{g, VanLeeuwenKierMuscle(law), {}, group.onset->value(X, 0.0), {}};
        for (unsigned int f = 0; f < group.families.size(); ++f)
          p.N[f] = group.families[f].direction(X);
        if (group.source == Group::Source::stimulation)
          p.state = group.dynamics->initial_state(group.stimulation->value(X, 0.0));
        if (!group.nodes.empty()) // the hat functions of the nodes around Z (eq. (76))
          {
            const auto  &z = group.nodes;
            const double Z = std::clamp(X[2], z.front(), z.back());
            p.node   = std::min<std::size_t>(std::upper_bound(z.begin(), z.end(), Z) - z.begin(), z.size() - 1) - 1;
            p.weight = (z[p.node + 1] - Z) / (z[p.node + 1] - z[p.node]);
          }
        data.push_back(std::move(p));
      }
    return data;
  }

  std::pair<double, double> MuscleGroups::activation(const Group &g, const GroupAtPoint &p, const Point<3> &X,
                                                     const double lambda, const double t, const double dt) const
  {
    switch (g.source)
      {
        case Group::Source::prescribed:
          return {g.pattern->value(t, p.onset), 0.0};
        case Group::Source::expression:
          return {std::clamp(g.level->value(X, t), 0.0, 1.0), 0.0};
        case Group::Source::table:
          return {at_nodes(p, [&](const unsigned int k) { return g.tables[k].value(t); }), 0.0};
        case Group::Source::controlled:
          return {at_nodes(p, [&](const unsigned int k) { return g.controls[k]; }), 0.0};
        case Group::Source::stimulation:
          {
            const double          lambda_opt = optimal_stretch(p.law);
            const double          l_rel      = lambda / lambda_opt;
            const ActivationState state =
              g.dynamics->step(p.state, g.stimulation->value(X, t), dt, l_rel, ActivationStep::exact);
            return {g.dynamics->q(state, l_rel), g.dynamics->dq_dl_rel(state, l_rel) / lambda_opt};
          }
      }
    return {0.0, 0.0};
  }

  NominalStressTangent MuscleGroups::response(const PointData &point, const Point<3> &X, const Tensor<2, 3> &F,
                                              const Tensor<2, 3> &F_dot, const double alpha, const double t,
                                              const double dt, std::vector<PointOutput> *output) const
  {
    NominalStressTangent total;
    if (output)
      output->clear();
    for (const GroupAtPoint &p : point)
      {
        const Group       &g          = groups[p.group];
        const Tensor<2, 3> rate       = g.rate_dependent ? F_dot : Tensor<2, 3>();
        const double       rate_alpha = g.rate_dependent ? alpha : 0.0;
        PointOutput        out;
        for (unsigned int f = 0; f < g.families.size(); ++f)
          {
            const FibreKinematics fibre(F, rate, p.N[f]);
            const auto [fa, dfa_dlambda] = activation(g, p, X, fibre.stretch, t, dt);
            double sigma                 = 0;
            if (g.constant_law)
              {
                const double sigma_max = *g.law.max_isometric_stress;
                sigma                  = sigma_max * fa;
                total += fibre_nominal_response(fibre, FibreStress{sigma, sigma_max * dfa_dlambda, 0.0}, rate_alpha);
              }
            else
              {
                const auto response = p.law.evaluate(fibre.strain(), fibre.stretch_rate, fa, dfa_dlambda);
                sigma               = response.stress.value;
                total += fibre_nominal_response(fibre, response.stress, rate_alpha);
              }
            if (f == 0)
              out = {fa, fibre.stretch, sigma};
          }
        if (output)
          output->push_back(out);
      }
    return total;
  }

  void MuscleGroups::control_derivatives(
    const PointData &point, const Tensor<2, 3> &F, const Tensor<2, 3> &F_dot,
    const std::function<void(unsigned int, unsigned int, const Tensor<2, 3> &)> &add) const
  {
    for (const GroupAtPoint &p : point)
      {
        const Group &g = groups[p.group];
        if (g.source != Group::Source::controlled)
          continue;
        Tensor<2, 3> dP;
        for (unsigned int f = 0; f < g.families.size(); ++f)
          {
            const FibreKinematics fibre(F, g.rate_dependent ? F_dot : Tensor<2, 3>(), p.N[f]);
            // σm0(fa = 1) − σm0(fa = 0) = σmax fl fv: the passive stress cancels (P = σm0 m ⊗ N).
            double dsigma = 0;
            if (g.constant_law)
              dsigma = *g.law.max_isometric_stress;
            else
              {
                const auto law = p.law.evaluate(fibre.strain(), fibre.stretch_rate, 1, 0);
                dsigma         = p.law.max_isometric_stress() * law.force_length * law.force_velocity;
              }
            dP += dsigma * dealii::outer_product(fibre.m, fibre.N);
          }
        add(p.group, p.node, p.weight * dP);
        if (p.weight != 1)
          add(p.group, p.node + 1, (1 - p.weight) * dP);
      }
  }

  void MuscleGroups::commit(PointData &point, const Point<3> &X, const Tensor<2, 3> &F, const double t,
                            const double dt) const
  {
    for (GroupAtPoint &p : point)
      {
        const Group &g = groups[p.group];
        if (g.source != Group::Source::stimulation)
          continue;
        const double lambda = (F * p.N[0]).norm();
        p.state             = g.dynamics->step(p.state, g.stimulation->value(X, t), dt, lambda / optimal_stretch(p.law),
                                               ActivationStep::exact);
      }
  }
} // namespace hydrostat
