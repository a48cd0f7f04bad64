#!/usr/bin/env bash
# course_handout's tests, on a pretend course of three lessons made in a temporary folder (no build of
# the real course): what a copy holds and leaves out, with and without lesson numbers, outside and
# inside a git checkout; the README for students; its refusals; and the recording of the solutions'
# times with stand-in benchmarks.
# usage: test_handout.sh COURSE_HANDOUT
set -euo pipefail
handout=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

course=$work/course
file() {  # file PATH [TEXT]: a file of the pretend course
  mkdir -p "$(dirname "$course/$1")"
  printf '%s\n' "${2:-$1}" >"$course/$1"
}
file course '#!/bin/sh'
chmod +x "$course/course"
for lesson in 01-first 02-second 03-third; do
  file "lessons/$lesson/README.md"
  file "exercises/$lesson/task.cu"
  file "solutions/$lesson/task.cu"
  file "docs/results/lesson${lesson%%-*}-ladder.csv"
done
file .ci/run
file docs/instructor-guide.md
file docs/course-guide.md
file docs/adding-a-lesson.md
file cmake/NewLesson.cmake
file common/templates/new-lesson/lesson/01_cpu_sequential.cpp
for made in build/bin/x build-debug/y results/lesson01-ladder.csv grades/02-task/gradebook.csv; do file "$made"; done
cat >"$course/README.md" <<'EOF'
# A course

| lesson | problem |
|---|---|
| [01 first](lessons/01-first/README.md) | one |
| [02 second](lessons/02-second/README.md) | two |
| [03 third](lessons/03-third/README.md) | three |

Students read this.
<!-- every lesson -->
Every lesson takes 9 minutes.
<!-- /every lesson -->
<!-- instructor -->
`solutions/NN-name/` holds the completed exercises.
<!-- /instructor -->
Students read this too.
EOF

files_of() { (cd "$1" && find . -type f | sed 's|^\./||' | sort); }
expect_files() {  # expect_files COPY FILE...: the copy holds exactly these files
  local copy=$1
  shift
  [ "$(files_of "$copy")" = "$(printf '%s\n' "$@" | sort)" ] ||
    fail "$copy holds $(files_of "$copy" | tr '\n' ' '), not $*"
}
run() {  # run NAME ARGS...: course_handout's exit code; its output in NAME.out and NAME.err
  local name=$1 status=0
  shift
  "$handout" "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
  echo $status
}

# Lesson 02 only, outside a git checkout: everything but the build outputs, the instructor's files (the
# guide to adding a lesson and its template among them) and the other lessons; the README without the
# parts that hold for every lesson only.
[ "$(run one --source "$course" --target "$work/one" --lessons 02)" = 0 ] || fail "the copy of lesson 02 failed: $(cat "$work/one.err")"
expect_files "$work/one" course README.md lessons/02-second/README.md exercises/02-second/task.cu \
  docs/results/lesson02-ladder.csv docs/course-guide.md
[ -x "$work/one/course" ] || fail "./course is not executable in the copy"
expected_readme='# A course

| lesson | problem |
|---|---|
| [02 second](lessons/02-second/README.md) | two |

Students read this.
Students read this too.'
[ "$(cat "$work/one/README.md")" = "$expected_readme" ] || fail "the copy's README is: $(cat "$work/one/README.md")"

# Every lesson (no numbers, or several): every lesson's row and the parts on every lesson stay; the
# instructor's part still goes.
[ "$(run all --source "$course" --target "$work/all")" = 0 ] || fail "the copy of every lesson failed: $(cat "$work/all.err")"
[ "$(grep -c '](lessons/' "$work/all/README.md")" = 3 ] || fail "a copy of every lesson lost a row of the lessons table"
grep -q 'solutions/\|instructor' "$work/all/README.md" && fail "the copy's README kept the instructor's part"
grep -qx 'Every lesson takes 9 minutes.' "$work/all/README.md" || fail "a copy of every lesson lost the part on every lesson"
grep -q 'every lesson -->' "$work/all/README.md" && fail "a copy of every lesson kept the markers of the part on every lesson"
[ ! -e "$work/all/docs/adding-a-lesson.md" ] && [ ! -e "$work/all/common/templates" ] && [ ! -e "$work/all/cmake" ] ||
  fail "a copy of every lesson has the instructor's guide or template for new lessons"
[ -d "$work/all/lessons/01-first" ] && [ -d "$work/all/exercises/03-third" ] || fail "a copy of every lesson lost a lesson"
[ ! -e "$work/all/solutions" ] || fail "the copy has solutions/"
[ "$(run two --source "$course" --target "$work/two" --lessons "01 03")" = 0 ] || fail "the copy of lessons 01 and 03 failed"
[ "$(ls "$work/two/lessons")" = "$(printf '01-first\n03-third')" ] || fail "lessons 01 and 03 were not copied alone"

