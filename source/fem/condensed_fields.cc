#include <hydrostat/fem/condensed_fields.h>

#include <algorithm>

namespace hydrostat
{
  using namespace dealii;

  void CondensedFields::reinit(const unsigned int n_cells, const unsigned int n_p, const unsigned int n_dofs,
                               const bool iterated)
  {
    this->n_p      = n_p;
    this->n_dofs   = n_dofs;
    this->iterated = iterated;
    stride         = 8 * n_p + n_p * n_p + n_p * n_dofs;
    data.assign(std::size_t(n_cells) * stride, 0.0);
    have_accepted = false;
    project();
  }

  void CondensedFields::start()
  {
    project();
    if (!iterated || !have_accepted)
      return;
    // Cells that are not locally owned hold zeros throughout.
    for (std::size_t offset = 0; offset < data.size(); offset += stride)
      for (unsigned int k = 0; k < 2 * n_p; ++k)
        {
          data[offset + k]           = data[offset + accepted * n_p + k];
          data[offset + 2 * n_p + k] = 0;
        }
    iterate = true;
  }

  void CondensedFields::accept()
  {
    for (std::size_t offset = 0; offset < data.size(); offset += stride)
      std::copy(&data[offset], &data[offset] + 2 * n_p, &data[offset + accepted * n_p]);
    have_accepted = true;
  }

  void CondensedFields::project()
  {
    iterate     = false;
    step_length = 0;
  }

  void CondensedFields::values(const unsigned int cell, dealii::Vector<double> &j, dealii::Vector<double> &p) const
  {
    const double *d = cell_data(cell);
    j.reinit(n_p, true);
    p.reinit(n_p, true);
    for (unsigned int k = 0; k < n_p; ++k)
      {
        j[k] = d[k] + step_length * d[2 * n_p + k];
        p[k] = d[n_p + k] + step_length * d[3 * n_p + k];
      }
  }

  void CondensedFields::record(const unsigned int cell, ThreeFieldCell &three_field, const FullMatrix<double> &K_up)
  {
    double *d = cell_data(cell);
    if (!iterate)
      {
        std::copy(three_field.j_coeff.begin(), three_field.j_coeff.end(), d);
        std::copy(three_field.p_coeff.begin(), three_field.p_coeff.end(), d + n_p);
      }
    three_field.local_update(K_up, A, a, B, b);
    std::copy(a.begin(), a.end(), d + 4 * n_p);
    std::copy(b.begin(), b.end(), d + 5 * n_p);
    std::copy(&B(0, 0), &B(0, 0) + n_p * n_p, d + 8 * n_p);
    std::copy(&A(0, 0), &A(0, 0) + n_p * n_dofs, d + 8 * n_p + n_p * n_p);
  }

  void CondensedFields::set_increment(const DoFHandler<3> &dof_handler, const TrilinosWrappers::MPI::Vector &du)
  {
    du_cell.reinit(n_dofs);
    dj.reinit(n_p);
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          double *const d = cell_data(cell->active_cell_index());
          cell->get_dof_values(du, du_cell);
          // δj = A δu + a, δp = B δj + b.
          const double *A_data = d + 8 * n_p + n_p * n_p, *B_data = d + 8 * n_p;
          for (unsigned int k = 0; k < n_p; ++k)
            {
              dj[k] = d[4 * n_p + k];
              for (unsigned int i = 0; i < n_dofs; ++i)
                dj[k] += A_data[k * n_dofs + i] * du_cell[i];
              d[2 * n_p + k] = dj[k];
            }
          for (unsigned int k = 0; k < n_p; ++k)
            {
              double dp = d[5 * n_p + k];
              for (unsigned int l = 0; l < n_p; ++l)
                dp += B_data[k * n_p + l] * dj[l];
              d[3 * n_p + k] = dp;
            }
        }
    iterate     = true;
    step_length = 0;
  }

  void CondensedFields::take_step(const double alpha)
  {
    if (!iterate)
      return;
    // Cells that are not locally owned keep δj = δp = 0.
    for (std::size_t offset = 0; offset < data.size(); offset += stride)
      for (unsigned int k = 0; k < 2 * n_p; ++k)
        data[offset + k] += alpha * data[offset + 2 * n_p + k];
    step_length = 0;
  }

  std::vector<double> CondensedFields::accepted_values(const DoFHandler<3> &dof_handler) const
  {
    std::vector<double> values;
    if (have_accepted)
      for (const auto &cell : dof_handler.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            const double *d = cell_data(cell->active_cell_index()) + accepted * n_p;
            values.insert(values.end(), d, d + 2 * n_p);
          }
    return values;
  }

  bool CondensedFields::set_accepted_values(const DoFHandler<3> &dof_handler, const std::vector<double> &values)
  {
    have_accepted = !values.empty();
    std::size_t k = 0;
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned() && have_accepted)
        {
          if (k + 2 * n_p > values.size())
            return false;
          std::copy(&values[k], &values[k] + 2 * n_p, cell_data(cell->active_cell_index()) + accepted * n_p);
          k += 2 * n_p;
        }
    return k == values.size();
  }
} // namespace hydrostat
