#!/bin/sh
# provenance.sh HYDROSTAT PYTHON: a run with two --set overrides leaves parameters.prm and run.json in
# its output directory; run.json says what ran (overrides, ranks, status) and parameters.prm, run
# again from another folder, gives byte for byte the same CSV (the file holds every parameter as
# used, overrides included, its paths absolute); so does parameters_changed.prm, which holds only
# the entries that differ from their defaults.
set -eu
hydrostat=$1
python=$2
dir=output/provenance
rm -rf "$dir"
"$hydrostat" --set "Output/Directory=$dir" --set "Time stepping/End time=0.02" inputs/good_box.prm > /dev/null
test -f "$dir/parameters.prm" || { echo "FAIL: no $dir/parameters.prm"; exit 1; }
"$python" - "$dir/run.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
expected = {"program": "hydrostat", "status": "finished", "mpi_ranks": 1, "case_file": "inputs/good_box.prm",
            "overrides": ["Output/Directory=output/provenance", "Time stepping/End time=0.02"]}
for key, value in expected.items():
    if run.get(key) != value:
        sys.exit(f"FAIL: run.json {key} = {run.get(key)!r}, expected {value!r}")
for key in ("version", "git_commit", "deal_ii_version", "trilinos_version", "host", "start_time", "end_time"):
    if not run.get(key):
        sys.exit(f"FAIL: run.json has no {key}")
if not run["wall_time_s"] >= 0:
    sys.exit("FAIL: run.json wall_time_s")
print("run.json:", run["version"], run["git_commit"], run["status"])
PY
# Rerun from another working directory, with a relative output directory: taken from the folder of
# rerun.prm, i.e. $dir/rerun (the paths parameters.prm records are absolute).
here=$(pwd)
sed "s|set Directory *=.*|set Directory = rerun|" "$dir/parameters.prm" > "$dir/rerun.prm"
(cd / && "$hydrostat" "$here/$dir/rerun.prm" > /dev/null)
if ! cmp "$dir/solution.csv" "$dir/rerun/solution.csv"; then
  echo "FAIL: rerunning parameters.prm gave a different solution.csv"
  exit 1
fi
grep -q "set End time *= 0.02$" "$dir/parameters_changed.prm" ||
  { echo "FAIL: parameters_changed.prm lacks the --set End time"; exit 1; }
if grep -q "set Relative tolerance" "$dir/parameters_changed.prm"; then
  echo "FAIL: parameters_changed.prm holds an entry at its default"
  exit 1
fi
sed "s|set Directory *=.*|set Directory = changed|" "$dir/parameters_changed.prm" > "$dir/changed.prm"
"$hydrostat" "$dir/changed.prm" > /dev/null
if ! cmp "$dir/solution.csv" "$dir/changed/solution.csv"; then
  echo "FAIL: rerunning parameters_changed.prm gave a different solution.csv"
  exit 1
fi
lines=$(wc -l < "$dir/solution.csv")
[ "$lines" -eq 4 ] || { echo "FAIL: $lines lines in solution.csv, expected a header, step 0 and 2 steps (End time 0.02)"; exit 1; }
echo "OK: parameters.prm and parameters_changed.prm ($(grep -c "set " "$dir/parameters_changed.prm") entries) rerun the case to the same CSV ($lines lines)"
