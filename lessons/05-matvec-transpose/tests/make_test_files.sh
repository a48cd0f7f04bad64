#!/usr/bin/env bash
# The files of lesson 05's file tests (the CTest fixture lesson05_files): problems written by
# lesson05_make_input, and broken files cut from them byte by byte. A course file is arrays one after
# the other, each a 16-byte header (CUCR, element type, rows, columns) and its data; here A (M x N) then
# v (1 x N).
# The script fails if a generator fails or a file does not come out at the size its layout gives
# (common/testing/test_files.sh).
# Usage: make_test_files.sh MAKE_INPUT WORK_DIR
source "$(dirname "${BASH_SOURCE[0]}")/../../../common/testing/test_files.sh"

# The good file: A 33 x 1001 and v 1 x 1001, float32.
"$make_input" --m 33 --n 1001 --seed 4 --output good.bin >/dev/null
expect_size good.bin $((16 + 33 * 1001 * 4 + 16 + 1001 * 4))
# Small problems to splice: A 5 x 7 with v of 7, and A 5 x 8 with v of 8.
"$make_input" --m 5 --n 7 --output a.bin >/dev/null
"$make_input" --m 5 --n 8 --output b.bin >/dev/null
expect_size a.bin $((16 + 5 * 7 * 4 + 16 + 7 * 4))
expect_size b.bin $((16 + 5 * 8 * 4 + 16 + 8 * 4))

# Truncated, shorter than a header, wrong magic, empty (common/testing/test_files.sh).
broken_copies good.bin
# v does not match A: A (header and data) of the 5 x 7 file, v (the last header and data) of the 5 x 8
# one. Each array is valid on its own.
{ head -c $((16 + 5 * 7 * 4)) a.bin; tail -c $((16 + 8 * 4)) b.bin; } >mismatch.bin
expect_size mismatch.bin $((16 + 5 * 7 * 4 + 16 + 8 * 4))

echo "lesson 05's test files are in $work"
