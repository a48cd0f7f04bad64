#!/usr/bin/env bash
# The runner's tests, on any machine: a pretend lesson 99 of stand-in steps (fake_step) in a folder of
# its own, with its own manifest. Checks a ladder, a sweep with the study's figures and a step limited to
# the first rows, a step skipped for a missing GPU feature, a size shrunk until it fits, and --table.
# usage: test_runner.sh RUNNER FAKE_STEP WORK_DIR
set -euo pipefail
runner=$1 fake=$2 work=$3
rm -rf "$work" && mkdir -p "$work/bin"
cp "$runner" "$work/bin/course_runner"
step() {  # step NAME ARGS...: a program that runs the stand-in with fixed arguments
  local name=$1; shift
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$fake" "$*" >"$work/bin/$name"
  chmod +x "$work/bin/$name"
}
printf '#!/bin/sh\necho "course_device_info: skipped: no CUDA device (pretend)" >&2\nexit 77\n' >"$work/bin/course_device_info"
chmod +x "$work/bin/course_device_info"
step lesson99_01_cpu --step 01 --kind cpu
step lesson99_02_gpu --step 02
step lesson99_03_small_gpu --step 03 --fits 300
step lesson99_04_grid_sync --step 04 --not-supported "\"pretend GPU lacks cooperative launches\""
printf 'size,old CPU,old GPU\n100,5.5,\n400,22,1.25\n' >"$work/study.csv"
{
  printf '# lesson\ttable\ttarget\targuments\n'
  printf '99\tlesson\t-\tPretend lesson\n'
  printf '99\tladder\tlesson99_01_cpu\t--n 200\n'
  printf '99\tladder\tlesson99_02_gpu\t\n'
  printf '99\tladder\tlesson99_03_small_gpu\t--n 1000\n'
  printf '99\tladder\tlesson99_04_grid_sync\t\n'
  printf '99\tsweep\t-\tsize sweep|n|%s|--reps 1\n' "$work/study.csv"
  printf '99\tsweep-step\tlesson99_01_cpu<=100\tsize sweep\n'
  printf '99\tsweep-step\tlesson99_03_small_gpu\tsize sweep\n'
  printf '99\tsweep-row\t-\tsize sweep|100|--n 100\n'
  printf '99\tsweep-row\t-\tsize sweep|400|--n 400\n'
} >"$work/bin/course_manifest.tsv"

status=0
"$work/bin/course_runner" --lesson 99 --results "$work/results" >"$work/out.txt" 2>"$work/err.txt" || status=$?
cat "$work/out.txt"
fail() { echo "FAILED: $*"; exit 1; }
[ $status -eq 0 ] || fail "the runner exited with $status"
expect() { grep -qE -- "$1" "$work/out.txt" || fail "no line matching '$1'"; }
expect '^  04 +lesson99_04_grid_sync .*SKIP'                 # skipped without a CSV row, not an ERROR
expect 'SKIP: pretend GPU lacks cooperative launches'
expect '^  03 +fake step 03 +n=250 '                         # 1000 shrunk twice to fit 300
expect 'note: lesson99_03_small_gpu: .* run at n=250 \(every size halved 2 times\)'
expect '^n +01 ms +03 ms +fastest +study: old CPU ms +study: old GPU ms'
expect '^100 +0.1000 +0.1000 +01 +5.5 +-$'                         # a tie goes to the first step
expect '^400 +- +0.2000 +03 +22 +1.25$'                         # step 01 stops after the row "100"
expect 'lesson99_03_small_gpu: .* run at n=200 \(every size halved 1 time\)'
for f in ladder.csv ladder.json ladder.svg size-sweep.csv size-sweep.json; do
  [ -s "$work/results/lesson99-$f" ] || fail "results/lesson99-$f was not written"
done
grep -q '^n,step_01_ms,step_01_check,step_03_ms,step_03_check,fastest,study_old CPU_ms,study_old GPU_ms$' \
  "$work/results/lesson99-size-sweep.csv" || fail "the sweep's CSV header is wrong"
grep -q '^400,,,0.2,PASS,03,22,1.25$' "$work/results/lesson99-size-sweep.csv" || fail "the sweep's CSV row is wrong"

# --table runs only the tables whose title contains the text: here the sweep, not the ladder.
rm -rf "$work/results"
"$work/bin/course_runner" --lesson 99 --table "size" --results "$work/results" >"$work/out.txt" 2>/dev/null ||
  fail "the runner with --table exited with $?"
expect '^400 +- +0.2000 +03 +22 +1.25$'
if grep -q 'lesson99_04_grid_sync' "$work/out.txt"; then fail "--table size ran the ladder too"; fi
[ -s "$work/results/lesson99-size-sweep.csv" ] || fail "--table size did not write the sweep's CSV"
[ ! -e "$work/results/lesson99-ladder.csv" ] || fail "--table size wrote the ladder's CSV"
if "$work/bin/course_runner" --lesson 99 --table "no such" --results "$work/results" >/dev/null 2>&1; then
  fail "--table with no matching table did not fail"
fi

# A wrong answer makes the run fail.
printf '99\tladder\tlesson99_05_wrong\t\n' >>"$work/bin/course_manifest.tsv"
step lesson99_05_wrong --step 05 --wrong
if "$work/bin/course_runner" --lesson 99 --results "$work/results" >/dev/null 2>&1; then
  fail "a FAIL in the ladder did not fail the run"
fi
echo "runner: all checks passed"
