// One point model (theory.md §14): assembly, the energy balance and the output fields all take the
// material response at a quadrature point from PointModel, and they agree on a state of a
// distorted block with a large, non-affine displacement and velocity, tissue and a
// rate-dependent, stretch-dependent muscle group, in both formulations:
//  - energy and assembly: the derivative of the strain energy (central differences) is the
//    assembled internal force without the fibre force the energy pass books as active
//    (R_tissue = R + f_active);
//  - output and assembly: the virial of the assembled internal forces, Σ_i R_i ⊗ X_i, is
//    ∫ P dV, the sum over the cells of the cell volume times the cell's piola_stress output
//    (Σ_i φ_i X_i = X for these elements, so Σ_i Grad φ_i ⊗ X_i = I).
#include <gtest/gtest.h>

#include "problem.h"

#include <cmath>
#include <map>

using namespace hydrostat;

namespace
{
  const char *muscles = R"(
subsection Muscles
  set Number of groups = 1
  subsection Group 1
    set Fibre families = constant, helical right
    set Constant direction = 1, 0.5, 0.2
    set Pitch angle = 30
    subsection Activation
      set Source = expression
      set Level  = 0.7
    end
  end
end
)";
} // namespace

class PointModelAgreement : public ::testing::TestWithParam<Formulation::Type>
{};

TEST_P(PointModelAgreement, AssemblyEnergyAndOutputAgree)
{
  test_support::Problem problem(test_support::box({0.02, 0.01, 0.01}, {2, 1, 1}, 0.25), MPI_COMM_SELF);
  problem.mooney_rivlin(3e3, 1e3, 4e5);
  problem.formulation.type = GetParam();
  problem.muscle_groups(muscles);
  problem.newmark.set(false, 0.25, 0.5);
  const SolidStress &solid = problem.add_solid_stress();
  problem.setup();

  // The state: a large displacement and a velocity (the fibres' rate dependence).
  const auto u             = problem.interpolate([](const dealii::Point<3> &X) {
    const double x = X[0] / 0.02, y = X[1] / 0.01, z = X[2] / 0.01;
    return dealii::Tensor<1, 3>(
      {0.005 * x * x - 0.002 * y * z, 0.003 * x * y + 0.001 * std::sin(3 * z), -0.002 * x + 0.0025 * y * y * x});
  });
  const auto v             = problem.interpolate([](const dealii::Point<3> &X) {
    return dealii::Tensor<1, 3>({0.01 * X[1] / 0.01, -0.02 * X[2] / 0.01, 0.03 * X[0] / 0.02});
  });
  const auto zero          = problem.state.owned_vector();
  Assembler &assembler     = problem.assembler();
  const auto strain_energy = [&](const test_support::Problem::Vector &displacement) {
    problem.state.accept(0.0, displacement, v, zero);
    Assembler::Energies e;
    assembler.energies(problem.state, e);
    return e;
  };
  const Assembler::Energies         energies = strain_energy(u);
  dealii::AffineConstraints<double> none;
  none.close();
  auto residual = zero;
  ASSERT_TRUE(assembler.assemble(Step::accepted(0.0), u, problem.state, residual, nullptr, nullptr, none, none));
  EXPECT_GT(energies.active.l2_norm(), 1e-3 * residual.l2_norm()); // the fibres carry stress

  // Energy and assembly.
  const double h     = 1e-8;
  double       error = 0, scale = 0;
  for (unsigned int j = 0; j < u.size(); ++j)
    {
      auto up = u, um = u;
      up[j] += h;
      um[j] -= h;
      const double dW = (strain_energy(up).strain - strain_energy(um).strain) / (2 * h);
      error           = std::max(error, std::abs(dW - (residual[j] + energies.active[j])));
      scale           = std::max(scale, std::abs(dW));
    }
  std::cout << "max |dE/du - (R + f_active)| / max |dE/du| = " << error / scale << std::endl;
  EXPECT_LT(error / scale, 1e-6);

  // Output and assembly.
  std::map<dealii::types::global_dof_index, dealii::Point<3>> support;
  dealii::DoFTools::map_dofs_to_support_points(dealii::MappingQ1<3>(), problem.dof_handler(), support);
  dealii::Tensor<2, 3>                         virial, integral;
  std::vector<dealii::types::global_dof_index> dofs(problem.dof_handler().get_fe().n_dofs_per_cell());
  std::vector<bool>                            counted(u.size(), false);
  for (const auto &cell : problem.dof_handler().active_cell_iterators())
    {
      cell->get_dof_indices(dofs);
      for (unsigned int i = 0; i < dofs.size(); ++i)
        if (!counted[dofs[i]])
          {
            counted[dofs[i]]     = true;
            const unsigned int c = problem.dof_handler().get_fe().system_to_component_index(i).first;
            for (unsigned int K = 0; K < 3; ++K)
              virial[c][K] += residual[dofs[i]] * support[dofs[i]][K];
          }
    }
  const std::vector<CellField> fields = solid.output_fields();
  unsigned int                 offset = 0, n_values = 0;
  for (const CellField &f : fields)
    {
      if (f.name == "piola_stress")
        offset = n_values;
      n_values += f.n_components;
    }
  problem.state.accept(0.0, u, v, zero);
  std::vector<double> values(n_values);
  assembler.for_each_cell(problem.state, [&](const CellState &cell) {
    solid.output_values(cell, values.data());
    double volume = 0;
    for (const double JxW : cell.shapes.JxW)
      volume += JxW;
    for (unsigned int i = 0; i < 3; ++i)
      for (unsigned int J = 0; J < 3; ++J)
        integral[i][J] += volume * values[offset + 3 * i + J];
  });
  std::cout << "virial of the internal forces " << virial << " N m, integral of piola_stress " << integral << " N m"
            << std::endl;
  EXPECT_LT((virial - integral).norm(), 1e-10 * integral.norm());
}

INSTANTIATE_TEST_SUITE_P(Formulations, PointModelAgreement,
                         ::testing::Values(Formulation::Type::displacement, Formulation::Type::three_field));
