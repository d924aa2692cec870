#!/usr/bin/env bash
# Every tracked C++ file is formatted as .clang-format says (clang-format 14, Debian 12). Lists the
# files that are not, with the command that formats them.
set -euo pipefail
root=${1:?usage: clang_format.sh REPOSITORY_ROOT [CLANG_FORMAT]}
clang_format=${2:-clang-format}
source "$(dirname "$0")/list_files.sh"

unformatted=()
while IFS= read -r file; do
  case "$file" in *.cc | *.h) ;; *) continue ;; esac
  if ! (cd "$root" && "$clang_format" --style=file --dry-run --Werror "$file" > /dev/null 2>&1); then
    unformatted+=("$file")
  fi
done < <(repository_files "$root")

if [ ${#unformatted[@]} -ne 0 ]; then
  printf 'not formatted: %s\n' "${unformatted[@]}"
  echo "FAILED: run from the repository root: $clang_format -i ${unformatted[*]}"
  exit 1
fi
echo "OK: every C++ file follows .clang-format ($("$clang_format" --version))"
