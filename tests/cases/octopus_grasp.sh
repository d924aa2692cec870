#!/bin/sh
# octopus_grasp.sh HYDROSTAT MPIEXEC PYTHON SOURCE_DIR: issue 27's grasp (parameters/octopus_grasp.prm:
# the bending arm and a rigid rod of radius 6 mm across its curl, frictionless, 2 ranks) to t = 0.40 s,
# past the first touch (t = 0.34 s in the full run of 2026-12-03: contact force 0.15-0.24 N while the
# arm wraps, largest penetration at a Gauss point 5.1e-6 m, closest centreline point 7.2 mm from the
# rod's axis over the whole run). Asserted from the CSVs:
#  - the run reaches t = 0.40 s and the arm touches the rod (contact force > 0.05 N at some step,
#    first touch between 0.30 and 0.38 s);
#  - no Gauss point of the surface is inside the rod by more than the tolerance: the largest
#    penetration <= 1e-5 m (0.1 % of cells of 3-10 mm);
#  - the arm's centreline stays outside the rod: every probe point >= 6 + 0.5 mm from the axis.
# Run time on 2 ranks: 63 s on an idle machine (measured 2026-12-03); TIMEOUT 180 s.
set -eu
. "$(dirname "$0")/case_run.sh"
case_directory "$(pwd)/output/octopus_grasp_short"
cd "$source"
# The run cuts its step back 3 times around the touch (measured 2026-12-03); one more fails the
# test at once.
cut_backs=3
run_case "$dir" 2 parameters/octopus_grasp.prm \
  --set "Time stepping/End time=0.4" --set "Output/Directory=$dir" --set "Output/ParaView=false"
"$python" - "$dir" <<'PY'
import csv, math, sys

directory = sys.argv[1]
rows = list(csv.DictReader(open(directory + "/octopus.csv")))
contact = list(csv.DictReader(open(directory + "/octopus_contact_1.csv")))
force = [(float(r["time"]), math.sqrt(sum(float(r["force_" + d]) ** 2 for d in "xyz"))) for r in contact]
touch = next((t for t, f in force if f > 0), None)
peak = max(f for _, f in force)
penetration = max(float(r["max_penetration"]) for r in contact)
closest = min(math.hypot(float(r[f"p{k}_y"]) - 0.02, float(r[f"p{k}_z"]) - 0.025)
              for r in rows for k in range(10))
print(f"t_end = {float(rows[-1]['time']):.4f} s; first touch at t = {touch} s; largest contact force {peak:.4f} N; "
      f"largest penetration {penetration:.3g} m; closest centreline point {1e3 * closest:.2f} mm from the rod's axis")
failures = []
if abs(float(rows[-1]["time"]) - 0.4) > 1e-9:
    failures.append("the run did not reach t = 0.4 s")
if touch is None or not 0.30 <= touch <= 0.38 or peak < 0.05:
    failures.append("the arm did not touch the rod between t = 0.30 and 0.38 s with more than 0.05 N")
if penetration > 1e-5:
    failures.append(f"a surface point is {penetration:.3g} m inside the rod (> 1e-5 m)")
if closest < 0.0065:
    failures.append(f"the centreline comes {1e3 * closest:.2f} mm near the rod's axis (< 6.5 mm)")
for failure in failures:
    print("FAIL: " + failure)
sys.exit(1 if failures else 0)
PY
