#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/timer.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/lac/trilinos_precondition.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

class Epetra_MultiVector;

namespace hydrostat
{
  class PressureBlocks;
  class CheckerboardCorrection;

  /// A linear solve that failed (no convergence, breakdown, singular matrix): Newton treats it
  /// as a failed iteration and cuts the time step back.
  struct LinearSolverFailure : std::runtime_error
  {
    using std::runtime_error::runtime_error;
  };

  /**
   * The linear solve of each Newton step: CG or GMRES with Trilinos ML algebraic multigrid
   * whose near-null space holds the six rigid-body modes of the displacement field, or a
   * direct solver (Amesos MUMPS, or KLU) up to ~10⁵ DoFs. Subsection "Linear solver".
   */
  class LinearSolver
  {
  public:
    /// The selections of subsection "Linear solver", parsed once (their names are the parameter
    /// values, see names()).
    enum class SolverType
    {
      automatic,
      cg,
      gmres,
      direct
    };
    enum class Preconditioner
    {
      automatic,
      amg,
      block
    };
    enum class Smoother
    {
      chebyshev,
      symmetric_gauss_seidel
    };
    /// Where the AMG cycle smooths: auto (post in the block preconditioner, else both), both, post.
    enum class Smoothing
    {
      automatic,
      both,
      post
    };
    enum class DirectPackage
    {
      mumps,
      klu
    };
    /// MUMPS's fill-reducing ordering (ICNTL(7)); METIS and SCOTCH are not available through
    /// Amesos here.
    enum class MumpsOrdering
    {
      pord,
      amf,
      amd,
      qamd,
      automatic
    };

    struct Statistics
    {
      unsigned int iterations = 0;
      // The matrix was factorised (direct) or its CG/GMRES preconditioner built: not a reused one.
      bool factorised = false;
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    /// Solves A x = b to a residual of Relative tolerance · |b|. The preconditioner (or the
    /// factorisation) of the first matrix after renew_factorization() serves the later ones where
    /// that converges (Preconditioner reuse, Factorization reuse iterations). With @p blocks
    /// (three-field element, Preconditioner = block), A is K_uu only and the condensed system
    /// A + Bᵀ C⁻¹ B is solved through its saddle-point form (see PressureBlocks).
    Statistics solve(const dealii::TrilinosWrappers::SparseMatrix &A, dealii::TrilinosWrappers::MPI::Vector &x,
                     const dealii::TrilinosWrappers::MPI::Vector &b, const dealii::DoFHandler<3> &dof_handler,
                     dealii::TimerOutput *timer = nullptr, const PressureBlocks *blocks = nullptr) const;

    /// Solver type @p type (CG or GMRES) with its Relative tolerance, chosen in code.
    void set_iterative(const SolverType type, const double tolerance)
    {
      solver_type        = type;
      relative_tolerance = tolerance;
    }

    /// Resolves Solver type = auto (direct up to Direct solver limit DoFs, where sparse LU is
    /// faster than any preconditioned iteration, GMRES above or when a preconditioner was chosen)
    /// and Preconditioner = auto: block for the three-field element with GMRES (AMG on the
    /// condensed tangent degrades with K/μ and fails at 10⁵ DoFs for K/μ = 1000), else AMG.
    void choose(dealii::types::global_dof_index n_dofs, bool three_field);

    /// Drops the direct solver's factorization and the kept CG/GMRES preconditioner, which refer
    /// to the last matrix: call it before that matrix is destroyed.
    void release_factorization() const
    {
      factorization.reset();
      iterative.reset();
    }

    /// Direct solver: the next solve factorises its matrix, and until the next call later
    /// matrices are solved by GMRES preconditioned with that factorisation (at most
    /// 'Factorization reuse iterations'), refactorised only where that does not converge. Called
    /// at the start of every Newton solve: the tangents of one solve differ little, and a run
    /// resumed from a checkpoint repeats the uninterrupted run bit for bit. CG/GMRES likewise
    /// build their preconditioner for the next matrix and keep it (Preconditioner reuse); with
    /// Preconditioner reuse = across steps a preconditioner that still fits is kept.
    void renew_factorization() const;

    /// The solver type as given, or as chosen once choose() has run.
    SolverType solver() const { return solver_type; }

    /// The parameter value of solver(): "auto", "CG", "GMRES" or "direct".
    const std::string &type() const;

    /// One line for the log: the solver and its preconditioner or package.
    std::string description() const;

    /// Whether Newton solves go through PressureBlocks (three-field element only); also true for
    /// an explicit Preconditioner = block before choose() has resolved Solver type = auto.
    bool block_preconditioner() const
    {
      return solver_type != SolverType::direct && preconditioner == Preconditioner::block;
    }

