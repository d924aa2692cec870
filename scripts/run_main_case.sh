#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main case (octopus arm bending) on all cores.
# Usage: scripts/run_main_case.sh [case.prm]   (default parameters/octopus_bending.prm)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_dependencies.sh
bash scripts/build.sh
case_file=${1:-parameters/octopus_bending.prm}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun --oversubscribe -np "$(nproc)" build/hydrostat "$case_file"
