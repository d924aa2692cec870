#include <hydrostat/fem/three_field_cell.h>

namespace hydrostat
{
  using namespace dealii;

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