    /// Whether the block preconditioner adds CheckerboardCorrection (Q1 element, refined meshes).
    bool checkerboard_correction() const { return use_checkerboard_correction; }

  private:
    /// The Amesos name of the Direct solver package, the ML name of the AMG smoother type.
    const std::string &package_name() const;
    /// MUMPS's ICNTL(7) of the MUMPS ordering.
    int                mumps_ordering_control() const;
    const std::string &smoother_name() const;

    /// x = A⁻¹ b by the Direct solver package, reusing the analysis of A's pattern, and the
    /// factorisation of an earlier matrix where renew_factorization() allows.
    Statistics solve_direct(const dealii::TrilinosWrappers::SparseMatrix &A, dealii::TrilinosWrappers::MPI::Vector &x,
                            const dealii::TrilinosWrappers::MPI::Vector &b, dealii::TimerOutput *timer) const;
    /// GMRES on A x = b preconditioned with the current factorisation; false if it does not
    /// converge in 'Factorization reuse iterations'.
    bool solve_with_factorization(const dealii::TrilinosWrappers::SparseMatrix &A,
                                  dealii::TrilinosWrappers::MPI::Vector        &x,
                                  const dealii::TrilinosWrappers::MPI::Vector &b, Statistics &statistics) const;
    void setup_amg(dealii::TrilinosWrappers::PreconditionAMG &amg, const dealii::TrilinosWrappers::SparseMatrix &A,
                   const dealii::DoFHandler<3> &dof_handler) const;
    /// CG/GMRES (or the block system) on A x = b with the kept preconditioner, at most @p limit
    /// iterations; throws LinearSolverFailure.
    Statistics solve_iterative(const dealii::TrilinosWrappers::SparseMatrix &A,
                               dealii::TrilinosWrappers::MPI::Vector &x, const dealii::TrilinosWrappers::MPI::Vector &b,
                               const PressureBlocks *blocks, const unsigned int limit,
                               dealii::TimerOutput *timer) const;
    Statistics solve_blocks(const dealii::TrilinosWrappers::SparseMatrix &A, dealii::TrilinosWrappers::MPI::Vector &x,
                            const dealii::TrilinosWrappers::MPI::Vector &b, const PressureBlocks &blocks,
                            const dealii::TrilinosWrappers::PreconditionAMG &amg,
                            const CheckerboardCorrection *checkerboard, const unsigned int limit,
                            dealii::TimerOutput *timer) const;

    SolverType                      solver_type      = SolverType::automatic;
    dealii::types::global_dof_index direct_limit     = 200000;
    Preconditioner                  preconditioner   = Preconditioner::automatic;
    DirectPackage                   direct_package   = DirectPackage::mumps;
    MumpsOrdering                   mumps_ordering   = MumpsOrdering::pord;
    unsigned int                    reuse_iterations = 10;
    std::optional<int>              mumps_workspace_increase; // [%], MUMPS's ICNTL(14); nullopt: auto
    bool                            reuse_preconditioner = true;
    bool                            reuse_across_steps   = false;
    double                          relative_tolerance   = 1e-8;
    unsigned int                    max_iterations       = 1000;
    Smoother                        smoother_type        = Smoother::chebyshev;
    std::optional<double>           smoother_sweeps; // nullopt: auto
    Smoothing                       smoothing = Smoothing::automatic;
    std::optional<double>           prolongator_damping; // nullopt: auto
    double                          aggregation_threshold       = 1e-4;
    bool                            w_cycle                     = false;
    bool                            use_checkerboard_correction = true;
    unsigned int                    checkerboard_cycles         = 3;

    /// The rigid-body modes of the last DoFHandler (the reference mesh and its DoFs do not
    /// change during a run, so the support points are found once, not for every solve).
    mutable std::shared_ptr<const Epetra_MultiVector> modes;

    /// The direct solver of the last matrix: every tangent of a run has the same sparsity pattern,
    /// so the ordering and symbolic analysis are done once and each Newton iteration only
    /// refactorises the values (Amesos NumericFactorization).
    struct Factorization;
    mutable std::shared_ptr<Factorization> factorization;
    /// The CG/GMRES preconditioner of the first tangent of a Newton solve (Preconditioner reuse).
    struct IterativePreconditioner;
    mutable std::shared_ptr<IterativePreconditioner> iterative;
    mutable bool                            first_solve       = true; // the next solve is the first of a Newton solve
    mutable const dealii::DoFHandler<3>    *modes_dof_handler = nullptr;
    mutable dealii::types::global_dof_index modes_n_dofs      = 0;
  };
} // namespace hydrostat
