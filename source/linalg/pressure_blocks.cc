#include <deal.II/base/mpi.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>

#include <hydrostat/linalg/pressure_blocks.h>

#include <bitset>
#include <cmath>

namespace hydrostat
{
  using namespace dealii;

  DoFHandler<3>::active_cell_iterator PressureBlocks::pressure_cell(
    const DoFHandler<3>::active_cell_iterator &cell) const
  {
    return DoFHandler<3>::active_cell_iterator(&dof_handler.get_triangulation(), cell->level(), cell->index(),
                                               &dof_handler);
  }

  namespace
  {
    /// The sign patterns of CheckerboardCorrection, as masks of the child-number bits (x, y, z):
    /// (−1)^{i+j}, (−1)^{j+k}, (−1)^{i+k}, (−1)^{i+j+k}.
    constexpr unsigned int checkerboard_masks[4] = {0b011, 0b110, 0b101, 0b111};
  } // namespace

  void PressureBlocks::setup(const DoFHandler<3> &u_dofs, const IndexSet &owned_u_dofs, const unsigned int degree,
                             MPI_Comm comm)
  {
    // P_{k−1} on each cell: FE_DGP has exactly the dimension of Formulation's basis; only its
    // numbering is used (the values come from Formulation::pressure_basis).
    fe = std::make_unique<FE_DGP<3>>(degree - 1);
    dof_handler.reinit(u_dofs.get_triangulation());
    dof_handler.distribute_dofs(*fe);
    owned_p = dof_handler.locally_owned_dofs();
    no_constraints.clear();
    no_constraints.close();

    const unsigned int                   n_p = fe->n_dofs_per_cell(), n_u = u_dofs.get_fe().n_dofs_per_cell();
    DynamicSparsityPattern               b_pattern(dof_handler.n_dofs(), u_dofs.n_dofs(), owned_p);
    DynamicSparsityPattern               c_pattern(dof_handler.n_dofs(), dof_handler.n_dofs(), owned_p);
    std::vector<types::global_dof_index> p(n_p), u(n_u);
    for (const auto &cell : u_dofs.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          cell->get_dof_indices(u);
          pressure_cell(cell)->get_dof_indices(p);
          for (const auto i : p)
            {
              for (const auto j : u)
                b_pattern.add(i, j);
              for (const auto j : p)
                c_pattern.add(i, j);
            }
        }
    setup_checkerboard_basis(comm);
    b_matrix.reinit(owned_p, owned_u_dofs, b_pattern, comm);
    c_matrix.reinit(owned_p, owned_p, c_pattern, comm);
    s_hat_inverse.reinit(owned_p, owned_p, c_pattern, comm);
    r_q.reinit(owned_p, comm);
  }

  void PressureBlocks::setup_checkerboard_basis(MPI_Comm comm)
  {
    // Families whose 8 children are active and owned here; numbered per rank, then offset.
    family_of.clear();
    std::vector<DoFHandler<3>::cell_iterator> parents;
    if (fe->n_dofs_per_cell() == 1)
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (cell->is_locally_owned() && cell->level() > 0 && cell->parent()->child(0) == cell)
          {
            const auto parent = cell->parent();
            bool       whole  = true;
            for (unsigned int c = 0; c < parent->n_children(); ++c)
              whole = whole && parent->child(c)->is_active() && parent->child(c)->is_locally_owned();
            if (whole && parent->n_children() == 8)
              parents.push_back(parent);
          }
    const types::global_dof_index n_local = 4 * parents.size();
    types::global_dof_index       offset  = 0;
    MPI_Exscan(&n_local, &offset, 1, Utilities::MPI::mpi_type_id_for_type<types::global_dof_index>, MPI_SUM, comm);
    if (Utilities::MPI::this_mpi_process(comm) == 0)
      offset = 0;
    const types::global_dof_index n_coarse = Utilities::MPI::sum(n_local, comm);
    n_families                             = n_coarse / 4;
    if (n_families == 0)
      return;

    IndexSet owned_coarse(n_coarse);
    owned_coarse.add_range(offset, offset + n_local);
    DynamicSparsityPattern               z_pattern(dof_handler.n_dofs(), n_coarse, owned_p);
    std::vector<types::global_dof_index> p(1);
    for (unsigned int f = 0; f < parents.size(); ++f)
      for (unsigned int c = 0; c < 8; ++c)
        {
          parents[f]->child(c)->get_dof_indices(p);
          family_of[p[0]] = {offset + 4 * f, c};
          for (unsigned int a = 0; a < 4; ++a)
            z_pattern.add(p[0], offset + 4 * f + a);
        }
    z_matrix.reinit(owned_p, owned_coarse, z_pattern, comm);
  }

  void PressureBlocks::zero()
  {
    b_matrix      = 0;
    c_matrix      = 0;
    s_hat_inverse = 0;
    r_q           = 0;
    if (n_families > 0)
      z_matrix = 0;
  }

  void PressureBlocks::add_cell(const DoFHandler<3>::active_cell_iterator  &cell,
                                const std::vector<types::global_dof_index> &u_dofs, const FullMatrix<double> &K_up,
                                const FullMatrix<double> &C, const FullMatrix<double> &M, const double mu_hat,
                                const double a_scale, const AffineConstraints<double> &constraints)
  {
    const unsigned int                   n_p = C.m(), n_u = u_dofs.size();
    std::vector<types::global_dof_index> p(n_p);
    pressure_cell(cell)->get_dof_indices(p);

    // The cell's pressure unknowns are scaled by d, q = d q̃, and its rows by d, so that Ŝ (and
    // the q-residual GMRES measures) is on the scale a of the cell's displacement diagonal;
    // unscaled, B ~ h² and C ~ h⁶/K are 10⁻⁷ and 10⁻²² of A in the step-44 block and GMRES
    // would stop before the pressure equations are solved. Δu is unchanged by the scaling.
    FullMatrix<double> S_hat(C);
    S_hat.add(1.0 / mu_hat, M);
    const double d = std::sqrt(a_scale * n_p / S_hat.trace());

    FullMatrix<double> B(n_p, n_u), C_scaled(n_p, n_p), S_hat_inv(n_p, n_p);
    B.copy_transposed(K_up);
    B *= d;
    C_scaled.copy_from(C);
    C_scaled *= d * d;
    S_hat *= d * d;
    S_hat_inv.invert(S_hat);
    no_constraints.distribute_local_to_global(B, p, constraints, u_dofs, b_matrix);
    no_constraints.distribute_local_to_global(C_scaled, p, p, c_matrix);
    no_constraints.distribute_local_to_global(S_hat_inv, p, p, s_hat_inverse);
    if (const auto family = family_of.find(p[0]); family != family_of.end())
      for (unsigned int a = 0; a < 4; ++a)
        z_matrix.add(p[0], family->second.first + a,
                     std::bitset<3>(family->second.second & checkerboard_masks[a]).count() % 2 ? -d : d);

    // r_q = −B Δu_c: the prescribed parts of the increment.
    for (unsigned int j = 0; j < n_u; ++j)
      if (constraints.is_inhomogeneously_constrained(u_dofs[j]))
        for (unsigned int a = 0; a < n_p; ++a)
          r_q[p[a]] -= B(a, j) * constraints.get_inhomogeneity(u_dofs[j]);
  }

  void PressureBlocks::compress()
  {
    b_matrix.compress(VectorOperation::add);
    c_matrix.compress(VectorOperation::add);
    s_hat_inverse.compress(VectorOperation::add);
    r_q.compress(VectorOperation::insert);
    if (n_families > 0)
      z_matrix.compress(VectorOperation::add);
  }
} // namespace hydrostat
