#!/usr/bin/env bash
# The files of lesson 01's file tests (the CTest fixture lesson01_files): problems written by
# lesson01_make_input, and broken files cut from them byte by byte. A course file is arrays one after
# the other, each a 16-byte header (CUCR, element type, rows, columns) and its data; here A (M x N) then
# B (K x N). The folder is emptied first, so no file of an earlier run can stand in for a missing one;
# the script fails if a generator fails or a file does not come out at the size its layout gives.
# Usage: make_test_files.sh MAKE_INPUT WORK_DIR
set -eu
make_input=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
cd "$work"

expect_size() {  # expect_size FILE BYTES
  local size
  size=$(wc -c <"$1")
  if [ "$size" -ne "$2" ]; then
    echo "$1: $size bytes, expected $2" >&2
    exit 1
  fi
}

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

# Truncated: A's header promises 13,332 bytes of data, and 984 follow.
head -c 1000 good.bin >truncated.bin
expect_size truncated.bin 1000
# Shorter than a header: 10 of its 16 bytes.
head -c 10 good.bin >short.bin
expect_size short.bin 10
# Wrong magic: the first four bytes are XXXX instead of CUCR, the rest as it was.
{ printf 'XXXX'; tail -c +5 good.bin; } >magic.bin
expect_size magic.bin $(wc -c <good.bin)
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
# Empty: not even a header.
: >empty.bin
expect_size empty.bin 0

echo "lesson 01's test files are in $work"
