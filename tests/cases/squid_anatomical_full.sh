#!/bin/sh
# squid_anatomical_full.sh HYDROSTAT MPIEXEC PYTHON SOURCE_DIR: issue 13's squid strike on the
# anatomical full-cylinder mesh (parameters/squid_extension_anatomical_full.prm,
# meshes/squid_tentacle.msh: the four quadrants of meshes/squid_tentacle_quadrant.msh, base held
# axially, rigid motions removed by two base points) against the quadrant with its two symmetry
# planes (parameters/squid_extension_anatomical.prm), both run to 20 ms (5.5 ms past the onset of
# motion, tip 0.59 mm out at 0.24 m/s) on 2 ranks. The mesh is four copies of the quadrant and the
# loading is symmetric, so the two must give the same tip displacement up to the solver tolerance.
# Asserted at t = 20 ms:
#  - the tip's axial displacement equal to the quadrant's to 1e-6 relative: Newton stops each step at
#    a residual of 1e-8 of the force scale and an update of 1e-8 of |u|, so the two runs may drift
#    apart by ~1e-8 per step; 1e-6 leaves 100 x for the 40 steps. Measured: they agree to ~1e-11
#    (the full 100 ms run to 2e-13 m of 25.6 mm, doc/reference_cases.md);
#  - the tip's lateral displacement |u_x|, |u_y| <= 1e-6 of the axial one (0 by symmetry; measured
#    ~1e-12 m), so a point constraint that breaks the symmetry fails;
#  - the quadrant's tip axial displacement 0.59 mm +- 10 %, so that the comparison is not one of
#    two runs that did not move.
# Checked to fail (2026-12-01): the base point (0, R, 0) held in y instead of x gives -1.7e-5 axial
# and u_y = -2.1e-8 m; the quadrant mesh with the full case's constraints -1.6e-3 and 5.9 um
# laterally; without the case's Newton/Absolute residual, with the default of the time (1e-12 N), the
# full run stopped at 3.9 ms. Point constraints that match no vertex (e.g. given in mm) are an input
# error (cli/point_constraint_off_mesh).
set -eu
. "$(dirname "$0")/case_run.sh"
case_directory output/squid_anatomical_full_short output/squid_anatomical_full_short/quadrant \
  output/squid_anatomical_full_short/full
use_numpy_python "$python"
cd "$source"
for run in quadrant full; do
  case $run in
    quadrant) prm=parameters/squid_extension_anatomical.prm ;;
    full) prm=parameters/squid_extension_anatomical_full.prm ;;
  esac
  run_case "$OLDPWD/$dir/$run" 2 "$prm" --set "Time stepping/End time=0.02" \
    --set "Output/Directory=$OLDPWD/$dir/$run" --set "Output/ParaView=false"
done
"$python" - "$source/postprocess" "$OLDPWD/$dir" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import squid_metrics as sm

quadrant, full = (sm.load(f"{sys.argv[2]}/{case}/squid.csv") for case in ("quadrant", "full"))
failures = []
for name, data in (("quadrant", quadrant), ("full", full)):
    if abs(data["time"][-1] - 0.02) > 1e-9:
        failures.append(f"the {name} run did not reach t = 20 ms")
uz_q, uz_f = quadrant["p0_uz"][-1], full["p0_uz"][-1]
ux_f, uy_f = full["p0_ux"][-1], full["p0_uy"][-1]
print(f"tip displacement at t = 20 ms: quadrant u_z = {uz_q:.12e} m; full u_z = {uz_f:.12e} m "
      f"(relative difference {(uz_f - uz_q) / uz_q:+.2e}), u_x = {ux_f:+.2e} m, u_y = {uy_f:+.2e} m")
if abs(uz_q / 0.00059 - 1) > 0.1:
    failures.append(f"quadrant tip axial displacement {uz_q:.4e} m, not 0.59 mm +- 10 %")
if abs(uz_f - uz_q) > 1e-6 * abs(uz_q):
    failures.append("full-cylinder tip axial displacement differs from the quadrant's by more than 1e-6")
if max(abs(ux_f), abs(uy_f)) > 1e-6 * abs(uz_q):
    failures.append("full-cylinder tip moves laterally by more than 1e-6 of its axial displacement")
for failure in failures:
    print("FAIL: " + failure)
if not failures:
    print("PASS")
sys.exit(1 if failures else 0)
PY
