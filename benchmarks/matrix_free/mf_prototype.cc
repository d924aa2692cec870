// Matrix-free prototype for issue 12: the finite-strain tangent of a displacement-only Q(degree)^3
// discretisation of the clamped bar (benchmarks/clamped_bar.prm), applied matrix-free with cached
// quadrature-point data (Davydov et al. 2020) and preconditioned by geometric multigrid, compared
// with the same tangent assembled into a Trilinos matrix and preconditioned by ML AMG.
//
// Material (Hydrostat's split form with c2 = 0):
//   W = c1 (I1bar - 3) + K/4 (J^2 - 1 - 2 ln J),  mu = 2 c1.
// The tangent is applied in the spatial form with h = Grad(du) F^-1:
//   dP = [c : sym(h) + h tau] F^-T,
//   c_iso = 2/3 mu tr(bbar) P_dev - 2/3 (tau_iso (x) I + I (x) tau_iso),
//   c_vol = J (p + J p') I (x) I - 2 J p I4,  p = K/2 (J - 1/J).
// Cached per quadrature point: F^-1 (9), tau_iso (6), J p, 2/3 mu tr(bbar), J (p + J p')
// (18 doubles); nothing else is recomputed from the displacement in vmult.

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/base/symmetric_tensor.h>
#include <deal.II/base/tensor.h>
#include <deal.II/base/timer.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/la_parallel_vector.h>
#include <deal.II/lac/precondition.h>
#include <deal.II/lac/solver_cg.h>
#include <deal.II/lac/solver_control.h>
#include <deal.II/lac/trilinos_precondition.h>
#include <deal.II/lac/trilinos_solver.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_sparsity_pattern.h>
#include <deal.II/matrix_free/fe_evaluation.h>
#include <deal.II/matrix_free/matrix_free.h>
#include <deal.II/matrix_free/operators.h>
#include <deal.II/matrix_free/tools.h>
#include <deal.II/multigrid/mg_coarse.h>
#include <deal.II/multigrid/mg_constrained_dofs.h>
#include <deal.II/multigrid/mg_matrix.h>
#include <deal.II/multigrid/mg_smoother.h>
#include <deal.II/multigrid/mg_tools.h>
#include <deal.II/multigrid/mg_transfer_matrix_free.h>
#include <deal.II/multigrid/multigrid.h>
#include <deal.II/numerics/vector_tools.h>

#include <Epetra_MultiVector.h>
#include <Teuchos_ParameterList.hpp>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <string>

namespace mf_prototype
{
  using namespace dealii;

  constexpr int dim    = 3;
  using VectorType     = LinearAlgebra::distributed::Vector<double>;
  using VectorizedType = VectorizedArray<double>;

  struct Options
  {
    unsigned int degree      = 2;
    unsigned int coarse      = 1; // coarse mesh 5k x k x k cells
    unsigned int refine      = 2; // global refinements (GMG levels - 1)
    double       bulk        = 2e8;
    double       c1          = 1e5;
    double       density     = 1050.;
    double       gravity     = 9.81;
    unsigned int load_steps  = 3;
    unsigned int run_steps   = 3; // load steps actually run (the benchmark linearises about the last)
    unsigned int cheb_degree = 5;
    bool         amg         = true;
    bool         mf_solves   = true;
    bool         amg_loose   = true; // also the 1e-4 AMG solve
    double       coarse_tol  = 1e-3; // 0: one AMG V-cycle as coarse solver
    unsigned int vmults      = 10;
    unsigned int newton_max  = 8;
    double       newton_tol  = 1e-7;
    double       linear_tol  = 1e-8;
  };

  double wall() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

  /// Peak (VmHWM) or current (VmRSS) resident set size of this process in bytes.
  double proc_status_bytes(const std::string &key)
  {
    std::ifstream in("/proc/self/status");
    std::string   line;
    while (std::getline(in, line))
      if (line.rfind(key + ":", 0) == 0)
        {
          std::istringstream s(line.substr(key.size() + 1));
          double             kb = 0;
          s >> kb;
          return kb * 1024.;
        }
    return 0;
  }

  struct Material
  {
    double mu, K;
  };

  /// The quadrature-point data the tangent needs (Davydov et al.'s "cached" variant in the spatial
  /// configuration): 18 numbers.
  template <typename Number>
  struct QPointData
  {
    Tensor<2, dim, Number>          F_inv;
    SymmetricTensor<2, dim, Number> tau_iso;
    Number                          Jp, a_dev, a_vol;
  };

  /// deviator() of deal.II 9.4 does not compile for VectorizedArray.
  template <typename Number>
  SymmetricTensor<2, dim, Number> dev(SymmetricTensor<2, dim, Number> t)
  {
    const Number third_trace = trace(t) * (1. / 3.);
    for (unsigned int d = 0; d < dim; ++d)
      t[d][d] -= third_trace;
    return t;
  }

