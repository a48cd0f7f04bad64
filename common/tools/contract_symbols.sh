#!/usr/bin/env bash
# The contract of an exercise as a linker version script, for ./course grade-class:
#   common/tools/contract_symbols.sh MAP STUB_OBJECT... -- PROGRAM_OBJECT...
# writes to MAP the functions that the stub's objects define (the exercise's functions, as its header
# declares them) and the contestant's objects call: the only symbols a student's
# shared library exports (`global:`); everything else in it is local (`local: *;`). It fails, writing
# nothing, when there is no such function: a stub and a contestant that share no function cannot grade.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: contract_symbols.sh MAP STUB_OBJECT... -- PROGRAM_OBJECT..." >&2; exit 2; }
map=$1
shift
stub=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do stub+=("$1"); shift; done
[ $# -gt 1 ] || { echo "contract_symbols.sh: no program objects after --" >&2; exit 2; }
shift
# Strong definitions of code (T) only: inline functions and templates (W) are everybody's.
mapfile -t symbols < <(comm -12 <(nm -P --defined-only --extern-only "${stub[@]}" | awk '$2 == "T" { print $1 }' | sort -u) \
                                 <(nm -P --undefined-only "$@" | awk '{ print $1 }' | sort -u))
[ ${#symbols[@]} -gt 0 ] || { echo "contract_symbols.sh: the stub defines no function that the contestant calls" >&2; exit 1; }
{
  echo "/* Written by common/tools/contract_symbols.sh: what a submission may export. */"
  echo "{"
  echo "  global:"
  printf '    %s;\n' "${symbols[@]}"
  echo "  local: *;"
  echo "};"
} >"$map.new"
mv "$map.new" "$map"
