#!/usr/bin/env bash
# Step 14 twice in a row as two processes started by the program itself, both with the same
# --nccl-id file, each time over a file that another launch left there in the form rank 0 writes
# (course::hand_over: a line, the stamp, the id), as if its rank 0 had died before removing it: each
# run must end in time and PASS, rank 0 reporting, and leave no id file.
# Usage: test_same_id_file.sh PROGRAM WORK_DIR   (run through common/tests/run_with_gpus.sh 2)
set -uo pipefail
program=$1 work=$2
id=$work/nccl-id
rm -rf "$work"
mkdir -p "$work"
plant() { { printf 'course handover\n%s\n' "$1"; head -c 128 /dev/urandom; } >"$id"; }
for run in 1 2; do
  plant "course run left-behind-$run"
  out=$(timeout -k 10 180 "$program" --gpus 2 --nccl-id "$id" --m 1001 --n 20000 --reps 2 --warmup 1 \
        --copy-bandwidth 1 --read-bandwidth 1 2>&1)
  code=$?
  echo "$out"
  [ $code -ne 124 ] && [ $code -ne 137 ] || { echo "FAILED: run $run did not end within 180 s"; exit 1; }
  [ $code -eq 0 ] || { echo "FAILED: run $run exited with $code"; exit 1; }
  grep -Eq '^ *launch +2 processes.*\(started by course\)' <<<"$out" ||
    { echo "FAILED: run $run's report does not say 2 processes started by the course's launcher"; exit 1; }
  grep -Eq '^ *check +PASS' <<<"$out" || { echo "FAILED: run $run did not PASS"; exit 1; }
  [ ! -e "$id" ] || { echo "FAILED: run $run left its id file"; exit 1; }
done
echo "ok: step 14 twice on the same --nccl-id file, each over another launch's"