  template <typename Number>
  QPointData<Number> material_state(const Tensor<2, dim, Number> &grad_u, const Material &m)
  {
    Tensor<2, dim, Number> F = grad_u;
    for (unsigned int d = 0; d < dim; ++d)
      F[d][d] += 1.;
    const Number       J = determinant(F);
    QPointData<Number> q;
    q.F_inv                                    = invert(F);
    const SymmetricTensor<2, dim, Number> bbar = std::pow(J, -2. / 3.) * symmetrize(F * transpose(F));
    q.tau_iso                                  = m.mu * dev(bbar);
    const Number p                             = 0.5 * m.K * (J - 1. / J);
    q.Jp                                       = J * p;
    q.a_dev                                    = (2. / 3.) * m.mu * trace(bbar);
    q.a_vol                                    = q.Jp + 0.5 * m.K * (J * J + 1.);
    return q;
  }

  template <typename Number>
  Tensor<2, dim, Number> kirchhoff(const QPointData<Number> &q)
  {
    Tensor<2, dim, Number> tau = q.tau_iso;
    for (unsigned int d = 0; d < dim; ++d)
      tau[d][d] += q.Jp;
    return tau;
  }

  /// First Piola stress P = tau F^-T.
  template <typename Number>
  Tensor<2, dim, Number> piola(const QPointData<Number> &q)
  {
    return kirchhoff(q) * transpose(q.F_inv);
  }

  /// dP for the displacement gradient increment grad_du (see the header comment).
  template <typename Number>
  Tensor<2, dim, Number> tangent_action(const QPointData<Number> &q, const Tensor<2, dim, Number> &grad_du)
  {
    const Tensor<2, dim, Number>          h     = grad_du * q.F_inv;
    const SymmetricTensor<2, dim, Number> s     = symmetrize(h);
    const Number                          tr    = trace(s);
    Tensor<2, dim, Number>                sigma = q.a_dev * dev(s) - (2. / 3.) * tr * q.tau_iso - 2. * q.Jp * s;
    const Number                          iso_s = q.tau_iso * s;
    for (unsigned int d = 0; d < dim; ++d)
      sigma[d][d] += q.a_vol * tr - (2. / 3.) * iso_s;
    sigma += h * kirchhoff(q);
    return sigma * transpose(q.F_inv);
  }

  /// The tangent linearised about a displacement field, applied matrix-free from cached
  /// quadrature-point data. Used on the fine mesh and on every multigrid level.
  template <int degree>
  class TangentOperator : public MatrixFreeOperators::Base<dim, VectorType>
  {
  public:
    using Integrator = FEEvaluation<dim, degree, degree + 1, dim, double>;

    void set_material(const Material &m) { material = m; }

    /// Cache the quadrature-point data of the state @p u (ghosted, this operator's layout).
    void evaluate_state(const VectorType &u)
    {
      Integrator         phi(*this->data);
      const unsigned int n_q = phi.n_q_points;
      cache.resize(this->data->n_cell_batches() * n_q);
      for (unsigned int cell = 0; cell < this->data->n_cell_batches(); ++cell)
        {
          phi.reinit(cell);
          phi.read_dof_values_plain(u);
          phi.evaluate(EvaluationFlags::gradients);
          for (unsigned int q = 0; q < n_q; ++q)
            cache[cell * n_q + q] = material_state<VectorizedType>(phi.get_gradient(q), material);
        }
    }

    void compute_diagonal() override
    {
      this->inverse_diagonal_entries = std::make_shared<DiagonalMatrix<VectorType>>();
      VectorType &inverse            = this->inverse_diagonal_entries->get_vector();
      this->data->initialize_dof_vector(inverse);
      MatrixFreeTools::compute_diagonal(*this->data, inverse, &TangentOperator::local_cell, this);
      this->set_constrained_entries_to_one(inverse);
      for (unsigned int i = 0; i < inverse.locally_owned_size(); ++i)
        inverse.local_element(i) = 1. / inverse.local_element(i);
    }

    std::size_t cache_bytes() const { return cache.capacity() * sizeof(QPointData<VectorizedType>); }

  private:
    void apply_add(VectorType &dst, const VectorType &src) const override
    {
      this->data->cell_loop(&TangentOperator::local_apply, this, dst, src);
    }

    void local_apply(const MatrixFree<dim, double> &data, VectorType &dst, const VectorType &src,
                     const std::pair<unsigned int, unsigned int> &range) const
    {
      Integrator phi(data);
      for (unsigned int cell = range.first; cell < range.second; ++cell)
        {
          phi.reinit(cell);
          phi.read_dof_values(src);
          local_cell(phi);
          phi.distribute_local_to_global(dst);
        }
    }

