#!/usr/bin/env bash
# Step 12 on two GPUs: one run with --gpus 2 must PASS and say it ran on 2 GPUs; --scaling must print
# the rows of 1 and 2 GPUs, each PASS. Run through common/tests/run_with_gpus.sh 2 (skipped on fewer).
# Usage: test_two_gpus.sh PROGRAM
set -uo pipefail
program=$1
small=(--m 1001 --n 20000 --reps 2 --warmup 1 --copy-bandwidth 1 --read-bandwidth 1)
out=$("$program" --gpus 2 "${small[@]}" 2>&1)
code=$?
echo "$out"
[ $code -eq 0 ] || { echo "FAILED: --gpus 2 exited with $code"; exit 1; }
grep -Eq '^ *launch +2 GPUs, ' <<<"$out" || { echo "FAILED: the report does not say it ran on 2 GPUs"; exit 1; }
out=$("$program" --scaling "${small[@]}" 2>&1)
code=$?
echo "$out"
[ $code -eq 0 ] || { echo "FAILED: --scaling exited with $code"; exit 1; }
for k in 1 2; do
  grep -Eq "^ *$k +[0-9.]+ .*PASS *\$" <<<"$out" || { echo "FAILED: no PASS row for $k GPUs in the scaling table"; exit 1; }
done
echo "ok: step 12 on 2 GPUs"
