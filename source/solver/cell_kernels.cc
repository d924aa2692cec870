#include <deal.II/fe/fe_values_extractors.h>

#include <hydrostat/solver/cell_kernels.h>

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

  Tensor<1, 3> area_vector_derivative(const Tensor<2, 3> &F_inv_T, const Tensor<1, 3> &m, const double J,
                                      const Tensor<1, 3> &grad, const unsigned int c)
  {
    const Tensor<1, 3> b = F_inv_T * grad;
    return J * (b[c] * m - m[c] * b);
  }

  void add_face_load(const BoundaryConditions::Load &load, const FEFaceValues<3> &fe_face_values,
                     const CellKinematics &kinematics, const double t, dealii::Vector<double> &f,
                     FullMatrix<double> *K_f)
  {
    const FiniteElement<3> &fe     = fe_face_values.get_fe();
    const unsigned int      n_dofs = fe.n_dofs_per_cell();
    for (unsigned int q = 0; q < fe_face_values.n_quadrature_points; ++q)
      {
        const Point<3> &X  = fe_face_values.quadrature_point(q);
        const double    dA = fe_face_values.JxW(q);
        if (load.type == BoundaryConditions::Load::Type::dead_traction)
          {
            const Tensor<1, 3> traction = load.value->vector_value(X, t);
            for (unsigned int i = 0; i < n_dofs; ++i)
              f[i] += traction[fe.system_to_component_index(i).first] * fe_face_values.shape_value(i, q) * dA;
            continue;
          }
        const double       pressure = load.value->value(X, t);
        const double       J        = kinematics.J[q];
        const Tensor<2, 3> F_inv_T  = transpose(invert(kinematics.F[q]));
        const Tensor<1, 3> n        = F_inv_T * fe_face_values.normal_vector(q);
        for (unsigned int i = 0; i < n_dofs; ++i)
          {
            const unsigned int ci = fe.system_to_component_index(i).first;
            const double       Ni = fe_face_values.shape_value(i, q);
            f[i] -= pressure * J * n[ci] * Ni * dA;
            if (!K_f)
              continue;
            for (unsigned int j = 0; j < n_dofs; ++j)
              {
                const Tensor<1, 3> da = area_vector_derivative(F_inv_T, n, J, fe_face_values.shape_grad(j, q),
                                                               fe.system_to_component_index(j).first);
                (*K_f)(i, j) -= pressure * Ni * da[ci] * dA;
              }
          }
      }
  }

  ThreeFieldCell::ThreeFieldCell(const Formulation &formulation, const Quadrature<3> &quadrature)
    : psi(quadrature.size())
    , J_tilde(quadrature.size())
    , p_tilde(quadrature.size())
  {
    const unsigned int n_p = formulation.n_pressure_functions();
    for (unsigned int q = 0; q < quadrature.size(); ++q)
      formulation.pressure_basis(quadrature.point(q), psi[q]);
    for (FullMatrix<double> *A : {&M, &M_inv, &K_JJ})
      A->reinit(n_p, n_p);
    for (dealii::Vector<double> *v : {&j_coeff, &p_coeff, &b, &w, &R_p, &R_J})
      v->reinit(n_p);
    G.reinit(n_p, n_p);
    tmp.reinit(n_p, n_p);
  }

  void ThreeFieldCell::add_coupling(const CellShapes &shapes, const unsigned int q, const double J,
                                    const Tensor<2, 3> &F_inv_T, FullMatrix<double> &K_up) const
  {
    const unsigned int n_p = M.m();
    for (unsigned int i = 0; i < shapes.n_dofs; ++i)
      {
        const double dJ_i = J * (F_inv_T[shapes.component[i]] * shapes.grad[q][i]) * shapes.JxW[q];
        for (unsigned int a = 0; a < n_p; ++a)
          K_up(i, a) += dJ_i * psi[q][a];
      }
  }

  void ThreeFieldCell::condense(const FullMatrix<double> &K_up, FullMatrix<double> &K)
  {
    M_inv.mmult(tmp, K_JJ);
    tmp.mmult(G, M_inv);
    K_up_G.reinit(K_up.m(), K_up.n());
    K_up.mmult(K_up_G, G);
    K_up_G.mTmult(K, K_up, true);
  }

  void ThreeFieldCell::pressure_compliance(FullMatrix<double> &C)
  {
    G.invert(K_JJ);
    M.mmult(tmp, G);
    C.reinit(M.m(), M.n());
    tmp.mmult(C, M);
  }

  void ThreeFieldCell::reinit(const FEValues<3> &fe_values, const std::vector<double> &J, const TissueLaw &law)
  {
    evaluate(fe_values, J, law, nullptr, nullptr);
  }

  void ThreeFieldCell::reinit(const FEValues<3> &fe_values, const std::vector<double> &J, const TissueLaw &law,
                              const dealii::Vector<double> &j, const dealii::Vector<double> &p)
  {
    evaluate(fe_values, J, law, &j, &p);
  }

  void ThreeFieldCell::evaluate(const FEValues<3> &fe_values, const std::vector<double> &J, const TissueLaw &law,
                                const dealii::Vector<double> *j_given, const dealii::Vector<double> *p_given)
  {
    const unsigned int n_q = psi.size(), n_p = M.m();
    // J̃: M j = ∫ ψ J, or R_p = ∫ ψ J − M j for a given j.
    M = 0;
    b = 0;
    for (unsigned int q = 0; q < n_q; ++q)
      for (unsigned int a = 0; a < n_p; ++a)
        {
          b[a] += psi[q][a] * J[q] * fe_values.JxW(q);
          for (unsigned int c = 0; c < n_p; ++c)
            M(a, c) += psi[q][a] * psi[q][c] * fe_values.JxW(q);
        }
    M_inv.invert(M);
    R_p.reinit(n_p);
    R_J.reinit(n_p);
    if (j_given)
      {
        j_coeff = *j_given;
        R_p     = b;
        M.vmult(w, j_coeff);
        R_p -= w;
      }
    else
      M_inv.vmult(j_coeff, b);
    // p̃: M p = ∫ ψ U'(J̃), or R_J = ∫ ψ U'(J̃) − M p; K_JJ = ∫ ψ U''(J̃) ψᵀ.
    b    = 0;
    K_JJ = 0;
    for (unsigned int q = 0; q < n_q; ++q)
      {
        J_tilde[q] = 0;
        for (unsigned int a = 0; a < n_p; ++a)
          J_tilde[q] += psi[q][a] * j_coeff[a];
        for (unsigned int a = 0; a < n_p; ++a)
          {
            b[a] += psi[q][a] * law.dU_dJ(J_tilde[q]) * fe_values.JxW(q);
            for (unsigned int c = 0; c < n_p; ++c)
              K_JJ(a, c) += psi[q][a] * law.d2U_dJ2(J_tilde[q]) * psi[q][c] * fe_values.JxW(q);
          }
      }
    if (p_given)
      {
        p_coeff = *p_given;
        M.vmult(w, p_coeff);
        R_J = b;
        R_J -= w;
      }
    else
      M_inv.vmult(p_coeff, b);
    energy = pressure_integral = volume = 0;
    for (unsigned int q = 0; q < n_q; ++q)
      {
        p_tilde[q] = 0;
        for (unsigned int a = 0; a < n_p; ++a)
          p_tilde[q] += psi[q][a] * p_coeff[a];
        energy += law.U(J_tilde[q]) * fe_values.JxW(q);
        pressure_integral += p_tilde[q] * fe_values.JxW(q);
        volume += fe_values.JxW(q);
      }
  }

  void ThreeFieldCell::add_condensed_residual(const FullMatrix<double> &K_up, dealii::Vector<double> &f)
  {
    M_inv.vmult(w, R_p); // M⁻¹ R_p
    K_JJ.vmult(b, w);
    b += R_J;
    M_inv.vmult(w, b);
    K_up.vmult_add(f, w);
  }

  void ThreeFieldCell::local_update(const FullMatrix<double> &K_up, FullMatrix<double> &A, dealii::Vector<double> &a,
                                    FullMatrix<double> &B, dealii::Vector<double> &b_out)
  {
    A.reinit(M.m(), K_up.m());
    M_inv.mTmult(A, K_up);
    a.reinit(M.m());
    M_inv.vmult(a, R_p);
    B.reinit(M.m(), M.m());
    M_inv.mmult(B, K_JJ);
    b_out.reinit(M.m());
    M_inv.vmult(b_out, R_J);
  }
} // namespace hydrostat
