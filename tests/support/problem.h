#pragma once
// A small problem built in code for the tests below the driver: a box mesh, tissue, the chosen
// terms in an Assembler, Dirichlet constraints and the time step (StepSolver), without a case file.
#include <deal.II/base/conditional_ostream.h>
#include <deal.II/base/timer.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/mapping_q1.h>
#include <deal.II/grid/grid_generator.h>

#include <hydrostat/assembly/assembler.h>
#include <hydrostat/assembly/dirichlet_constraints.h>
#include <hydrostat/assembly/energy_balance.h>
#include <hydrostat/fem/newmark.h>
#include <hydrostat/geometry/mesh_source.h>
#include <hydrostat/integration/newton_control.h>
#include <hydrostat/integration/step_solver.h>
#include <hydrostat/io/point_probes.h>
#include <hydrostat/linalg/linear_solver.h>
#include <hydrostat/materials/mooney_rivlin.h>
#include <hydrostat/materials/tissue_materials.h>
#include <hydrostat/muscle/muscle_groups.h>
#include <hydrostat/physics/body_force.h>
#include <hydrostat/physics/inertia.h>
#include <hydrostat/physics/solid_stress.h>

#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace hydrostat::test_support
{
  /// The box [0, @p max_corner] in @p subdivisions cells (boundary ids 0–5 on x−, x+, y−, y+, z−,
  /// z+, as Mesh/Type = box), its inner vertices moved by @p distortion of the cell size.
  inline MeshSource::Parameters box(const dealii::Point<3> &max_corner, const std::vector<unsigned int> &subdivisions,
                                    const double distortion = 0)
  {
    MeshSource::Parameters p;
    p.max_corner       = max_corner;
    p.box_subdivisions = subdivisions;
    p.distortion       = distortion;
    return p;
  }

  /// Two separate boxes [0, @p size] in @p lower_cells and @p upper_cells cells, the upper one
  /// lifted by size_z + @p gap, as one mesh: boundary ids 0–5 (x−, x+, y−, y+, z−, z+) on the
  /// lower box, 6–11 on the upper. With @p upper_length > 0 the upper box is that long along x,
  /// centred over the lower one.
  inline void two_blocks(dealii::Triangulation<3> &tria, const dealii::Point<3> &size,
                         const std::vector<unsigned int> &lower_cells, const std::vector<unsigned int> &upper_cells,
                         const double gap, const double upper_length = 0)
  {
    dealii::Triangulation<3> lower, upper;
    const dealii::Point<3>   upper_size(upper_length > 0 ? upper_length : size[0], size[1], size[2]);
    const dealii::Point<3>   lift((size[0] - upper_size[0]) / 2, 0, size[2] + gap);
    dealii::GridGenerator::subdivided_hyper_rectangle(lower, lower_cells, dealii::Point<3>(), size);
    dealii::GridGenerator::subdivided_hyper_rectangle(upper, upper_cells, lift, upper_size + lift);
    dealii::GridGenerator::merge_triangulations(lower, upper, tria);
    for (const auto &face : tria.active_face_iterators())
      if (face->at_boundary())
        {
          const dealii::Point<3>     c      = face->center();
          const unsigned int         block  = c[2] > size[2] + gap / 2 ? 1 : 0;
          const dealii::Tensor<1, 3> X      = c - (block ? lift : dealii::Point<3>());
          const dealii::Point<3>    &extent = block ? upper_size : size;
          for (unsigned int d = 0; d < 3; ++d)
            for (unsigned int side = 0; side < 2; ++side)
              if (std::abs(X[d] - side * extent[d]) < 1e-9 * size.norm())
                face->set_boundary_id(6 * block + 2 * d + side);
        }
  }

  class Problem : public RunComponents
  {
  public:
    using Vector = dealii::TrilinosWrappers::MPI::Vector;
    using Matrix = dealii::TrilinosWrappers::SparseMatrix;

    explicit Problem(const MeshSource::Parameters &mesh, MPI_Comm comm = MPI_COMM_WORLD)
      : mesh_source(mesh)
      , comm(comm)
      , out(log, dealii::Utilities::MPI::this_mpi_process(comm) == 0)
      , timer(comm, out, dealii::TimerOutput::never, dealii::TimerOutput::wall_times)
      , triangulation(comm)
    {
      formulation.type = Formulation::Type::three_field; // as Finite element/Formulation
      // A test fails at the first cut-back it does not expect (one that expects some sets them).
      stepping.max_cut_backs = 0;
    }

    ~Problem() { linear_solver.release_factorization(); }

    /// Material @p id: Mooney–Rivlin c1, c2 [Pa], bulk modulus K [Pa], density [kg/m³].
    void mooney_rivlin(const double c1, const double c2, const double K, const double density = 1050,
                       const unsigned int id = 0)
    {
      materials.set(id, std::make_shared<MooneyRivlin>(MooneyRivlin::Parameters{c1, c2, K}), density);
    }

    /// The muscle groups of the text of a 'Muscles' subsection (the groups' own input language).
    void muscle_groups(const std::string &subsection)
    {
      dealii::ParameterHandler prm;
      MuscleGroups::declare_parameters(prm);
      prm.parse_input_from_string(subsection);
      muscles.parse_parameters(prm);
    }

    /// Adds @p term; setup() hands it to the Assembler.
    template <typename T>
    T &add(std::unique_ptr<T> term)
    {
      T &added = *term;
      terms.push_back(std::move(term));
      return added;
    }
    /// The terms that the term type @p T makes from the text of its subsection (its own input
    /// language), with the parameters of the types @p Shared declared as well (those it reads).
    template <typename T, typename... Shared>
    void add_from(const std::string &subsection)
    {
      dealii::ParameterHandler prm;
      (Shared::declare_parameters(prm), ...);
      T::declare_parameters(prm);
      prm.parse_input_from_string(subsection);
      for (auto &term : T::create(prm, {materials, muscles, formulation, newmark.dynamic()}))
        terms.push_back(std::move(term));
    }
    /// The stress of tissue and muscle, with stiffness damping β_K [s].
    SolidStress &add_solid_stress(const double beta_K = 0)
    {
      return add(std::make_unique<SolidStress>(materials, muscles, formulation, beta_K));
    }
    /// Inertia, with mass damping α_M [1/s] (dynamic runs).
    Inertia &add_inertia(const double alpha_M = 0) { return add(std::make_unique<Inertia>(materials, alpha_M)); }
    /// The body force of the acceleration @p g (three expressions of x, y, z, t [m/s²]).
    BodyForce &add_body_force(const std::string &g)
    {
      return add(std::make_unique<BodyForce>(materials, std::make_unique<SpaceTimeFunction>(g, 3, "g")));
    }
    /// The terms of a run without loads: solid stress, inertia in a dynamic run, gravity g.
    void add_standard_terms(const std::string &g = "0; 0; 0")
    {
      add_solid_stress();
      if (newmark.dynamic())
        add_inertia();
      add_body_force(g);
    }

    /// The mesh, the DoFs and the initial state (velocity @p v0, three expressions of x, y, z).
    void setup(const std::string &v0 = "0; 0; 0")
    {
      if (mesh_maker)
        {
          dealii::Triangulation<3> serial;
          mesh_maker(serial);
          triangulation.copy_triangulation(serial);
        }
      else
        mesh_source.create(triangulation);
      assembler_ptr = std::make_unique<Assembler>(triangulation, formulation, materials, newmark.dynamic(), timer);
      for (auto &term : terms)
        assembler_ptr->add_term(std::move(term));
      energy_ptr = std::make_unique<EnergyBalance>(newmark);
      steps_ptr  = std::make_unique<StepSolver>(*assembler_ptr, *this, state, *energy_ptr, timer, out);
      steps_ptr->setup();
      steps_ptr->start(SpaceTimeFunction(v0, 3, "v0"));
    }

    /// The first term of type @p T (after setup()).
    template <typename T>
    const T &term() const
    {
      for (const auto &t : assembler_ptr->terms())
        if (const T *found = dynamic_cast<const T *>(t.get()))
          return *found;
      throw std::runtime_error("no such term");
    }
    /// Steps of size @p dt to time @p end.
    void advance_to(const double end, const double dt)
    {
      while (state.time() < end - 1e-12)
        steps_ptr->advance(dt);
    }

    Assembler                       &assembler() { return *assembler_ptr; }
    StepSolver                      &steps() { return *steps_ptr; }
    const EnergyBalance::Quantities &energy() const { return energy_ptr->quantities(); }
    const dealii::DoFHandler<3>     &dof_handler() const { return assembler_ptr->dof_handler(); }

    /// A vector of the owned DoFs holding f(X) at the support points (X the reference position).
    Vector interpolate(const std::function<dealii::Tensor<1, 3>(const dealii::Point<3> &)> &f) const
    {
      const auto                                                 &dofs = dof_handler();
      std::map<dealii::types::global_dof_index, dealii::Point<3>> support;
      dealii::DoFTools::map_dofs_to_support_points(dealii::MappingQ1<3>(), dofs, support);
      Vector                                       u = state.owned_vector();
      std::vector<dealii::types::global_dof_index> cell_dofs(dofs.get_fe().n_dofs_per_cell());
      for (const auto &cell : dofs.active_cell_iterators())
        if (cell->is_locally_owned())
          {
            cell->get_dof_indices(cell_dofs);
            for (unsigned int i = 0; i < cell_dofs.size(); ++i)
              if (u.locally_owned_elements().is_element(cell_dofs[i]))
                u[cell_dofs[i]] = f(support[cell_dofs[i]])[dofs.get_fe().system_to_component_index(i).first];
          }
      u.compress(dealii::VectorOperation::insert);
      return u;
    }

    /// The values of the ghosted @p field at the reference @p points.
    std::vector<dealii::Tensor<1, 3>> at(const std::vector<dealii::Point<3>> &points, const Vector &field) const
    {
      return PointProbes(dof_handler(), points, "test points").values(field);
    }

    // The mesh (the other parts, set in code before setup(), are the RunComponents): the mesh
    // source's, or mesh_maker's if it is set.
    MeshSource                                      mesh_source;
    std::function<void(dealii::Triangulation<3> &)> mesh_maker;
    State                                           state;
    std::ostringstream                              log;

  private:
    MPI_Comm                                        comm;
    dealii::ConditionalOStream                      out;
    dealii::TimerOutput                             timer;
    dealii::parallel::distributed::Triangulation<3> triangulation;
    std::vector<std::unique_ptr<Term>>              terms;
    std::unique_ptr<Assembler>                      assembler_ptr;
    std::unique_ptr<EnergyBalance>                  energy_ptr;
    std::unique_ptr<StepSolver>                     steps_ptr;
  };

  struct FiniteDifferenceComparison
  {
    double max_error     = 0; // max |K − K_fd|
    double max_entry     = 0; // max |K_fd|
    double max_reference = 0; // max |K − K_reference|, if a reference tangent was given
  };

  /// The supports of two_blocks() pressed together: each block on the symmetry planes x = 0 and
  /// y = 0, the lower one on z = 0, the upper one's top moved down by @p descent(t) [m].
  inline void press_two_blocks(Problem &problem, const std::string &descent)
  {
    for (const unsigned int block : {0u, 6u})
      {
        problem.constraints.add(block + 0, "x");
        problem.constraints.add(block + 2, "y");
      }
    problem.constraints.add(4, "z");
    problem.constraints.add(11, "z", "0; 0; -(" + descent + ")");
  }

  /// Assembles the tangent K of @p problem's step of size @p dt at @p u and compares it with
  /// central differences (h = 1e-8 m) of the assembled residual. Constrained DoFs have an
  /// identically zero residual row; their rows and columns are not part of the Newton system and
  /// are skipped. With @p reference (the tangent of the same state without one term), also
  /// measures the size of that term's part.
  inline FiniteDifferenceComparison compare_tangent_with_finite_differences(Problem &problem, const Problem::Vector &u,
                                                                            const double           dt,
                                                                            const Problem::Matrix *reference = nullptr)
  {
    StepSolver     &steps    = problem.steps();
    Problem::Vector residual = problem.state.owned_vector(), r_plus = residual, r_minus = residual;
    auto           &K = problem.assembler().tangent();
    if (!steps.evaluate(u, dt, residual, &K))
      throw std::runtime_error("an element is inverted in the finite-difference state");
    const unsigned int n = problem.dof_handler().n_dofs();
    std::vector<bool>  free(n);
    for (unsigned int i = 0; i < n; ++i)
      free[i] = residual[i] != 0.0;
    const double               h = 1e-8;
    FiniteDifferenceComparison result;
    for (unsigned int j = 0; j < n; ++j)
      if (free[j])
        {
          Problem::Vector up = u, um = u;
          up[j] += h;
          um[j] -= h;
          if (!steps.evaluate(up, dt, r_plus, nullptr) || !steps.evaluate(um, dt, r_minus, nullptr))
            throw std::runtime_error("an element inverts within the finite-difference step");
          for (unsigned int i = 0; i < n; ++i)
            if (free[i])
              {
                const double fd  = (r_plus[i] - r_minus[i]) / (2 * h);
                result.max_error = std::max(result.max_error, std::abs(K.el(i, j) - fd));
                result.max_entry = std::max(result.max_entry, std::abs(fd));
                if (reference)
                  result.max_reference = std::max(result.max_reference, std::abs(K.el(i, j) - reference->el(i, j)));
              }
        }
    return result;
  }
} // namespace hydrostat::test_support
