#!/usr/bin/env bash
# `./course test` given CTest's options that pick tests sets up and builds only what those tests need:
# on a fresh build folder, `./course test -L cpu -R lesson02` builds lesson 02's programs and its CPU
# tests, nothing of the other lessons, no documentation and no copy of the course, then runs the
# picked tests and passes. (The time it takes is the README's figure, measured on a fresh clone.)
# usage: test_course_test_selection.sh COURSE_SCRIPT WORK_DIR
set -euo pipefail
# (Run by the suite, it must not be among the tests it picks: it would start itself again.)
[ -z "${COURSE_TEST_SELECTION_RUNNING:-}" ] || { echo "test_course_test_selection.sh started itself"; exit 1; }
export COURSE_TEST_SELECTION_RUNNING=1
course=$1
work=$2
build=$work/build
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAILED: $*"; tail -n 20 "$work/err" "$work/out"; exit 1; }

started=$(date +%s)
status=0
COURSE_BUILD_DIR=$build COURSE_NO_INSTALL=1 bash "$course" test -L cpu -R lesson02 >"$work/out" 2>"$work/err" </dev/null ||
  status=$?
elapsed=$(($(date +%s) - started))
[ $status = 0 ] || fail "./course test -L cpu -R lesson02 exited with $status"
programs=$(sed -n 's/^course: the tests picked run \([0-9]*\) programs: building those$/\1/p' "$work/err")
[ -n "$programs" ] || fail "./course test did not say what it builds"
# (CTest 3 ends "100% tests passed, 0 tests failed out of N", CTest 4 "100% tests passed out of N")
tests=$(sed -n -E 's/^100% tests passed(, 0 tests failed)? out of ([0-9]+)$/\2/p' "$work/out")
[ -n "$tests" ] || fail "not every picked test ran and passed"
[ "$tests" -ge 10 ] || fail "only $tests tests ran"
if grep -E '^ *[0-9]+/[0-9]+ Test +#[0-9]+: ' "$work/out" | grep -v -q 'lesson02'; then fail "a test of another lesson ran"; fi
[ -x "$build/bin/lesson02_01_cpu_sequential_test" ] || fail "lesson 02's CPU step tests were not built"
others=$(find "$build/bin" -maxdepth 1 -name 'lesson0[1345]_*' | wc -l)
[ "$others" = 0 ] || fail "$others programs of other lessons were built"
for unwanted in "$build/docs/html" "$build/common/notebook_test" "$build/bin/common_tests"; do
  [ ! -e "$unwanted" ] || fail "built what no picked test needs: ${unwanted#"$build"/}"
done
if grep -qiE 'doxygen|notebook|nbclient|slurm|installing' "$work/err"; then fail "set up what no picked test needs: $(cat "$work/err")"; fi
echo "./course test -L cpu -R lesson02: $tests tests, $programs programs built, nothing else, in $elapsed s"
