#!/usr/bin/env bash
# Tests of lesson 03's files, run by CTest: lesson03_make_input writes a file that course_inspect
# describes and the steps read with --input (and write with --output); files with flags other than 0 or
# 1, arrays of different lengths, the wrong types, truncated data, values that are not finite, or signed
# sums that overflow get one line on standard error and exit code 2, from a CPU step and from a GPU step
# alike (the file is checked before the GPU is needed).
# Usage: test_tools.sh BIN_DIR WORK_DIR
set -u
bin=$1 work=$2
mkdir -p "$work"
source "$(dirname "${BASH_SOURCE[0]}")/../../../common/testing/tool_tests.sh"
cpu=$bin/lesson03_01_cpu_sequential
gpu=$bin/lesson03_07_decoupled_lookback

# A course array header: CUCR, element type, rows, columns (little-endian 32-bit).
header() { printf 'CUCR'; printf "$(printf '\\x%02x\\x00\\x00\\x00\\x01\\x00\\x00\\x00' "$1")"; printf "$(printf '\\x%02x\\x%02x\\x00\\x00' $(($2 % 256)) $(($2 / 256)))"; }
int32() { for v in "$@"; do printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))"; done; }

good=$work/good.bin
"$bin/lesson03_make_input" --n 1001 --type double --op sum --segments mixed --seed 4 --output "$good" >/dev/null ||
  fail "make_input failed"
size=$(stat -c %s "$good")
[ "$size" -eq $((16 + 1001 * 8 + 16 + 1001 * 4)) ] || fail "file size $size, expected two headers, 1001 doubles, 1001 int32"
"$bin/course_inspect" --file "$good" >"$work/inspect" || fail "course_inspect failed on a good file"
grep -q "array 0: float64, 1 x 1001" "$work/inspect" || fail "inspect does not show the values: $(cat "$work/inspect")"
grep -q "array 1: int32, 1 x 1001" "$work/inspect" || fail "inspect does not show the flags: $(cat "$work/inspect")"

"$cpu" --input "$good" --op max --reps 1 --csv --output "$work/result.bin" >"$work/run" || fail "the CPU step failed on the file"
grep -q ",n=1001 double max," "$work/run" || fail "the CPU step did not scan the file's 1001 doubles: $(cat "$work/run")"
grep -q ",PASS," "$work/run" || fail "the CPU step did not PASS on the file"
"$bin/course_inspect" --file "$work/result.bin" >"$work/inspect" || fail "course_inspect failed on the result"
grep -q "array 0: float64, 1 x 1001" "$work/inspect" || fail "the result is not 1001 doubles: $(cat "$work/inspect")"
"$gpu" --input "$good" --reps 1 --csv >"$work/run"
code=$?
[ $code -eq 0 ] || [ $code -eq 77 ] || fail "the GPU step on a good file: exit code $code"

# The worked example of the README, written by hand: 10 int32 values, 10 flags.
{ header 3 10; int32 10 3 2 1 3 4 9 5 0 11; header 3 10; int32 1 0 0 1 0 0 0 1 0 1; } >"$work/example.bin"
"$cpu" --input "$work/example.bin" --reps 1 --output "$work/example-out.bin" >/dev/null || fail "the example does not pass"
expected=$({ header 3 10; int32 10 13 15 1 4 8 17 5 5 11; } | od -An -tx1 | tr -d ' \n')
got=$(od -An -tx1 "$work/example-out.bin" | tr -d ' \n')
[ "$got" = "$expected" ] || fail "the example's sums: got $got, expected $expected"

{ header 3 3; int32 1 2 3; header 3 3; int32 1 2 0; } >"$work/flag2.bin"
{ header 3 3; int32 1 2 3; header 3 2; int32 1 0; } >"$work/lengths.bin"
{ header 3 2; int32 1073741824 1073741824; header 3 2; int32 1 0; } >"$work/overflow.bin"
{ header 1 2; printf '\x00\x00\xc0\x7f\x00\x00\x80\x3f'; header 3 2; int32 1 0; } >"$work/nan.bin"
{ header 3 2; int32 1 2; header 1 2; int32 0 0; } >"$work/float-flags.bin"
head -c 30 "$good" >"$work/truncated.bin"
{ header 3 3; int32 1 2 3; } >"$work/no-flags.bin"
for program in "$cpu" "$gpu"; do
  name=$(basename "$program")
  expect_usage_error "$name, a flag of 2" "$program" --input "$work/flag2.bin"
  grep -q "neither 0 nor 1" "$work/err" || fail "$name: the message does not say what is wrong with the flag"
  expect_usage_error "$name, 3 values and 2 flags" "$program" --input "$work/lengths.bin"
  expect_usage_error "$name, an int32 sum that overflows" "$program" --input "$work/overflow.bin"
  grep -q "overflows int32" "$work/err" || fail "$name: the message does not name the overflow"
  expect_usage_error "$name, a NaN value" "$program" --input "$work/nan.bin"
  expect_usage_error "$name, flags stored as floats" "$program" --input "$work/float-flags.bin"
  expect_usage_error "$name, truncated" "$program" --input "$work/truncated.bin"
  expect_usage_error "$name, no flags" "$program" --input "$work/no-flags.bin"
  expect_usage_error "$name, --type with --input" "$program" --input "$good" --type float
done
"$cpu" --input "$work/overflow.bin" --op max --reps 1 >/dev/null || fail "a max of large int32 values is fine"
expect_usage_error "make_input without --output" "$bin/lesson03_make_input" --n 3
expect_usage_error "make_input, unknown pattern" "$bin/lesson03_make_input" --segments some --output "$work/x.bin"

finish_tool_tests
