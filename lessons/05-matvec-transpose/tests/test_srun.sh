#!/usr/bin/env bash
# Step 14 started by Slurm's srun, on the one-node Slurm of common/testing/slurm_cluster.sh, as two
# tasks: each reads its rank from Slurm (SLURM_PROCID, SLURM_NTASKS) and, without --nccl-id, refuses in
# one line; with --nccl-id each task runs (without a GPU: each says it is skipped; with GPUs, the run
# PASSes and rank 0 reports, as one task on a machine of one GPU). Leaves no daemon running.
# Usage: test_srun.sh PROGRAM WORK_DIR
set -eu
source "$(dirname "${BASH_SOURCE[0]}")/../../../common/testing/slurm_cluster.sh"
skip_unless_slurm
program=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
start_slurm "$work/slurm"
small=(--m 64 --n 1000 --reps 2 --warmup 1 --copy-bandwidth 1 --read-bandwidth 1)
set +e
out=$(timeout 120 srun --ntasks 2 "$program" "${small[@]}" 2>&1)
code=$?
set -e
echo "$out"
[ $code -ne 0 ] || { echo "FAILED: two tasks without --nccl-id were not refused"; exit 1; }
[ "$(grep -c 'started by slurm: --nccl-id FILE must name a file every process sees' <<<"$out")" = 2 ] ||
  { echo "FAILED: not both tasks refused in one line"; exit 1; }
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
tasks=2
[ "${gpus:-0}" -eq 1 ] && tasks=1  # two tasks would share the one GPU, which NCCL refuses
set +e
out=$(timeout 120 srun --ntasks $tasks "$program" "${small[@]}" --nccl-id "$work/nccl-id" 2>&1)
code=$?
set -e
echo "$out"
if [ "${gpus:-0}" -ge 1 ]; then
  word=processes
  [ $tasks = 1 ] && word=process
  [ $code -eq 0 ] || { echo "FAILED: $tasks tasks on $gpus GPUs exited with $code"; exit 1; }
  grep -Eq "^ *launch +$tasks $word.*\(started by slurm\)" <<<"$out" ||
    { echo "FAILED: rank 0's report does not say $tasks $word started by Slurm"; exit 1; }
else
  [ "$(grep -c 'skipped' <<<"$out")" = 2 ] || { echo "FAILED: not both tasks started and skipped (no GPU here)"; exit 1; }
fi
stop_slurm_and_check || exit 1
echo "ok: srun started step 14 as two tasks"
