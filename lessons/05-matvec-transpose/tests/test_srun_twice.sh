#!/usr/bin/env bash
# Step 14 twice in one Slurm job, on the one-node Slurm of common/testing/slurm_cluster.sh: one
# allocation (salloc) runs srun twice, both with the same --nccl-id file, each time over a file that
# another launch left there in the form rank 0 writes (course::hand_over: a line, the stamp, the id):
# before the first srun, another job's; before the second, the first srun's own (its job and step), as
# if its rank 0 had died before removing it. On two GPUs or more, each srun must end in time and PASS,
# rank 0 reporting, and leave no id file. Without a GPU the two sruns run and each task says it is
# skipped, before any handover: the test then says it is skipped (on one GPU it is skipped at once).
# Leaves no daemon running.
# Usage: test_srun_twice.sh PROGRAM WORK_DIR
set -eu
source "$(dirname "${BASH_SOURCE[0]}")/../../../common/testing/slurm_cluster.sh"
skip_unless_slurm
program=$1 work=$2
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ' || true)
[ "${gpus:-0}" -ne 1 ] || { echo "skipped: two tasks would share the one GPU, which NCCL refuses"; exit 77; }
rm -rf "$work"
mkdir -p "$work"
start_slurm "$work/slurm"

# The job: what a student's script would run, with the stale files planted and each srun's step noted.
cat >"$work/job.sh" <<'JOB'
program=$1 id=$2 work=$3
small=(--m 64 --n 1000 --reps 2 --warmup 1 --copy-bandwidth 1 --read-bandwidth 1)
plant() { { printf 'course handover\n%s\n' "$1"; head -c 128 /dev/urandom; } >"$id"; }
plant "slurm job 1$SLURM_JOB_ID step 0"
for run in 1 2; do
  timeout -k 10 180 srun --ntasks 2 bash -c '[ "$SLURM_PROCID" != 0 ] || echo "$SLURM_STEP_ID" >"$0"; exec "$@"' \
    "$work/step-$run" "$program" "${small[@]}" --nccl-id "$id"
  echo "srun $run: exit $?, id file $([ -e "$id" ] && echo left || echo removed)"
  [ $run = 2 ] || plant "slurm job $SLURM_JOB_ID step $(cat "$work/step-1")"
done
JOB
set +e
out=$(timeout -k 10 420 salloc --ntasks 2 bash "$work/job.sh" "$program" "$work/nccl-id" "$work" 2>&1)
code=$?
set -e
echo "$out"
[ $code -ne 124 ] && [ $code -ne 137 ] || { echo "FAILED: the job did not end within 420 s"; exit 1; }
[ $code -eq 0 ] || { echo "FAILED: salloc exited with $code"; exit 1; }
[ -s "$work/step-1" ] && [ -s "$work/step-2" ] && [ "$(cat "$work/step-1")" != "$(cat "$work/step-2")" ] ||
  { echo "FAILED: the two sruns were not two steps of the job"; exit 1; }
if [ "${gpus:-0}" -ge 2 ]; then
  for run in 1 2; do
    grep -q "^srun $run: exit 0, id file removed$" <<<"$out" ||
      { echo "FAILED: srun $run did not exit with 0 and remove the id file"; exit 1; }
  done
  [ "$(grep -Ec '^ *launch +2 processes.*\(started by slurm\)' <<<"$out")" = 2 ] ||
    { echo "FAILED: not one report of rank 0's for each srun, 2 processes started by Slurm"; exit 1; }
  [ "$(grep -Ec '^ *check +PASS' <<<"$out")" = 2 ] || { echo "FAILED: not two PASSes"; exit 1; }
  stop_slurm_and_check || exit 1
  echo "ok: two sruns of one job on the same --nccl-id file, each over another launch's, both PASS"
else
  [ "$(grep -c 'skipped' <<<"$out")" = 4 ] || { echo "FAILED: not every task of the two sruns started and skipped"; exit 1; }
  stop_slurm_and_check || exit 1
  echo "skipped: no GPU here, so no id to hand over (the job's two sruns ran, each task skipped)"
  exit 77
fi
