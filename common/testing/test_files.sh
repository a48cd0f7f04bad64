#!/usr/bin/env bash
# What every lesson's tests/make_test_files.sh shares (it sources this file first, with its own
# arguments, MAKE_INPUT WORK_DIR): $make_input and $work are set, the work folder is emptied, so no file
# of an earlier run can stand in for a missing one, and becomes the current folder; expect_size stops
# the script when a file does not come out at the size its layout gives.
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

# broken_copies FILE: broken copies of a good course file, for the refusals every reader of course
# files must make: truncated.bin (its first 1000 bytes: the first header promises more data than
# follows), short.bin (10 bytes, shorter than a header), magic.bin (XXXX instead of CUCR in the first
# four bytes, the rest as it was) and empty.bin.
broken_copies() {
  head -c 1000 "$1" >truncated.bin
  expect_size truncated.bin 1000
  head -c 10 "$1" >short.bin
  expect_size short.bin 10
  { printf 'XXXX'; tail -c +5 "$1"; } >magic.bin
  expect_size magic.bin "$(wc -c <"$1")"
  : >empty.bin
  expect_size empty.bin 0
}
