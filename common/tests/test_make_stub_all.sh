#!/usr/bin/env bash
# course_make_stub --all on a pretend course made in a temporary folder: every solution with answers
# marked gets its stub written and named; a solution without markers is left alone; a course without
# solutions/ is refused in one line with exit 2.
# usage: test_make_stub_all.sh COURSE_MAKE_STUB
set -euo pipefail
make_stub=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

mkdir -p "$work/solutions/01-first" "$work/solutions/02-second" "$work/exercises/01-first" "$work/exercises/02-second"
printf 'int f() {\n  // >>> solution\n  return 42;\n  // <<<\n  // stub: return 0;\n}\n' >"$work/solutions/01-first/answer.cu"
printf 'int g() { return 1; }\n' >"$work/solutions/02-second/plain.cu"
echo "left alone" >"$work/exercises/02-second/plain.cu"

"$make_stub" --all "$work" 2>"$work/err" || fail "course_make_stub --all exited with $?: $(cat "$work/err")"
[ "$(cat "$work/exercises/01-first/answer.cu")" = "$(printf 'int f() {\n  return 0;\n}')" ] ||
  fail "the stub written is: $(cat "$work/exercises/01-first/answer.cu")"
[ "$(cat "$work/exercises/02-second/plain.cu")" = "left alone" ] || fail "a solution without markers overwrote its exercise"
[ "$(cat "$work/err")" = "course_make_stub: wrote exercises/01-first/answer.cu" ] || fail "course_make_stub --all said: $(cat "$work/err")"

rm -rf "$work/solutions"
status=0
"$make_stub" --all "$work" 2>"$work/err" || status=$?
[ $status = 2 ] || fail "a course without solutions/ exited with $status, not 2"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "already a student's copy" "$work/err" || fail "a course without solutions/ said: $(cat "$work/err")"
echo "course_make_stub --all: all checks passed"
