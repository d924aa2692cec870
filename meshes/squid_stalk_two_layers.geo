// Squid tentacle stalk as two conforming tissue layers (Gmsh 4.8, Debian's gmsh).
// A straight cylinder along z in millimetres (read it with Mesh/Scale = 0.001): radius R, length L,
// a transverse-muscle core r < f R and a longitudinal-muscle annulus f R < r < R, so that the layer
// boundary r = f R is a mesh surface and each tissue is one physical volume: the muscle groups of a
// case select it by material id instead of a radius test at the quadrature points. All hexahedra:
// an O-grid cross-section (a square in the centre, four core sectors, four annulus sectors), each
// face transfinite and recombined, extruded along z in n_axial layers.
// Regenerate: gmsh -3 -format msh2 squid_stalk_two_layers.geo -o squid_stalk_two_layers.msh
// (-setnumber n_section 4 -setnumber n_axial 40 ... for a finer mesh).
//   physical volume  1 "transverse core"        -> material id 1
//   physical volume  2 "longitudinal annulus"   -> material id 2
//   physical surface 1 "base" (z = 0)           -> boundary id 1
//   physical surface 2 "tip" (z = L)            -> boundary id 2
//   the lateral surface r = R                   -> boundary id 0 (Hydrostat's default)
DefineConstant[ R = 3.7, L = 53.14, f = 0.84, n_section = 2, n_core = 2, n_annulus = 1, n_axial = 20 ];

Rc = f * R;   // layer boundary
s  = 0.4 * Rc; // half side of the centre square
c  = Cos(Pi / 4);

Point(1) = {0, 0, 0};
// centre square, core circle and outer circle, each at the four diagonals
For k In {0 : 3}
  a = Pi / 4 + k * Pi / 2;
  Point(10 + k) = {s * Sqrt(2) * Cos(a), s * Sqrt(2) * Sin(a), 0};
  Point(20 + k) = {Rc * Cos(a), Rc * Sin(a), 0};
  Point(30 + k) = {R * Cos(a), R * Sin(a), 0};
EndFor

For k In {0 : 3}
  k1 = (k + 1) % 4;
  Line(100 + k)   = {10 + k, 10 + k1};     // square edge
  Circle(200 + k) = {20 + k, 1, 20 + k1};  // core arc
  Circle(300 + k) = {30 + k, 1, 30 + k1};  // outer arc
  Line(400 + k)   = {10 + k, 20 + k};      // spoke through the core
  Line(500 + k)   = {20 + k, 30 + k};      // spoke through the annulus
EndFor

Curve Loop(1) = {100, 101, 102, 103};
Plane Surface(1) = {1};
For k In {0 : 3}
  k1 = (k + 1) % 4;
  Curve Loop(10 + k) = {400 + k, 200 + k, -(400 + k1), -(100 + k)};
  Plane Surface(10 + k) = {10 + k};
  Curve Loop(20 + k) = {500 + k, 300 + k, -(500 + k1), -(200 + k)};
  Plane Surface(20 + k) = {20 + k};
EndFor

Transfinite Curve{100 : 103, 200 : 203, 300 : 303} = n_section + 1;
Transfinite Curve{400 : 403} = n_core + 1;
Transfinite Curve{500 : 503} = n_annulus + 1;
Transfinite Surface{1, 10 : 13, 20 : 23};
Recombine Surface{1, 10 : 13, 20 : 23};

core[] = {};
annulus[] = {};
tip[] = {};
e[] = Extrude {0, 0, L} { Surface{1}; Layers{n_axial}; Recombine; };
tip[] += e[0]; core[] += e[1];
For k In {0 : 3}
  e[] = Extrude {0, 0, L} { Surface{10 + k}; Layers{n_axial}; Recombine; };
  tip[] += e[0]; core[] += e[1];
  e[] = Extrude {0, 0, L} { Surface{20 + k}; Layers{n_axial}; Recombine; };
  tip[] += e[0]; annulus[] += e[1];
EndFor

Physical Volume("transverse core", 1) = {core[]};
Physical Volume("longitudinal annulus", 2) = {annulus[]};
Physical Surface("base", 1) = {1, 10 : 13, 20 : 23};
Physical Surface("tip", 2) = {tip[]};
