#!/usr/bin/env bash
# The files of lesson 01's file tests (the CTest fixture lesson01_files): problems written by
# lesson01_make_input, and broken files cut from them byte by byte. A course file is arrays one after
# the other, each a 16-byte header (CUCR, element type, rows, columns) and its data; here A (M x N) then
# B (K x N).
# The script fails if a generator fails or a file does not come out at the size its layout gives
# (common/testing/test_files.sh).
# Usage: make_test_files.sh MAKE_INPUT WORK_DIR
source "$(dirname "${BASH_SOURCE[0]}")/../../../common/testing/test_files.sh"

# The good files: float32 (33 x 101 and 20 x 101), int32 (7 x 50 and 9 x 50, far from the origin).
"$make_input" --m 33 --k 20 --n 101 --seed 4 --output good.bin >/dev/null
expect_size good.bin $((16 + 33 * 101 * 4 + 16 + 20 * 101 * 4))
"$make_input" --m 7 --k 9 --n 50 --type int32 --offset 1000 --output int.bin >/dev/null
expect_size int.bin $((16 + 7 * 50 * 4 + 16 + 9 * 50 * 4))

# Small problems to cut and splice: A and B of 5 x 7 and 5 x 8 float32, and of 5 x 7 int32.
"$make_input" --m 5 --k 5 --n 7 --output n7.bin >/dev/null
"$make_input" --m 5 --k 5 --n 8 --output n8.bin >/dev/null
"$make_input" --m 5 --k 5 --n 7 --type int32 --output i7.bin >/dev/null
expect_size n7.bin $((2 * (16 + 5 * 7 * 4)))
expect_size n8.bin $((2 * (16 + 5 * 8 * 4)))
expect_size i7.bin $((2 * (16 + 5 * 7 * 4)))

# Truncated, shorter than a header, wrong magic, empty (common/testing/test_files.sh).
broken_copies good.bin
# A and B of different N: A (header and data) of the 5 x 7 file, B (the last header and data) of the
# 5 x 8 one.
{ head -c $((16 + 5 * 7 * 4)) n7.bin; tail -c $((16 + 5 * 8 * 4)) n8.bin; } >mismatch.bin
expect_size mismatch.bin $((16 + 5 * 7 * 4 + 16 + 5 * 8 * 4))
# A float32 and B int32: A of the float32 5 x 7 file, B of the int32 one.
{ head -c $((16 + 5 * 7 * 4)) n7.bin; tail -c $((16 + 5 * 7 * 4)) i7.bin; } >mixed.bin
expect_size mixed.bin $((2 * (16 + 5 * 7 * 4)))
# An int32 file whose values span too much: A[0] = (0, 20000, 0, ...), N = 7: 7 x 20000^2 > 2^31 - 1.
# A's header, then 0 and 20000 (0x4e20) little-endian, zeros for the rest of A, then B as it was.
{ head -c 16 i7.bin; printf '\x00\x00\x00\x00\x20\x4e\x00\x00'; head -c $((5 * 7 * 4 - 8)) /dev/zero
  tail -c $((16 + 5 * 7 * 4)) i7.bin; } >wide.bin
expect_size wide.bin $((2 * (16 + 5 * 7 * 4)))

echo "lesson 01's test files are in $work"
