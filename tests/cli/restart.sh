#!/bin/sh
# restart.sh HYDROSTAT MPIRUN NP PYTHON: checkpoint and restart of inputs/restart_block.prm (dynamic,
# Hatze activation at the quadrature points, a muscle-tendon unit) on NP ranks.
#  1. the reference: 0 -> T in one go;
#  2. 0 -> T with a checkpoint every 10 steps, stopped by SIGTERM (to one rank only on 2 ranks: all
#     must agree to stop) after the 25th CSV row: exit status 3, run.json status "interrupted";
#  3. a copy of 2 with its newest checkpoint truncated, resumed: the damaged checkpoint is skipped
#     and the run continues from the one before (of the two kept);
#  4. 2 resumed from its newest checkpoint;
#  5. 0 -> T/2 with checkpoints, finished, then resumed with the end time T.
# Resuming with other parameters or (on 2 ranks) on 1 rank is refused with one line.
# The CSV files, the PVD and the last VTU of 3, 4 and 5 must equal those of 1 byte for byte (VTU
# without deal.II's date comment). On 2 ranks with GMRES (restart_common.sh).
set -u
hydrostat=$1
mpirun=$2
np=$3
python=$4
case=inputs/restart_block.prm
out=output/restart_np$np
. "$(dirname "$0")/restart_common.sh"
# 150 steps on one rank, 50 on two (a 2-rank step of this tiny case costs ten times more).
steps=150
end="Time stepping/End time=0.15"
if [ "$np" -ne 1 ]; then
  steps=50
  end="Time stepping/End time=0.05"
fi
run() {
  $launcher "$hydrostat" "$@" --set "$end" --set "$solver"
}

run "$case" --set "Output/Directory=$out/reference" > "$out/reference.log" 2>&1 || fail "reference run"

# 2. Stopped by a signal.
$launcher "$hydrostat" "$case" --set "Output/Directory=$out/stopped" --set "Output/Checkpoint interval=10" \
  --set "$end" --set "$solver" > "$out/stopped.log" 2>&1 &
pid=$!
rows=0
while [ "$rows" -lt 26 ] && kill -0 $pid 2> /dev/null; do
  sleep 0.02
  rows=$(cat "$out/stopped/block.csv" 2> /dev/null | wc -l)
done
if [ "$np" -eq 1 ]; then
  kill -TERM $pid
else
  # One rank only: mpirun itself would kill the job on SIGTERM.
  kill -TERM "$(pgrep -P $pid | tail -n 1)"
fi
wait $pid
status=$?
[ $status -eq 3 ] || fail "the stopped run exited with $status, expected 3 (log: $out/stopped.log)"
grep -q '"status": "interrupted"' "$out/stopped/run.json" || fail "run.json status is not interrupted"
newest=$(sed -n 's/^Checkpoint at step \([0-9]*\) .*/\1/p' "$out/stopped.log" | tail -n 1)
echo "stopped at step $newest"
[ "$newest" -gt 20 ] || fail "no checkpoint after step 20 (signal too late?)"
[ -d "$out/stopped/checkpoint-00010" ] && fail "checkpoint-00010 was not removed (keep the newest two)"

grep -q "\"steps\": $steps," "$out/reference/run.json" || fail "run.json of the reference does not count $steps steps"
# Refused: other parameters, another number of ranks.
run "$case" --set "Output/Directory=$out/stopped" --set "Output/Checkpoint interval=10" --resume \
  --set "Materials/Material 0/c1=3e5" > "$out/refused.log" 2>&1 && fail "resumed with another c1"
grep -q "^hydrostat: error: Checkpoint '.*' was written with other parameters" "$out/refused.log" ||
  fail "no clear message for other parameters: $(cat "$out/refused.log")"
if [ "$np" -ne 1 ]; then
  "$hydrostat" "$case" --set "Output/Directory=$out/stopped" --set "Output/Checkpoint interval=10" --resume \
    --set "$end" --set "$solver" > "$out/refused.log" 2>&1 && fail "resumed on 1 rank"
  grep -q "^hydrostat: error: Checkpoint '.*' was written by $np MPI ranks, this run has 1: resume with mpirun -np $np" \
    "$out/refused.log" || fail "no clear message for another number of ranks: $(cat "$out/refused.log")"
