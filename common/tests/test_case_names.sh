#!/usr/bin/env bash
# Every Catch2 test case of the course is its own CTest test, named after it, and CTest cuts a test's
# name at each ';'. A test case whose name holds one would leave two tests that pick out no test case
# (they fail, under --warn NoTests; an exercise stub's, which must fail, would pass). So: none may.
# usage: test_case_names.sh ROOT
root=$1
found=$(grep -rn --include='*.cpp' --include='*.cu' --include='*.cuh' --include='*.h' 'TEST_CASE("[^"]*;' \
          "$root/common" "$root/lessons" "$root/exercises" "$root/solutions" 2>/dev/null)
if [ -n "$found" ]; then
  echo "test case names with a ';' (write ',' or 'and' instead):"
  echo "$found"
  exit 1
fi
count=$(grep -rh --include='*.cpp' --include='*.cu' 'TEST_CASE("' "$root/common" "$root/lessons" "$root/exercises" \
          "$root/solutions" 2>/dev/null | wc -l)
[ "$count" -gt 0 ] || { echo "no test cases found under $root: the check looked in the wrong place"; exit 1; }
echo "$count test cases, none named with a ';'"
