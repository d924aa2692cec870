#!/bin/sh
# Regenerates the Gmsh meshes of this folder (Gmsh 4.8, Debian's gmsh; not needed to build or test
# Hydrostat, which reads the committed .msh files). Format 2.2 (-format msh2), coordinates in mm
# (cases read them with Mesh/Scale = 0.001); gmsh 4.8.4 rewrites the committed files bit for bit.
#   meshes/make_meshes.sh          every committed .msh: levels 1 and 2 of each mesh, the quadrant
#                                  tentacle at cross-section levels 2 and 3 with axial level 1, and
#                                  the 10 cm arm at levels (2, 1) and (1, 2)
#   meshes/make_meshes.sh N        size level N of every mesh (every division x N): *_nN.msh
#   meshes/make_meshes.sh N NA     cross-section level N, axial level NA: *_nNaNA.msh
set -e
cd "$(dirname "$0")"
level() { # N NA: every mesh at cross-section level N, axial level NA
  n=$1; na=$2
  suffix=_n$n
  [ "$na" = "$n" ] || suffix=${suffix}a$na
  [ "$n$na" != 11 ] || suffix=
  mesh squid_tentacle squid_tentacle.geo
  mesh squid_tentacle_quadrant squid_tentacle.geo -setnumber quadrant 1
  mesh octopus_arm_10cm octopus_arm.geo
  mesh octopus_arm_20cm octopus_arm.geo -setnumber L 200 -setnumber R0 12 -setnumber R1 1
}
mesh() { # out geo gmsh-options...
  out=$1; geo=$2; shift 2
  gmsh -3 -format msh2 -v 2 -setnumber n "$n" -setnumber na "$na" "$@" "$geo" -o "$out$suffix.msh"
  echo "wrote meshes/$out$suffix.msh"
}
for arg in "$@"; do
  case $arg in
    '' | *[!0-9]* | 0) echo "usage: $0 [N [NA]]  (size levels, positive integers)" >&2; exit 2 ;;
  esac
done
if [ $# -gt 0 ]; then
  level "$1" "${2:-$1}"
  exit 0
fi
level 1 1
level 2 2
for n in 2 3; do
  na=1; suffix=_n${n}a1
  mesh squid_tentacle_quadrant squid_tentacle.geo -setnumber quadrant 1
done
for n_na in 21 12; do # the 10 cm arm with twice the cross-section or twice the axial divisions
  n=${n_na%?}; na=${n_na#?}; suffix=_n${n}a${na}
  mesh octopus_arm_10cm octopus_arm.geo
done
gmsh -3 -format msh2 -v 2 squid_stalk_two_layers.geo -o squid_stalk_two_layers.msh
echo "wrote meshes/squid_stalk_two_layers.msh"
