#pragma once

#include <hydrostat/physics/point_model.h>
#include <hydrostat/physics/term.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * The stress of the body, ∫ P : Grad φ dV with its tangent ∫ Grad φ : A : Grad φ dV (theory.md
   * eq. (4)), P the PointModel's: connective tissue, muscle fibres and stiffness-proportional
   * damping. Its energy is the tissue's strain energy; the work of the fibre stress is the active
   * work, that of the damping stress dissipated (theory.md eq. (62)). Its output fields are the
   * cell averages of the stresses, stretches and per-group muscle quantities (README "Output
   * fields"), from the table in solid_stress.cc.
   */
  class SolidStress : public Term
  {
  public:
    static void                               declare_parameters(dealii::ParameterHandler &prm);
    static std::vector<std::unique_ptr<Term>> create(dealii::ParameterHandler &prm, const TermSetup &setup);
    static std::vector<std::string>           field_selectors();

    SolidStress(const TissueMaterials &materials, const MuscleGroups &muscles, const Formulation &formulation,
                const double stiffness_damping);

    std::string name() const override { return "the tissue and muscle stress"; }
    Work        work() const override { return Work::stored; }

    void        setup(const dealii::DoFHandler<3> &dof_handler, const dealii::Quadrature<3> &quadrature) override;
    std::string report() const override;
    bool        on_cells() const override { return true; }
    void        add_point(const CellState &cell, const unsigned int q, CellContribution &out) const override;
    void        add_control_derivatives(const CellState &cell, const unsigned int q, const ControlColumns &columns,
                                        std::vector<dealii::Vector<double>> &out) const override;
    void        add_point_energy(const CellState &cell, const unsigned int q, CellEnergy &out) const override;

    std::vector<CellField> output_fields() const override;
    void                   output_values(const CellState &cell, double *values) const override;

    void commit(const State &state, const double dt) override { model.commit(state, dt); }
    void save(BinaryWriter &out) const override { model.save(out); }
    void load(BinaryReader &in) override { model.load(in); }

    const PointModel &point_model() const { return model; }

  private:
    PointModel model;
  };
} // namespace hydrostat
