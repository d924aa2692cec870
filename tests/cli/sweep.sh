#!/bin/sh
# sweep.sh HYDROSTAT PYTHON SWEEP_PY: postprocess/sweep.py over a 2 x 2 grid (End time x c1, with
# the bulk modulus linked to c1) of inputs/good_box.prm, two runs at a time: four runs, each in
# its own directory, and one table whose rows carry the grid values and the run's statistics.
set -eu
hydrostat=$1
python=$2
sweep=$3
out=output/sweep
rm -rf "$out"
"$python" "$sweep" inputs/good_box.prm --hydrostat "$hydrostat" --output "$out" --jobs 2 \
  --grid "Time stepping/End time=0.01,0.02" --grid "Materials/Material 0/c1=1e3,2e3" \
  --link "Materials/Material 0/Bulk modulus=1e5,2e5" > "$out.log" 2>&1 || { cat "$out.log"; echo "FAIL: sweep.py"; exit 1; }
cat "$out.log"
"$python" - "$out/sweep.csv" << 'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = sorted((r["Time stepping/End time"], r["Materials/Material 0/c1"], r["Materials/Material 0/Bulk modulus"],
              r["steps"], r["status"]) for r in rows)
expected = sorted((t, c1, K, steps, "ok") for t, steps in (("0.01", "1"), ("0.02", "2"))
                  for c1, K in (("1e3", "1e5"), ("2e3", "2e5")))
if got != expected:
    sys.exit(f"FAIL: sweep.csv rows {got}, expected {expected}")
print("OK: 4 runs in one table")
PY
for run in "$out"/*/; do
  grep -q '"status": "finished"' "$run/run.json" || { echo "FAIL: $run/run.json"; exit 1; }
done
