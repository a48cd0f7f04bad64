#!/usr/bin/env bash
# Tests of lesson 05's test-file tools, run by CTest: lesson05_make_input writes a file that
# course_inspect describes and the CPU step reads with --input; truncated, corrupt and mismatched files
# get one line on standard error and exit code 2 from each of them.
# Usage: test_tools.sh BIN_DIR WORK_DIR
set -u
bin=$1 work=$2
mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/../../../common/testing/tool_tests.sh"

good=$work/good.bin
"$bin/lesson05_make_input" --m 33 --n 1001 --seed 4 --output "$good" >/dev/null || fail "make_input failed"
size=$(stat -c %s "$good")
[ "$size" -eq $((16 + 33 * 1001 * 4 + 16 + 1001 * 4)) ] || fail "file size $size, expected two headers and the data"

"$bin/course_inspect" --file "$good" >"$work/inspect" || fail "course_inspect failed on a good file"
grep -q "array 0: float32, 33 x 1001" "$work/inspect" || fail "inspect does not show A: $(cat "$work/inspect")"
grep -q "array 1: float32, 1 x 1001" "$work/inspect" || fail "inspect does not show v: $(cat "$work/inspect")"
grep -q "min -0.9" "$work/inspect" || fail "inspect shows no plausible minimum: $(cat "$work/inspect")"

"$bin/lesson05_01_cpu_sequential" --input "$good" --reps 1 --csv >"$work/run" || fail "the CPU step failed on the file"
grep -q ",33x1001," "$work/run" || fail "the CPU step did not run on the file's 33 x 1001: $(cat "$work/run")"
grep -q ",PASS," "$work/run" || fail "the CPU step did not PASS on the file"

head -c 1000 "$good" >"$work/truncated.bin"
expect_usage_error "inspect, truncated" "$bin/course_inspect" --file "$work/truncated.bin"
expect_usage_error "step, truncated" "$bin/lesson05_01_cpu_sequential" --input "$work/truncated.bin"
head -c 10 "$good" >"$work/short.bin"
expect_usage_error "step, shorter than a header" "$bin/lesson05_01_cpu_sequential" --input "$work/short.bin"
{ printf 'XXXX'; tail -c +5 "$good"; } >"$work/magic.bin"
expect_usage_error "inspect, wrong magic" "$bin/course_inspect" --file "$work/magic.bin"
expect_usage_error "step, wrong magic" "$bin/lesson05_01_cpu_sequential" --input "$work/magic.bin"
"$bin/lesson05_make_input" --m 5 --n 7 --output "$work/a.bin" >/dev/null
"$bin/lesson05_make_input" --m 5 --n 8 --output "$work/b.bin" >/dev/null
{ head -c $((16 + 5 * 7 * 4)) "$work/a.bin"; tail -c $((16 + 8 * 4)) "$work/b.bin"; } >"$work/mismatch.bin"
expect_usage_error "step, v does not match A" "$bin/lesson05_01_cpu_sequential" --input "$work/mismatch.bin"
"$bin/course_inspect" --file "$work/mismatch.bin" >/dev/null || fail "inspect should describe a file whose arrays are each valid"
: >"$work/empty.bin"
expect_usage_error "inspect, empty file" "$bin/course_inspect" --file "$work/empty.bin"
expect_usage_error "make_input without --output" "$bin/lesson05_make_input" --m 3
expect_usage_error "make_input, zero rows" "$bin/lesson05_make_input" --m 0 --output "$work/x.bin"
expect_usage_error "inspect, missing file" "$bin/course_inspect" --file "$work/does-not-exist.bin"

finish_tool_tests
