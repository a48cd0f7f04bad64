#!/usr/bin/env bash
# Tests `./course handout`: a student's copy of lesson 02 must hold no solution code, and every README
# command must work there: it builds, runs the lesson, and grades (without a GPU, grading says it needs
# one and exits 77; on a GPU it grades the untouched stub, which fails, and compares its speed with the
# solution's time recorded when the copy was made).
# Both builds are new ones in WORK_DIR, never the course's build/: ./course handout runs in a copy of
# the course (WORK_DIR/course, built in its build/ for lesson 02 alone, COURSE_LESSONS=02, as the
# handout holds no other), and the student's copy builds in its own build/, as a student's would.
# COURSE_CMAKE_ARGS (e.g. a compiler launcher) is passed on to both.
# Usage: common/tests/test_handout_of_course.sh [WORK_DIR]   (default: a temporary folder, removed
#        afterwards); CTest runs it as "tools: ./course handout writes ...".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
[ $# -gt 0 ] || trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAILED: $*"
  exit 1
}
copy=$work/copy
rm -rf "$copy"
mkdir -p "$work"
bash "$root/common/tests/copy_of_course.sh" "$work/course"

COURSE_BUILD_DIR=$work/course/build COURSE_CMAKE_ARGS="${COURSE_CMAKE_ARGS:-} -DCOURSE_LESSONS=02" \
  "$work/course/course" handout "$copy" 02 >"$work/handout.out" 2>&1 || { cat "$work/handout.out"; fail "./course handout exited with an error"; }

# Nothing of the solutions: no folder, no marker, and none of the lines between the markers.
[ ! -e "$copy/solutions" ] || fail "the copy has a solutions folder"
[ ! -e "$copy/docs/instructor-guide.md" ] || fail "the copy has the instructor guide"
if grep -rq -- '>>> solution' "$copy/exercises"; then fail "a solution marker is in the copy's exercises"; fi
for solution in "$root"/solutions/02-*/*.cu; do
  stub="$copy/exercises/$(basename "$(dirname "$solution")")/$(basename "$solution")"
  [ -f "$stub" ] || fail "the copy has no stub for $(basename "$solution")"
  answers=$(awk '/\/\/ >>> solution/{inside=1; next} /\/\/ <<</{inside=0; next} inside && length($0) > 40 {print}' "$solution")
  while IFS= read -r line; do
    if [ -n "$line" ] && grep -qF -- "$line" "$stub"; then
      fail "a line of $(basename "$solution")'s answers is in its stub: $line"
    fi
  done <<<"$answers"
done
# Only the lesson asked for.
[ -d "$copy/lessons/02-max-reduction" ] || fail "lesson 02 is missing from the copy"
if ls -d "$copy"/lessons/0[1345]-* >/dev/null 2>&1; then fail "the copy has lessons other than 02"; fi
if grep -q 'solutions/' "$copy/README.md"; then fail "the copy's README still points at solutions/"; fi
if grep -q 'lessons 01 to 05' "$copy/README.md"; then fail "the copy's README still gives the timings of every lesson"; fi
for tool in docs/adding-a-lesson.md common/templates/new-lesson cmake/NewLesson.cmake; do
  [ ! -e "$copy/$tool" ] || fail "the copy has $tool, for new-lesson, an instructor's command"
done

# Every README command works in the copy.
cd "$copy"
export COURSE_BUILD_DIR=$copy/build
# A student's copy lists the student's commands only, and refuses an instructor's in one line.
./course help >"$work/help.out" || fail "./course help failed in the copy"
grep -q '^  \./course grade NN NAME' "$work/help.out" || fail "the copy's help does not list ./course grade"
if grep -qE 'For instructors|make-stubs|grade-class|new-lesson|handout DIR' "$work/help.out"; then
  fail "the copy's help lists the instructor's commands"
fi
for command in make-stubs "handout $work/again" "grade-class 02 argmax ." "new-lesson 07 histogram"; do
  status=0
  # shellcheck disable=SC2086 # the command's words
  ./course $command >"$work/refused.out" 2>"$work/refused.err" || status=$?
  [ $status = 2 ] && [ ! -s "$work/refused.out" ] && [ "$(wc -l <"$work/refused.err")" = 1 ] &&
    grep -q "is an instructor's command: this is a student's copy" "$work/refused.err" ||
    fail "./course $command in the copy: exit $status, said: $(cat "$work/refused.out" "$work/refused.err")"
done
./course build >"$work/build.out" 2>&1 || { tail -5 "$work/build.out"; fail "./course build failed in the copy"; }
grep -qE '^\[ *[0-9]+(%|/[0-9]+)\] ' "$work/build.out" || fail "./course build showed no progress (the build tool's [N/M] or [ NN%] lines)"
[ -x "$copy/build/bin/exercise02_argmax_grade" ] || fail "the copy did not build the argmax grader"
if ls "$copy/build/bin/"solution* >/dev/null 2>&1; then fail "the copy built solution programs"; fi
./course run --lesson 02 --args "--reps 1 --warmup 0" >"$work/run.out" 2>&1 || fail "./course run --lesson 02 failed in the copy"
grep -qE '^ +01 +CPU sequential .*PASS' "$work/run.out" || fail "the copy's run did not pass its CPU step"
status=0
./course grade 02 argmax >"$work/grade.out" 2>&1 || status=$?
if [ $status -eq 77 ]; then
  grep -q 'grading needs a GPU' "$work/grade.out" || fail "without a GPU, grade did not say why it stopped"
else
  [ $status -eq 1 ] || fail "./course grade on the untouched stub exited with $status, not 1"
  grep -q 'recorded on' "$work/grade.out" || fail "grade did not compare with the solution's recorded time"
fi
echo "handout: all checks passed (no solution code; build, run and grade work in the copy)"