    void local_cell(Integrator &phi) const
    {
      phi.evaluate(EvaluationFlags::gradients);
      const unsigned int offset = phi.get_current_cell_index() * phi.n_q_points;
      for (unsigned int q = 0; q < phi.n_q_points; ++q)
        phi.submit_gradient(tangent_action(cache[offset + q], phi.get_gradient(q)), q);
      phi.integrate(EvaluationFlags::gradients);
    }

    Material                                  material{};
    AlignedVector<QPointData<VectorizedType>> cache;
  };

  /// Coarse-level solve of the multigrid: a sparse direct solver (MUMPS through Amesos; tol < 0),
  /// one AMG V-cycle (tol = 0) or CG + ML AMG to the relative tolerance tol.
  class CoarseSolver : public MGCoarseGridBase<VectorType>
  {
  public:
    CoarseSolver(const TrilinosWrappers::SparseMatrix &A, const TrilinosWrappers::PreconditionAMG &amg,
                 const std::unique_ptr<TrilinosWrappers::SolverDirect> &direct, double tol)
      : A(A)
      , amg(amg)
      , direct(direct)
      , tol(tol)
    {}

    void operator()(const unsigned int, VectorType &dst, const VectorType &src) const override
    {
      ++calls;
      if (tol < 0)
        direct->solve(dst, src);
      else if (tol == 0)
        amg.vmult(dst, src);
      else
        {
          ReductionControl     control(2000, 1e-300, tol);
          SolverCG<VectorType> cg(control);
          dst = 0;
          cg.solve(A, dst, src, amg);
          iterations += control.last_step();
        }
    }

    mutable unsigned long iterations = 0, calls = 0;

  private:
    const TrilinosWrappers::SparseMatrix                  &A;
    const TrilinosWrappers::PreconditionAMG               &amg;
    const std::unique_ptr<TrilinosWrappers::SolverDirect> &direct;
    double                                                 tol;
  };

  /// The six rigid-body modes of the DoFs listed in @p points (global index -> support point and
  /// component) on the matrix's row map: ML's near-null space for elasticity.
  Epetra_MultiVector rigid_body_modes(
    const std::map<types::global_dof_index, std::pair<Point<dim>, unsigned int>> &points, const Epetra_Map &map)
  {
    Epetra_MultiVector modes(map, 6, true);
    for (const auto &[dof, point_and_component] : points)
      {
        const int lid = map.LID(static_cast<int>(dof));
        if (lid < 0)
          continue;
        const auto &[x, c]     = point_and_component;
        modes[c][lid]          = 1.0;
        const double rot[3][3] = {{0, -x[2], x[1]}, {x[2], 0, -x[0]}, {-x[1], x[0], 0}};
        for (unsigned int r = 0; r < 3; ++r)
          modes[3 + r][lid] = rot[r][c];
      }
    return modes;
  }

  void initialize_amg(TrilinosWrappers::PreconditionAMG &amg, const TrilinosWrappers::SparseMatrix &A,
                      const std::map<types::global_dof_index, std::pair<Point<dim>, unsigned int>> &points,
                      const bool higher_order, std::unique_ptr<Epetra_MultiVector> &modes)
  {
    TrilinosWrappers::PreconditionAMG::AdditionalData data;
    data.elliptic              = true;
    data.higher_order_elements = higher_order;
    Teuchos::ParameterList              list;
    std::unique_ptr<Epetra_MultiVector> unused;
    data.set_parameters(list, unused, A);
    modes = std::make_unique<Epetra_MultiVector>(rigid_body_modes(points, A.trilinos_matrix().RowMap()));
    list.set("null space: type", "pre-computed");
    list.set("null space: dimension", modes->NumVectors());
    list.set("null space: vectors", modes->Values());
    amg.initialize(A, list);
  }

  template <int degree>
  class Prototype
  {
  public:
    explicit Prototype(const Options &options);
    void run();

  private:
    using LevelOperator = TangentOperator<degree>;
    using Smoother      = PreconditionChebyshev<LevelOperator, VectorType>;

    void make_grid_and_dofs();
    void setup_multigrid();
    void residual(VectorType &r, const VectorType &u, double load) const;
    void update_tangent(const VectorType &u);
    template <typename CellRange>
    void assemble(const CellRange &cells, bool on_level, const VectorType &u, const AffineConstraints<double> &c,
                  TrilinosWrappers::SparseMatrix                                         &A,
                  std::map<types::global_dof_index, std::pair<Point<dim>, unsigned int>> &points) const;
    unsigned int solve_gmg(VectorType &x, const VectorType &b, double tol);
    void         newton();
    void         benchmark();
    void         report_memory(const std::string &label) const;

