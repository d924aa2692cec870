// The time loop of Simulation: Newton–Raphson per step with line search and cut-back,
// Newmark update, global quantities, output.
#include <deal.II/base/exceptions.h>
#include <deal.II/base/utilities.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/numerics/data_out.h>

#include <hydrostat/io/progress.h>
#include <hydrostat/solver/cell_kernels.h>
#include <hydrostat/solver/simulation.h>

#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace hydrostat
{
  using namespace dealii;

  namespace
  {
    std::string scientific(const double x, const int digits = 3)
    {
      std::ostringstream s;
      s << std::scientific << std::setprecision(digits) << x;
      return s.str();
    }
  } // namespace

  bool Simulation::newton_solve(const double dt, Vector &u)
  {
    // Newton starts from the Newmark predictor: starting from u_n instead makes the first Newton
    // step linearise every rotation of the step, which in bending of nearly incompressible tissue
    // produces a large spurious volume change.
    reinit_vector(u);
    newmark.predict(u_n, v_n, a_n, dt, u);

    Vector u_ghost(owned_dofs, relevant_dofs, comm), rhs;
    reinit_vector(rhs);
    AffineConstraints<double> inhomogeneous, homogeneous;
    NewtonSolver::Problem     problem;
    problem.system = [&](const Vector &u_trial, Vector &residual, double &pending_increment, double &scale) {
      u_ghost = u_trial;
      make_constraints(u_ghost, current_time + dt, inhomogeneous, homogeneous);
      pending_increment = 0;
      for (const auto &line : inhomogeneous.get_lines())
        pending_increment = std::max(pending_increment, std::abs(line.inhomogeneity));
      pending_increment = Utilities::MPI::max(pending_increment, comm);
      const bool ok     = assemble(step_to(dt), u_trial, residual, &tangent, &rhs, inhomogeneous, homogeneous);
      scale             = force_scale;
      return ok;
    };
    problem.residual = [&](const Vector &u_trial, Vector &residual) {
      return assemble(step_to(dt), u_trial, residual, nullptr, nullptr, homogeneous, homogeneous);
    };
    problem.solve = [&](Vector &du) {
      const LinearSolver::Statistics statistics = linear_solver.solve(
        tangent, du, rhs, dof_handler, &timer, linear_solver.block_preconditioner() ? &pressure_blocks : nullptr);
      inhomogeneous.distribute(du);
      if (condensed_fields.follows_updates())
        {
          u_ghost = du;
          condensed_fields.set_increment(dof_handler, u_ghost);
        }
      this->statistics.linear_iterations += statistics.iterations;
      this->statistics.factorizations += statistics.factorised;
      return statistics.iterations;
    };
    if (condensed_fields.follows_updates())
      problem.judged_residual = [&](const Vector &residual, Vector &judged) {
        judged = residual;
        judged -= cell_constraint_residual;
      };
    problem.try_step  = [&](const double alpha) { condensed_fields.try_step(alpha); };
    problem.take_step = [&](const double alpha) { condensed_fields.take_step(alpha); };
    condensed_fields.start();
    linear_solver.renew_factorization();
    bool converged = newton_solver->solve(problem, u);
    // A predictor that inverts an element (the extrapolation overshoots where the motion turns)
    // is not a reason to cut the step: start again from the accepted state.
    if (!converged && newton_solver->residuals().empty())
      {
        u = u_n;
        condensed_fields.start();
        linear_solver.renew_factorization();
        converged = newton_solver->solve(problem, u);
      }
    if (converged)
      condensed_fields.accept();
    condensed_fields.project(); // evaluations outside Newton project
    return converged;
  }

  double Simulation::advance(const double dt_nominal)
  {
    double dt = dt_nominal;
    while (true)
      {
        Vector                     u_new;
        const bool                 converged        = newton_solve(dt, u_new);
        const std::vector<double> &newton_residuals = newton_solver->residuals();
        statistics.newton_iterations += newton_solver->iterations();
        if (converged)
          {
            accept_step(dt, u_new);
            ++statistics.steps;
            return dt;
          }
        const double reduced = dt * stepping.cut_back;
        AssertThrow(reduced >= stepping.minimum_step * (1 - 1e-12),
                    ExcMessage("Newton did not converge at t = " + scientific(current_time + dt) +
                               " s even with the time step cut to " + scientific(dt) +
                               " s (parameter 'Time stepping/Minimum time step' = " +
                               scientific(stepping.minimum_step) + "). Last residuals: " +
                               (newton_residuals.empty() ? std::string("none") :
                                                           scientific(newton_residuals.front()) + " ... " +
                                                             scientific(newton_residuals.back())) +
                               ". Try a smaller Time step, a finer mesh, or check loads and constraints."));
        pcout << "  step cut back: dt " << scientific(dt, 2) << " -> " << scientific(reduced, 2) << " s ("
              << (newton_residuals.empty() ? "" : "residual " + scientific(newton_residuals.back(), 2) + ", ")
              << newton_residuals.size() << " iterations)" << std::endl;
        stepping.record_cut_back(dt);
        dt = reduced;
        ++statistics.cut_backs;
      }
  }

  void Simulation::accept_step(const double dt, const Vector &u_new)
  {
    // a₊, v₊ from u₊ = u_new and the previous state (ghosted copies).
    Vector u_old(owned_dofs, comm), v_new(owned_dofs, comm), a_new(owned_dofs, comm), v_old(owned_dofs, comm),
      a_old(owned_dofs, comm);
    u_old = u_n_ghost;
    v_old = v_n_ghost;
    a_old = a_n_ghost;
    newmark.correct(u_old, v_old, a_old, u_new, dt, v_new, a_new);
    Vector du = u_new;
    du -= u_old;
    u_n       = u_new;
    v_n       = v_new;
    a_n       = a_new;
    u_n_ghost = u_n;
    v_n_ghost = v_n;
    a_n_ghost = a_n;
    current_time += dt;
    commit_muscles(dt);
    muscle_tendon_units.commit(u_n_ghost, v_n_ghost, current_time, dt);
    // External work of the step by the trapezoidal rule on the load vectors.
    const Vector f_old = f_ext_n;
    update_global_quantities(false);
    Vector f_mean = f_old;
    f_mean += f_ext_n;
    quantities.external_work += 0.5 * (f_mean * du);
  }

  void Simulation::commit_muscles(const double dt)
  {
    if (muscles.n_groups() == 0)
      return;
    FEValues<3>            fe_values(*fe, *quadrature, update_gradients | update_quadrature_points);
    const unsigned int     n_dofs = fe->n_dofs_per_cell();
    dealii::Vector<double> u_local(n_dofs);
    CellKinematics         kinematics;
    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          cell->get_dof_values(u_n_ghost, u_local);
          const auto points = muscle_points.get_data(cell);
          kinematics.reinit(fe_values, u_local);
          for (unsigned int q = 0; q < quadrature->size(); ++q)
            muscles.commit(points[q]->groups, fe_values.quadrature_point(q), kinematics.F[q], current_time, dt);
        }
  }

  void Simulation::update_global_quantities(const bool first)
  {
    FEValues<3>                          fe_values(*fe, *quadrature,
                                                   update_values | update_gradients | update_quadrature_points | update_JxW_values);
    FEFaceValues<3>                      fe_face_values(*fe, *face_quadrature,
                                                        update_values | update_gradients | update_quadrature_points | update_normal_vectors |
                                                          update_JxW_values);
    const unsigned int                   n_dofs = fe->n_dofs_per_cell();
    dealii::Vector<double>               u_local(n_dofs), v_local(n_dofs), f_local(n_dofs);
    std::vector<types::global_dof_index> dofs(n_dofs);
    const bool                           three_field = formulation.type == Formulation::Type::three_field;
    double                               kinetic = 0, strain = 0, volume = 0;
    CellKinematics                       kinematics, face_kinematics;
    ThreeFieldCell                       three_field_cell(formulation, *quadrature);
    std::vector<Tensor<1, 3>>            velocity;
    f_ext_n = 0;
    AffineConstraints<double> none;
    none.close();

    for (const auto &cell : dof_handler.active_cell_iterators())
      if (cell->is_locally_owned())
        {
          fe_values.reinit(cell);
          cell->get_dof_indices(dofs);
          cell->get_dof_values(u_n_ghost, u_local);
          cell->get_dof_values(v_n_ghost, v_local);
          const auto &tissue     = materials[cell->material_id()];
          double      cell_W_iso = 0, cell_W = 0;
          f_local = 0;
          kinematics.reinit(fe_values, u_local);
          vector_values(fe_values, v_local, velocity);
          for (unsigned int q = 0; q < quadrature->size(); ++q)
            {
              const Tensor<2, 3> &F   = kinematics.F[q];
              const Tensor<1, 3> &v   = velocity[q];
              const double        JxW = fe_values.JxW(q);
              kinetic += 0.5 * tissue.density * v * v * JxW;
              volume += kinematics.J[q] * JxW;
              cell_W_iso += tissue.law->isochoric_energy(F) * JxW;
              cell_W += tissue.law->energy(F) * JxW;
              const Tensor<1, 3> g =
                boundary_conditions.body_acceleration().vector_value(fe_values.quadrature_point(q), current_time);
              for (unsigned int i = 0; i < n_dofs; ++i)
                f_local[i] +=
                  tissue.density * g[fe->system_to_component_index(i).first] * fe_values.shape_value(i, q) * JxW;
            }
          // Three-field: W = W_iso(F) + U(J̃), the potential of the element's equations (for every k).
          if (three_field)
            three_field_cell.reinit(fe_values, kinematics.J, *tissue.law);
          strain += three_field ? cell_W_iso + three_field_cell.volumetric_energy() : cell_W;

          for (const auto &face : cell->face_iterators())
            if (face->at_boundary())
              for (const auto &load : boundary_conditions.loads())
                if (face->boundary_id() == load.boundary_id)
                  {
                    fe_face_values.reinit(cell, face);
                    face_kinematics.reinit(fe_face_values, u_local);
                    add_face_load(load, fe_face_values, face_kinematics, current_time, f_local, nullptr);
                  }
          for (const auto &face : cell->face_iterators())
            if (face->at_boundary() && water_drag.acts_on(face->boundary_id()))
              {
                // Water drag with v_n (theory.md eq. (60)): its work is the energy lost to the water.
                fe_face_values.reinit(cell, face);
                face_kinematics.reinit(fe_face_values, u_local);
                vector_values(fe_face_values, v_local, velocity);
                water_drag.add_face_force(fe_face_values, face_kinematics, velocity, 0.0, f_local, nullptr);
              }
          none.distribute_local_to_global(f_local, dofs, f_ext_n);
        }
    f_ext_n.compress(VectorOperation::add);
    quantities.kinetic_energy = Utilities::MPI::sum(kinetic, comm);
    quantities.strain_energy  = Utilities::MPI::sum(strain, comm);
    quantities.volume         = Utilities::MPI::sum(volume, comm);
    if (first)
      quantities.external_work = 0;
  }

  std::vector<Tensor<1, 3>> Simulation::probe_displacements() const
  {
    return probes ? probes->values(u_n_ghost) : std::vector<Tensor<1, 3>>();
  }

  std::vector<Tensor<1, 3>> Simulation::probe_velocities() const
  {
    return probes ? probes->values(v_n_ghost) : std::vector<Tensor<1, 3>>();
  }

  void Simulation::write_csv_row(const unsigned int step, const double dt, const unsigned int newton_iterations)
  {
    if (!csv)
      {
        std::vector<std::string> columns{
          "step",          "time",         "dt",    "newton_iterations", "kinetic_energy", "strain_energy",
          "external_work", "total_energy", "volume"};
        for (unsigned int k = 0; k < output.probe_points.size(); ++k)
          for (const std::string quantity : {"x", "y", "z", "ux", "uy", "uz", "vx", "vy", "vz"})
            columns.push_back("p" + std::to_string(k) + "_" + quantity);
        csv = std::make_unique<CsvSeries>(output.directory + "/" + output.base_name + ".csv", columns, comm,
                                          csv_continue_rows);
      }
    const auto         &q = quantities;
    std::vector<double> row{double(step),
                            current_time,
                            dt,
                            double(newton_iterations),
                            q.kinetic_energy,
                            q.strain_energy,
                            q.external_work,
                            q.kinetic_energy + q.strain_energy - q.external_work,
                            q.volume};
    const auto          displacements = probe_displacements();
    const auto          velocities    = probe_velocities();
    for (unsigned int k = 0; k < output.probe_points.size(); ++k)
      {
        for (unsigned int d = 0; d < 3; ++d)
          row.push_back(output.probe_points[k][d] + displacements[k][d]);
        for (unsigned int d = 0; d < 3; ++d)
          row.push_back(displacements[k][d]);
        for (unsigned int d = 0; d < 3; ++d)
          row.push_back(velocities[k][d]);
      }
    csv->write_row(row);
    muscle_tendon_units.write_csv_row(output.directory + "/" + output.base_name + "_mtu.csv", step, current_time,
                                      csv_continue_rows);
  }

  void Simulation::write_output(const unsigned int step)
  {
    if (!output.paraview)
      return;
    TimerOutput::Scope scope(timer, "output");
    if (!paraview)
      paraview = std::make_unique<ParaViewSeries>(output.directory, output.base_name, comm);

    const OutputFields::State state{
      dof_handler,
      *quadrature,
      u_n_ghost,
      v_n_ghost,
      materials,
      muscles,
      formulation,
      [this](const OutputFields::CellIterator &cell, const unsigned int q) -> const MuscleGroups::PointData & {
        return muscle_points.get_data(cell)[q]->groups;
      },
      current_time};
    DataOut<3> data_out;
    output_fields.add_to(data_out, state);
    data_out.build_patches(formulation.degree);
    paraview->write(data_out, current_time, step);
  }

  Simulation::Outcome Simulation::run() { return run(RunOptions()); }

  Simulation::Outcome Simulation::run(const RunOptions &options)
  {
    const auto wall_start = std::chrono::steady_clock::now();
    setup();
    unsigned int step = 0;
    double       dt   = stepping.time_step;
    if (options.resume)
      {
        std::tie(step, dt) = load_checkpoint();
        pcout << "Resuming at step " << step << ", t = " << current_time << " s" << std::endl;
      }
    else
      {
        write_output(0);
        write_csv_row(0, 0.0, 0);
      }
    pcout << "Time stepping to t = " << stepping.end_time << " s (" << (newmark.dynamic() ? "Newmark" : "quasi-static")
          << ", dt = " << stepping.time_step << " s; Newton converges to |R| <= max(" << newton.residual_absolute
          << " N, " << newton.residual_relative << " f_ref))" << std::endl;

    // The estimate of the time left counts the time loop of this run only.
    const auto     loop_start      = std::chrono::steady_clock::now();
    auto           last_checkpoint = loop_start;
    ProgressReport progress(current_time, stepping.end_time, options.quiet || output.quiet);
    while (current_time < stepping.end_time * (1 - 1e-12))
      {
        const double remaining = stepping.end_time - current_time;
        const double taken     = advance(std::min(dt, remaining));
        ++step;
        // Grow back towards the nominal step after a cut-back.
        dt                = stepping.next_step(taken, newton_solver->iterations());
        const auto   now  = std::chrono::steady_clock::now();
        const double wall = std::chrono::duration<double>(now - wall_start).count();
        if (progress.due(current_time))
          pcout << "step " << std::setw(5) << step << "  t = " << scientific(current_time)
                << " s  dt = " << scientific(taken, 2) << " s  Newton " << std::setw(2) << newton_solver->iterations()
                << "  |R| " << scientific(newton_solver->residuals().back(), 2) << "  linear its "
                << newton_solver->last_linear_iterations() << "  wall " << std::fixed << std::setprecision(1) << wall
                << " s  " << progress.text(current_time, std::chrono::duration<double>(now - loop_start).count())
                << std::defaultfloat << std::setprecision(6) << std::endl;
        const bool finished = current_time >= stepping.end_time * (1 - 1e-12);
        write_csv_row(step, taken, newton_solver->iterations());
        if (step % output.interval == 0 || finished)
          write_output(step);

        // One collective decision: a signal on any rank, or a checkpoint due by steps or wall time.
        const double minutes = std::chrono::duration<double>(now - last_checkpoint).count() / 60;
        const double stop    = Utilities::MPI::max(options.stop && *options.stop ? 1.0 : 0.0, comm);
        const bool   due =
          (output.checkpoint_interval > 0 && step % output.checkpoint_interval == 0) ||
          (output.checkpoint_minutes > 0 && Utilities::MPI::max(minutes, comm) >= output.checkpoint_minutes);
        if (!finished && (due || stop > 0))
          {
            save_checkpoint(step, dt);
            last_checkpoint = std::chrono::steady_clock::now();
          }
        if (!finished && stop > 0)
          {
            pcout << "Stopped by a signal at step " << step << ", t = " << current_time << " s: continue with --resume"
                  << std::endl;
            timer.print_summary();
            return Outcome::interrupted;
          }
      }
    pcout << "Finished at t = " << current_time << " s after " << step << " steps; energies [J]: kinetic "
          << quantities.kinetic_energy << ", strain " << quantities.strain_energy << ", external work "
          << quantities.external_work << std::endl;
    if (csv)
      pcout << "Time series: " << csv->path() << std::endl;
    if (output.paraview)
      pcout << "ParaView: " << output.directory << "/" << output.base_name << ".pvd" << std::endl;
    timer.print_summary();
    return Outcome::finished;
  }
} // namespace hydrostat
