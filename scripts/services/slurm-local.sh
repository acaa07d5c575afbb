#!/usr/bin/env bash
# A throwaway single-node Slurm cluster for tests and demos (issue 21):
# munged, slurmctld and slurmd on this host, every file in DIR.
#
#   scripts/services/slurm-local.sh start DIR [CPUS]   # prints the SLURM_CONF path
#   scripts/services/slurm-local.sh stop DIR
#
# `start` writes DIR/slurm.conf (one node, this host, CPUS CPUs (default:
# nproc), one partition `tessel`, no GPUs, no accounting, no cgroups),
# starts the three daemons with their sockets, state and logs in DIR, and
# waits until the node is idle. Point the clients at it with
# SLURM_CONF=DIR/slurm.conf (sbatch, squeue, scancel). Ports: the first free
# pair from 16817 up. Runs as root (slurmd launches jobs as their users;
# the daemons run as root here). `stop` stops the daemons.
#
# Debian 12's `slurm-wlm` and `munge` provide the daemons.
set -euo pipefail

die() { echo "slurm-local: $*" >&2; exit 1; }

cmd=${1:-}
dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || die "usage: $0 start|stop DIR [CPUS]"

stop_pidfile() {
  local file=$1 pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  kill "$pid" 2> /dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2> /dev/null || return 0; sleep 0.1; done
  kill -9 "$pid" 2> /dev/null || true
}

free_port() {
  local port
  for port in $(seq "$1" $(($1 + 200))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2> /dev/null; then
      echo "$port"
      return
    fi
  done
  die "no free port from $1"
}

case "$cmd" in
start)
  for tool in munged slurmctld slurmd sinfo; do
    command -v "$tool" > /dev/null || [ -x "/usr/sbin/$tool" ] ||
      die "no $tool (Debian packages: slurm-wlm munge)"
  done
  [ "$(id -u)" -eq 0 ] || die "slurmd must run as root to launch jobs"
  cpus=${3:-$(nproc)}
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  chmod 700 "$dir/munge"
  if [ ! -f "$dir/munge/munge.key" ]; then
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2> /dev/null
    chmod 400 "$dir/munge/munge.key"
  fi
  /usr/sbin/munged --force --key-file="$dir/munge/munge.key" \
    --socket="$dir/munge/munge.socket" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" ||
    die "munged did not start: $(tail -3 "$dir/munge/munged.log" 2> /dev/null)"
  ctld_port=$(free_port 16817)
  slurmd_port=$(free_port $((ctld_port + 1)))
  host=$(hostname -s)
  memory=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
  cat > "$dir/slurm.conf" << CONF
ClusterName=tessel
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
# The node may claim more CPUs than it has (4 workers on a 2-core VM).
SlurmdParameters=config_overrides
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=tessel Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
  export SLURM_CONF="$dir/slurm.conf"
  /usr/sbin/slurmctld -f "$dir/slurm.conf" -i > "$dir/slurmctld.out" 2>&1 ||
    die "slurmctld did not start: $(tail -3 "$dir/slurmctld.log" 2> /dev/null)"
  /usr/sbin/slurmd -f "$dir/slurm.conf" > "$dir/slurmd.out" 2>&1 ||
    die "slurmd did not start: $(tail -3 "$dir/slurmd.log" 2> /dev/null)"
  for _ in $(seq 100); do
    state=$(sinfo -h -o %t 2> /dev/null | head -1)
    case "$state" in idle|mix|alloc) echo "$dir/slurm.conf"; exit 0 ;; esac
    sleep 0.2
  done
  die "the node did not come up (state '$state'): $(tail -3 "$dir/slurmctld.log")"
  ;;
stop)
  stop_pidfile "$dir/slurmd.pid"
  stop_pidfile "$dir/slurmctld.pid"
  stop_pidfile "$dir/munge/munged.pid"
  ;;
*)
  die "usage: $0 start|stop DIR [CPUS]"
  ;;
esac
