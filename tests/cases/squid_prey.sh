#!/bin/sh
# squid_prey.sh HYDROSTAT MPIEXEC PYTHON SOURCE_DIR: issue 27's prey strike (parameters/squid_prey_strike.prm:
# the squid strike with a fixed rigid sphere 15 mm ahead of the club's tip, the tip's nodes massless)
# to t = 0.04 s on 2 ranks, 7 ms past the first touch (measured 2026-12-03: touch at 33.0 ms at a
# club speed of 1.84 m/s, then 0.65-1.69 N on the whole tentacle, largest penetration 4.1e-6 m;
# 1 rank gives the same forces to 1e-9 N). Asserted from the CSVs:
#  - the club touches between 32 and 34 ms at more than 1.5 m/s;
#  - no chatter: from 0.5 ms after the touch on, the force never drops below 0.3 N (with the
#    standard mass it is 0 at steps in between, and the run cuts its step back 15 times by 40 ms);
#  - the impact does not pump energy in: the contact work is <= 0;
#  - nothing passes into the prey: the largest penetration <= 1e-5 m and the tip stays behind the
#    sphere's surface (z = 108 mm) by at most that.
# Run time on 2 ranks: 6 s on an idle machine, 91 steps with 4 cut-backs (constant-velocity
# predictor, measured 2026-12-05; 13 s, 99 steps, 6 cut-backs with the default predictor); TIMEOUT 60 s.
set -eu
. "$(dirname "$0")/case_run.sh"
case_directory "$(pwd)/output/squid_prey_short"
cd "$source"
cut_backs=8
run_case "$dir" 2 parameters/squid_prey_strike.prm \
  --set "Time stepping/End time=0.04" --set "Output/Directory=$dir" --set "Output/ParaView=false"
"$python" - "$dir" <<'PY'
import csv, sys

directory = sys.argv[1]
rows = {r["step"]: r for r in csv.DictReader(open(directory + "/squid.csv"))}
contact = list(csv.DictReader(open(directory + "/squid_contact_1.csv")))
series = [(float(c["time"]), -4 * float(c["force_z"]), float(rows[c["step"]]["p3_vz"]), float(rows[c["step"]]["p0_z"]))
          for c in contact]
touch = next((k for k, s in enumerate(series) if s[1] > 0), None)
failures = []
if abs(series[-1][0] - 0.04) > 1e-9:
    failures.append("the run did not reach t = 0.04 s")
if touch is None:
    failures.append("the club does not touch the prey")
else:
    t0, speed = series[touch][0], series[touch - 1][2]
    pushed = [f for t, f, _, _ in series if t >= t0 + 5e-4]
    work = float(contact[-1]["contact_work"])
    penetration = max(float(c["max_penetration"]) for c in contact)
    tip = max(z for _, _, _, z in series)
    print(f"first touch at t = {1e3 * t0:.2f} ms at {speed:.3f} m/s; force {min(pushed):.3f}-{max(pushed):.3f} N "
          f"from 0.5 ms later; contact work {work:.3g} J (quadrant); largest penetration {penetration:.3g} m; "
          f"tip at most at z = {1e3 * tip:.4f} mm")
    if not 0.032 <= t0 <= 0.034 or speed < 1.5:
        failures.append("the club does not hit between 32 and 34 ms at more than 1.5 m/s")
    if min(pushed) < 0.3:
        failures.append(f"the contact force drops to {min(pushed):.3g} N while the stalk pushes (chatter)")
    if work > 0:
        failures.append(f"the impact pumps energy in: contact work {work:.3g} J > 0")
    if penetration > 1e-5 or tip > 0.108 + 1e-5:
        failures.append(f"the club passes into the prey: penetration {penetration:.3g} m, tip at {tip} m")
for failure in failures:
    print("FAIL: " + failure)
sys.exit(1 if failures else 0)
PY
