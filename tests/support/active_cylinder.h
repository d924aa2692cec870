#pragma once
// The active cylinder of the closed forms (theory.md eqs. (58)–(59)): Mooney–Rivlin c1 = 1 kPa,
// c2 = 0.4 kPa, K = 2.8 MPa, L = 20 mm, R = 5 mm, free ends and free lateral surface (the base held
// axially, rigid motions by two points), one group of fibres of the constant law with σmax = 6 kPa,
// quasi-static in steps of 0.25 s to t = 1, direct solver, no ParaView, the end's centre and a
// point of the mid-section's rim as probes.
#include <string>

namespace hydrostat::test_support
{
  /// The case with the element @p formulation, the group's @p families, the lines of its
  /// Activation subsection @p activation, and @p extra appended.
  inline std::string active_cylinder(const std::string &formulation, const std::string &families,
                                     const std::string &activation, const std::string &extra = "")
  {
    return R"(
subsection Mesh
  set Type = cylinder
  set Length = 0.02
  set Radius = 0.005
  set Axial subdivisions = 4
end
subsection Materials
  subsection Material 0
    set c1 = 1e3
    set c2 = 4e2
    set Bulk modulus = 2.8e6
  end
end
subsection Finite element
  set Formulation = )" +
           formulation + R"(
end
subsection Boundary conditions
  subsection Constraint 1
    set Boundary id = 1
    set Components = z
  end
  set Point constraints = 0, 0, 0: xy; 0.005, 0, 0: y
end
subsection Muscles
  set Number of groups = 1
  subsection Group 1
    set Name = fibres
    set Fibre families = )" +
           families + R"(
    set Law = constant
    subsection Muscle law
      set Maximum isometric stress = 6e3
    end
    subsection Activation
)" + activation +
           R"(    end
  end
end
subsection Time integration
  set Mode = quasi-static
end
subsection Time stepping
  set Time step = 0.25
  set End time = 1
end
subsection Newton
  set Relative residual = 1e-12
end
subsection Linear solver
  set Solver type = direct
end
subsection Output
  set ParaView = false
  set Probe points = 0, 0, 0.02; 0.005, 0, 0.01
end
)" + extra;
  }
} // namespace hydrostat::test_support
