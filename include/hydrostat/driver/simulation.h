#pragma once

#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/parameter_handler.h>
#include <deal.II/base/timer.h>
#include <deal.II/distributed/tria.h>

#include <hydrostat/assembly/assembler.h>
#include <hydrostat/assembly/dirichlet_constraints.h>
#include <hydrostat/assembly/energy_balance.h>
#include <hydrostat/driver/checkpoint.h>
#include <hydrostat/driver/run_output.h>
#include <hydrostat/driver/time_loop.h>
#include <hydrostat/fem/formulation.h>
#include <hydrostat/fem/newmark.h>
#include <hydrostat/fem/state.h>
#include <hydrostat/geometry/mesh_source.h>
#include <hydrostat/integration/newton_control.h>
#include <hydrostat/integration/step_solver.h>
#include <hydrostat/inverse/tracking_controller.h>
#include <hydrostat/linalg/linear_solver.h>
#include <hydrostat/materials/tissue_materials.h>
#include <hydrostat/muscle/muscle_groups.h>

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * A Hydrostat case, wired from its parameters: the mesh (MeshSource), the materials and muscle
   * groups, the terms of the residual (driver/terms.cc) in an Assembler, the Dirichlet
   * constraints, the time step (StepSolver: Newton, Newmark, cut-back), the energy balance, the
   * output and checkpoints, the inverse run's TrackingController, and the TimeLoop that runs
   * them, on any number of MPI ranks.
   */
  class Simulation
  {
  public:
    using Vector     = dealii::TrilinosWrappers::MPI::Vector;
    using RunOptions = TimeLoop::Options;
    using Outcome    = TimeLoop::Outcome;

    /// Every subsection of a case file.
    static void declare_parameters(dealii::ParameterHandler &prm);

    /// Parses @p prm (throws with the parameter's name on bad values); @p out receives progress.
    Simulation(dealii::ParameterHandler &prm, MPI_Comm comm, std::ostream &out);
    ~Simulation();

    /// Mesh, degrees of freedom, initial state (including the initial acceleration).
    void setup();

    /// setup() (and the checkpoint's state if resuming), then the time loop with output and
    /// checkpoints, then the timing summary.
    Outcome run(const RunOptions &options = RunOptions());

    /// One time step of nominal size @p dt with cut-back: returns the step actually taken.
    double advance(const double dt) { return steps->advance(dt); }

    const StepSolver::Statistics     &run_statistics() const { return steps->statistics(); }
    const EnergyBalance::Quantities  &global_quantities() const { return energy->quantities(); }
    double                            time() const { return state.time(); }
    unsigned int                      n_dofs() const { return assembler->dof_handler().n_dofs(); }
    std::vector<dealii::Tensor<1, 3>> probe_displacements() const { return output.probe_displacements(state); }
    std::vector<dealii::Tensor<1, 3>> probe_velocities() const { return output.probe_velocities(state); }
    const Vector                     &displacement() const { return state.u(); }

  private:
    /// The parameters of <base>_replay.prm: @p prm with the inverse run's activations as tables
    /// (@p prm is left as it was).
    std::string replay_parameters(dealii::ParameterHandler &prm) const;
    /// Prints the volume of the mesh and the share of each material id (a check of a Gmsh mesh's tissues).
    void print_materials();

    MPI_Comm                    comm;
    dealii::ConditionalOStream  pcout;
    mutable dealii::TimerOutput timer;

    MeshSource                          mesh_source;
    RunComponents                       parts;
    std::unique_ptr<SpaceTimeFunction>  initial_velocity;
    std::unique_ptr<TrackingController> inverse; // an inverse run (subsection Inverse)
    std::string                         replay;  // its <base>_replay.prm
    RunOutput                           output;
    std::uint64_t parameter_hash; // of every parameter: a checkpoint is resumed with the same ones

    dealii::parallel::distributed::Triangulation<3> triangulation;
    std::unique_ptr<Assembler>                      assembler;
    State                                           state;
    std::unique_ptr<EnergyBalance>                  energy;
    std::unique_ptr<StepSolver>                     steps;
    std::unique_ptr<Checkpoint>                     checkpoint;
  };
} // namespace hydrostat
