// Fibre direction fields of an arm along z: unit length, the orthogonalities the families are
// meant to have, the taper of the longitudinal family (fibres keep r/R(z)), the axis convention
// and the parameter entries.
#include <hydrostat/muscle/fibre_field.h>

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace hydrostat;

namespace
{
  using Type = FibreField::Type;

  /// Octopus-like truncated cone: L = 10 cm, R0 = 5 mm, R1 = 2 mm.
  FibreField::Parameters cone(const Type type)
  {
    FibreField::Parameters p;
    p.type        = type;
    p.arm_length  = 0.1;
    p.base_radius = 5e-3;
    p.tip_radius  = 2e-3;
    p.pitch_angle = 60.0;
    p.direction   = Tensor<1, 3>({1.0, -2.0, 2.0});
    return p;
  }

  /// Points inside the cone, on the axis, and on the lateral surface.
  std::vector<Point<3>> sample_points()
  {
    std::vector<Point<3>> points;
    for (const double z : {0.0, 0.013, 0.05, 0.1})
      {
        const double R = 5e-3 + (2e-3 - 5e-3) * z / 0.1;
        points.emplace_back(0.0, 0.0, z);
        for (const double s : {0.3, 1.0})
          for (const double theta : {0.0, 0.9, 2.5, -1.7})
            points.emplace_back(s * R * std::cos(theta), s * R * std::sin(theta), z);
      }
    return points;
  }

  const Type all_types[] = {Type::longitudinal,    Type::radial,        Type::circumferential, Type::cross_section_x,
                            Type::cross_section_y, Type::helical_right, Type::helical_left,    Type::constant};
} // namespace

TEST(FibreField, UnitLengthEverywhere)
{
  for (const Type type : all_types)
    {
      const FibreField field(cone(type));
      for (const auto &X : sample_points())
        EXPECT_NEAR(field.direction(X).norm(), 1.0, 1e-15) << static_cast<int>(type) << " at " << X;
    }
}

// Orthogonal families: longitudinal ⊥ circumferential ⊥ radial; the transverse ones lie in the
// cross-section; x ⊥ y; the helices make the pitch angle with the longitudinal direction and are
// mirror images about it.
TEST(FibreField, Orthogonality)
{
  const FibreField L(cone(Type::longitudinal)), R(cone(Type::radial)), C(cone(Type::circumferential)),
    X(cone(Type::cross_section_x)), Y(cone(Type::cross_section_y)), HR(cone(Type::helical_right)),
    HL(cone(Type::helical_left));
  const Tensor<1, 3> e_z({0.0, 0.0, 1.0});
  const double       phi = 60.0 * M_PI / 180.0;
  for (const auto &P : sample_points())
    {
      EXPECT_NEAR(L.direction(P) * C.direction(P), 0.0, 1e-15);
      EXPECT_NEAR(R.direction(P) * C.direction(P), 0.0, 1e-15);
      EXPECT_NEAR(X.direction(P) * Y.direction(P), 0.0, 1e-15);
      for (const FibreField *f : {&R, &C, &X, &Y})
        EXPECT_NEAR(f->direction(P) * e_z, 0.0, 1e-15);
      EXPECT_NEAR(HR.direction(P) * L.direction(P), std::cos(phi), 1e-15);
      EXPECT_NEAR(HL.direction(P) * L.direction(P), std::cos(phi), 1e-15);
      EXPECT_NEAR(HR.direction(P) * HL.direction(P), std::cos(2 * phi), 1e-15);
      EXPECT_NEAR((HR.direction(P) + HL.direction(P) - 2 * std::cos(phi) * L.direction(P)).norm(), 0.0, 1e-15);
      // right-handed: the right helix turns counter-clockwise about +z going up the arm
      EXPECT_GT(HR.direction(P) * C.direction(P), 0.0);
    }
}

