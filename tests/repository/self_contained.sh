#!/usr/bin/env bash
# The repository must stand on its own: a user who clones it has nothing beside it. Fails, naming
# file and line, if a tracked file refers to a folder outside the repository: the project's former
# shared folder (../shared, shared/data, shared/docs, shared/reference) or a path built from the
# source directory's parent (SOURCE_DIR "/.., os.path.join(repo, "..")).
set -euo pipefail
root=${1:?usage: self_contained.sh REPOSITORY_ROOT}
source "$(dirname "$0")/list_files.sh"

pattern='\.\./shared|shared/(data|docs|reference|hooks)|SOURCE_DIR[ ]*"/\.\.|SOURCE_DIR}/\.\.|\(repo, *"\.\."'
self=tests/repository/self_contained.sh
found=0
while IFS= read -r file; do
  [ "$file" = "$self" ] && continue
  [ -f "$root/$file" ] || continue
  if hits=$(grep -nEI "$pattern" "$root/$file"); then
    while IFS= read -r hit; do
      echo "$file:$hit"
    done <<< "$hits"
    found=1
  fi
done < <(repository_files "$root")

if [ $found -ne 0 ]; then
  echo "FAILED: the files above refer to something outside the repository; ship it in the repository" \
       "(data/, doc/, meshes/) and refer to it there."
  exit 1
fi
echo "OK: no tracked file refers to a path outside the repository"
