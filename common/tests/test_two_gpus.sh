#!/usr/bin/env bash
# A step on several GPUs (--gpus, --scaling) on two: one run with --gpus 2 must PASS and say it ran on
# 2 GPUs; --scaling must print the rows of 1 and 2 GPUs, each PASS. Run through run_with_gpus.sh 2
# (skipped on fewer GPUs).
# Usage: test_two_gpus.sh PROGRAM [SIZE OPTION...]
set -uo pipefail
program=$1
shift
small=("$@" --reps 2 --warmup 1 --copy-bandwidth 1 --read-bandwidth 1)
out=$("$program" --gpus 2 "${small[@]}" 2>&1)
code=$?
echo "$out"
[ $code -eq 0 ] || { echo "FAILED: --gpus 2 exited with $code"; exit 1; }
# The report names the GPUs where it names the launch: its own line, or the check's (lesson 02).
grep -Eq '^ *(launch +|check +PASS .*; )2 GPUs, ' <<<"$out" || { echo "FAILED: the report does not say it ran on 2 GPUs"; exit 1; }
out=$("$program" --scaling "${small[@]}" 2>&1)
code=$?
echo "$out"
[ $code -eq 0 ] || { echo "FAILED: --scaling exited with $code"; exit 1; }
for k in 1 2; do
  grep -Eq "^ *$k +[0-9.]+ .*PASS *\$" <<<"$out" || { echo "FAILED: no PASS row for $k GPUs in the scaling table"; exit 1; }
done
echo "ok: $(basename "$program") on 2 GPUs"
