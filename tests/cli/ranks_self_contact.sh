#!/bin/sh
# ranks_self_contact.sh HYDROSTAT MPIRUN PYTHON: the main case (parameters/octopus_bending.prm, its
# self-contact settings) to t = 0.5 s on 1 and on 2 ranks gives the same answer (issue 27). The
# curling tip first presses on the arm near its base at t = 0.43 s; on 2 ranks the base (z < 40 mm)
# lies on rank 0 and the tip (z > 60 mm) on rank 1, so every pair crosses the rank boundary.
# Compared at every step: the same times, the probes' displacements along the arm to 1e-9 m (of up
# to 0.1 m; measured 5.6e-14 m) and the self-contact CSV (force, area, pressed and vertex points)
# to 1e-6 of its largest value; the surfaces must press.
set -u
hydrostat=$1
mpirun=$2
python=$3
out=output/ranks_self_contact
rm -rf "$out"
mkdir -p "$out"
fail() {
  echo "FAIL: $*"
  exit 1
}
case_file="$(cd "$(dirname "$0")/../.." && pwd)/parameters/octopus_bending.prm"
for np in 1 2; do
  launcher=""
  [ "$np" -eq 1 ] || launcher="$mpirun --oversubscribe -np $np"
  $launcher "$hydrostat" "$case_file" --set "Time stepping/End time=0.5" --set "Output/ParaView=false" \
    --set "Output/Directory=$out/np$np" > "$out/np$np.log" 2>&1 || fail "$np rank(s): $(tail -n 1 "$out/np$np.log")"
done

"$python" - "$out" << 'PY' || exit 1
import csv, sys
out = sys.argv[1]
def rows(np, name):
    with open(f"{out}/np{np}/{name}") as f:
        return list(csv.DictReader(f))
main = [rows(np, "octopus.csv") for np in (1, 2)]
if [r["time"] for r in main[0]] != [r["time"] for r in main[1]]:
    sys.exit(f"FAIL: the runs took other steps ({len(main[0]) - 1} and {len(main[1]) - 1})")
worst = max(abs(float(a[k]) - float(b[k])) for a, b in zip(*main) for k in a if k[0] == "p" and k[-3:-1] == "_u")
if worst > 1e-9:
    sys.exit(f"FAIL: the probes' displacements differ by {worst:.3g} m on 1 and 2 ranks")
contact = [rows(np, "octopus_self_contact.csv") for np in (1, 2)]
pressed = max(int(float(r["pressed_points"])) for r in contact[0])
if pressed == 0:
    sys.exit("FAIL: no point pressed by t = 0.5 s")
for column in ("normal_force", "contact_area", "pressed_points", "vertex_points"):
    scale = max(abs(float(r[column])) for r in contact[0])
    gap = max(abs(float(a[column]) - float(b[column])) for a, b in zip(*contact))
    if gap > 1e-6 * scale:
        sys.exit(f"FAIL: self-contact {column} differs by {gap:.3g} (largest {scale:.3g}) on 1 and 2 ranks")
print(f"OK: {len(main[0]) - 1} steps on 1 and 2 ranks, probes within {worst:.2g} m, up to {pressed} points pressed, "
      "the self-contact CSV the same")
PY
