#!/usr/bin/env bash
# Step 14 as K processes, one per GPU, started by the program itself: the run must PASS, rank 0 alone
# must report, and the report must say K processes started by the course's launcher.
# Usage: test_processes.sh PROGRAM K   (run through common/tests/run_with_gpus.sh K)
set -uo pipefail
program=$1 processes=$2
out=$("$program" --gpus "$processes" --m 1001 --n 20000 --reps 2 --warmup 1 --copy-bandwidth 1 --read-bandwidth 1 2>&1)
code=$?
echo "$out"
[ $code -eq 0 ] || { echo "FAILED: exit code $code"; exit 1; }
word=processes
[ "$processes" = 1 ] && word=process
grep -Eq "^ *launch +$processes $word.*\(started by course\)" <<<"$out" ||
  { echo "FAILED: the report does not say $processes $word started by the course's launcher"; exit 1; }
[ "$(grep -c '^ *check ' <<<"$out")" = 1 ] || { echo "FAILED: not exactly one report (rank 0's)"; exit 1; }
echo "ok: step 14 as $processes $word"
