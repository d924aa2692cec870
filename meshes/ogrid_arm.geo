// O-grid arm builder, included by squid_tentacle.geo and octopus_arm.geo (Gmsh 4.8, built-in kernel).
// Builds an arm along z whose cross-section is a set of concentric tissue rings around a centre
// square, lofted between axial levels z_lev[j] with local radius r_lev[j] (a cylinder when all
// radii are equal, a truncated cone when they fall linearly), all hexahedra (transfinite,
// recombined). Every ring boundary is a mesh surface, so a tissue is a set of whole cells.
//
// Input (set by the including file):
//   ring_f[]  outer radius of ring i = 1..nr as a fraction of the local radius (last = 1)
//   ring_n[]  radial cells of ring i
//   n_c       cells per 45-degree sector of the circumference (and per side of a quarter square)
//   sq        half side of the centre square as a fraction of ring_f[0]
//   z_lev[], r_lev[], n_lev[]  axial levels, local radius there, cells of each segment j -> j+1
//   quadrant  1: x >= 0, y >= 0 only (sectors 0, 1); 0: the full circle (sectors 0..7)
// The cross-section is split into 45-degree sectors k (angles 45k..45(k+1) degrees) and quarter
// squares q (the quadrant x, y rotated by 90q degrees); the full mesh is 4 copies of the quadrant.
// Every ring's nodes lie on its circle at the same angles, so each ring of the (straight-sided)
// mesh is a polygon annulus similar to the outer one: its area share is exactly
// (ring_f[i]^2 - ring_f[i-1]^2), at every mesh level, and in a cone at every z.
//
// Entity numbers (j level, i ring with 0 = square boundary, a angle index, k sector, q square):
//   point   P(j, i, a) = j*10000 + i*100 + a + 1, centre j*10000 + 9901
//   volumes V(j, i, k) = 7000000 + j*10000 + i*100 + k  (segment j -> j+1, ring i >= 1)
//           square     7000000 + j*10000 + 9900 + q
//   faces   H(j, i, k) = 4000000 + ..., H square 4000000 + j*10000 + 9900 + q (normal to z)
//           over a radial spoke at angle a: 6000000 + j*10000 + i*100 + a (i = 0: centre to square)
nr = #ring_f[];
nl = #z_lev[];
If (quadrant)
  n_a = 3;  n_k = 2; n_q = 1;
Else
  n_a = 8;  n_k = 8; n_q = 4;
EndIf

For j In {0 : nl - 1}
  Point(j * 10000 + 9901) = {0, 0, z_lev[j]};
  For a In {0 : n_a - 1}
    t = a * Pi / 4;
    // the square boundary: on the axes at distance s, at the corners s*sqrt(2)
    d = sq * ring_f[0] * r_lev[j] * ((a % 2) ? Sqrt(2) : 1);
    Point(j * 10000 + a + 1) = {d * Cos(t), d * Sin(t), z_lev[j]};
    For i In {1 : nr}
      Point(j * 10000 + i * 100 + a + 1) = {ring_f[i - 1] * r_lev[j] * Cos(t), ring_f[i - 1] * r_lev[j] * Sin(t), z_lev[j]};
    EndFor
  EndFor
  For k In {0 : n_k - 1}
    k1 = (k + 1) % 8;
    Line(1000000 + j * 10000 + k) = {j * 10000 + k + 1, j * 10000 + k1 + 1};
    For i In {1 : nr}
      Circle(1000000 + j * 10000 + i * 100 + k) = {j * 10000 + i * 100 + k + 1, j * 10000 + 9901, j * 10000 + i * 100 + k1 + 1};
    EndFor
  EndFor
  For a In {0 : n_a - 1}
    If (a % 2 == 0)
      Line(2000000 + j * 10000 + a) = {j * 10000 + 9901, j * 10000 + a + 1};
    EndIf
    For i In {1 : nr}
      Line(2000000 + j * 10000 + i * 100 + a) = {j * 10000 + (i - 1) * 100 + a + 1, j * 10000 + i * 100 + a + 1};
    EndFor
  EndFor
  // faces normal to z
  For q In {0 : n_q - 1}
    Curve Loop(4000000 + j * 10000 + 9900 + q) = {2000000 + j * 10000 + 2 * q, 1000000 + j * 10000 + 2 * q,
      1000000 + j * 10000 + 2 * q + 1, -(2000000 + j * 10000 + (2 * q + 2) % 8)};
    Plane Surface(4000000 + j * 10000 + 9900 + q) = {4000000 + j * 10000 + 9900 + q};
  EndFor
  For k In {0 : n_k - 1}
    k1 = (k + 1) % 8;
    For i In {1 : nr}
      Curve Loop(4000000 + j * 10000 + i * 100 + k) = {2000000 + j * 10000 + i * 100 + k, 1000000 + j * 10000 + i * 100 + k,
        -(2000000 + j * 10000 + i * 100 + k1), -(1000000 + j * 10000 + (i - 1) * 100 + k)};
      Plane Surface(4000000 + j * 10000 + i * 100 + k) = {4000000 + j * 10000 + i * 100 + k};
    EndFor
  EndFor
