#pragma once

#include <hydrostat/base/space_time_function.h>
#include <hydrostat/physics/term.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /// The body force ∫ ρ0 g·φ dV of a body acceleration g(X, t) (gravity; theory.md eq. (4)).
  class BodyForce : public Term
  {
  public:
    /// Declares 'Boundary conditions/Body acceleration'.
    static void                               declare_parameters(dealii::ParameterHandler &prm);
    static std::vector<std::unique_ptr<Term>> create(dealii::ParameterHandler &prm, const TermSetup &setup);

    BodyForce(const TissueMaterials &materials, std::unique_ptr<SpaceTimeFunction> acceleration);

    std::string name() const override { return "the body force"; }
    Work        work() const override { return Work::external; }
    bool        on_cells() const override { return true; }
    void        add_point(const CellState &cell, const unsigned int q, CellContribution &out) const override;

  private:
    const TissueMaterials             &materials;
    std::unique_ptr<SpaceTimeFunction> g; // [m/s²]
  };
} // namespace hydrostat