    Options            options;
    Material           material;
    MPI_Comm           comm;
    ConditionalOStream pcout;

    parallel::distributed::Triangulation<dim> tria;
    FESystem<dim>                             fe;
    DoFHandler<dim>                           dof_handler;
    MappingQ1<dim>                            mapping;
    AffineConstraints<double>                 constraints;
    IndexSet                                  owned, relevant;

    std::shared_ptr<MatrixFree<dim, double>> fine_data;
    LevelOperator                            fine_operator;
    VectorType                               u;

    MGConstrainedDoFs                                                                   mg_constrained;
    MGLevelObject<LevelOperator>                                                        level_operators;
    AffineConstraints<double>                                                           coarse_constraints;
    MGTransferMatrixFree<dim, double>                                                   transfer;
    mg::SmootherRelaxation<Smoother, VectorType>                                        smoother;
    TrilinosWrappers::SparseMatrix                                                      coarse_matrix;
    TrilinosWrappers::PreconditionAMG                                                   coarse_amg;
    SolverControl                                                                       direct_control;
    std::unique_ptr<TrilinosWrappers::SolverDirect>                                     coarse_direct;
    std::unique_ptr<Epetra_MultiVector>                                                 coarse_modes;
    std::unique_ptr<CoarseSolver>                                                       coarse_solver;
    mg::Matrix<VectorType>                                                              mg_matrix;
    std::unique_ptr<Multigrid<VectorType>>                                              multigrid;
    std::unique_ptr<PreconditionMG<dim, VectorType, MGTransferMatrixFree<dim, double>>> gmg;
    double                                                                              rss_start = 0;
  };

  template <int degree>
  Prototype<degree>::Prototype(const Options &options)
    : options(options)
    , material{2. * options.c1, options.bulk}
    , comm(MPI_COMM_WORLD)
    , pcout(std::cout, Utilities::MPI::this_mpi_process(comm) == 0)
    , tria(comm, Triangulation<dim>::limit_level_difference_at_vertices,
           parallel::distributed::Triangulation<dim>::construct_multigrid_hierarchy)
    , fe(FE_Q<dim>(degree), dim)
    , dof_handler(tria)
    , transfer(mg_constrained)
  {
    rss_start = Utilities::MPI::sum(proc_status_bytes("VmRSS"), comm);
  }

  template <int degree>
  void Prototype<degree>::make_grid_and_dofs()
  {
    const unsigned int k = options.coarse;
    GridGenerator::subdivided_hyper_rectangle(tria, {5 * k, k, k}, Point<dim>(), Point<dim>(0.1, 0.02, 0.02), true);
    tria.refine_global(options.refine);
    dof_handler.distribute_dofs(fe);
    dof_handler.distribute_mg_dofs();
    owned = dof_handler.locally_owned_dofs();
    DoFTools::extract_locally_relevant_dofs(dof_handler, relevant);
    constraints.reinit(relevant);
    VectorTools::interpolate_boundary_values(mapping, dof_handler, 0, Functions::ZeroFunction<dim>(dim), constraints);
    constraints.close();

    typename MatrixFree<dim, double>::AdditionalData data;
    data.tasks_parallel_scheme = MatrixFree<dim, double>::AdditionalData::none;
    data.mapping_update_flags  = update_values | update_gradients | update_JxW_values;
    fine_data                  = std::make_shared<MatrixFree<dim, double>>();
    fine_data->reinit(mapping, dof_handler, constraints, QGauss<1>(degree + 1), data);
    fine_operator.initialize(fine_data);
    fine_operator.set_material(material);
    fine_data->initialize_dof_vector(u);
    pcout << "mesh " << 5 * k * (1u << options.refine) << "x" << k * (1u << options.refine) << "x"
          << k * (1u << options.refine) << " cells, Q" << degree << "^3, DoFs " << dof_handler.n_dofs() << ", levels "
          << tria.n_global_levels() << ", coarse DoFs " << dof_handler.n_dofs(0) << ", K/mu "
          << material.K / material.mu << ", ranks " << Utilities::MPI::n_mpi_processes(comm) << std::endl;
  }

