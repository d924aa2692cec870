# Sourced by restart.sh and restart_contact.sh once they have set hydrostat, mpirun, np and out: a
# fresh output folder, fail(), and the launcher and linear solver for np ranks. On 2 ranks GMRES:
# parallel MUMPS is not bitwise repeatable, two runs in one go already differ in round-off.
rm -rf "$out"
mkdir -p "$out"
fail() {
  echo "FAIL: $*"
  exit 1
}
launcher=""
solver="Linear solver/Solver type=auto"
if [ "$np" -ne 1 ]; then
  launcher="$mpirun --oversubscribe -np $np"
  solver="Linear solver/Solver type=GMRES"
fi
