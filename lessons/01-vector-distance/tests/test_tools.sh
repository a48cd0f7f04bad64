#!/usr/bin/env bash
# Tests of lesson 01's files, run by CTest: lesson01_make_input writes problems that course_inspect
# describes and the CPU step reads with --input; its --output is C; truncated, corrupt, mismatched,
# wrongly typed and overflowing files get one line on standard error and exit code 2.
# Usage: test_tools.sh BIN_DIR WORK_DIR
set -u
bin=$1 work=$2
mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/../../../common/testing/tool_tests.sh"

step=$bin/lesson01_01_cpu_sequential
good=$work/good.bin
"$bin/lesson01_make_input" --m 33 --k 20 --n 101 --seed 4 --output "$good" >/dev/null || fail "make_input failed"
size=$(stat -c %s "$good")
[ "$size" -eq $((16 + 33 * 101 * 4 + 16 + 20 * 101 * 4)) ] || fail "file size $size, expected two headers and the data"
"$bin/course_inspect" --file "$good" >"$work/inspect" || fail "course_inspect failed on a good file"
grep -q "array 0: float32, 33 x 101" "$work/inspect" || fail "inspect does not show A: $(cat "$work/inspect")"
grep -q "array 1: float32, 20 x 101" "$work/inspect" || fail "inspect does not show B: $(cat "$work/inspect")"

# The file's problem is the seeded one: the same C either way, written with --output.
"$step" --input "$good" --reps 1 --csv --output "$work/c_file.bin" >"$work/run" || fail "the CPU step failed on the file"
grep -q ",33x20x101," "$work/run" || fail "the CPU step did not run on the file's 33 x 20 x 101: $(cat "$work/run")"
grep -q ",PASS," "$work/run" || fail "the CPU step did not PASS on the file"
"$step" --m 33 --k 20 --n 101 --seed 4 --reps 1 --output "$work/c_seed.bin" >/dev/null || fail "the seeded run failed"
cmp -s "$work/c_file.bin" "$work/c_seed.bin" || fail "C from the file differs from C of the same seeded problem"
"$bin/course_inspect" --file "$work/c_file.bin" >"$work/inspect_c" || fail "course_inspect failed on C"
grep -q "array 0: float32, 33 x 20" "$work/inspect_c" || fail "C is not 33 x 20 float32: $(cat "$work/inspect_c")"

"$bin/lesson01_make_input" --m 7 --k 9 --n 50 --type int32 --offset 1000 --output "$work/int.bin" >/dev/null ||
  fail "make_input failed for int32"
"$step" --input "$work/int.bin" --reps 1 --csv --output "$work/c_int.bin" >"$work/run_int" || fail "the CPU step failed on int32"
grep -q ",7x9x50 int32," "$work/run_int" || fail "the int32 file was not run as int32: $(cat "$work/run_int")"
grep -q "array 0: int32, 7 x 9" <("$bin/course_inspect" --file "$work/c_int.bin") || fail "C of int32 is not int32"
expect_usage_error "step, --type disagrees with the file" "$step" --input "$work/int.bin" --type float32

head -c 1000 "$good" >"$work/truncated.bin"
expect_usage_error "step, truncated" "$step" --input "$work/truncated.bin"
head -c 10 "$good" >"$work/short.bin"
expect_usage_error "step, shorter than a header" "$step" --input "$work/short.bin"
{ printf 'XXXX'; tail -c +5 "$good"; } >"$work/magic.bin"
expect_usage_error "step, wrong magic" "$step" --input "$work/magic.bin"
"$bin/lesson01_make_input" --m 5 --k 5 --n 7 --output "$work/n7.bin" >/dev/null
"$bin/lesson01_make_input" --m 5 --k 5 --n 8 --output "$work/n8.bin" >/dev/null
{ head -c $((16 + 5 * 7 * 4)) "$work/n7.bin"; tail -c $((16 + 5 * 8 * 4)) "$work/n8.bin"; } >"$work/mismatch.bin"
expect_usage_error "step, A and B of different N" "$step" --input "$work/mismatch.bin"
"$bin/lesson01_make_input" --m 5 --k 5 --n 7 --type int32 --output "$work/i7.bin" >/dev/null
{ head -c $((16 + 5 * 7 * 4)) "$work/n7.bin"; tail -c $((16 + 5 * 7 * 4)) "$work/i7.bin"; } >"$work/mixed.bin"
expect_usage_error "step, A float32 and B int32" "$step" --input "$work/mixed.bin"
# An int32 file whose values span too much: A[0] = (0, 20000, 0, ...), N = 7: 7 x 20000^2 > 2^31 - 1.
{ head -c 16 "$work/i7.bin"; printf '\x00\x00\x00\x00\x20\x4e\x00\x00'; head -c $((5 * 7 * 4 - 8)) /dev/zero
  tail -c $((16 + 5 * 7 * 4)) "$work/i7.bin"; } >"$work/wide.bin"
expect_usage_error "step, int32 values that could overflow" "$step" --input "$work/wide.bin"
: >"$work/empty.bin"
expect_usage_error "step, empty file" "$step" --input "$work/empty.bin"
expect_usage_error "make_input without --output" "$bin/lesson01_make_input" --m 3
expect_usage_error "make_input, unknown type" "$bin/lesson01_make_input" --type float64 --output "$work/x.bin"

finish_tool_tests
