#!/bin/sh
# restart_self_contact.sh HYDROSTAT MPIRUN PYTHON: the state of frictional self-contact carried over
# a restart (theory.md eq. (70f)), on the main case (parameters/octopus_bending.prm) with friction
# mu = 0.3 on 1 rank, where the tip presses on the arm from t = 0.425 s:
#  1. the reference: 0 -> 0.48 s in one go;
#  2. 0 -> 0.46 s with a checkpoint every 2 steps, then resumed from step 48 (t = 0.455 s, 24 points
#     pressed, friction force 9 mN) to 0.48 s.
# The CSV files of 2 must equal those of 1 byte for byte: the multipliers, the tractions of the last
# accepted step, the slip and the active vertex points are all in the checkpoint.
set -u
hydrostat=$1
mpirun=$2
np=1
python=$3
out=output/restart_self_contact
. "$(dirname "$0")/restart_common.sh"
case=$(dirname "$0")/../../parameters/octopus_bending.prm
run() {
  "$hydrostat" "$case" --set "Contact/Self contact/Friction coefficient=0.3" --set "Output/ParaView=false" "$@"
}

run --set "Output/Directory=$out/reference" --set "Time stepping/End time=0.48" > "$out/reference.log" 2>&1 ||
  fail "reference run: $(tail -n 1 "$out/reference.log")"
run --set "Output/Directory=$out/resumed" --set "Output/Checkpoint interval=2" --set "Time stepping/End time=0.46" \
  > "$out/half.log" 2>&1 || fail "run to t = 0.46: $(tail -n 1 "$out/half.log")"
run --set "Output/Directory=$out/resumed" --set "Output/Checkpoint interval=2" --set "Time stepping/End time=0.48" \
  --resume > "$out/resumed.log" 2>&1 || fail "resumed to t = 0.48: $(tail -n 1 "$out/resumed.log")"
grep -q "^Resuming at step 48," "$out/resumed.log" || fail "not resumed from step 48: $(grep Resuming "$out/resumed.log")"

"$python" - "$out" << 'PY' || exit 1
import csv, sys
out = sys.argv[1]
names = ["octopus.csv", "octopus_self_contact.csv"]
for name in names:
    if open(f"{out}/reference/{name}").read() != open(f"{out}/resumed/{name}").read():
        sys.exit(f"FAIL: resumed/{name} differs from reference/{name}")
rows = list(csv.DictReader(open(f"{out}/reference/octopus_self_contact.csv")))
at = [r for r in rows if r["step"] == "48"]
if not at or float(at[0]["friction_force"]) <= 0:
    sys.exit("FAIL: no friction at the checkpoint's step 48")
print(f"OK: resumed at step 48 (friction force {float(at[0]['friction_force']):.3g} N), {', '.join(names)} equal the run in one go")
PY
