#!/bin/sh
# Regenerates the committed Gmsh meshes of this folder (Gmsh 4.8, Debian's gmsh; not needed to build
# or test Hydrostat, which reads the committed .msh files).
#   meshes/make_meshes.sh        the default level (n = 1): squid_tentacle.msh, ...
#   meshes/make_meshes.sh 2      size level 2 (every division x 2): squid_tentacle_n2.msh, ...
# Format 2.2 (-format msh2), coordinates in mm (cases read them with Mesh/Scale = 0.001).
set -e
cd "$(dirname "$0")"
n=${1:-1}
case $n in
  '' | *[!0-9]* | 0) echo "usage: $0 [size level, a positive integer]" >&2; exit 2 ;;
esac
suffix=
[ "$n" = 1 ] || suffix=_n$n
mesh() { # output geo gmsh-options...
  out=$1; geo=$2; shift 2
  gmsh -3 -format msh2 -v 2 -setnumber n "$n" "$@" "$geo" -o "$out$suffix.msh"
  echo "wrote meshes/$out$suffix.msh"
}
mesh squid_tentacle squid_tentacle.geo
mesh squid_tentacle_quadrant squid_tentacle.geo -setnumber quadrant 1
mesh octopus_arm_10cm octopus_arm.geo
mesh octopus_arm_20cm octopus_arm.geo -setnumber L 200 -setnumber R0 12 -setnumber R1 1
[ "$n" != 1 ] || gmsh -3 -format msh2 -v 2 squid_stalk_two_layers.geo -o squid_stalk_two_layers.msh
