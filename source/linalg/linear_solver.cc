#include <deal.II/base/exceptions.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/lac/solver_control.h>
#include <deal.II/lac/solver_gmres.h>
#include <deal.II/lac/trilinos_parallel_block_vector.h>
#include <deal.II/lac/trilinos_precondition.h>
#include <deal.II/lac/trilinos_solver.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/linalg/checkerboard_correction.h>
#include <hydrostat/linalg/linear_solver.h>
#include <hydrostat/linalg/pressure_blocks.h>

#include <Amesos.h>
#include <Amesos_BaseSolver.h>
#include <Epetra_LinearProblem.h>
#include <Epetra_Map.h>
#include <Epetra_MultiVector.h>
#include <Teuchos_ParameterList.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <vector>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    /// The six rigid-body modes (3 translations, 3 rotations about the centroid of the locally
    /// owned support points) on the matrix's row map: the near-null space of elasticity that
    /// smoothed-aggregation AMG needs to coarsen a vector problem well.
    Epetra_MultiVector rigid_body_modes(const DoFHandler<3> &dof_handler, const Epetra_Map &map)
    {
      std::map<types::global_dof_index, Point<3>> support_points;
      DoFTools::map_dofs_to_support_points(MappingQ1<3>(), dof_handler, support_points);
      Epetra_MultiVector                   modes(map, 6, /*zero_out=*/true);
      const auto                          &fe = dof_handler.get_fe();
      std::vector<types::global_dof_index> dofs(fe.n_dofs_per_cell());
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            cell->get_dof_indices(dofs);
            for (unsigned int i = 0; i < dofs.size(); ++i)
              {
                const int lid = map.LID(static_cast<int>(dofs[i]));
                if (lid < 0)
                  continue;
                const unsigned int c = fe.system_to_component_index(i).first;
                const Point<3>    &x = support_points[dofs[i]];
                modes[c][lid]        = 1.0;
                // Rotations about x, y, z: ω × x.
                const double rot[3][3] = {{0, -x[2], x[1]}, {x[2], 0, -x[0]}, {-x[1], x[0], 0}};
                for (unsigned int r = 0; r < 3; ++r)
                  modes[3 + r][lid] = rot[r][c];
              }
          }
      return modes;
    }

    /// A TimerOutput section of @p timer until the result goes out of scope (none without a timer).
    std::optional<TimerOutput::Scope> timed(TimerOutput *timer, const char *section)
    {
      if (!timer)
        return std::nullopt;
      return std::optional<TimerOutput::Scope>(std::in_place, *timer, section);
    }

    using BlockVector = TrilinosWrappers::MPI::BlockVector;

    /// The saddle-point operator [A Bᵀ; B −C] of PressureBlocks.
    struct SaddlePointOperator
    {
      const TrilinosWrappers::SparseMatrix &A;
      const PressureBlocks                 &blocks;

      void vmult(BlockVector &dst, const BlockVector &src) const
      {
        A.vmult(dst.block(0), src.block(0));
        blocks.B().Tvmult_add(dst.block(0), src.block(1));
        blocks.C().vmult(dst.block(1), src.block(1));
        dst.block(1) *= -1.0;
        blocks.B().vmult_add(dst.block(1), src.block(0));
      }
    };

    /// Block upper-triangular preconditioner [Â Bᵀ; 0 −Ŝ]⁻¹: q = −Ŝ⁻¹ r_q, Δu = Â⁻¹ (r − Bᵀ q),
    /// Â⁻¹ one AMG cycle on A; Ŝ⁻¹ with the checkerboard correction for Q1–P0.
    struct BlockTriangularPreconditioner
    {
      const TrilinosWrappers::PreconditionAMG &amg;
      const PressureBlocks                    &blocks;
      const CheckerboardCorrection            *checkerboard;
      mutable TrilinosWrappers::MPI::Vector    tmp;

      void vmult(BlockVector &dst, const BlockVector &src) const
      {
        blocks.S_hat_inverse().vmult(dst.block(1), src.block(1));
        if (checkerboard)
          checkerboard->vmult_add(dst.block(1), src.block(1));
        dst.block(1) *= -1.0;
        tmp.reinit(src.block(0), true);
        blocks.B().Tvmult(tmp, dst.block(1));
        tmp.sadd(-1.0, 1.0, src.block(0));
        amg.vmult(dst.block(0), tmp);
      }
    };
  } // namespace

  struct LinearSolver::Factorization
  {
    const Epetra_CrsGraph             *graph      = nullptr; // the pattern that was analysed
    int                                n_nonzeros = 0;
    Epetra_LinearProblem               problem;
    std::unique_ptr<Amesos_BaseSolver> solver;
    bool                               current = false; // factorised since renew_factorization()

    /// Numeric factorisation; false if it failed. MUMPS sizes its workspace from the analysis
    /// plus ICNTL(14) per cent (@p increase; nullopt: MUMPS's own default), and
    /// pivoting can need more (INFOG(1) = -9 on the anatomical arm at 2.5e4 DoFs): then the matrix
    /// is analysed and factorised again with the increase doubled (at least 40 %), at most four
    /// times. Amesos hands ICNTL to MUMPS in the analysis only.
    bool factorise(const bool mumps, std::optional<int> increase, const MPI_Comm comm)
    {
      for (unsigned int retry = 0;; ++retry)
        {
          if (solver->NumericFactorization() == 0)
            return true;
          if (!mumps || retry == 4)
            return false;
          increase = std::max(2 * increase.value_or(0), 40);
          if (Utilities::MPI::this_mpi_process(comm) == 0)
            std::cout << "  MUMPS: factorisation failed; analysed and factorised again with a workspace increase "
                         "ICNTL(14) = "
                      << *increase << " %" << std::endl;
          set_workspace_increase(*increase);
          if (solver->SymbolicFactorization() != 0)
            return false;
        }
    }

    /// MUMPS's ICNTL(14): workspace over the analysis' estimate [%].
    void set_workspace_increase(const int increase) { set_control(14, increase); }

    /// MUMPS's ICNTL(@p index) = @p value, for the next analysis.
    void set_control(const int index, const int value)
    {
      Teuchos::ParameterList parameters;
      parameters.sublist("mumps").set("ICNTL(" + std::to_string(index) + ")", value);
      solver->SetParameters(parameters);
    }

    /// x = LU⁻¹ b with the factors of the last numeric factorisation.
    void vmult(TrilinosWrappers::MPI::Vector &x, const TrilinosWrappers::MPI::Vector &b)
    {
      problem.SetLHS(&x.trilinos_vector());
      problem.SetRHS(const_cast<Epetra_MultiVector *>(&b.trilinos_vector()));
      AssertThrow(solver->Solve() == 0, ExcMessage("the triangular solves failed"));
    }
  };

  struct LinearSolver::IterativePreconditioner
  {
    TrilinosWrappers::PreconditionAMG     amg;
    std::optional<CheckerboardCorrection> checkerboard;
    const Epetra_CrsMatrix               *matrix           = nullptr; // the matrix it was built for
    bool                                  current          = false;   // built since renew_factorization()
    unsigned int                          fresh_iterations = 0;       // of the solve it was built for
    // Preconditioner reuse = across steps: whether it was built for the first solve of a Newton
    // solve (then fresh_iterations are that solve's), and the first solve's iterations in the
    // latest Newton solve.
    bool         built_for_first_solve   = false;
    unsigned int latest_first_iterations = 0;
  };

  void LinearSolver::renew_factorization() const
  {
    if (factorization)
      factorization->current = false;
    // Across steps it is kept while the first solve of the latest Newton solve needed at most
    // 25 % more iterations than the first solve it was built for (the later solves of a Newton
    // solve need more, fresh or not); a build costs about half a solve at 10⁶ DoFs.
    const bool fits = reuse_across_steps && iterative && iterative->built_for_first_solve &&
                      4 * iterative->latest_first_iterations <= 5 * iterative->fresh_iterations;
    if (iterative && !fits)
      iterative->current = false;
    first_solve = true;
  }

  LinearSolver::Statistics LinearSolver::solve_direct(const TrilinosWrappers::SparseMatrix &A,
                                                      TrilinosWrappers::MPI::Vector        &x,
                                                      const TrilinosWrappers::MPI::Vector &b, TimerOutput *timer) const
  {
    auto &matrix = const_cast<Epetra_CrsMatrix &>(A.trilinos_matrix()); // Amesos reads it only
    if (!factorization || factorization->graph != &matrix.Graph() ||
        factorization->n_nonzeros != matrix.NumGlobalNonzeros())
      {
        factorization             = std::make_shared<Factorization>();
        factorization->graph      = &matrix.Graph();
        factorization->n_nonzeros = matrix.NumGlobalNonzeros();
        factorization->problem.SetOperator(&matrix);
        Amesos factory;
        factorization->solver.reset(factory.Create(package_name(), factorization->problem));
        AssertThrow(factorization->solver, ExcMessage("Amesos has no solver " + package_name()));
        if (direct_package == DirectPackage::mumps)
          {
            factorization->set_control(7, mumps_ordering_control());
            if (mumps_workspace_increase)
              factorization->set_workspace_increase(*mumps_workspace_increase);
          }
        const auto scope = timed(timer, "symbolic factorization");
        AssertThrow(factorization->solver->SymbolicFactorization() == 0, ExcMessage("symbolic factorization failed"));
      }
    Statistics statistics;
    if (factorization->current)
      {
        const auto scope = timed(timer, "linear solve");
        if (solve_with_factorization(A, x, b, statistics))
          return statistics;
      }
    {
      // The factorisation is the preconditioner of the solves that reuse it.
      const auto scope = timed(timer, "preconditioner setup");
      AssertThrow(factorization->factorise(direct_package == DirectPackage::mumps, mumps_workspace_increase,
                                           A.get_mpi_communicator()),
                  ExcMessage(direct_package == DirectPackage::mumps ?
                               "numeric factorization failed (a singular tangent?), also with MUMPS's workspace "
                               "increase doubled four times from 'Linear solver/MUMPS workspace increase'" :
                               "numeric factorization failed (a singular tangent?)"));
      factorization->current = true;
    }
    const auto scope = timed(timer, "linear solve");
    factorization->vmult(x, b);
    statistics.iterations = 1;
    statistics.factorised = true;
    return statistics;
  }

  bool LinearSolver::solve_with_factorization(const TrilinosWrappers::SparseMatrix &A, TrilinosWrappers::MPI::Vector &x,
                                              const TrilinosWrappers::MPI::Vector &b, Statistics &statistics) const
  {
    if (reuse_iterations == 0)
      return false;
    struct Preconditioner
    {
      Factorization &factors;
      void           vmult(TrilinosWrappers::MPI::Vector &dst, const TrilinosWrappers::MPI::Vector &src) const
      {
        factors.vmult(dst, src);
      }
    };
    // A solve that will not converge within the limit is given up as soon as its rate shows it:
    // from the second iteration on, the mean reduction per iteration so far, extrapolated to the
    // limit, must reach the tolerance. A failed attempt then costs a few triangular solves instead
    // of reuse_iterations of them (where the tangent changes fast, most attempts fail).
    struct ExtrapolatingControl : SolverControl
    {
      using SolverControl::SolverControl;
      State check(const unsigned int step, const double value) override
      {
        if (step == 0)
          initial = value;
        const State state = SolverControl::check(step, value);
        if (state == iterate && step >= 2 && initial > 0 &&
            initial * std::pow(value / initial, double(max_steps()) / step) > tolerance())
          {
            lcheck = failure;
            return failure;
          }
        return state;
      }
      double initial = 0;
    };
    ExtrapolatingControl control(reuse_iterations, relative_tolerance * b.l2_norm(), false, false);
    SolverGMRES<TrilinosWrappers::MPI::Vector> gmres(
      control, SolverGMRES<TrilinosWrappers::MPI::Vector>::AdditionalData(reuse_iterations + 2, /*right=*/true));
    x = 0;
    try
      {
        gmres.solve(A, x, b, Preconditioner{*factorization});
      }
    catch (const SolverControl::NoConvergence &)
      {
        return false;
      }
    statistics.iterations = control.last_step();
    return true;
  }

  LinearSolver::Statistics LinearSolver::solve(const TrilinosWrappers::SparseMatrix &A,
                                               TrilinosWrappers::MPI::Vector &x, const TrilinosWrappers::MPI::Vector &b,
                                               const DoFHandler<3> &dof_handler, TimerOutput *timer,
                                               const PressureBlocks *blocks) const
  {
    Statistics statistics;
    if (b.l2_norm() == 0.0)
      {
        x = 0;
        return statistics;
      }
    if (solver_type == SolverType::direct)
      {
        const std::string &package = package_name();
        try
          {
            statistics = solve_direct(A, x, b, timer);
          }
        catch (const std::exception &error)
          {
            factorization.reset();
            throw LinearSolverFailure(
              "direct solver '" + package +
              "' (parameter 'Linear solver/Direct solver package') failed: " + message_of(error));
          }
        return statistics;
      }

    // A kept preconditioner that needs more than twice the iterations of the solve it was built
    // for no longer fits the tangent: it is built for this one and the solve repeated.
    const bool reuse =
      reuse_preconditioner && iterative && iterative->current && iterative->matrix == &A.trilinos_matrix();
    if (reuse)
      try
        {
          const unsigned int limit = std::min(max_iterations, 2 * iterative->fresh_iterations + 10);
          statistics               = solve_iterative(A, x, b, blocks, limit, timer);
          if (first_solve)
            iterative->latest_first_iterations = statistics.iterations;
          first_solve = false;
          return statistics;
        }
      catch (const LinearSolverFailure &)
        {
          x = 0;
        }
    {
      const auto scope  = timed(timer, "preconditioner setup");
      iterative         = std::make_shared<IterativePreconditioner>();
      iterative->matrix = &A.trilinos_matrix();
      setup_amg(iterative->amg, A, dof_handler);
      if (blocks && blocks->checkerboard_basis() && use_checkerboard_correction)
        iterative->checkerboard.emplace(A, *blocks, checkerboard_cycles);
    }
    statistics                         = solve_iterative(A, x, b, blocks, max_iterations, timer);
    statistics.factorised              = true;
    iterative->current                 = true;
    iterative->fresh_iterations        = statistics.iterations;
    iterative->built_for_first_solve   = first_solve;
    iterative->latest_first_iterations = statistics.iterations;
    first_solve                        = false;
    return statistics;
  }

  LinearSolver::Statistics LinearSolver::solve_iterative(const TrilinosWrappers::SparseMatrix &A,
                                                         TrilinosWrappers::MPI::Vector        &x,
                                                         const TrilinosWrappers::MPI::Vector  &b,
                                                         const PressureBlocks *blocks, const unsigned int limit,
                                                         TimerOutput *timer) const
  {
    const TrilinosWrappers::PreconditionAMG &amg = iterative->amg;
    if (blocks)
      return solve_blocks(A, x, b, *blocks, amg, iterative->checkerboard ? &*iterative->checkerboard : nullptr, limit,
                          timer);

    const auto    scope = timed(timer, "linear solve");
    SolverControl control(limit, relative_tolerance * b.l2_norm());
    try
      {
        if (solver_type == SolverType::cg)
          TrilinosWrappers::SolverCG(control).solve(A, x, b, amg);
        else
          TrilinosWrappers::SolverGMRES(control, TrilinosWrappers::SolverGMRES::AdditionalData(false, 200))
            .solve(A, x, b, amg);
      }
    catch (const std::exception &error)
      {
        throw LinearSolverFailure(type() + " failed: " +
                                  (dynamic_cast<const SolverControl::NoConvergence *>(&error) ?
                                     "no convergence to the relative tolerance " +
                                       Utilities::to_string(relative_tolerance) + " in " + std::to_string(limit) +
                                       " iterations" :
                                     message_of(error)) +
                                  " (parameters 'Linear solver/Solver type', 'Max iterations', 'Relative tolerance')");
      }
    Statistics statistics;
    statistics.iterations = control.last_step();
    return statistics;
  }

  void LinearSolver::setup_amg(TrilinosWrappers::PreconditionAMG &amg, const TrilinosWrappers::SparseMatrix &A,
                               const DoFHandler<3> &dof_handler) const
  {
    TrilinosWrappers::PreconditionAMG::AdditionalData data;
    data.elliptic              = true;
    data.higher_order_elements = dof_handler.get_fe().degree > 1;
    data.smoother_type         = smoother_name().c_str();
    // The block preconditioner's cycle only has to serve GMRES: one sweep, after the coarse
    // correction only, and a less damped prolongator (benchmarks/README.md, ML settings).
    const bool block           = preconditioner == Preconditioner::block;
    data.smoother_sweeps       = smoother_sweeps ? static_cast<unsigned int>(*smoother_sweeps) : block ? 1 : 2;
    data.w_cycle               = w_cycle;
    data.aggregation_threshold = aggregation_threshold;
    Teuchos::ParameterList              list;
    std::unique_ptr<Epetra_MultiVector> unused_constant_modes;
    data.set_parameters(list, unused_constant_modes, A);
    if (smoothing == Smoothing::post || (smoothing == Smoothing::automatic && block))
      list.set("smoother: pre or post", "post");
    if (prolongator_damping || block)
      list.set("aggregation: damping factor", prolongator_damping ? *prolongator_damping : 1.0);
    const Epetra_Map &row_map = A.trilinos_matrix().RowMap();
    if (!modes || modes_dof_handler != &dof_handler || modes_n_dofs != dof_handler.n_dofs() ||
        !modes->Map().SameAs(row_map))
      {
        modes             = std::make_shared<const Epetra_MultiVector>(rigid_body_modes(dof_handler, row_map));
        modes_dof_handler = &dof_handler;
        modes_n_dofs      = dof_handler.n_dofs();
      }
    list.set("null space: type", "pre-computed");
    list.set("null space: dimension", modes->NumVectors());
    list.set("null space: vectors", modes->Values());
    amg.initialize(A, list);
  }

  LinearSolver::Statistics LinearSolver::solve_blocks(
    const TrilinosWrappers::SparseMatrix &A, TrilinosWrappers::MPI::Vector &x, const TrilinosWrappers::MPI::Vector &b,
    const PressureBlocks &blocks, const TrilinosWrappers::PreconditionAMG &amg,
    const CheckerboardCorrection *checkerboard, const unsigned int limit, TimerOutput *timer) const
  {
    const auto     scope = timed(timer, "linear solve");
    const MPI_Comm comm  = A.get_mpi_communicator();
    BlockVector    rhs({b.locally_owned_elements(), blocks.owned_pressure_dofs()}, comm);
    BlockVector    solution(rhs);
    rhs.block(0) = b;
    rhs.block(1) = blocks.pressure_rhs();
    solution     = 0;
    SolverControl control(limit, relative_tolerance * rhs.l2_norm());
    try
      {
        SolverGMRES<BlockVector> gmres(control, SolverGMRES<BlockVector>::AdditionalData(200, /*right=*/true));
        gmres.solve(SaddlePointOperator{A, blocks}, solution, rhs,
                    BlockTriangularPreconditioner{amg, blocks, checkerboard, {}});
      }
    catch (const std::exception &error)
      {
        throw LinearSolverFailure(
          "block-preconditioned GMRES failed: " +
          (dynamic_cast<const SolverControl::NoConvergence *>(&error) ?
             "no convergence to the relative tolerance " + Utilities::to_string(relative_tolerance) + " in " +
               std::to_string(limit) + " iterations" :
             message_of(error)) +
          " (parameters 'Linear solver/Preconditioner', 'Max iterations', 'Relative tolerance')");
      }
    x = solution.block(0);
    Statistics statistics;
    statistics.iterations = control.last_step();
    return statistics;
  }
} // namespace hydrostat