  template <int degree>
  void Prototype<degree>::setup_multigrid()
  {
    const unsigned int n_levels = tria.n_global_levels();
    mg_constrained.initialize(dof_handler);
    mg_constrained.make_zero_boundary_constraints(dof_handler, {types::boundary_id(0)});
    level_operators.resize(0, n_levels - 1);
    for (unsigned int level = 0; level < n_levels; ++level)
      {
        IndexSet level_relevant;
        DoFTools::extract_locally_relevant_level_dofs(dof_handler, level, level_relevant);
        AffineConstraints<double> level_constraints;
        level_constraints.reinit(level_relevant);
        level_constraints.add_lines(mg_constrained.get_boundary_indices(level));
        level_constraints.close();
        typename MatrixFree<dim, double>::AdditionalData data;
        data.tasks_parallel_scheme = MatrixFree<dim, double>::AdditionalData::none;
        data.mapping_update_flags  = update_gradients | update_JxW_values;
        data.mg_level              = level;
        auto level_data            = std::make_shared<MatrixFree<dim, double>>();
        level_data->reinit(mapping, dof_handler, level_constraints, QGauss<1>(degree + 1), data);
        level_operators[level].initialize(level_data, mg_constrained, level);
        level_operators[level].set_material(material);
        if (level == 0)
          coarse_constraints.copy_from(level_constraints);
      }
    transfer.build(dof_handler);
    coarse_solver = std::make_unique<CoarseSolver>(coarse_matrix, coarse_amg, coarse_direct, options.coarse_tol);
    mg_matrix.initialize(level_operators);
    multigrid = std::make_unique<Multigrid<VectorType>>(mg_matrix, *coarse_solver, transfer, smoother, smoother);
    gmg = std::make_unique<PreconditionMG<dim, VectorType, MGTransferMatrixFree<dim, double>>>(dof_handler, *multigrid,
                                                                                               transfer);
  }

  /// R(u) = int Grad v : P - int v . rho g (load factor @p load), zero in the Dirichlet DoFs.
  template <int degree>
  void Prototype<degree>::residual(VectorType &r, const VectorType &u, const double load) const
  {
    FEEvaluation<dim, degree, degree + 1, dim, double> phi(*fine_data);
    r = 0;
    Tensor<1, dim, VectorizedType> weight;
    weight[2] = load * options.density * options.gravity; // -(body force), gravity along -z
    for (unsigned int cell = 0; cell < fine_data->n_cell_batches(); ++cell)
      {
        phi.reinit(cell);
        phi.read_dof_values_plain(u);
        phi.evaluate(EvaluationFlags::gradients);
        for (unsigned int q = 0; q < phi.n_q_points; ++q)
          {
            phi.submit_gradient(piola(material_state<VectorizedType>(phi.get_gradient(q), material)), q);
            phi.submit_value(weight, q);
          }
        phi.integrate(EvaluationFlags::values | EvaluationFlags::gradients);
        phi.distribute_local_to_global(r);
      }
    r.compress(VectorOperation::add);
  }

  /// Tangent assembled with FEValues from the same material functions, on active cells or on a
  /// multigrid level (the range decides); also collects support points for the rigid-body modes.
  template <int degree>
  template <typename CellRange>
  void Prototype<degree>::assemble(const CellRange &cells, const bool on_level, const VectorType &u,
                                   const AffineConstraints<double> &c, TrilinosWrappers::SparseMatrix &A,
                                   std::map<types::global_dof_index, std::pair<Point<dim>, unsigned int>> &points) const
  {
    const QGauss<dim>                    quadrature(degree + 1);
    FEValues<dim>                        fe_values(mapping, fe, quadrature, update_gradients | update_JxW_values);
    const unsigned int                   n   = fe.n_dofs_per_cell();
    const auto                          &usp = fe.get_unit_support_points();
    std::vector<types::global_dof_index> dofs(n);
    FullMatrix<double>                   cell_matrix(n, n);
    std::vector<unsigned int>            comp(n);
    for (unsigned int i = 0; i < n; ++i)
      comp[i] = fe.system_to_component_index(i).first;
    std::vector<Tensor<2, dim>> grad(n), action(n);
    for (const auto &cell : cells)
      {
        if (on_level ? !cell->is_locally_owned_on_level() : !cell->is_locally_owned())
          continue;
        fe_values.reinit(cell);
        cell->get_active_or_mg_dof_indices(dofs);
        for (unsigned int i = 0; i < n; ++i)
          points[dofs[i]] = {mapping.transform_unit_to_real_cell(cell, usp[i]), comp[i]};
        cell_matrix = 0;
        for (unsigned int q = 0; q < quadrature.size(); ++q)
          {
            Tensor<2, dim> grad_u;
            for (unsigned int i = 0; i < n; ++i)
              {
                grad[i]          = Tensor<2, dim>();
                grad[i][comp[i]] = fe_values.shape_grad_component(i, q, comp[i]);
                grad_u += u(dofs[i]) * grad[i];
              }
            const QPointData<double> qd = material_state<double>(grad_u, material);
            for (unsigned int j = 0; j < n; ++j)
              action[j] = tangent_action(qd, grad[j]);
            const double JxW = fe_values.JxW(q);
            for (unsigned int i = 0; i < n; ++i)
              for (unsigned int j = 0; j < n; ++j)
                cell_matrix(i, j) += (grad[i][comp[i]] * action[j][comp[i]]) * JxW;
          }
        c.distribute_local_to_global(cell_matrix, dofs, A);
      }
    A.compress(VectorOperation::add);
  }

