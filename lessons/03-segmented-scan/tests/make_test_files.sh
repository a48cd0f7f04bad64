#!/usr/bin/env bash
# The files of lesson 03's file tests (the CTest fixture lesson03_files): a problem written by
# lesson03_make_input, the README's worked example and its answer, and broken files written byte by
# byte. A problem is two course arrays, the values then the flags (int32, 1 at each segment's start),
# each a 16-byte header and its data. The script fails if the generator fails or a file
# does not come out at the size its layout gives (common/testing/test_files.sh).
# Usage: make_test_files.sh MAKE_INPUT WORK_DIR
source "$(dirname "${BASH_SOURCE[0]}")/../../../common/testing/test_files.sh"

# header TYPE COUNT: a course array header of one row, little-endian 32-bit: CUCR, the element type
# (1 float32, 3 int32), rows (1), columns (COUNT, below 65536).
header() { printf 'CUCR'; printf "$(printf '\\x%02x\\x00\\x00\\x00\\x01\\x00\\x00\\x00' "$1")"; printf "$(printf '\\x%02x\\x%02x\\x00\\x00' $(($2 % 256)) $(($2 / 256)))"; }
# int32 VALUE...: each value as 4 little-endian bytes.
int32() { for v in "$@"; do printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))"; done; }

# The good file: 1001 doubles and 1001 flags, segments of every length (mixed).
"$make_input" --n 1001 --type double --op sum --segments mixed --seed 4 --output good.bin >/dev/null
expect_size good.bin $((16 + 1001 * 8 + 16 + 1001 * 4))

# The worked example of the README: 10 int32 values, 10 flags; and the sums it gives, as --output
# writes them (one array).
{ header 3 10; int32 10 3 2 1 3 4 9 5 0 11; header 3 10; int32 1 0 0 1 0 0 0 1 0 1; } >example.bin
expect_size example.bin $((2 * (16 + 10 * 4)))
{ header 3 10; int32 10 13 15 1 4 8 17 5 5 11; } >example-sums.bin
expect_size example-sums.bin $((16 + 10 * 4))

# A flag of 2: flags 1 2 0.
{ header 3 3; int32 1 2 3; header 3 3; int32 1 2 0; } >flag2.bin
expect_size flag2.bin $((2 * (16 + 3 * 4)))
# 3 values and 2 flags.
{ header 3 3; int32 1 2 3; header 3 2; int32 1 0; } >lengths.bin
expect_size lengths.bin $((16 + 3 * 4 + 16 + 2 * 4))
# One segment of 2^30 + 2^30 = 2^31, one beyond the largest int32 (a sum overflows; a max does not).
{ header 3 2; int32 1073741824 1073741824; header 3 2; int32 1 0; } >overflow.bin
expect_size overflow.bin $((2 * (16 + 2 * 4)))
# float32 values NaN (0x7fc00000) and 1.0 (0x3f800000), little-endian.
{ header 1 2; printf '\x00\x00\xc0\x7f\x00\x00\x80\x3f'; header 3 2; int32 1 0; } >nan.bin
expect_size nan.bin $((2 * (16 + 2 * 4)))
# Flags stored as float32 (their bytes are zeros).
{ header 3 2; int32 1 2; header 1 2; int32 0 0; } >float-flags.bin
expect_size float-flags.bin $((2 * (16 + 2 * 4)))
# Truncated: the values' header promises 8,008 bytes, and 14 follow.
head -c 30 good.bin >truncated.bin
expect_size truncated.bin 30
# Values and no flags: the file ends where the flags' header should begin.
{ header 3 3; int32 1 2 3; } >no-flags.bin
expect_size no-flags.bin $((16 + 3 * 4))

echo "lesson 03's test files are in $work"
