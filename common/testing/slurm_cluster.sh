#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the tests of grading through Slurm: munged, slurmctld
# and slurmd of Debian's packages, started by the test on localhost only, as root, with their key,
# sockets, state and logs in the test's own folder, and stopped, every one, when the test's shell exits
# (on failure too). A test sources this file, then calls start_slurm DIR; sbatch, squeue and scontrol
# then talk to this cluster (SLURM_CONF).
# A test that cannot have one (not root, or the packages missing) calls skip_unless_slurm first: it
# exits with 77, which CTest reports as skipped, with the reason.
# For Slurm unpacked into a folder rather than installed (its programs first on PATH, its libraries on
# LD_LIBRARY_PATH), COURSE_SLURM_PLUGIN_DIR names the folder of its plugins: slurm.conf then gets it as
# PluginDir, and slurmd runs the slurmstepd found on PATH instead of the one its build names.
# COURSE_SLURM_CGROUP_CONF, if set, is written as cgroup.conf beside slurm.conf, which slurmd reads at its
# start: CgroupPlugin=cgroup/v1 where its cgroup v2 plugin cannot start (a container without systemd).

skip_unless_slurm() {
  local program
  [ "$(id -u)" -eq 0 ] || { echo "skipped: a one-node Slurm needs root (slurmd runs the jobs as their users)"; exit 77; }
  for program in munged mungekey slurmctld slurmd sbatch squeue ${COURSE_SLURM_PLUGIN_DIR:+slurmstepd}; do
    command -v "$program" >/dev/null || {
      echo "skipped: $program is missing (Debian: apt-get install slurmctld slurmd slurm-client munge)"
      exit 77
    }
  done
}

slurm_dir=""
stop_slurm() {
  local daemon pid
  [ -n "$slurm_dir" ] || return 0
  for daemon in slurmd slurmctld munged; do
    pid=$(cat "$slurm_dir/$daemon.pid" 2>/dev/null) || continue
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  slurm_dir=""
}

# stop_slurm_and_check: stops the cluster and fails (prints FAILED, returns 1) if any daemon it
# started is still running afterwards.
stop_slurm_and_check() {
  local pids pid
  pids=$(cat "$slurm_dir"/*.pid 2>/dev/null)
  stop_slurm
  for pid in $pids; do
    if kill -0 "$pid" 2>/dev/null; then echo "FAILED: process $pid is still running after the stop"; return 1; fi
  done
}

# start_slurm DIR: starts the cluster (one node, localhost, every core of this machine) and waits until
# its node is idle. Ports come from this shell's process number, so two tests side by side do not meet.
start_slurm() {
  slurm_dir=$1
  trap stop_slurm EXIT
  mkdir -p "$slurm_dir/state" "$slurm_dir/spool" "$slurm_dir/log"
  mungekey --create --keyfile="$slurm_dir/munge.key" --force
  chmod 600 "$slurm_dir/munge.key"
  munged --force --socket="$slurm_dir/munge.socket" --key-file="$slurm_dir/munge.key" \
    --pid-file="$slurm_dir/munged.pid" --log-file="$slurm_dir/log/munged.log" --seed-file="$slurm_dir/munge.seed"
  local port=$((20000 + ($$ % 5000) * 2))
  cat >"$slurm_dir/slurm.conf" <<CONF
ClusterName=coursetest
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/munge.socket
CredType=cred/munge
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/log/slurmctld.log
SlurmdLogFile=$slurm_dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=course Nodes=localhost Default=YES MaxTime=60 State=UP
CONF
  [ -z "${COURSE_SLURM_PLUGIN_DIR:-}" ] || echo "PluginDir=$COURSE_SLURM_PLUGIN_DIR" >>"$slurm_dir/slurm.conf"
  [ -z "${COURSE_SLURM_CGROUP_CONF:-}" ] || echo "$COURSE_SLURM_CGROUP_CONF" >"$slurm_dir/cgroup.conf"
  export SLURM_CONF=$slurm_dir/slurm.conf
  slurmctld -f "$SLURM_CONF" -i
  slurmd -f "$SLURM_CONF" ${COURSE_SLURM_PLUGIN_DIR:+-d "$(command -v slurmstepd)"}
  local _
  for _ in $(seq 100); do
    [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ] && return 0
    sleep 0.2
  done
  echo "the one-node Slurm did not come up; its logs:"
  tail -5 "$slurm_dir"/log/*.log
  return 1
}

# wait_for_jobs SECONDS: waits until no job is queued or running; false after SECONDS.
wait_for_jobs() {
  local _
  for _ in $(seq $(($1 * 5))); do
    [ -z "$(squeue -h 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  return 1
}
