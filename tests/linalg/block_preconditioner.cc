// HYDROSTAT_TEST_RANKS: 1 2
// HYDROSTAT_TEST_TIMEOUT: 40
// Linear solver/Preconditioner = block solves the condensed three-field Newton system through
// its saddle-point form (PressureBlocks): its Δu must be the condensed one. A nearly
// incompressible (K/μ = 5000) tapered bar, clamped at the root, with a prescribed, growing
// axial displacement of the tip face (inhomogeneous constraints: the r_q = −B Δu_c path), a
// ramped follower pressure (unsymmetric tangent) and gravity, run with block-preconditioned GMRES
// and with the direct solver on the condensed matrix; dynamic Q1 (μ̂ with the Newmark mass), the
// same on a once-refined mesh (families of 8 sibling cells: the checkerboard correction of Ŝ is
// active) and quasi-static Q2 (four pressure functions per cell). Newton (to 1e-12 relative) and the linear
// solves (1e-12) are converged far below the loads (~0.01 N), so both take the same steps and the
// probe displacements must agree to round-off amplified by Newton, well below 1e-7 relative; a
// wrong block (sign, scaling, a missing constrained column) shows at 1e-3 or more. (A run whose
// steps are cut back differently would differ by the time-stepping error, ~1e-3: hence loads
// that are ramped in and no cut-backs.)
#include <deal.II/base/mpi.h>

#include <gtest/gtest.h>

#include "case_builder.h"

#include <algorithm>
#include <tuple>

using namespace hydrostat;

namespace
{
  std::string parameters(const unsigned int degree, const std::string &mode, const unsigned int refinements,
                         const std::string &solver)
  {
    return R"(
subsection Mesh
  set Type = truncated cone
  set Length = 0.04
  set Radius = 0.006
  set Tip radius = 0.004
  set Axial subdivisions = )" +
           std::to_string(4 >> refinements) + R"(
  set Global refinements = )" +
           std::to_string(refinements) + R"(
end
subsection Materials
  subsection Material 0
    set c1 = 1e4
    set c2 = 2e3
    set Bulk modulus = 1.2e8
  end
end
subsection Finite element
  set Formulation = three-field
  set Polynomial degree = )" +
           std::to_string(degree) + R"(
end
subsection Boundary conditions
  subsection Constraint 1
    set Boundary id = 1
  end
  subsection Constraint 2
    set Boundary id = 2
    set Components = z
    set Displacement = 0; 0; 0.002 * (t / 0.01)^2
  end
  subsection Load 1
    set Boundary id = 0
    set Type = follower pressure
    set Value = 20 * (1 + x / 0.006) * t / 0.004
  end
  set Body acceleration = 0; -1; 0
end
subsection Time integration
  set Mode = )" +
           mode + R"(
end
subsection Time stepping
  set Time step = 0.001
  set End time = 0.004
end
subsection Newton
  set Relative residual = 1e-12
  set Absolute residual = 1e-9
end
subsection Linear solver
  set Relative tolerance = 1e-12
  )" + solver +
           R"(
end
subsection Output
  set ParaView = false
  set Probe points = 0, 0, 0.02; 0.005, 0, 0.01; 0, 0.004, 0.03
end
)";
  }

  std::vector<dealii::Tensor<1, 3>> run(const std::string &text)
  {
    test_support::Case c(text);
    c.simulation->setup();
    while (c.simulation->time() < 0.004 - 1e-12)
      c.simulation->advance(std::min(0.001, 0.004 - c.simulation->time()));
    return c.simulation->probe_displacements();
  }
} // namespace

class BlockPreconditioner : public ::testing::TestWithParam<std::tuple<unsigned int, std::string, unsigned int>>
{};

TEST_P(BlockPreconditioner, GivesTheCondensedNewtonUpdate)
{
  const auto [degree, mode, refinements] = GetParam();
  const auto block =
    run(parameters(degree, mode, refinements, "set Solver type = GMRES\n  set Preconditioner = block"));
  const auto direct = run(parameters(degree, mode, refinements, "set Solver type = direct"));
  double     scale = 0, difference = 0;
  for (unsigned int k = 0; k < direct.size(); ++k)
    {
      scale      = std::max(scale, direct[k].norm());
      difference = std::max(difference, (block[k] - direct[k]).norm());
    }
  if (dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0)
    std::cout << "Q" << degree << " " << mode << ", " << refinements << " refinement(s): max probe displacement "
              << scale << " m, block vs direct relative difference " << difference / scale << std::endl;
  EXPECT_GT(scale, 1e-4);
  EXPECT_LT(difference / scale, 1e-7);
}

INSTANTIATE_TEST_SUITE_P(Formulations, BlockPreconditioner,
                         ::testing::Values(std::make_tuple(1u, "dynamic", 0u), std::make_tuple(1u, "dynamic", 1u),
                                           std::make_tuple(2u, "quasi-static", 0u)));
