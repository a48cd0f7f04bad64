#!/usr/bin/env bash
# course_make_stub --all on a pretend course made in a temporary folder: every solution with answers
# marked gets its stub written and named; a solution without markers is left alone; an edited stub is
# kept unless --force (and then copied aside); a course without solutions/ is refused in one line with
# exit 2.
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

# A stub edited since (a student's work, say) is never overwritten unasked: one line, exit 2, nothing
# written; with --force it is written and the edited file kept as .bak (then .bak.2).
stub=$work/exercises/01-first/answer.cu
written=$(cat "$stub")
echo "// my own work" >>"$stub"
edited=$(cat "$stub")
status=0
"$make_stub" --all "$work" 2>"$work/err" || status=$?
[ $status = 2 ] || fail "an edited stub: exit code $status, not 2"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "exercises/01-first/answer.cu differ" "$work/err" || fail "an edited stub: $(cat "$work/err")"
[ "$(cat "$stub")" = "$edited" ] || fail "the edited stub was overwritten without --force"
"$make_stub" --all "$work" --force 2>"$work/err" || fail "--force exited with $?: $(cat "$work/err")"
[ "$(cat "$stub")" = "$written" ] || fail "--force did not write the stub"
[ "$(cat "$stub.bak")" = "$edited" ] || fail "--force kept no copy of the edited stub"
echo "// more" >>"$stub"
"$make_stub" --all "$work" --force 2>/dev/null || fail "a second --force failed"
[ -f "$stub.bak.2" ] && [ "$(cat "$stub.bak")" = "$edited" ] || fail "a second --force overwrote the first copy"
"$make_stub" --all "$work" 2>"$work/err" || fail "with every stub up to date, --all failed: $(cat "$work/err")"
[ ! -s "$work/err" ] || fail "stubs already up to date were written again: $(cat "$work/err")"

rm -rf "$work/solutions"
status=0
"$make_stub" --all "$work" 2>"$work/err" || status=$?
[ $status = 2 ] || fail "a course without solutions/ exited with $status, not 2"
[ "$(wc -l <"$work/err")" = 1 ] && grep -q "already a student's copy" "$work/err" || fail "a course without solutions/ said: $(cat "$work/err")"
echo "course_make_stub --all: all checks passed"
