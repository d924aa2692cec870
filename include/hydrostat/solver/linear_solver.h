#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/timer.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace hydrostat
{
  /// A linear solve that failed (no convergence, breakdown, singular matrix): Newton treats it
  /// as a failed iteration and cuts the time step back.
  struct LinearSolverFailure : std::runtime_error
  {
    using std::runtime_error::runtime_error;
  };

  /**
   * The linear solve of each Newton step: CG or GMRES with Trilinos ML algebraic multigrid
   * whose near-null space holds the six rigid-body modes of the displacement field, or a
   * direct solver (Amesos KLU, or MUMPS) for small cases. Subsection "Linear solver".
   */
  class LinearSolver
  {
  public:
    struct Statistics
    {
      unsigned int iterations = 0;
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    void        parse_parameters(dealii::ParameterHandler &prm);

    /// Solves A x = b to a residual of Relative tolerance · |b|. The preconditioner is set up
    /// anew for each matrix (each Newton iteration).
    Statistics solve(const dealii::TrilinosWrappers::SparseMatrix &A, dealii::TrilinosWrappers::MPI::Vector &x,
                     const dealii::TrilinosWrappers::MPI::Vector &b, const dealii::DoFHandler<3> &dof_handler,
                     dealii::TimerOutput *timer = nullptr) const;

    const std::string &type() const { return solver_type; }

  private:
    std::string  solver_type        = "GMRES";
    std::string  direct_package     = "Amesos_Klu";
    double       relative_tolerance = 1e-8;
    unsigned int max_iterations     = 1000;
    unsigned int smoother_sweeps    = 2;
    double       aggregation_threshold = 1e-4;
  };
} // namespace hydrostat
