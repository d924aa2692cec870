#!/bin/sh
# octopus_reach_bell_inverse.sh HYDROSTAT MPIEXEC PYTHON SOURCE_DIR: issue 28's reach with a
# bell-shaped bend-point speed by inverse activation (parameters/octopus_reach_bell_inverse.prm:
# the dorsal and transverse activation profiles of 11 nodes each that make the 20 axis points
# follow the retimed reach) to t = 0.25 s on 2 ranks, then its replay. Asserted:
#  - every marker within 3 mm of its target (measured: at most 2.3 mm at 0.14 s, when the bend
#    forms, 0.74 mm at 0.25 s; 2026-12-04);
#  - the replay (the node activations as tables) repeats the inverse run's probes to 1e-7 m
#    (measured 1.4e-8 m on 2026-12-05, with Newton/Maximum update = 5 mm: in this reach the
#    Newton tolerance's differences grow, from 1e-13 m before 0.17 s; 0.2 mm at the end of the
#    full run);
#  - the answer is a travelling wave: the dorsal profile's peak node lies at the base at 0.1 s and
#    at Z >= 30 mm at 0.25 s, and the transverse activation behind it (Z <= 20 mm) is 0.7-0.9 at
#    0.25 s (the level 0.8 of the forward run that made the targets).
# Run time on 2 ranks: about 15 s for both runs (measured 2026-12-04); TIMEOUT 60 s.
set -eu
. "$(dirname "$0")/case_run.sh"
cut_backs=1
case_directory "$(pwd)/output/octopus_reach_bell_inverse_short"
cd "$source"
run_inverse "$dir" 2 parameters/octopus_reach_bell_inverse.prm octopus 0.25 3e-3 1e-7
"$python" - "$dir" <<'PY'
import csv, sys

rows = list(csv.DictReader(open(sys.argv[1] + "/octopus_inverse.csv")))
def at(time):
    return min(rows, key=lambda r: abs(float(r["time"]) - time))
def profile(row, name):
    return [float(row[f"{name}_{k}"]) for k in range(1, 12)]
early, late = profile(at(0.1), "longitudinal_dorsal"), profile(at(0.25), "longitudinal_dorsal")
peak_early, peak_late = 10 * early.index(max(early)), 10 * late.index(max(late))
stiffening = profile(at(0.25), "transverse")[:3]
print(f"dorsal peak node at Z = {peak_early} mm (0.1 s) and {peak_late} mm (0.25 s); transverse at Z <= 20 mm, "
      f"0.25 s: {', '.join(f'{a:.2f}' for a in stiffening)}")
if peak_early != 0 or peak_late < 30:
    print("FAIL: the dorsal activation does not travel from the base")
    sys.exit(1)
if not all(0.7 <= a <= 0.9 for a in stiffening):
    print("FAIL: the transverse activation behind the bend is not the forward run's 0.8")
    sys.exit(1)
PY
