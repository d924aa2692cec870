# Sourced by the repository checks: repository_files ROOT [PATHSPEC...] prints the files of the
# repository, one per line, relative to ROOT: those git tracks, or every file outside build trees
# when ROOT is not a git checkout (a tarball).
repository_files() {
  local root=$1
  shift
  if git -C "$root" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    git -C "$root" ls-files -- "$@"
  else
    (cd "$root" && find . -type f -not -path './build*' -not -path './output*' -not -path './.git/*' | sed 's|^\./||')
  fi
}