  /// Linearise fine and level operators about @p u (ghosted), rebuild diagonals, Chebyshev
  /// smoothers and the coarse AMG.
  template <int degree>
  void Prototype<degree>::update_tangent(const VectorType &u)
  {
    fine_operator.evaluate_state(u);
    MGLevelObject<VectorType> level_u(0, tria.n_global_levels() - 1);
    transfer.interpolate_to_mg(dof_handler, level_u, u);
    MGLevelObject<typename Smoother::AdditionalData> smoother_data(0, tria.n_global_levels() - 1);
    for (unsigned int level = 0; level < tria.n_global_levels(); ++level)
      {
        VectorType state;
        level_operators[level].initialize_dof_vector(state);
        state.copy_locally_owned_data_from(level_u[level]);
        state.update_ghost_values();
        level_operators[level].evaluate_state(state);
        level_operators[level].compute_diagonal();
        smoother_data[level].smoothing_range     = 15.;
        smoother_data[level].degree              = options.cheb_degree;
        smoother_data[level].eig_cg_n_iterations = 12;
        smoother_data[level].preconditioner      = level_operators[level].get_matrix_diagonal_inverse();
        if (level == 0)
          {
            const IndexSet level_owned = dof_handler.locally_owned_mg_dofs(0);
            IndexSet       level_relevant;
            DoFTools::extract_locally_relevant_level_dofs(dof_handler, 0, level_relevant);
            TrilinosWrappers::SparsityPattern sp(level_owned, level_owned, level_relevant, comm);
            MGTools::make_sparsity_pattern(dof_handler, sp, 0, coarse_constraints, false);
            sp.compress();
            coarse_direct.reset(); // Amesos refers to the old matrix: release it first
            coarse_matrix.reinit(sp);
            std::map<types::global_dof_index, std::pair<Point<dim>, unsigned int>> points;
            assemble(dof_handler.mg_cell_iterators_on_level(0), true, state, coarse_constraints, coarse_matrix, points);
            if (options.coarse_tol < 0)
              {
                coarse_direct = std::make_unique<TrilinosWrappers::SolverDirect>(
                  direct_control, TrilinosWrappers::SolverDirect::AdditionalData(false, "Amesos_Mumps"));
                coarse_direct->initialize(coarse_matrix);
              }
            else
              initialize_amg(coarse_amg, coarse_matrix, points, degree > 1, coarse_modes);
          }
      }
    smoother.initialize(level_operators, smoother_data);
  }

  template <int degree>
  unsigned int Prototype<degree>::solve_gmg(VectorType &x, const VectorType &b, const double tol)
  {
    SolverControl        control(2000, tol * b.l2_norm());
    SolverCG<VectorType> cg(control);
    x = 0;
    cg.solve(fine_operator, x, b, *gmg);
    return control.last_step();
  }

  template <int degree>
  void Prototype<degree>::report_memory(const std::string &label) const
  {
    const double hwm = Utilities::MPI::sum(proc_status_bytes("VmHWM"), comm);
    const double max = Utilities::MPI::max(proc_status_bytes("VmHWM"), comm);
    pcout << "memory " << label << ": peak RSS sum over ranks " << hwm / 1048576. << " MiB (max rank " << max / 1048576.
          << " MiB), " << hwm / dof_handler.n_dofs() << " B/DoF; net of the RSS at start-up (" << rss_start / 1048576.
          << " MiB) " << (hwm - rss_start) / dof_handler.n_dofs() << " B/DoF" << std::endl;
  }

