#pragma once

#include <deal.II/base/index_set.h>
#include <deal.II/lac/trilinos_vector.h>

#include <hydrostat/io/checkpoint_files.h>

namespace hydrostat
{
  /**
   * The accepted state of a run: time t and the displacement u, velocity v and acceleration a at
   * t, each as this rank's entries (owned) and with the ghost entries of its cells (ghosted). Every
   * evaluation starts from it (theory.md eq. (46)); quadrature-point history belongs to the terms
   * that have it and is saved by them.
   */
  class State
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;

    /// Zero vectors of the layout @p owned / @p relevant, t = 0.
    void reinit(const dealii::IndexSet &owned, const dealii::IndexSet &relevant, MPI_Comm comm);

    /// The state at time @p t becomes (@p u, @p v, @p a) (owned entries).
    void accept(const double t, const Vector &u, const Vector &v, const Vector &a);

    double                  time() const { return t; }
    const Vector           &u() const { return u_owned; }
    const Vector           &v() const { return v_owned; }
    const Vector           &a() const { return a_owned; }
    const Vector           &u_ghosted() const { return u_ghost; }
    const Vector           &v_ghosted() const { return v_ghost; }
    const Vector           &a_ghosted() const { return a_ghost; }
    const dealii::IndexSet &owned() const { return owned_dofs; }
    const dealii::IndexSet &relevant() const { return relevant_dofs; }
    MPI_Comm                comm() const { return communicator; }

    /// An empty vector of the owned layout.
    Vector owned_vector() const;
    /// An empty vector with the ghost entries of this rank's cells.
    Vector ghosted_vector() const;

    void save(BinaryWriter &out) const;
    /// Restores what save() wrote on this rank (same mesh and ranks).
    void load(BinaryReader &in);

  private:
    void refresh_ghosts();

    dealii::IndexSet owned_dofs, relevant_dofs;
    MPI_Comm         communicator = MPI_COMM_SELF;
    double           t            = 0;
    Vector           u_owned, v_owned, a_owned;
    Vector           u_ghost, v_ghost, a_ghost;
  };
} // namespace hydrostat
