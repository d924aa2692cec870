// The parameters of LinearSolver (subsection "Linear solver") and the choices they leave open.
#include <deal.II/base/exceptions.h>

#include <hydrostat/base/errors.h>
#include <hydrostat/linalg/linear_solver.h>

#include <algorithm>
#include <string>
#include <vector>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    // The values of the Selection patterns, in the order of the enums (index = enum value).
    const std::vector<std::string> solver_names         = {"auto", "CG", "GMRES", "direct"};
    const std::vector<std::string> preconditioner_names = {"auto", "AMG", "block"};
    const std::vector<std::string> smoother_names       = {"Chebyshev", "symmetric Gauss-Seidel"};
    const std::vector<std::string> smoothing_names      = {"auto", "pre and post", "post"};
    const std::vector<std::string> package_names        = {"Amesos_Mumps", "Amesos_Klu"};
    const std::vector<std::string> ordering_names       = {"PORD", "AMF", "AMD", "QAMD", "auto"};

    /// The selection @p value (already checked by its Patterns::Selection) as an enum value.
    template <typename Enum>
    Enum from_name(const std::string &value, const std::vector<std::string> &names)
    {
      const auto it = std::find(names.begin(), names.end(), value);
      Assert(it != names.end(), ExcInternalError());
      return static_cast<Enum>(it - names.begin());
    }

    template <typename Enum>
    const std::string &name_of(const Enum value, const std::vector<std::string> &names)
    {
      return names[static_cast<std::size_t>(value)];
    }

  } // namespace

  void LinearSolver::declare_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Linear solver");
    prm.declare_entry("Solver type", "auto", Patterns::Selection("auto|CG|GMRES|direct"),
                      "auto: direct up to 'Direct solver limit' DoFs, GMRES above (GMRES also when a "
                      "Preconditioner is chosen explicitly); CG (symmetric tangents only) or GMRES (any) with the "
                      "Preconditioner; or direct (sparse LU).");
    prm.declare_entry("Direct solver limit", "200000", Patterns::Integer(0),
                      "Solver type = auto: the largest number of displacement DoFs solved directly. MUMPS with "
                      "factorisation reuse (2 cores, 2 ranks, FEBio bar at 1.4e5 DoFs): the whole run in 98 s, "
                      "peak 1.65 GB per rank, against 304 s for the first 4 of its 10 steps with GMRES and the "
                      "block preconditioner (benchmarks/README.md).");
    prm.declare_entry("Direct solver package", "Amesos_Mumps", Patterns::Selection("Amesos_Mumps|Amesos_Klu"),
                      "Trilinos Amesos package of the direct solver: MUMPS (multifrontal, BLAS-3: fast with "
                      "OpenBLAS) or KLU (no supernodes: 3x slower on the octopus arm's 3591 DoFs).");
    prm.declare_entry("MUMPS ordering", "PORD", Patterns::Selection("PORD|AMF|AMD|QAMD|auto"),
                      "Direct solver package Amesos_Mumps: the fill-reducing ordering of the analysis (MUMPS's "
                      "ICNTL(7)); auto: MUMPS's choice, which is AMF for the octopus arms' few thousand DoFs "
                      "and PORD on the finer anatomical mesh (2.5e4 DoFs). PORD needs the fewest "
                      "operations per factorisation on the arms: 4.3e8 against 5.5e8 (AMF) and 7.6e8 (AMD) on "
                      "the main case's 3591 DoFs, 0.6-0.8e9 against 1.0-1.4e9 (AMF) where its self-contact "
                      "couples the curl, 1.9e9 against 3.1e9 (AMF) on the anatomical arm (benchmarks/README.md).");
    prm.declare_entry("MUMPS workspace increase", "auto", Patterns::Anything(),
                      "Direct solver package Amesos_Mumps: extra workspace over the analysis' estimate [%] "
                      "(MUMPS's ICNTL(14)); auto: MUMPS's default. A factorisation that runs out of it "
                      "(pivoting) is analysed and factorised again with the increase doubled (at least 40 %), at "
                      "most four times.");
    prm.declare_entry("Factorization reuse iterations", "10", Patterns::Integer(0, 100),
                      "Direct solver: within one Newton solve (one attempt of one time step), a tangent is "
                      "first solved by GMRES preconditioned with the factorisation of the solve's first tangent, "
                      "to the Relative tolerance in at most this many iterations (ended as soon as its mean rate "
                      "shows that it will not), and factorised anew only if that does not converge. 0: "
                      "factorise every tangent.");
    prm.declare_entry("Preconditioner reuse", "true", Patterns::Selection("true|false|across steps"),
                      "CG/GMRES: within one Newton solve, the preconditioner (AMG, and the checkerboard "
                      "correction of the block preconditioner) is built for the solve's first tangent and kept "
                      "for the later ones; built anew where a solve with it needs more than twice the first "
                      "solve's iterations. false: built for every tangent. across steps: also kept into the next "
                      "Newton solve (the next step or attempt) while the first solve of a Newton solve needs at most "
                      "25 % more iterations than the first one it was built for; a run resumed from a checkpoint "
                      "then repeats the uninterrupted run to the solver tolerance, not bit for bit.");
    prm.declare_entry("Relative tolerance", "1e-8", Patterns::Double(0.0),
                      "Iterative solvers stop at |r| <= tolerance |b|.");
    prm.declare_entry("Max iterations", "1000", Patterns::Integer(1), "Iteration limit of CG/GMRES.");
    prm.declare_entry("Preconditioner", "auto", Patterns::Selection("auto|AMG|block"),
                      "For CG/GMRES. auto: block for the three-field element with GMRES, else AMG. "
                      "AMG: ML on the (condensed) tangent. block (three-field only, GMRES): "
                      "GMRES on the uncondensed (displacement, pressure) system with AMG on K_uu and the "
                      "cell-wise pressure Schur complement C + M/mu (Q1: with the checkerboard correction); "
                      "unlike AMG on the condensed tangent, its iteration count hardly grows with K/mu and "
                      "the mesh (benchmarks/README.md).");
    prm.declare_entry("Checkerboard correction", "true", Patterns::Bool(),
                      "block preconditioner, Q1 element: add the coarse correction of the pressure Schur "
                      "complement on the checkerboard pressure modes of Q1-P0 (families of 8 sibling cells: "
                      "needs a mesh refined at least once, e.g. Mesh/Global refinements >= 1).");
    prm.declare_entry("Checkerboard coarse cycles", "3", Patterns::Integer(1, 20),
                      "AMG cycles (Richardson steps) that apply the inverse of the checkerboard coarse operator.");
    prm.declare_entry("AMG smoother type", "Chebyshev", Patterns::Selection("Chebyshev|symmetric Gauss-Seidel"),
                      "ML smoother on each AMG level (symmetric Gauss-Seidel: processor-local).");
    prm.declare_entry("AMG smoother sweeps", "auto", Patterns::Anything(),
                      "Smoother sweeps (Chebyshev: polynomial degree) per AMG level; auto: 1 in the block "
                      "preconditioner (its AMG cycle on K_uu: 26 % less time per Newton iteration than 2 at 2.9e5 "
                      "DoFs, benchmarks/README.md), 2 for AMG on the condensed tangent (which needs more).");
    prm.declare_entry("AMG smoothing", "auto", Patterns::Selection("auto|pre and post|post"),
                      "Where the AMG cycle smooths on each level; auto: post in the block preconditioner (its "
                      "outer GMRES needs no symmetric preconditioner, and a cycle costs one fine-level product "
                      "less), pre and post for AMG on the condensed tangent (CG needs a symmetric one).");
    prm.declare_entry("AMG prolongator damping", "auto", Patterns::Anything(),
                      "Damping factor of ML's smoothed-aggregation prolongator (0: unsmoothed aggregation); auto: 1 "
                      "in the block preconditioner (with post-smoothing only: 7 % less GMRES time per Newton iteration "
                      "than ML's 4/3 with both at 1e6 DoFs, benchmarks/README.md), ML's 4/3 for AMG on the "
                      "condensed tangent.");
    prm.declare_entry("AMG W-cycle", "false", Patterns::Bool(), "W-cycle instead of V-cycle.");
    prm.declare_entry("AMG aggregation threshold", "1e-4", Patterns::Double(0.0, 1.0), "ML aggregation threshold.");
    prm.leave_subsection();
  }

  void LinearSolver::parse_parameters(ParameterHandler &prm)
  {
    prm.enter_subsection("Linear solver");
    solver_type        = from_name<SolverType>(prm.get("Solver type"), solver_names);
    direct_limit       = prm.get_integer("Direct solver limit");
    direct_package     = from_name<DirectPackage>(prm.get("Direct solver package"), package_names);
    mumps_ordering     = from_name<MumpsOrdering>(prm.get("MUMPS ordering"), ordering_names);
    relative_tolerance = prm.get_double("Relative tolerance");
    reuse_iterations   = prm.get_integer("Factorization reuse iterations");
    const auto increase =
      auto_or_number(prm.get("MUMPS workspace increase"), "Linear solver/MUMPS workspace increase", 0, true);
    mumps_workspace_increase    = increase ? std::optional<int>(int(*increase)) : std::nullopt;
    reuse_preconditioner        = prm.get("Preconditioner reuse") != "false";
    reuse_across_steps          = prm.get("Preconditioner reuse") == "across steps";
    max_iterations              = prm.get_integer("Max iterations");
    preconditioner              = from_name<Preconditioner>(prm.get("Preconditioner"), preconditioner_names);
    use_checkerboard_correction = prm.get_bool("Checkerboard correction");
    checkerboard_cycles         = prm.get_integer("Checkerboard coarse cycles");
    smoother_type               = from_name<Smoother>(prm.get("AMG smoother type"), smoother_names);
    smoother_sweeps = auto_or_number(prm.get("AMG smoother sweeps"), "Linear solver/AMG smoother sweeps", 1, true);
    smoothing       = from_name<Smoothing>(prm.get("AMG smoothing"), smoothing_names);
    prolongator_damping =
      auto_or_number(prm.get("AMG prolongator damping"), "Linear solver/AMG prolongator damping", 0);
    w_cycle               = prm.get_bool("AMG W-cycle");
    aggregation_threshold = prm.get_double("AMG aggregation threshold");
    prm.leave_subsection();
    require(relative_tolerance > 0.0 && relative_tolerance < 1.0,
            "Parameter 'Linear solver/Relative tolerance' must lie in (0, 1), got " +
              std::to_string(relative_tolerance) + ".");
  }

  void LinearSolver::choose(const types::global_dof_index n_dofs, const bool three_field)
  {
    if (solver_type == SolverType::automatic)
      solver_type =
        preconditioner == Preconditioner::automatic && n_dofs <= direct_limit ? SolverType::direct : SolverType::gmres;
    if (preconditioner == Preconditioner::automatic)
      preconditioner = three_field && solver_type == SolverType::gmres ? Preconditioner::block : Preconditioner::amg;
  }

  const std::string &LinearSolver::type() const { return name_of(solver_type, solver_names); }

  std::string LinearSolver::description() const
  {
    return solver_type == SolverType::direct ? "direct (" + name_of(direct_package, package_names) + ")" :
                                               type() + " with " + name_of(preconditioner, preconditioner_names);
  }

  const std::string &LinearSolver::package_name() const { return name_of(direct_package, package_names); }

  int LinearSolver::mumps_ordering_control() const
  {
    static constexpr int icntl_7[] = {4, 2, 0, 6, 7}; // in the order of MumpsOrdering
    return icntl_7[static_cast<std::size_t>(mumps_ordering)];
  }

  const std::string &LinearSolver::smoother_name() const { return name_of(smoother_type, smoother_names); }
} // namespace hydrostat
