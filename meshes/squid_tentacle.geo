// Squid tentacle (Loligo): stalk with its tissues as conforming layers, and the passive club at the
// tip. Gmsh 4.8 (Debian's gmsh); coordinates in mm (read with Mesh/Scale = 0.001); all hexahedra.
// Geometry of parameters/squid_extension.prm: radius R = 3.7 mm, stalk 53.14 mm, club 39.86 mm
// (data/squid/kier1997_envelope.md, after Van Leeuwen & Kier 1997).
// Stalk cross-section, inside out (Kier 1982's tentacle anatomy, as the shares of
// data/squid/kier1997_envelope.md: nerve cord 0.015, transverse 0.70, helical 0.10,
// longitudinal 0.18; the 0.005 they leave unassigned goes to the outer, longitudinal layer):
//   physical volume 4 "nerve cord"            r < R sqrt(0.015)                 = 0.453 mm
//   physical volume 1 "transverse core"       up to R sqrt(0.015 + 0.70)        = 3.129 mm
//   physical volume 3 "helical layer"         up to R sqrt(0.815)               = 3.340 mm
//   physical volume 2 "longitudinal annulus"  up to R                           = 3.7 mm
//   physical volume 5 "club"                  53.14 < z < 93 mm, all of the cross-section
// (ids 1 and 2 as in squid_stalk_two_layers.geo). The straight-sided rings are similar polygons,
// so each ring's share of the stalk volume is exactly the share above at every level n.
// Boundary ids: 1 base (z = 0), 2 tip (z = 93 mm), lateral surface 0 (not a physical surface);
// quadrant = 1 (x >= 0, y >= 0) also 3 on the symmetry plane x = 0 and 4 on y = 0, as Hydrostat's
// built-in quarter cylinder.
// Size level n multiplies every division (cells per 45-degree sector 2n; radial cells n, 3n, n, n;
// axial 14na in the stalk, 10na in the club; the axial level na = n unless given): a quadrant
// has 28 n^2 cells per section, 24 na layers.
// Regenerate with meshes/make_meshes.sh, or e.g.
//   gmsh -3 -format msh2 -setnumber quadrant 1 -setnumber n 2 squid_tentacle.geo -o squid_tentacle_quadrant_n2.msh
// (add -setnumber na 1 for cross-section level 2 with the axial layers of level 1: *_n2a1.msh)
DefineConstant[ n = 1, na = 0, quadrant = 0 ];
R = 3.7;
L_stalk = 53.14;
L_club = 39.86;
s_nerve = 0.015;
s_transverse = 0.70;
s_helical = 0.10;

ring_f[] = {Sqrt(s_nerve), Sqrt(s_nerve + s_transverse), Sqrt(s_nerve + s_transverse + s_helical), 1};
ring_n[] = {n, 3 * n, n, n};
n_c = 2 * n;
sq = 0.55;
z_lev[] = {0, L_stalk, L_stalk + L_club};
r_lev[] = {R, R, R};
If (na == 0)
  na = n; // the axial level follows the size level unless given
EndIf
n_lev[] = {14 * na, 10 * na};
Include "ogrid_arm.geo";

// tissue of ring i (1 = nerve cord incl. the centre square) in the stalk; the club is one tissue
tissue[] = {4, 1, 3, 2};
For t In {0 : 3}
  vols~{t}[] = {};
EndFor
club[] = {};
For q In {0 : n_q - 1}
  vols~{0}[] += 7000000 + 9900 + q;
  club[] += 7000000 + 10000 + 9900 + q;
EndFor
For k In {0 : n_k - 1}
  For i In {1 : nr}
    vols~{i - 1}[] += 7000000 + i * 100 + k;
    club[] += 7000000 + 10000 + i * 100 + k;
  EndFor
EndFor
Physical Volume("transverse core", 1) = {vols~{1}[]};
Physical Volume("longitudinal annulus", 2) = {vols~{3}[]};
Physical Volume("helical layer", 3) = {vols~{2}[]};
Physical Volume("nerve cord", 4) = {vols~{0}[]};
Physical Volume("club", 5) = {club[]};

base[] = {};
tip[] = {};
For q In {0 : n_q - 1}
  base[] += 4000000 + 9900 + q;
  tip[] += 4000000 + (nl - 1) * 10000 + 9900 + q;
EndFor
For k In {0 : n_k - 1}
  For i In {1 : nr}
    base[] += 4000000 + i * 100 + k;
    tip[] += 4000000 + (nl - 1) * 10000 + i * 100 + k;
  EndFor
EndFor
Physical Surface("base", 1) = {base[]};
Physical Surface("tip", 2) = {tip[]};
If (quadrant)
  // the spoke faces at angle 90 degrees (a = 2: x = 0) and 0 degrees (a = 0: y = 0)
  sym_x[] = {};
  sym_y[] = {};
  For j In {0 : nl - 2}
    For i In {0 : nr}
      sym_x[] += 6000000 + j * 10000 + i * 100 + 2;
      sym_y[] += 6000000 + j * 10000 + i * 100;
    EndFor
  EndFor
  Physical Surface("symmetry x = 0", 3) = {sym_x[]};
  Physical Surface("symmetry y = 0", 4) = {sym_y[]};
EndIf
