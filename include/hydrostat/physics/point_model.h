#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/quadrature.h>
#include <deal.II/base/tensor.h>
#include <deal.II/dofs/dof_handler.h>

#include <hydrostat/fem/formulation.h>
#include <hydrostat/fem/state.h>
#include <hydrostat/io/checkpoint_files.h>
#include <hydrostat/materials/nominal_stress.h>
#include <hydrostat/materials/tissue_materials.h>
#include <hydrostat/muscle/muscle_groups.h>
#include <hydrostat/physics/term.h>

#include <functional>
#include <vector>

namespace hydrostat
{
  /**
   * The material response at one quadrature point: the connective tissue (TissueLaw, with the
   * three-field element's volumetric part, theory.md eqs. (6)–(14)), the fibre stresses of the
   * muscle groups at the point (MuscleGroups, eqs. (15)–(33)) and the stiffness-proportional
   * Rayleigh damping β_K A0 : Ḟ (eq. (49)). Assembly, the energy balance and the output fields all
   * evaluate it here (SolidStress). It holds the muscle groups' data and activation states at the
   * quadrature points of this rank's cells and advances them over accepted steps.
   */
  class PointModel
  {
  public:
    /// What evaluate() computes.
    enum Need : unsigned int
    {
      tangent = 1, ///< P and A = ∂P/∂F as the Newton system needs them
      stress  = 2, ///< P alone (output: Kirchhoff stress without the tangent)
      energy  = 4, ///< the energy density of the tissue
      parts   = 8, ///< the fibre and viscous parts of P
      groups  = 16 ///< the per-group quantities (output)
    };

    /// One muscle group at the point (output).
    struct GroupResponse
    {
      unsigned int group;
      double       activation;   ///< fa
      double       stretch;      ///< λ of the group's first family
      double       fibre_stress; ///< σm0 of the first family [Pa]
      Tensor<1, 3> direction;    ///< current direction m = F N / |F N| of the first family
    };

    struct Response
    {
      NominalStressTangent       total;          ///< P [Pa] and, with Need::tangent, A
      Tensor<2, 3>               fibre, viscous; ///< the parts of P (Need::parts)
      double                     energy   = 0;   ///< W̄(F) (three-field) or W(F) [J/m³]
      double                     pressure = 0;   ///< volumetric stress p̃ or U'(J) [Pa], positive in tension
      std::vector<GroupResponse> groups;
    };

    /// Declares 'Time integration/Stiffness damping'.
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// β_K of the input (0 in a quasi-static run, which has no damping).
    static double stiffness_damping(dealii::ParameterHandler &prm, const bool dynamic);

    PointModel(const TissueMaterials &materials, const MuscleGroups &muscles, const Formulation &formulation,
               const double stiffness_damping);

    /// The muscle groups at every quadrature point of this rank's cells, A0 per material id. An
    /// expression input of the groups that is not finite at a point, or a group that holds no
    /// point, is an InputError (on every rank).
    void setup(const dealii::DoFHandler<3> &dof_handler, const dealii::Quadrature<3> &quadrature);
    /// Quadrature points in some muscle group, on all ranks.
    unsigned int n_muscle_points() const { return muscle_points; }
    /// The reference volume of each muscle group over that of the body, on all ranks.
    const std::vector<double> &group_shares() const { return shares; }
    /// Warnings of groups whose points reach beyond the arm their fibre directions assume.
    const std::vector<std::string> &group_warnings() const { return warnings; }

    /// The response at point @p q of @p cell, at the state and step the cell was prepared for.
    Response evaluate(const CellState &cell, const unsigned int q, const unsigned int needs) const;

    /// ∂P/∂a of the controls of controlled groups at point @p q (MuscleGroups::control_derivatives()).
    void control_derivatives(const CellState &cell, const unsigned int q,
                             const std::function<void(unsigned int, unsigned int, const Tensor<2, 3> &)> &add) const
    {
      muscle_groups.control_derivatives(point(cell.cell, q), cell.kinematics.F[q], cell.kinematics.F_dot[q], add);
    }

    const MuscleGroups &muscles() const { return muscle_groups; }

    /// Advances the activation states over an accepted step of size @p dt ending in @p state.
    void commit(const State &state, const double dt);
    void save(BinaryWriter &out) const;
    void load(BinaryReader &in);

  private:
    const MuscleGroups::PointData &point(const CellIterator &cell, const unsigned int q) const
    {
      return point_data[cell->active_cell_index() * n_q + q];
    }

    const TissueMaterials               &materials;
    const MuscleGroups                  &muscle_groups;
    const Formulation                   &formulation;
    const double                         beta_K;
    std::vector<Tensor<4, 3>>            small_strain_tangent; // A0 per material id
    const dealii::DoFHandler<3>         *dof_handler = nullptr;
    const dealii::Quadrature<3>         *quadrature  = nullptr;
    unsigned int                         n_q         = 0;
    std::vector<MuscleGroups::PointData> point_data; // [active cell index × n_q + q], this rank's cells
    unsigned int                         muscle_points = 0;
    std::vector<double>                  shares; // per group
    std::vector<std::string>             warnings;
  };
} // namespace hydrostat