# Inside a git checkout: the files git knows, tracked or new and not ignored; not the ignored ones,
# nor those deleted since they were added.
cp -r "$course" "$work/checkout"
(
  cd "$work/checkout"
  printf '/build/\n/build-*/\n/results/\n/grades/\nnotes.txt\n' >.gitignore
  git init -q . && git add -A
  echo notes >notes.txt
  echo new >lessons/02-second/new.cu
  rm docs/course-guide.md
)
mkdir "$work/empty"  # an empty target is fine
[ "$(run git --source "$work/checkout" --target "$work/empty" --lessons 02)" = 0 ] || fail "the copy of a git checkout failed: $(cat "$work/git.err")"
expect_files "$work/empty" .gitignore course README.md lessons/02-second/README.md lessons/02-second/new.cu \
  exercises/02-second/task.cu docs/results/lesson02-ladder.csv

# Refusals: one line, exit 2, nothing written.
refused() {  # refused NAME MESSAGE ARGS...
  local name=$1 message=$2
  shift 2
  local status
  status=$(run "$name" "$@")
  [ "$status" = 2 ] || fail "$name: exited with $status, not 2"
  [ "$(wc -l <"$work/$name.err")" = 1 ] || fail "$name: said more than one line: $(cat "$work/$name.err")"
  grep -qF -- "$message" "$work/$name.err" || fail "$name: did not say '$message': $(cat "$work/$name.err")"
}
refused not-empty "$work/one exists and is not empty" --source "$course" --target "$work/one"
refused unknown-lesson "no lesson '07' (look in lessons/)" --source "$course" --target "$work/new" --lessons "02 07"
refused student-copy "this is already a student's copy" --source "$work/one" --target "$work/new"
refused no-target "--source and --target are required" --source "$course"
# An option where a folder goes is refused, never made a folder (here, where the copy would go).
(
  cd "$work"
  refused dash-target "--target: '--help' is an option, not a folder" --source "$course" --target --help
  refused dash-record "--record-times: '-x' is an option, not a folder" --record-times -x
  [ ! -e "$work/--help" ] && [ ! -e "$work/-x" ] || fail "a refused option was made a folder"
)
[ ! -e "$work/new" ] || fail "a refused copy wrote its target"
sed -i 's|<!-- /instructor -->||' "$course/README.md"
refused unclosed "README.md:13: <!-- instructor --> never closed" --source "$course" --target "$work/new"
sed -i 's|^<!-- /every lesson -->$|<!-- /instructor -->|' "$course/README.md"
refused crossed "README.md:12: <!-- /instructor --> where <!-- every lesson --> (line 10) is open" --source "$course" --target "$work/new"
[ ! -e "$work/new" ] || fail "a copy refused for its README wrote its target"

# Recording the solutions' times: each solution's benchmark beside the tool, run with --csv.
mkdir -p "$work/bin"
cp "$handout" "$work/bin/course_handout"
handout=$work/bin/course_handout
stand_in() { printf '#!/bin/sh\n%s\n' "$2" >"$work/bin/$1" && chmod +x "$work/bin/$1"; }
stand_in course_device_info 'exit 77'
[ "$(run no-gpu --record-times "$work/all")" = 0 ] || fail "recording without a GPU failed"
grep -q 'no CUDA device: the copy holds no solution times' "$work/no-gpu.err" || fail "without a GPU, recording did not say so"
[ -z "$(find "$work/all" -name '*.solution-time.csv')" ] || fail "without a GPU, solution times were written"
stand_in course_device_info 'exit 0'
stand_in solution01_task_bench 'echo "program,median_ms"; echo "solution01,1.5"'
stand_in solution03_task_bench 'exit 1'  # a failed benchmark records nothing
[ "$(run gpu --record-times "$work/all")" = 0 ] || fail "recording failed: $(cat "$work/gpu.err")"
grep -q "recorded the solutions' times of 1 exercises on this GPU" "$work/gpu.err" || fail "recording said: $(cat "$work/gpu.err")"
[ "$(cat "$work/all/exercises/01-first/task.solution-time.csv")" = "$(printf 'program,median_ms\nsolution01,1.5')" ] ||
  fail "the solution's time of lesson 01 was not recorded"
[ "$(find "$work/all" -name '*.solution-time.csv' | wc -l)" = 1 ] || fail "a failed benchmark left a solution time"

echo "course_handout: all checks passed"
