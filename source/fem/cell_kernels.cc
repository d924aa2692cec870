#include <deal.II/fe/fe_values_extractors.h>

#include <hydrostat/fem/cell_kernels.h>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    const FEValuesExtractors::Vector displacement(0);

    /// The cell values as the std::vector that the deal.II library instantiates the
    /// *_from_local_dof_values functions for (not for dealii::Vector).
    const std::vector<double> &as_std_vector(const dealii::Vector<double> &local)
    {
      thread_local std::vector<double> buffer;
      buffer.assign(local.begin(), local.end());
      return buffer;
    }
  } // namespace

  void CellKinematics::reinit(const FEValuesBase<3> &fe_values, const dealii::Vector<double> &u_local)
  {
    const unsigned int n_q = fe_values.n_quadrature_points;
    F.resize(n_q);
    J.resize(n_q);
    fe_values[displacement].get_function_gradients_from_local_dof_values(as_std_vector(u_local), F);
    for (unsigned int q = 0; q < n_q; ++q)
      {
        for (unsigned int d = 0; d < 3; ++d)
          F[q][d][d] += 1.0;
        J[q] = determinant(F[q]);
      }
  }

  void CellKinematics::reinit(const FEValuesBase<3> &fe_values, const dealii::Vector<double> &u_local,
                              const dealii::Vector<double> &v_local)
  {
    reinit(fe_values, u_local);
    F_dot.resize(fe_values.n_quadrature_points);
    fe_values[displacement].get_function_gradients_from_local_dof_values(as_std_vector(v_local), F_dot);
  }

  bool CellKinematics::inverted() const
  {
    for (const double j : J)
      if (j <= 0)
        return true;
    return false;
  }

  void CellShapes::reinit(const FEValuesBase<3> &fe_values)
  {
    const FiniteElement<3> &fe  = fe_values.get_fe();
    const unsigned int      n_q = fe_values.n_quadrature_points;
    n_dofs                      = fe.n_dofs_per_cell();
    component.resize(n_dofs);
    for (unsigned int i = 0; i < n_dofs; ++i)
      component[i] = fe.system_to_component_index(i).first;
    N.resize(n_q);
    grad.resize(n_q);
    JxW.resize(n_q);
    for (unsigned int q = 0; q < n_q; ++q)
      {
        N[q].resize(n_dofs);
        grad[q].resize(n_dofs);
        for (unsigned int i = 0; i < n_dofs; ++i)
          {
            N[q][i]    = fe_values.shape_value(i, q);
            grad[q][i] = fe_values.shape_grad(i, q);
          }
        JxW[q] = fe_values.JxW(q);
      }
  }

  void CellShapes::move_onto(const std::vector<unsigned int> &target)
  {
    for (unsigned int q = 0; q < N.size(); ++q)
      for (unsigned int i = 0; i < n_dofs; ++i)
        if (target[i] != i)
          {
            N[q][target[i]] += N[q][i];
            grad[q][target[i]] += grad[q][i];
            N[q][i]    = 0;
            grad[q][i] = Tensor<1, 3>();
          }
  }

  void add_stress_divergence(const CellShapes &shapes, const unsigned int q, const Tensor<2, 3> &P,
                             const Tensor<4, 3> &A, dealii::Vector<double> &r, FullMatrix<double> *K)
  {
    const double                     dV   = shapes.JxW[q];
    const std::vector<Tensor<1, 3>> &grad = shapes.grad[q];
    for (unsigned int i = 0; i < shapes.n_dofs; ++i)
      {
        const unsigned int  ci = shapes.component[i];
        const Tensor<1, 3> &gi = grad[i];
        r[i] += (P[ci] * gi) * dV;
        if (!K)
          continue;
        // (A_i)_kL = A_{ci J k L} (Grad N_i)_J dV, so that K_ij = (A_i)_{cj} · Grad N_j: the
        // contraction with Grad φ_i is done once per i, not once per (i, j).
        Tensor<2, 3> A_i;
        for (unsigned int J = 0; J < 3; ++J)
          for (unsigned int k = 0; k < 3; ++k)
            A_i[k] += (gi[J] * dV) * A[ci][J][k];
        for (unsigned int j = 0; j < shapes.n_dofs; ++j)
          (*K)(i, j) += A_i[shapes.component[j]] * grad[j];
      }
  }

  void add_volume_force(const CellShapes &shapes, const unsigned int q, const Tensor<1, 3> &b,
                        dealii::Vector<double> &f)
  {
    for (unsigned int i = 0; i < shapes.n_dofs; ++i)
      f[i] += b[shapes.component[i]] * shapes.N[q][i] * shapes.JxW[q];
  }

  void add_mass(const CellShapes &shapes, const unsigned int q, const double m, FullMatrix<double> &K)
  {
    const std::vector<double> &N = shapes.N[q];
    for (unsigned int i = 0; i < shapes.n_dofs; ++i)
      {
        const double m_i = m * N[i] * shapes.JxW[q];
        for (unsigned int j = 0; j < shapes.n_dofs; ++j)
          if (shapes.component[j] == shapes.component[i])
            K(i, j) += m_i * N[j];
      }
  }

  void vector_values(const FEValuesBase<3> &fe_values, const dealii::Vector<double> &local,
                     std::vector<Tensor<1, 3>> &values)
  {
    values.resize(fe_values.n_quadrature_points);
    fe_values[displacement].get_function_values_from_local_dof_values(as_std_vector(local), values);
  }

  void vector_values(const CellShapes &shapes, const dealii::Vector<double> &local, std::vector<Tensor<1, 3>> &values)
  {
    values.assign(shapes.N.size(), Tensor<1, 3>());
    for (unsigned int q = 0; q < shapes.N.size(); ++q)
      for (unsigned int i = 0; i < shapes.n_dofs; ++i)
        values[q][shapes.component[i]] += shapes.N[q][i] * local[i];
  }

  Tensor<1, 3> area_vector_derivative(const Tensor<2, 3> &F_inv_T, const Tensor<1, 3> &m, const double J,
                                      const Tensor<1, 3> &grad, const unsigned int c)
  {
    const Tensor<1, 3> b = F_inv_T * grad;
    return J * (b[c] * m - m[c] * b);
  }

} // namespace hydrostat
