#!/bin/sh
# squid_strike_inverse.sh HYDROSTAT MPIEXEC PYTHON SOURCE_DIR: issue 28's squid strike from the data
# (parameters/squid_strike_inverse.prm: the transverse activation that makes the stalk's end follow
# the measured extension) to t = 0.012 s on 2 ranks, then its replay. Asserted:
#  - the stalk's end follows its target to 5e-5 m (measured: at most 2.2e-5 m, 2026-12-04);
#  - the activation rises to more than 0.8 by 12 ms (measured 0.943 at 12 ms, 0.505 at 6 ms);
#  - the replay repeats the inverse run's probes to 1e-9 m.
# Run time on 2 ranks: about 8 s for both runs (measured 2026-12-04); TIMEOUT 60 s.
set -eu
. "$(dirname "$0")/case_run.sh"
case_directory "$(pwd)/output/squid_strike_inverse_short"
cd "$source"
run_inverse "$dir" 2 parameters/squid_strike_inverse.prm squid 0.012 5e-5
"$python" - "$dir" <<'PY'
import csv, sys

rows = list(csv.DictReader(open(sys.argv[1] + "/squid_inverse.csv")))
if float(rows[-1]["transverse"]) < 0.8:
    print(f"FAIL: the activation is {rows[-1]['transverse']} at 12 ms, not above 0.8")
    sys.exit(1)
PY
