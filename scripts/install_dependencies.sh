#!/usr/bin/env bash
# Installs the Debian 12 packages Hydrostat needs, only those that are missing.
set -euo pipefail
# libopenblas0-serial: an optimised BLAS/LAPACK for the direct solver (MUMPS is BLAS-3 bound; the
# reference BLAS made it 3x slower); serial, since the MPI ranks already use every core.
packages=(cmake make g++ git clang-format libdeal.ii-dev libopenblas0-serial libgtest-dev openmpi-bin python3 python3-numpy python3-matplotlib)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing missing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
