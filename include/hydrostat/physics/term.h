#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/quadrature.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/full_matrix.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>
#include <deal.II/lac/vector.h>

#include <hydrostat/fem/cell_kernels.h>
#include <hydrostat/fem/formulation.h>
#include <hydrostat/fem/newmark.h>
#include <hydrostat/fem/state.h>
#include <hydrostat/fem/three_field_cell.h>
#include <hydrostat/io/checkpoint_files.h>
#include <hydrostat/materials/tissue_materials.h>
#include <hydrostat/muscle/muscle_groups.h>

#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  using CellIterator = dealii::DoFHandler<3>::active_cell_iterator;

  /// One cell of the evaluated state as every term sees it, prepared once per cell by the
  /// Assembler (theory.md eq. (4)).
  struct CellState
  {
    CellIterator               cell;
    const dealii::FEValues<3> &fe_values;
    const CellShapes          &shapes;
    const CellShapes          &mass_shapes;       ///< the shapes that carry the mass (eq. (72)): shapes, but
                                                  ///< on a massless boundary moved across the cell
    const CellKinematics            &kinematics;  ///< F, J, Ḟ = Grad v₊ at the points
    const std::vector<Tensor<1, 3>> &a, &v;       ///< a₊, v₊ of mass_shapes at the points (dynamic runs)
    const ThreeFieldCell            *three_field; ///< J̃, p̃ at the points (three-field element), else null
    const Step                      &step;
  };

  /// One boundary face of such a cell.
  struct FaceState
  {
    CellIterator                     cell;
    unsigned int                     face_no;
    const dealii::FEFaceValues<3>   &fe_values;
    const CellKinematics            &kinematics; ///< F, J at the face points
    const std::vector<Tensor<1, 3>> &u;          ///< u₊ at the face points
    const std::vector<Tensor<1, 3>> &v;          ///< v₊ at the face points (dynamic runs; else empty)
    const Step                      &step;
  };

  /// What the terms add on one cell: R_cell = internal − external and, with a tangent,
  /// K_cell = ∂R_cell/∂u₊ (theory.md eqs. (3)–(5)).
  struct CellContribution
  {
    CellContribution(const unsigned int n_dofs);

    bool                       with_tangent = false;
    dealii::Vector<double>     internal, external; ///< f_int (stress, inertia), f_ext (loads) [N]
    dealii::FullMatrix<double> matrix;             ///< the cell tangent
    dealii::FullMatrix<double> face_matrix;        ///< scratch of the face terms
    /// The Newmark mass coefficient ρ ∂a₊/∂u₊ of the cell [kg/m³/s²] (scale of the block preconditioner).
    double mass = 0;
    /// An input that is not finite here (InputError message, the first one).
    std::string bad_input;
  };

  /// The whole system, for terms that are not local to one cell (muscle–tendon units).
  struct SystemState
  {
    const dealii::TrilinosWrappers::MPI::Vector &u; ///< trial u₊, ghosted
    const State                                 &accepted;
    const Step                                  &step;
    const dealii::AffineConstraints<double>     &inhomogeneous, &homogeneous;
  };

  /// Where a system term adds: the residual and, with a tangent, the matrix and −R.
  struct SystemContribution
  {
    dealii::TrilinosWrappers::MPI::Vector  &residual;
    dealii::TrilinosWrappers::SparseMatrix *matrix;
    dealii::TrilinosWrappers::MPI::Vector  *rhs;
  };

  /// Where the energy balance books a term's work (theory.md eq. (62)).
  enum class Work
  {
    stored,     ///< the term reports its energies itself (add_point_energy)
    external,   ///< work of loads on the body
    dissipated, ///< energy the body loses (damping, drag)
    active      ///< work of muscle
  };

  /// A stored term's share of one cell's energies at an accepted state: its strain energy, and the
  /// nodal forces on the body of the parts of its force that are not conservative. (The kinetic
  /// energy is the Assembler's, from the densities.)
  struct CellEnergy
  {
    CellEnergy(const unsigned int n_dofs);

    double                 strain = 0; ///< [J]
    dealii::Vector<double> external, dissipated, active;
  };

  /// The column of ∂R/∂c that each control c of a controlled muscle group fills, [group][node]
  /// (dealii::numbers::invalid_unsigned_int: not asked for; theory.md eq. (74)).
  using ControlColumns = std::vector<std::vector<unsigned int>>;

  /// A cell field of the ParaView output (a volume average over the cell).
  struct CellField
  {
    std::string  name;         ///< as written, e.g. activation_transverse
    std::string  selector;     ///< the name 'Output/Fields' selects it by, e.g. activation
    unsigned int n_components; ///< 1, 3 or 9
    std::string  unit;         ///< written to the VTU ("" for labels)
  };

  /**
   * A contribution to the residual and tangent of theory.md eq. (4): a physical effect in its own
   * file pair. A term may act at the quadrature points of cells (add_point()), on boundary faces
   * (add_face()) or on the whole system (add_to_system()); it books its work for the energy
   * balance (work(), add_point_energy()), says whether its tangent is symmetric, names its output
   * fields and keeps its own history (commit(), save(), load()). The Assembler holds the list;
   * the term types a run can have are listed in driver/terms.cc, each with its parameters.
   * Evaluations are const: a term's state changes only in commit() and load().
   */
  class Term
  {
  public:
    virtual ~Term() = default;

    /// For logs, e.g. "water drag".
    virtual std::string name() const = 0;
    /// Where the energy balance books the term's work.
    virtual Work work() const = 0;
    /// Whether the term's tangent is symmetric (CG needs every term's to be).
    virtual bool symmetric() const { return true; }

    /// After the DoFs are distributed: what the term needs of the mesh (run once).
    virtual void setup(const dealii::DoFHandler<3> & /*dof_handler*/, const dealii::Quadrature<3> & /*quadrature*/) {}
    /// One line for the log after setup() (empty: none).
    virtual std::string report() const { return ""; }
    /// Couplings beyond each cell's own DoFs.
    virtual void add_sparsity(dealii::DynamicSparsityPattern & /*dsp*/,
                              const dealii::AffineConstraints<double> & /*constraints*/) const
    {}
    /// Rows beyond this rank's locally relevant DoFs that the term adds to on this rank (their
    /// couplings are sent to the ranks that own them).
    virtual void add_rows(dealii::IndexSet & /*rows*/) const {}
    /// Before Newton solves a step from the ghosted @p u: a term whose couplings follow the state
    /// (self-contact) updates them and returns true if add_sparsity() now gives a pattern the
    /// tangent lacks (the same on every rank; the tangent is then built again).
    virtual bool update_couplings(const dealii::TrilinosWrappers::MPI::Vector & /*u*/) { return false; }

    /// Whether add_point() contributes.
    virtual bool on_cells() const { return false; }
    /// Adds the term at point @p q of a cell.
    virtual void add_point(const CellState & /*cell*/, const unsigned int /*q*/, CellContribution & /*out*/) const {}
    /// Adds ∂f_int/∂c at point @p q of a cell for the controls in @p columns, into
    /// @p out[column] (terms whose force depends on the controls of muscle groups).
    virtual void add_control_derivatives(const CellState & /*cell*/, const unsigned int /*q*/,
                                         const ControlColumns & /*columns*/,
                                         std::vector<dealii::Vector<double>> & /*out*/) const
    {}
    /// Whether add_face() contributes on faces of boundary id @p id.
    virtual bool on_boundary(const unsigned int /*id*/) const { return false; }
    /// Adds the term on one boundary face.
    virtual void add_face(const FaceState & /*face*/, CellContribution & /*out*/) const {}
    /// Whether the nodes of boundary faces of id @p id carry no mass: their mass moves to the
    /// nodes across their cells (contact's modified mass, theory.md eq. (72)).
    virtual bool massless_boundary(const unsigned int /*id*/) const { return false; }
    /// Adds a contribution that is not local to a cell (after the cells).
    virtual void add_to_system(const SystemState & /*state*/, SystemContribution & /*out*/) const {}

    /// After Newton has converged on a step at the ghosted @p u: a term with multipliers
    /// (augmented Lagrangian) updates them and returns true if the step must be solved again
    /// with them (the same on every rank).
    virtual bool augment(const dealii::TrilinosWrappers::MPI::Vector & /*u*/, const Step & /*step*/) { return false; }
    /// The step is tried again from the accepted state (cut back): forget what augment() changed.
    virtual void retry_step() {}
    /// After augment() has returned false: why the multipliers are left unsettled (the limit of
    /// updates reached before the tolerance), in words for a warning; empty if they are settled.
    virtual std::string unsettled() const { return ""; }
    /// The length [m] below which a Newton update no longer changes what augment() decides at the
    /// iterate: once an update is that short, Newton asks augment() there instead of converging
    /// first (theory.md eq. (68a)). Infinity (on this rank): a term without augmentations.
    virtual double augmentation_resolution() const { return std::numeric_limits<double>::infinity(); }

    /// For work() = stored: the term's energies and non-conservative forces at point @p q of a
    /// cell of the accepted state. The other terms' work is that of their residual contribution.
    virtual void add_point_energy(const CellState & /*cell*/, const unsigned int /*q*/, CellEnergy & /*out*/) const {}

    /// The output fields of the term and their values on one cell of the accepted state (the
    /// components of every field of output_fields(), in order, into @p values).
    virtual std::vector<CellField> output_fields() const { return {}; }
    virtual void                   output_values(const CellState                   &/*cell*/, double                   */*values*/) const {}

    /// Columns and values of a time series of the term's own (<base>_<series_name()>.csv), if any.
    virtual std::string              series_name() const { return ""; }
    virtual std::vector<std::string> series_columns() const { return {}; }
    virtual std::vector<double>      series_values() const { return {}; }

    /// An accepted step of size @p dt ended in @p state: the term's history moves on.
    virtual void commit(const State & /*state*/, const double /*dt*/) {}
    /// The longest step over which the predictor may carry the accepted @p state along its motion
    /// (on this rank; e.g. contact: not into surfaces that press or close in); a longer step starts
    /// from u_n (StepSolver, theory.md eq. (70c)).
    virtual double predictor_horizon(const State & /*state*/) const { return std::numeric_limits<double>::infinity(); }
    /// The longest fraction of the Newton update @p du from the iterate @p u (both ghosted) that
    /// the term admits on this rank (e.g. contact: no point carried into a face it closes in on).
    virtual double update_fraction(const dealii::TrilinosWrappers::MPI::Vector & /*u*/,
                                   const dealii::TrilinosWrappers::MPI::Vector & /*du*/) const
    {
      return std::numeric_limits<double>::infinity();
    }
    /// The term's history on this rank, for a checkpoint.
    virtual void save(BinaryWriter & /*out*/) const {}
    /// Restores what save() wrote on this rank (same mesh, ranks and parameters, after setup()).
    virtual void load(BinaryReader & /*in*/) {}
  };

  /// What a term's factory may use besides its parameters.
  struct TermSetup
  {
    const TissueMaterials &materials;
    const MuscleGroups    &muscles;
    const Formulation     &formulation;
    bool                   dynamic; ///< Time integration/Mode = dynamic
  };

  /// A kind of term: its parameters and its factory, which makes none, one or several terms from
  /// them (none when the input does not ask for it).
  struct TermType
  {
    void (*declare_parameters)(dealii::ParameterHandler &prm);
    std::vector<std::unique_ptr<Term>> (*create)(dealii::ParameterHandler &prm, const TermSetup &setup);
    /// The selectors of its output fields (Output/Fields).
    std::vector<std::string> (*field_selectors)();
  };
} // namespace hydrostat
