#pragma once

#include <hydrostat/base/space_time_function.h>
#include <hydrostat/physics/term.h>

#include <memory>
#include <string>
#include <vector>

namespace hydrostat
{
  /**
   * A load on the faces of one boundary id, subsection 'Boundary conditions/Load k' (k = 1 …
   * max_slots; Boundary id = -1: unused): the nominal traction t0 enters as the external force
   * ∫ t0·φ dA (theory.md eqs. (4), (5)). Its value is a SpaceTimeFunction of the reference position
   * and time, so that ramps and waves need no separate time-function type.
   */
  class SurfaceLoad : public Term
  {
  public:
    static constexpr unsigned int max_slots = 8;

    /// Declares the Load slots in 'Boundary conditions'.
    static void declare_parameters(dealii::ParameterHandler &prm);
    /// A DeadTraction or FollowerPressure per used slot.
    static std::vector<std::unique_ptr<Term>> create(dealii::ParameterHandler &prm, const TermSetup &setup);

    /// The load @p value on the faces of @p boundary_id, which the parameter @p id_parameter names.
    SurfaceLoad(const unsigned int boundary_id, std::unique_ptr<SpaceTimeFunction> value,
                const std::string &id_parameter);

    /// Checks that the mesh has the boundary id.
    void setup(const dealii::DoFHandler<3> &dof_handler, const dealii::Quadrature<3> &quadrature) override;

    Work work() const override { return Work::external; }
    bool on_boundary(const unsigned int id) const override { return id == boundary_id; }
    void add_face(const FaceState &face, CellContribution &out) const override;

  protected:
    /// Adds f_i = ∫ t0·φ_i dA on the face to @p f and, with @p K_f, ∂f/∂u to it.
    virtual void add_face_force(const FaceState &face, dealii::Vector<double> &f,
                                dealii::FullMatrix<double> *K_f) const = 0;

    const unsigned int                       boundary_id;
    const std::unique_ptr<SpaceTimeFunction> value;
    const std::string                        id_parameter;
  };

  /// A dead traction: t0 is the given force per reference area [Pa] in a fixed direction.
  class DeadTraction : public SurfaceLoad
  {
  public:
    using SurfaceLoad::SurfaceLoad;
    std::string name() const override { return "a dead traction"; }

  protected:
    void add_face_force(const FaceState &face, dealii::Vector<double> &f,
                        dealii::FullMatrix<double> *K_f) const override;
  };

  /// A follower pressure p [Pa] on the current surface, against its outward normal:
  /// t0 = −p cof(F) N = −p J F^{-T} N, whose derivative makes the tangent unsymmetric.
  class FollowerPressure : public SurfaceLoad
  {
  public:
    using SurfaceLoad::SurfaceLoad;
    std::string name() const override { return "a follower pressure load"; }
    bool        symmetric() const override { return false; }

  protected:
    void add_face_force(const FaceState &face, dealii::Vector<double> &f,
                        dealii::FullMatrix<double> *K_f) const override;
  };
} // namespace hydrostat
