#pragma once

#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/point.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>

#include <hydrostat/activation/activation_dynamics.h>
#include <hydrostat/base/space_time_function.h>
#include <hydrostat/hill/hill_integrators.h>
#include <hydrostat/hill/muscle_tendon_unit.h>
#include <hydrostat/io/checkpoint_files.h>
#include <hydrostat/physics/term.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * 1D Hill-type muscle–tendon units (theory.md §8.5) attached between two material points of
   * the 3D body, or between a material point and a fixed anchor (subsection "Muscle-tendon units").
   *
   * Kinematics (x = X + u(X), v from Newmark as in the bulk):
   *   ℓ = |x_a − x_b|,  e = (x_a − x_b)/ℓ,  l_MTC = ℓ + lOffset,  dl_MTC = (v_a − v_b)·e.
   * The unit's F_MTC (> 0 pulls the points together) comes from HillIntegrator::advance() from the
   * last accepted state; it enters the residual as the internal force F ∂ℓ/∂u:
   *   R_i += F e_{c_i} B_i,  B_i = N_i(X_a) − N_i(X_b)  (N_i(X_b) = 0 for an anchor),
   * and the consistent tangent is
   *   K_ij += g_i (∂F/∂l g_j + ∂F/∂(dl) [v_u g_j + B_j ((I − e⊗e) w)_{c_j}/ℓ]) + F B_i B_j (I − e⊗e)_{c_i c_j}/ℓ,
   * with g_i = e_{c_i} B_i = ∂ℓ/∂u_i, w = v_a − v_b and v_u = ∂v/∂u of the time integrator.
   * Each unit is evaluated by exactly one rank (the lowest owning the first point's cell); the other
   * point's cell must be owned or a ghost cell there. The units' work is active work (theory.md
   * eq. (62)); their accepted values go to <base>_mtu.csv.
   */
  class MuscleTendonUnits : public Term
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;
    using Matrix = dealii::TrilinosWrappers::SparseMatrix;

    static constexpr unsigned int max_units = 4;

    /// Accepted-step values of one unit (SI units).
    struct Record
    {
      double STIM = 0, q = 0, l_MTC = 0, dl_MTC = 0, l_CE = 0, v_CE = 0, F_MTC = 0;
    };

    static void declare_parameters(dealii::ParameterHandler &prm);
    /// The units of the input, if there are any.
    static std::vector<std::unique_ptr<Term>> create(dealii::ParameterHandler &prm, const TermSetup &setup);
    void                                      parse_parameters(dealii::ParameterHandler &prm);

    std::string name() const override { return "the muscle-tendon units"; }
    Work        work() const override { return Work::active; }

    unsigned int       n_units() const { return units.size(); }
    const std::string &name(const unsigned int k) const { return units[k]->name; }

    /// Locates the attachment points in @p dof_handler's mesh, chooses each unit's rank, and sets
    /// the initial state (theory.md eq. (42)) for the undeformed body at t = 0.
    void setup(const dealii::DoFHandler<3> &dof_handler, const dealii::Quadrature<3> &quadrature) override;

    /// Couplings between the DoFs of each unit's two cells.
    void add_sparsity(dealii::DynamicSparsityPattern          &dsp,
                      const dealii::AffineConstraints<double> &constraints) const override;

    /**
     * Adds every unit's internal force to the residual and, with a matrix, its tangent and −R to
     * the rhs, in the same way as the bulk (homogeneous constraints for the residual,
     * inhomogeneous for the linear system).
     */
    void add_to_system(const SystemState &state, SystemContribution &out) const override;

    /// Advances the stored states over an accepted step of size @p dt ending in @p state.
    void commit(const State &state, const double dt) override;

    /// The accepted values of every unit on every rank.
    std::vector<Record> records() const;

    /// Per unit STIM, q, l_MTC, dl_MTC, l_CE, v_CE, F_MTC (SI units) of the accepted step.
    std::string              series_name() const override { return "mtu"; }
    std::vector<std::string> series_columns() const override;
    std::vector<double>      series_values() const override;

    /// The state of the units this rank evaluates, for a checkpoint.
    void save(BinaryWriter &out) const override;
    /// Restores what save() wrote on this rank (same mesh and ranks, after setup()).
    void load(BinaryReader &in) override;

  private:
    struct Unit
    {
      std::string                           name;
      dealii::Point<3>                      X_a, X_b;
      bool                                  anchored;
      std::unique_ptr<SpaceTimeFunction>    stimulation;
      std::unique_ptr<HillMuscleTendonUnit> mtu;
      std::unique_ptr<ActivationDynamics>   dynamics;
      std::unique_ptr<HillIntegrator>       integrator;

      // Set up on the evaluating rank: DoFs of the union of the two cells, their components and
      // shape function values at X_a and X_b.
      bool                                         evaluated_here = false;
      std::vector<dealii::types::global_dof_index> dofs;
      std::vector<unsigned int>                    component;
      std::vector<double>                          N_a, N_b;
      HillState                                    state;
      Record                                       record;
    };

    /// Where a unit's points lie: the evaluating rank and the cells around each point.
    struct Location
    {
      unsigned int                                                                          owner;
      std::vector<std::pair<dealii::DoFHandler<3>::active_cell_iterator, dealii::Point<3>>> around_a, around_b;
    };
    /// The owner of @p unit and its cells; InputError (naming @p where) for a point outside.
    Location locate(const Unit &unit, const std::string &where, const dealii::DoFHandler<3> &dof_handler) const;
    /// The unit's state at its reference length and stimulation at t = 0.
    void set_initial_state(Unit &unit, const std::string &where) const;
    /// DoFs, components and shape values at both points, on the evaluating rank.
    void attach(Unit &unit, const Location &location, const dealii::FiniteElement<3> &fe) const;

    struct Kinematics
    {
      dealii::Tensor<1, 3> e, w; // unit direction b → a, relative velocity v_a − v_b
      double               length, rate;
    };
    /// ℓ, e, w and dl_MTC from the unit's local displacement and velocity values.
    static Kinematics kinematics(const Unit &unit, const std::vector<double> &u, const std::vector<double> &v);

    std::vector<std::unique_ptr<Unit>> units;
    MPI_Comm                           comm = MPI_COMM_SELF;
  };
} // namespace hydrostat
