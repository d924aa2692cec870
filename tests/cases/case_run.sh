# Sourced by the case tests (sh) with their own arguments HYDROSTAT MPIEXEC PYTHON SOURCE: sets
# $hydrostat, $mpiexec, $python and $source (the fourth argument: the source directory, or a
# template) and provides what every one of them does before its own checks:
#   case_directory DIR...     creates the output directories DIR... (the first one is $dir).
#   use_numpy_python PYTHON   sets $python to PYTHON, or to Debian's /usr/bin/python3, whichever has
#                             numpy (CMake's interpreter may be one without it, e.g. a pyenv shim);
#                             fails the test if neither has.
#   run_case DIR NP ARGS...   runs "$mpiexec -np NP $hydrostat ARGS..." with its output in DIR/log.txt;
#                             if hydrostat stops with an error, prints the log's tail and fails. The
#                             run may cut its step back $cut_backs times (default 0: set it to what the
#                             case needs), so that a broken tangent fails at the first cut-back it adds
#                             instead of crawling to the timeout.
#   run_inverse DIR NP CASE BASE END ERROR [REPLAY]
#                             runs the inverse case CASE (output base name BASE) to time END in DIR and
#                             its replay in DIR/replay, and fails unless postprocess/inverse_report.py
#                             finds every marker within ERROR [m] of its target and the replay's
#                             probes within REPLAY [m] (default 1e-9) of the inverse run's; the report is in
#                             DIR/report.txt.
hydrostat=$1
mpiexec=$2
python=$3
source=$4

case_directory() {
  dir=$1
  mkdir -p "$@"
}

use_numpy_python() {
  for candidate in "$1" /usr/bin/python3; do
    if "$candidate" -c "import numpy" > /dev/null 2>&1; then python=$candidate; return 0; fi
  done
  echo "FAIL: no python3 with numpy found"
  exit 1
}

run_case() {
  log=$1/log.txt
  ranks=$2
  shift 2
  "$mpiexec" --oversubscribe -np "$ranks" "$hydrostat" "$@" --set "Time stepping/Maximum cut-backs=${cut_backs:-0}" \
    > "$log" 2>&1 || {
    grep "^hydrostat: error" "$log" | head -1
    tail -5 "$log"
    echo "FAIL: hydrostat stopped"
    exit 1
  }
}

run_inverse() {
  run_case "$1" "$2" "$3" --set "Time stepping/End time=$5" --set "Output/Directory=$1" --set "Output/ParaView=false"
  mkdir -p "$1/replay"
  run_case "$1/replay" "$2" "$1/$4_replay.prm"
  status=0
  "$python" postprocess/inverse_report.py "$1" --end "$5" --error "$6" --replay "${7:-1e-9}" > "$1/report.txt" 2>&1 ||
    status=$?
  cat "$1/report.txt"
  if [ "$status" -ne 0 ] || grep -q "^FAIL" "$1/report.txt"; then
    echo "FAIL: postprocess/inverse_report.py (exit status $status)"
    exit 1
  fi
  return 0
}