EndFor

// lines along the arm, and the faces they span
For j In {0 : nl - 2}
  Line(3000000 + j * 10000 + 9900) = {j * 10000 + 9901, (j + 1) * 10000 + 9901};
  For a In {0 : n_a - 1}
    For i In {0 : nr}
      Line(3000000 + j * 10000 + i * 100 + a) = {j * 10000 + i * 100 + a + 1, (j + 1) * 10000 + i * 100 + a + 1};
    EndFor
  EndFor
  For k In {0 : n_k - 1}
    k1 = (k + 1) % 8;
    For i In {0 : nr}
      Curve Loop(5000000 + j * 10000 + i * 100 + k) = {1000000 + j * 10000 + i * 100 + k, 3000000 + j * 10000 + i * 100 + k1,
        -(1000000 + (j + 1) * 10000 + i * 100 + k), -(3000000 + j * 10000 + i * 100 + k)};
      Surface(5000000 + j * 10000 + i * 100 + k) = {5000000 + j * 10000 + i * 100 + k};
    EndFor
  EndFor
  For a In {0 : n_a - 1}
    If (a % 2 == 0)
      Curve Loop(6000000 + j * 10000 + a) = {2000000 + j * 10000 + a, 3000000 + j * 10000 + a,
        -(2000000 + (j + 1) * 10000 + a), -(3000000 + j * 10000 + 9900)};
      Surface(6000000 + j * 10000 + a) = {6000000 + j * 10000 + a};
    EndIf
    For i In {1 : nr}
      Curve Loop(6000000 + j * 10000 + i * 100 + a) = {2000000 + j * 10000 + i * 100 + a, 3000000 + j * 10000 + i * 100 + a,
        -(2000000 + (j + 1) * 10000 + i * 100 + a), -(3000000 + j * 10000 + (i - 1) * 100 + a)};
      Surface(6000000 + j * 10000 + i * 100 + a) = {6000000 + j * 10000 + i * 100 + a};
    EndFor
  EndFor
  For q In {0 : n_q - 1}
    Surface Loop(7000000 + j * 10000 + 9900 + q) = {4000000 + j * 10000 + 9900 + q, 4000000 + (j + 1) * 10000 + 9900 + q,
      5000000 + j * 10000 + 2 * q, 5000000 + j * 10000 + 2 * q + 1, 6000000 + j * 10000 + 2 * q,
      6000000 + j * 10000 + (2 * q + 2) % 8};
    Volume(7000000 + j * 10000 + 9900 + q) = {7000000 + j * 10000 + 9900 + q};
  EndFor
  For k In {0 : n_k - 1}
    k1 = (k + 1) % 8;
    For i In {1 : nr}
      Surface Loop(7000000 + j * 10000 + i * 100 + k) = {4000000 + j * 10000 + i * 100 + k, 4000000 + (j + 1) * 10000 + i * 100 + k,
        5000000 + j * 10000 + i * 100 + k, 5000000 + j * 10000 + (i - 1) * 100 + k,
        6000000 + j * 10000 + i * 100 + k, 6000000 + j * 10000 + i * 100 + k1};
      Volume(7000000 + j * 10000 + i * 100 + k) = {7000000 + j * 10000 + i * 100 + k};
    EndFor
  EndFor
EndFor

// divisions: n_c around each 45-degree sector, ring_n[i] across ring i, n_lev[j] along segment j
For j In {0 : nl - 1}
  For k In {0 : n_k - 1}
    For i In {0 : nr}
      Transfinite Curve{1000000 + j * 10000 + i * 100 + k} = n_c + 1;
    EndFor
  EndFor
  For a In {0 : n_a - 1}
    If (a % 2 == 0)
      Transfinite Curve{2000000 + j * 10000 + a} = n_c + 1;
    EndIf
    For i In {1 : nr}
      Transfinite Curve{2000000 + j * 10000 + i * 100 + a} = ring_n[i - 1] + 1;
    EndFor
  EndFor
  If (j < nl - 1)
    Transfinite Curve{3000000 + j * 10000 + 9900} = n_lev[j] + 1;
    For a In {0 : n_a - 1}
      For i In {0 : nr}
        Transfinite Curve{3000000 + j * 10000 + i * 100 + a} = n_lev[j] + 1;
      EndFor
    EndFor
  EndIf
EndFor
Transfinite Surface{:};
Recombine Surface{:};
Transfinite Volume{:};
