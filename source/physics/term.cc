#include <hydrostat/physics/term.h>

namespace hydrostat
{
  CellContribution::CellContribution(const unsigned int n_dofs)
    : internal(n_dofs)
    , external(n_dofs)
    , matrix(n_dofs, n_dofs)
    , face_matrix(n_dofs, n_dofs)
  {}

  CellEnergy::CellEnergy(const unsigned int n_dofs)
    : external(n_dofs)
    , dissipated(n_dofs)
    , active(n_dofs)
  {}
} // namespace hydrostat
