#!/usr/bin/env bash
# The one-node Slurm of common/testing/slurm_cluster.sh, which the Slurm tests of class grading stand
# on: it starts, runs a job array of 20 tasks (8 at a time) and a job that waits for all of them
# (afterany), as ./course grade-class --slurm submits them, and leaves no daemon running.
# Usage: test_slurm_cluster.sh WORK_DIR
set -eu
source "$(dirname "${BASH_SOURCE[0]}")/../testing/slurm_cluster.sh"
skip_unless_slurm
work=$1
rm -rf "$work"
mkdir -p "$work/out"
start_slurm "$work/slurm"

array=$(sbatch --parsable --array=1-20%8 --output="$work/out/task-%a.log" \
  --wrap 'echo "task $SLURM_ARRAY_TASK_ID of job $SLURM_ARRAY_JOB_ID" >"'"$work"'/out/result-$SLURM_ARRAY_TASK_ID.txt"')
sbatch --parsable --dependency="afterany:$array" --output="$work/out/merge.log" \
  --wrap 'cat "'"$work"'"/out/result-*.txt | sort -n -k2 >"'"$work"'/out/merged.txt"' >/dev/null
wait_for_jobs 120 || { squeue; echo "FAILED: the jobs did not finish within 120 s"; exit 1; }
[ "$(wc -l <"$work/out/merged.txt")" -eq 20 ] || { echo "FAILED: the merge saw $(wc -l <"$work/out/merged.txt") of 20 tasks"; exit 1; }
grep -q "^task 20 of job $array$" "$work/out/merged.txt" || { echo "FAILED: task 20 is not in the merge"; exit 1; }

stop_slurm_and_check || exit 1
echo "one-node Slurm: 20 array tasks and the job after them ran; every daemon stopped"
