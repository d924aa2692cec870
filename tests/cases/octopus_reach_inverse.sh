#!/bin/sh
# octopus_reach_inverse.sh HYDROSTAT MPIEXEC PYTHON SOURCE_DIR: issue 28's reaching by inverse
# activation (parameters/octopus_reach_inverse.prm: five groups of the octopus arm chosen so that
# the tip follows a path) to t = 0.1 s on 2 ranks, then its replay. Asserted:
#  - the tip follows its target to 1e-7 m (measured: at most 3.0e-8 m, 2026-12-04);
#  - the replay (the activations as tables, a plain forward run) repeats the inverse run's probes
#    to 1e-9 m;
#  - the dorsal bundle, which bends the tip towards +y, carries the largest activation.
# Run time on 2 ranks: about 15 s for both runs (measured 2026-12-04); TIMEOUT 60 s.
set -eu
. "$(dirname "$0")/case_run.sh"
case_directory "$(pwd)/output/octopus_reach_inverse_short"
cd "$source"
run_inverse "$dir" 2 parameters/octopus_reach_inverse.prm octopus 0.1 1e-7
"$python" - "$dir" <<'PY'
import csv, sys

rows = list(csv.DictReader(open(sys.argv[1] + "/octopus_inverse.csv")))
last = rows[-1]
groups = [c for c in last if c not in ("time", "updates") and not c.startswith("error_")]
if max(groups, key=lambda g: float(last[g])) != "longitudinal_dorsal":
    print("FAIL: the dorsal bundle does not carry the largest activation")
    sys.exit(1)
PY
