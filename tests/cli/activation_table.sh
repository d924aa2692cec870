#!/bin/sh
# activation_table.sh HYDROSTAT MPIEXEC PYTHON: a tabulated activation (Source = table) gives the run of the same
# activation written as an expression: inputs/muscle_box.prm with fa = min(t / 4 ms, 1) over ten
# quasi-static steps, once as 'Level' and once as inputs/activation_table.csv (rows 0, 0.004 and
# 0.01 s: the same piecewise-linear function), on 1 rank and on 2. The probe at the free corner
# must agree to round-off (1e-12 relative).
set -eu
hydrostat=$1
mpiexec=$2
python=$3
out=output/activation_table
rm -rf "$out"
run() { # run NAME RANKS ARGS...
  name=$1 ranks=$2
  shift 2
  "$mpiexec" --oversubscribe -np "$ranks" "$hydrostat" inputs/muscle_box.prm --set "Time stepping/Time step=0.001" \
    --set "Output/Probe points=0.01, 0.01, 0.01" --set "Output/Directory=$out/$name" "$@" > "$out.$name.log" 2>&1 ||
    { cat "$out.$name.log"; echo "FAIL: run $name"; exit 1; }
}
mkdir -p "$out"
run expression 1 --set "Muscles/Group 1/Activation/Source=expression" --set "Muscles/Group 1/Activation/Level=min(t / 0.004, 1)"
run table 1 --set "Muscles/Group 1/Activation/Source=table" --set "Muscles/Group 1/Activation/Table file=inputs/activation_table.csv"
run table_2 2 --set "Muscles/Group 1/Activation/Source=table" --set "Muscles/Group 1/Activation/Table file=inputs/activation_table.csv"
"$python" - "$out" <<'PY'
import csv, glob, sys
def probe(name):
    rows = list(csv.DictReader(open(glob.glob(f"{sys.argv[1]}/{name}/*.csv")[0])))
    return [[float(r[f"p0_{d}"]) for d in "xyz"] for r in rows]
reference = probe("expression")
travel = max(abs(c) for row in reference for c in row)
for name in ("table", "table_2"):
    other = probe(name)
    error = max(abs(a - b) for r, s in zip(reference, other) for a, b in zip(r, s))
    print(f"{name}: {len(other)} rows, largest difference {error:.3g} m of a travel of {travel:.4g} m")
    if len(other) != len(reference) or len(reference) < 10 or error > 1e-12 * travel or travel < 1e-6:
        sys.exit(f"FAIL: the tabulated activation ({name}) does not give the run of the expression")
PY
