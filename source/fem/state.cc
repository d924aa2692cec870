#include <hydrostat/fem/state.h>

#include <algorithm>

namespace hydrostat
{
  void State::reinit(const dealii::IndexSet &owned, const dealii::IndexSet &relevant, MPI_Comm comm)
  {
    owned_dofs    = owned;
    relevant_dofs = relevant;
    communicator  = comm;
    t             = 0;
    for (Vector *x : {&u_owned, &v_owned, &a_owned})
      x->reinit(owned, comm);
    for (Vector *x : {&u_ghost, &v_ghost, &a_ghost})
      x->reinit(owned, relevant, comm);
  }

  void State::accept(const double time, const Vector &u, const Vector &v, const Vector &a)
  {
    t       = time;
    u_owned = u;
    v_owned = v;
    a_owned = a;
    refresh_ghosts();
  }

  State::Vector State::owned_vector() const { return Vector(owned_dofs, communicator); }

  State::Vector State::ghosted_vector() const { return Vector(owned_dofs, relevant_dofs, communicator); }

  void State::refresh_ghosts()
  {
    u_ghost = u_owned;
    v_ghost = v_owned;
    a_ghost = a_owned;
  }

  void State::save(BinaryWriter &out) const
  {
    out.put(t);
    for (const Vector *x : {&u_owned, &v_owned, &a_owned})
      out.put(std::vector<double>(x->begin(), x->end()));
  }

  void State::load(BinaryReader &in)
  {
    t = in.get<double>();
    for (Vector *x : {&u_owned, &v_owned, &a_owned})
      {
        const std::vector<double> values = in.get_vector();
        if (values.size() != x->locally_owned_size())
          in.fail("its vectors do not fit this mesh");
        std::copy(values.begin(), values.end(), x->begin());
      }
    refresh_ghosts();
  }
} // namespace hydrostat