// Taper: on the lateral surface the longitudinal direction is the cone's generator
// ((R1 − R0) e_r + L e_z); on the axis it is e_z; and following the field from the base at
// r = 0.6 R0 ends at the tip at r = 0.6 R1 (RK4 in z, 200 steps: error ≈ 1e-12 relative).
TEST(FibreField, LongitudinalDirectionFollowsTaper)
{
  const FibreField field(cone(Type::longitudinal));
  for (const double theta : {0.0, 1.1, -2.6})
    for (const double z : {0.0, 0.04, 0.1})
      {
        const double       R = 5e-3 - 3e-3 * z / 0.1;
        const Point<3>     X(R * std::cos(theta), R * std::sin(theta), z);
        const Tensor<1, 3> e_r({std::cos(theta), std::sin(theta), 0.0});
        Tensor<1, 3>       generator = -3e-3 * e_r;
        generator[2]                 = 0.1;
        generator /= generator.norm();
        EXPECT_NEAR(field.direction(X) * generator, 1.0, 1e-15);
        EXPECT_NEAR((field.direction(X) - generator).norm(), 0.0, 1e-15);
      }
  EXPECT_NEAR((field.direction(Point<3>(0, 0, 0.03)) - Tensor<1, 3>({0.0, 0.0, 1.0})).norm(), 0.0, 1e-15);

  const auto dX_dz = [&](const Point<3> &X) {
    const Tensor<1, 3> t = field.direction(X);
    return t / t[2];
  };
  Point<3>           X(0.6 * 5e-3 * std::cos(0.4), 0.6 * 5e-3 * std::sin(0.4), 0.0);
  const unsigned int n  = 200;
  const double       dz = 0.1 / n;
  for (unsigned int i = 0; i < n; ++i)
    {
      const auto k1 = dX_dz(X), k2 = dX_dz(X + 0.5 * dz * k1), k3 = dX_dz(X + 0.5 * dz * k2), k4 = dX_dz(X + dz * k3);
      X += dz / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
  EXPECT_NEAR(X[2], 0.1, 1e-15);
  EXPECT_NEAR(std::hypot(X[0], X[1]), 0.6 * 2e-3, 1e-12 * 2e-3);
  EXPECT_NEAR(std::atan2(X[1], X[0]), 0.4, 1e-12); // stays in its r–z plane

  // A cylinder: e_z everywhere.
  auto p       = cone(Type::longitudinal);
  p.tip_radius = p.base_radius;
  const FibreField cylinder(p);
  for (const auto &P : sample_points())
    EXPECT_NEAR(cylinder.direction(P)[2], 1.0, 1e-15);
}

// On the axis e_r := e_x, e_θ := e_y (documented convention).
TEST(FibreField, AxisConvention)
{
  const Point<3> on_axis(0.0, 0.0, 0.02);
  EXPECT_EQ(FibreField(cone(Type::radial)).direction(on_axis), (Tensor<1, 3>({1.0, 0.0, 0.0})));
  EXPECT_EQ(FibreField(cone(Type::circumferential)).direction(on_axis), (Tensor<1, 3>({0.0, 1.0, 0.0})));
  const double phi = 60.0 * M_PI / 180.0;
  EXPECT_NEAR(
    (FibreField(cone(Type::helical_left)).direction(on_axis) - Tensor<1, 3>({0.0, -std::sin(phi), std::cos(phi)}))
      .norm(),
    0.0, 1e-15);
}

TEST(FibreField, Parameters)
{
  dealii::ParameterHandler prm;
  prm.enter_subsection("Fibres");
  FibreField::declare_parameters(prm);
  prm.leave_subsection();
  prm.parse_input_from_string("subsection Fibres\n set Fibre direction = constant\n"
                              " set Constant direction = 3, 0, 4\n set Tip radius = 0.002\n end\n");
  prm.enter_subsection("Fibres");
  const auto p = FibreField::parse_parameters(prm);
  prm.leave_subsection();
  EXPECT_EQ(p.type, Type::constant);
  EXPECT_EQ(p.tip_radius, 0.002);
  EXPECT_NEAR((FibreField(p).direction(Point<3>(1, 2, 3)) - Tensor<1, 3>({0.6, 0.0, 0.8})).norm(), 0.0, 1e-15);
  EXPECT_EQ(FibreField::type_from_string("helical right"), Type::helical_right);
  EXPECT_ANY_THROW(FibreField::type_from_string("spiral"));
}
