#!/usr/bin/env bash
# Runs COMMAND... with a throwaway single-node Slurm cluster in DIR
# (slurm-local.sh) and SLURM_CONF pointing at it; stops the cluster
# however COMMAND ends, and exits with COMMAND's status.
#
#   scripts/services/with-slurm.sh DIR CPUS COMMAND...
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 DIR CPUS COMMAND..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
dir=$1 cpus=$2
shift 2
trap '"$here/slurm-local.sh" stop "$dir"' EXIT
SLURM_CONF=$("$here/slurm-local.sh" start "$dir" "$cpus")
export SLURM_CONF
"$@"