  /// Newton iterations of the gravity load with the matrix-free GMG solver: the deformed state the
  /// benchmark linearises about, and the cost of one Newton iteration.
  template <int degree>
  void Prototype<degree>::newton()
  {
    VectorType r, du;
    fine_data->initialize_dof_vector(r);
    fine_data->initialize_dof_vector(du);
    u                  = 0;
    double       t_res = 0, t_setup = 0, t_solve = 0;
    unsigned int n_its = 0, n_lin = 0;
    for (unsigned int step = 1; step <= std::min(options.run_steps, options.load_steps); ++step)
      {
        const double load = double(step) / options.load_steps;
        double       r0   = 0;
        for (unsigned int it = 0; it <= options.newton_max; ++it)
          {
            u.update_ghost_values();
            double t0 = wall();
            residual(r, u, load);
            const double norm = r.l2_norm();
            t_res += wall() - t0;
            if (it == 0)
              r0 = norm;
            pcout << "  step " << step << " Newton " << it << " |R| = " << std::scientific << std::setprecision(3)
                  << norm << std::defaultfloat;
            if (norm <= options.newton_tol * r0 || it == options.newton_max ||
                (it > 0 && du.linfty_norm() < 1e-10 * u.linfty_norm()))
              {
                pcout << "  (converged)" << std::endl;
                break;
              }
            MPI_Barrier(comm);
            t0 = wall();
            update_tangent(u);
            MPI_Barrier(comm);
            const double t_up = wall() - t0;
            r *= -1.;
            t0                     = wall();
            const unsigned int its = solve_gmg(du, r, options.linear_tol);
            const double       t_s = wall() - t0;
            u += du;
            t_setup += t_up;
            t_solve += t_s;
            n_lin += its;
            ++n_its;
            pcout << "  set-up " << std::setprecision(3) << t_up << " s, CG+GMG " << its << " its " << t_s
                  << " s, |du|_max " << du.linfty_norm() << " m" << std::endl;
          }
      }
    u.update_ghost_values();
    pcout << "Newton (matrix-free GMG): " << n_its << " iterations; per iteration: residual "
          << t_res / std::max(1u, n_its) << " s, tangent+GMG set-up " << t_setup / n_its << " s, CG solve "
          << t_solve / n_its << " s (" << double(n_lin) / n_its << " CG its), total "
          << (t_res + t_setup + t_solve) / n_its << " s; tip |u|_max " << u.linfty_norm() << " m" << std::endl;
  }

  template <int degree>
  void Prototype<degree>::run()
  {
    double t0 = wall();
    make_grid_and_dofs();
    setup_multigrid();
    MPI_Barrier(comm);
    pcout << "set-up (mesh, DoFs, MatrixFree on all levels, transfer): " << wall() - t0 << " s" << std::endl;
    newton();
    benchmark();
  }

  template <int degree>
  void Prototype<degree>::benchmark()
  {
    const types::global_dof_index N = dof_handler.n_dofs();
    MPI_Barrier(comm);
    double t0 = wall();
    update_tangent(u);
    MPI_Barrier(comm);
    const double t_setup_mf = wall() - t0;

    // Right-hand side: the full gravity load; a random vector for vmult timings and checks.
    VectorType b, x_mf, x_rand, y_mf, zero;
    fine_data->initialize_dof_vector(b);
    fine_data->initialize_dof_vector(x_mf);
    fine_data->initialize_dof_vector(y_mf);
    fine_data->initialize_dof_vector(zero);
    residual(b, zero, 1.);
    b *= -1.;
    x_rand = b;
    std::mt19937                           rng(1 + Utilities::MPI::this_mpi_process(comm));
    std::uniform_real_distribution<double> dist(-1., 1.);
    for (unsigned int i = 0; i < x_rand.locally_owned_size(); ++i)
      x_rand.local_element(i) = dist(rng);
    constraints.set_zero(x_rand);

    fine_operator.vmult(y_mf, x_rand); // warm-up
    MPI_Barrier(comm);
    t0 = wall();
    for (unsigned int k = 0; k < options.vmults; ++k)
      fine_operator.vmult(y_mf, x_rand);
    MPI_Barrier(comm);
    const double t_vmult_mf = (wall() - t0) / options.vmults;

    std::size_t cache = fine_operator.cache_bytes(), mf_data = fine_data->memory_consumption();
    for (unsigned int l = 0; l < tria.n_global_levels(); ++l)
      cache += level_operators[l].cache_bytes(), mf_data += level_operators[l].get_matrix_free()->memory_consumption();
    cache   = Utilities::MPI::sum(cache, comm);
    mf_data = Utilities::MPI::sum(mf_data, comm);
    pcout << "MF: DoFs " << N << " | tangent+GMG set-up " << t_setup_mf << " s | vmult " << t_vmult_mf * 1e3
          << " ms | q-point cache (all levels) " << double(cache) / N << " B/DoF, MatrixFree data (all levels) "
          << double(mf_data) / N << " B/DoF" << std::endl;
    const double tols[2] = {1e-4, 1e-8};
    for (unsigned int k = 0; k < 2 && options.mf_solves; ++k)
      {
        coarse_solver->iterations = coarse_solver->calls = 0;
        MPI_Barrier(comm);
        t0                     = wall();
        const unsigned int its = solve_gmg(x_mf, b, tols[k]);
        pcout << "MF: DoFs " << N << " | CG+GMG to " << tols[k] << ": " << its << " its " << wall() - t0
              << " s (coarse CG its per V-cycle "
              << double(coarse_solver->iterations) / std::max(1ul, coarse_solver->calls) << ")" << std::endl;
      }
    report_memory("after matrix-free phase");
    if (!options.amg)
      return;

    // The same tangent assembled and solved with CG + ML AMG.
    MPI_Barrier(comm);
    t0 = wall();
    TrilinosWrappers::SparsityPattern sp(owned, owned, relevant, comm);
    DoFTools::make_sparsity_pattern(dof_handler, sp, constraints, false, Utilities::MPI::this_mpi_process(comm));
    sp.compress();
    TrilinosWrappers::SparseMatrix A;
    A.reinit(sp);
    std::map<types::global_dof_index, std::pair<Point<dim>, unsigned int>> points;
    assemble(dof_handler.active_cell_iterators(), false, u, constraints, A, points);
    MPI_Barrier(comm);
    const double t_assemble = wall() - t0;
    t0                      = wall();
    TrilinosWrappers::PreconditionAMG   amg;
    std::unique_ptr<Epetra_MultiVector> modes;
    initialize_amg(amg, A, points, degree > 1, modes);
    MPI_Barrier(comm);
    const double t_amg = wall() - t0;
    VectorType   y_mat(y_mf), x_amg(x_mf);
    t0 = wall();
    for (unsigned int k = 0; k < options.vmults; ++k)
      A.vmult(y_mat, x_rand);
    MPI_Barrier(comm);
    const double t_vmult_mat = (wall() - t0) / options.vmults;
    pcout << "AMG: DoFs " << N << " | assembly " << t_assemble << " s | AMG set-up " << t_amg << " s | vmult "
          << t_vmult_mat * 1e3 << " ms | matrix nnz " << A.n_nonzero_elements() << " ("
          << A.memory_consumption() * Utilities::MPI::n_mpi_processes(comm) / double(N) << " B/DoF approx.)"
          << std::endl;
    for (unsigned int k = options.amg_loose ? 0 : 1; k < 2; ++k)
      {
        SolverControl        control(5000, tols[k] * b.l2_norm());
        SolverCG<VectorType> cg(control);
        x_amg = 0;
        MPI_Barrier(comm);
        t0 = wall();
        cg.solve(A, x_amg, b, amg);
        pcout << "AMG: DoFs " << N << " | CG+AMG to " << tols[k] << ": " << control.last_step() << " its "
              << wall() - t0 << " s" << std::endl;
      }
    report_memory("after matrix-based phase (includes the matrix-free data)");

    // Same operator and same solution? Dirichlet rows differ by construction (identity vs scaled
    // diagonal): compare the free rows only.
    y_mat -= y_mf;
    constraints.set_zero(y_mat);
    constraints.set_zero(y_mf);
    x_amg -= x_mf;
    pcout << "check: |A x - K_mf x| / |K_mf x| = " << std::scientific << y_mat.l2_norm() / y_mf.l2_norm();
    if (options.mf_solves)
      pcout << ", |u_amg - u_mf| / |u_mf| (1e-8 solves) = " << x_amg.l2_norm() / x_mf.l2_norm();
    pcout << std::defaultfloat << std::endl;
  }

