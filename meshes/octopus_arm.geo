// Octopus arm: a truncated cone along z with its tissues as conforming layers (Gmsh 4.8, Debian's
// gmsh); coordinates in mm (read with Mesh/Scale = 0.001); all hexahedra.
// Size (default: the 10 cm arm of the seed paper, Vavourakis et al. 2011, data/octopus/arm_data.md):
// length L = 100 mm, base radius R0 = 5 mm (1 cm root diameter), tip radius R1 = 2 mm as in
// parameters/octopus_bending.prm (the paper gives no tip diameter). The 20 cm arm of the recent rod
// model (Tekinalp et al. 2024 after Kier & Stella 2007; data/octopus/arm_data.md) is
//   -setnumber L 200 -setnumber R0 12 -setnumber R1 1   (base radius 12 mm, taper R0/R1 = 12).
// Cross-section, inside out, at every z scaled with the local radius R(z) (shares of the cross-section
// from Kier & Stella 2007 as listed in data/octopus/arm_data.md: nerve cord 0.06, transverse 0.17,
// longitudinal 0.56, oblique 0.21; they sum to 1):
//   physical volume 7 "nerve cord"                 r < R sqrt(0.06)                 = 0.245 R
//   physical volume 1 "transverse core"            up to R sqrt(0.06 + 0.17)        = 0.480 R
//   physical volumes 2-5 "longitudinal ..."        up to R sqrt(0.79)               = 0.889 R,
//     four bundles of 0.14 each, split on the diagonals as in parameters/octopus_bending.prm:
//     2 dorsal (y > |x|), 3 ventral (-y > |x|), 4 lateral +x (x > |y|), 5 lateral -x (-x > |y|)
//   physical volume 6 "oblique layer"              up to R; its two helical families (right and
//     left, pitch angle a parameter of the case) are fibre families of one muscle group on it.
// The straight-sided rings are similar polygons scaled linearly with R(z), so each tissue's share of
// the volume is exactly the share above, at every level n.
// Boundary ids: 1 base (z = 0), 2 tip (z = L), lateral surface 0 (not a physical surface).
// Size level n multiplies every division (cells per 45-degree sector 2n (a 16-gon at n = 1); radial
// cells n, n, 2n, n; axial n_axial na = 20 na, the axial level na = n unless given):
// 4 (2n)^2 + 8 (2n)(5n) = 96 n^2 cells per section, 20 na layers.
// Regenerate with meshes/make_meshes.sh, or e.g.
//   gmsh -3 -format msh2 -setnumber n 2 octopus_arm.geo -o octopus_arm_10cm_n2.msh
DefineConstant[ n = 1, na = 0, L = 100, R0 = 5, R1 = 2, n_axial = 20 ];
s_nerve = 0.06;
s_transverse = 0.17;
s_longitudinal = 0.56;

ring_f[] = {Sqrt(s_nerve), Sqrt(s_nerve + s_transverse), Sqrt(s_nerve + s_transverse + s_longitudinal), 1};
ring_n[] = {n, n, 2 * n, n};
n_c = 2 * n;
sq = 0.55;
z_lev[] = {0, L};
r_lev[] = {R0, R1};
If (na == 0)
  na = n; // the axial level follows the size level unless given
EndIf
n_lev[] = {n_axial * na};
quadrant = 0;
Include "ogrid_arm.geo";

// sector k spans 45k..45(k+1) degrees: 1, 2 dorsal; 3, 4 lateral -x; 5, 6 ventral; 7, 0 lateral +x
bundle[] = {4, 2, 2, 5, 5, 3, 3, 4};
nerve[] = {};
transverse[] = {};
oblique[] = {};
For b In {2 : 5}
  long~{b}[] = {};
EndFor
For q In {0 : 3}
  nerve[] += 7009900 + q;
EndFor
For k In {0 : 7}
  nerve[] += 7000100 + k;
  transverse[] += 7000200 + k;
  long~{bundle[k]}[] += 7000300 + k;
  oblique[] += 7000400 + k;
EndFor
Physical Volume("transverse core", 1) = {transverse[]};
Physical Volume("longitudinal dorsal", 2) = {long~{2}[]};
Physical Volume("longitudinal ventral", 3) = {long~{3}[]};
Physical Volume("longitudinal lateral +x", 4) = {long~{4}[]};
Physical Volume("longitudinal lateral -x", 5) = {long~{5}[]};
Physical Volume("oblique layer", 6) = {oblique[]};
Physical Volume("nerve cord", 7) = {nerve[]};

base[] = {};
tip[] = {};
For q In {0 : 3}
  base[] += 4009900 + q;
  tip[] += 4019900 + q;
EndFor
For k In {0 : 7}
  For i In {1 : 4}
    base[] += 4000000 + i * 100 + k;
    tip[] += 4010000 + i * 100 + k;
  EndFor
EndFor
Physical Surface("base", 1) = {base[]};
Physical Surface("tip", 2) = {tip[]};