fi

# 3. The newest checkpoint truncated: resumed from the one before.
previous=$(ls -d "$out"/stopped/checkpoint-* | sed 's/.*checkpoint-0*//' | sort -n | tail -n 2 | head -n 1)
cp -r "$out/stopped" "$out/truncated"
rank_file=$(ls "$out"/truncated/checkpoint-*"$newest"/rank-*.bin | tail -n 1)
size=$(wc -c < "$rank_file")
head -c $((size - 100)) "$rank_file" > "$rank_file.cut" && mv "$rank_file.cut" "$rank_file"
run "$case" --set "Output/Directory=$out/truncated" --set "Output/Checkpoint interval=10" --resume > "$out/truncated.log" 2>&1 || fail "resume of the truncated checkpoint"
grep -q "^Skipping checkpoint .*checkpoint-0*$newest: rank-.*bin has" "$out/truncated.log" || fail "no 'Skipping' line"
grep -q "^Resuming at step $previous," "$out/truncated.log" || fail "not resumed from step $previous"

# 4. Resumed from the newest checkpoint.
run "$case" --set "Output/Directory=$out/stopped" --set "Output/Checkpoint interval=10" --resume \
  > "$out/resumed.log" 2>&1 || fail "resume"
grep -q "^Resuming at step $newest," "$out/resumed.log" || fail "not resumed from step $newest"
grep -q '"status": "finished"' "$out/stopped/run.json" || fail "run.json status is not finished after --resume"
grep -q "\"steps\": $steps," "$out/stopped/run.json" || fail "run.json after --resume does not count all $steps steps"

# 5. A run that finished at half the end time, continued to the end (the end time may change on
#    --resume, nothing else).
half="Time stepping/End time=0.075"
[ "$np" -eq 1 ] || half="Time stepping/End time=0.025"
$launcher "$hydrostat" "$case" --set "Output/Directory=$out/continued" --set "Output/Checkpoint interval=10" \
  --set "$half" --set "$solver" > "$out/half.log" 2>&1 || fail "run to half the end time"
run "$case" --set "Output/Directory=$out/continued" --set "Output/Checkpoint interval=10" --resume \
  > "$out/continued.log" 2>&1 || fail "continued to the end: $(tail -n 1 "$out/continued.log")"
grep -q '"status": "finished"' "$out/continued/run.json" || fail "run.json status is not finished after continuing"
grep -q "\"steps\": $steps," "$out/continued/run.json" || fail "run.json after continuing does not count all $steps steps"
# An end time before the newest checkpoint is refused with one line, and the output is kept.
$launcher "$hydrostat" "$case" --set "Output/Directory=$out/continued" --set "Output/Checkpoint interval=10" \
  --set "$half" --set "$solver" --resume > "$out/earlier.log" 2>&1 && fail "resumed with an end time before the checkpoint"
grep -q "^hydrostat: error: Parameter 'Time stepping/End time' = 0\.0[27]5 s is before the newest checkpoint's t = 0\.[0-9]* s: give a later end time" \
  "$out/earlier.log" || fail "no clear message for an earlier end time: $(cat "$out/earlier.log")"

"$python" - "$out" "$steps" << 'PY' || exit 1
import glob, os, sys
out, steps = sys.argv[1], int(sys.argv[2])
def text(path):
    with open(path) as f:
        return [line for line in f if "generated by the deal.II library" not in line]
last = sorted(glob.glob(f"{out}/reference/block_*.vtu"))[-1]
names = ["block.csv", "block_mtu.csv", "block.pvd", os.path.basename(last)]
rows = len(text(f"{out}/reference/block.csv"))
if rows != steps + 2:
    sys.exit(f"FAIL: the reference CSV has {rows} lines, expected a header and steps 0-{steps}")
for run in ("stopped", "truncated", "continued"):
    for name in names:
        if text(f"{out}/reference/{name}") != text(f"{out}/{run}/{name}"):
            sys.exit(f"FAIL: {run}/{name} differs from reference/{name}")
print(f"OK: the stopped, resumed and continued runs give the same {', '.join(names)} as the run in one go, bit for bit")
PY
