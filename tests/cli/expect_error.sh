#!/bin/sh
# expect_error.sh CODE REGEX... -- COMMAND...
# Runs COMMAND and passes if it exits with status CODE and its output (stdout and stderr together)
# matches every REGEX (grep -E); a REGEX written !REGEX must not match. For CODE 1 (hydrostat's
# error exit) the error must also be reported cleanly: exactly one line "hydrostat: error: ...",
# nothing else on stderr (but the lines mpirun adds when the command is an mpirun), and no deal.II
# exception text, TimerOutput banner, muParser diagnostics or abort messages anywhere.
if [ $# -lt 3 ]; then
  echo "usage: $0 CODE REGEX... -- COMMAND..." >&2
  exit 2
fi
code=$1
shift
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/regexes"
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  printf '%s\n' "$1" >> "$tmp/regexes"
  shift
done
if [ "$1" != "--" ] || [ $# -lt 2 ]; then
  echo "expect_error.sh: missing '-- COMMAND'" >&2
  exit 2
fi
shift
"$@" > "$tmp/stdout" 2> "$tmp/stderr"
status=$?
cat "$tmp/stdout" "$tmp/stderr" > "$tmp/all"

echo "command: $*"
echo "exit status: $status (expected $code)"
echo "----- stdout -----"
cat "$tmp/stdout"
echo "----- stderr -----"
cat "$tmp/stderr"
echo "------------------"

failed=0
if [ "$status" -ne "$code" ]; then
  echo "FAIL: exit status $status, expected $code"
  failed=1
fi
while IFS= read -r regex; do
  case $regex in
    !*)
      if grep -Eq -- "${regex#!}" "$tmp/all"; then
        echo "FAIL: output matches '${regex#!}', which it must not"
        failed=1
      fi ;;
    *)
      if ! grep -Eq -- "$regex" "$tmp/all"; then
        echo "FAIL: output does not match '$regex'"
        failed=1
      fi ;;
  esac
done < "$tmp/regexes"
if [ "$code" -eq 1 ]; then
  n=$(grep -c '^hydrostat: error: ' "$tmp/stderr")
  if [ "$n" -ne 1 ]; then
    echo "FAIL: $n lines 'hydrostat: error: ...' on stderr, expected 1"
    failed=1
  fi
  case $(basename "$1") in
    mpirun|mpiexec) ;;
    *)
      if [ "$(wc -l < "$tmp/stderr")" -ne 1 ]; then
        echo "FAIL: stderr is not one line"
        failed=1
      fi ;;
  esac
  if grep -Eq 'An error occurred in line|Stacktrace|TimerOutput objects|Additional information|terminate called|Signal: |^Message: ' "$tmp/all"; then
    echo "FAIL: raw deal.II/muParser/abort text in the output"
    failed=1
  fi
fi
[ $failed -eq 0 ] && echo PASS
exit $failed