  Options parse(int argc, char **argv)
  {
    Options o;
    for (int i = 1; i < argc; ++i)
      {
        const std::string a    = argv[i];
        auto              next = [&]() {
          AssertThrow(i + 1 < argc, ExcMessage("missing value after " + a));
          return std::string(argv[++i]);
        };
        if (a == "--degree")
          o.degree = std::stoi(next());
        else if (a == "--coarse")
          o.coarse = std::stoi(next());
        else if (a == "--refine")
          o.refine = std::stoi(next());
        else if (a == "--bulk")
          o.bulk = std::stod(next());
        else if (a == "--steps")
          o.load_steps = std::stoi(next());
        else if (a == "--run-steps")
          o.run_steps = std::stoi(next());
        else if (a == "--cheb-degree")
          o.cheb_degree = std::stoi(next());
        else if (a == "--coarse-tol")
          o.coarse_tol = std::stod(next());
        else if (a == "--no-mf-solves")
          o.mf_solves = false;
        else if (a == "--amg-tight-only")
          o.amg_loose = false;
        else if (a == "--no-amg")
          o.amg = false;
        else if (a == "--newton-max")
          o.newton_max = std::stoi(next());
        else
          AssertThrow(false, ExcMessage("unknown option " + a));
      }
    return o;
  }
} // namespace mf_prototype

int main(int argc, char **argv)
{
  using namespace mf_prototype;
  try
    {
      Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
      const Options                    options = parse(argc, argv);
      if (options.degree == 1)
        Prototype<1>(options).run();
      else if (options.degree == 2)
        Prototype<2>(options).run();
      else
        AssertThrow(false, ExcMessage("degree 1 or 2"));
    }
  catch (const std::exception &e)
    {
      std::cerr << "error: " << e.what() << std::endl;
      return 1;
    }
  return 0;
}
