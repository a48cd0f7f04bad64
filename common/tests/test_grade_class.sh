#!/usr/bin/env bash
# Tests `./course grade-class` on a made-up class of sixteen, each submission for exercise 02 argmax
# written from the course's own solution or stub:
#   alice  the solution, a lone file                      ivan   the solution, printing lines that
#   bob    a whole copy of the course, stub untouched,           look like the benchmark's CSV
#          and a broken argmax.cu outside exercises/      judy   the solution, crashing (SIGSEGV) on
#   carol  a syntax error                                        odd sizes
#   dave   ties go to the larger index                    kim    the solution, spinning on the CPU
#   erin   a kernel that never ends                       leo    the solution, taking all the GPU's
#   frank  the solution, writing past its scratch                memory and never giving it back
#          buffer (memcheck's to find)                    mallory the solution, printing megabytes
#   grace  the file under another name                    nick   the solution, writing over alice's
#   heidi  the stub, and a grading test edited                   row and feedback and outside the
#          to pass anything                                      grading folder
#                                                         olivia the solution with a race in shared
#                                                                memory (racecheck's to find)
#                                                         peggy  the solution, graded after them all
# Without a GPU every build is checked (who compiles, which file was found) and grading exits 77; on
# a GPU every verdict is checked too: passes, failures, time-outs, crashes, too much output, the
# compute-sanitizer findings and what they cost, the points, the leaderboard, and that no submission
# changed another's grading or wrote outside its folder.
# ./course grade-class builds into WORK_DIR/build, a new build, never the course's build/;
# COURSE_CMAKE_ARGS (e.g. a compiler launcher) is passed on to it and to the class's build.
# Usage: common/tests/test_grade_class.sh [WORK_DIR]   (default: a temporary folder, removed afterwards);
#        CTest runs it as "grading: ./course grade-class ...".
#        common/tests/test_grade_class.sh --make-class DIR   (only writes the class into DIR/class, for
#        timing by hand)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
make_class_only=0
if [ "${1:-}" = --make-class ]; then
  make_class_only=1
  shift
  [ $# -eq 1 ] || { echo "usage: common/tests/test_grade_class.sh --make-class DIR"; exit 2; }
fi
work=${1:-$(mktemp -d)}
[ $# -gt 0 ] || trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAILED: $*"
  exit 1
}
solution=$root/solutions/02-max-reduction/argmax.cu
stub=$root/exercises/02-max-reduction/argmax.cu
class=$work/class
rm -rf "$class" "$work/grades"
mkdir -p "$class"/{alice,bob,carol,dave,erin,frank,grace,heidi,ivan,judy,kim,leo,mallory,nick,olivia,peggy}

# edit FILE EXPECTED SED-SCRIPT: applies the script and checks that it changed something.
edit() {
  sed -e "$3" "$1" >"$1.new"
  cmp -s "$1" "$1.new" && fail "the edit for $2 matched nothing in $(basename "$1")"
  mv "$1.new" "$1"
}
cp "$solution" "$class/alice/argmax.cu"
mkdir -p "$class/bob/course/exercises/02-max-reduction" "$class/bob/course/scratch"
cp "$stub" "$class/bob/course/exercises/02-max-reduction/argmax.cu"
echo "this is not C++" >"$class/bob/course/scratch/argmax.cu"
cp "$solution" "$class/carol/argmax.cu"
edit "$class/carol/argmax.cu" carol 's/constexpr int kThreads = 256;/constexpr int kThreads = 256/'
cp "$solution" "$class/dave/argmax.cu"
edit "$class/dave/argmax.cu" dave 's/a.index < b.index/a.index > b.index/'
cp "$solution" "$class/erin/argmax.cu"
edit "$class/erin/argmax.cu" erin 's/^  Best best{-INFINITY, ~0ull};$/  for (;;) __nanosleep(1000);  \/\/ never ends: the asm inside cannot be optimised away\n&/'
cp "$solution" "$class/frank/argmax.cu"
edit "$class/frank/argmax.cu" frank 's/partial\[blockIdx.x\] = best;/{ partial[blockIdx.x] = best; partial[blockIdx.x + gridDim.x] = best; }/'
cp "$solution" "$class/grace/argmax_final.cu"
mkdir -p "$class/heidi/exercises/02-max-reduction"
cp "$stub" "$class/heidi/exercises/02-max-reduction/argmax.cu"
sed -e 's/REQUIRE(/REQUIRE(true || /g' -e 's/CHECK(/CHECK(true || /g' \
  "$root/exercises/02-max-reduction/grade_argmax.cpp" >"$class/heidi/exercises/02-max-reduction/grade_argmax.cpp"
cp "$solution" "$class/ivan/argmax.cu"
edit "$class/ivan/argmax.cu" ivan 's/^  const int blocks = grid_size(n);$/  std::printf("lesson,step,title,kind,size\\nnot,a,measurement\\n");\n&/'
edit "$class/ivan/argmax.cu" ivan 's/^#include <cmath>$/&\n#include <cstdio>/'
cp "$solution" "$class/judy/argmax.cu"
edit "$class/judy/argmax.cu" judy 's/^  const int blocks = grid_size(n);$/  if (n % 2 == 1) std::raise(SIGSEGV);\n&/'
edit "$class/judy/argmax.cu" judy 's/^#include <cmath>$/&\n#include <csignal>/'
# first_call STUDENT CODE: puts C++ CODE at the start of the student's argmax() (the solution's).
first_call() {
  cp "$solution" "$class/$1/argmax.cu"
  edit "$class/$1/argmax.cu" "$1" "s|^  const int blocks = grid_size(n);\$|  $2\n&|"
  edit "$class/$1/argmax.cu" "$1" 's/^#include <cmath>$/&\n#include <cstdio>/'
}
first_call kim 'for (volatile unsigned spin = 0;; spin = spin + 1) {}'
first_call leo 'for (void* hog; cudaMalloc(\&hog, std::size_t(1) << 28) == cudaSuccess;) {} (void)cudaGetLastError();'
first_call mallory 'for (int line = 0; line < 2000000; ++line) std::printf("spam spam spam spam spam spam spam spam spam spam\\n");'
first_call nick "if (FILE* f = std::fopen(\"$work/grades/rows/alice.csv\", \"w\")) std::fclose(f); std::remove(\"$work/grades/feedback/alice.txt\"); if (FILE* f = std::fopen(\"$work/outside.txt\", \"w\")) std::fclose(f);"
cp "$solution" "$class/olivia/argmax.cu"
edit "$class/olivia/argmax.cu" olivia 's|^  if (lane == 0) warp_best\[warp\] = best;$|  __shared__ volatile int last_warp;  // every warp writes it, no barrier between: a race\n  if (lane == 0) last_warp = warp;\n&|'
cp "$solution" "$class/peggy/argmax.cu"
[ $make_class_only -eq 0 ] || exit 0

status=0
rm -rf "$work/build"
rm -f "$work/outside.txt"
COURSE_BUILD_DIR=$work/build "$root/course" grade-class 02 argmax "$class" --out "$work/grades" --time-limit 20 \
  >"$work/grade-class.out" 2>&1 || status=$?
book=$work/grades/gradebook.csv
[ -f "$book" ] || { tail -20 "$work/grade-class.out"; fail "no gradebook (exit code $status)"; }
# row STUDENT: the student's gradebook row.
row() { grep "^\"$1\"," "$book" || fail "no gradebook row for $1"; }
field() { row "$1" | awk -v n="$2" -F'","|,' '{ print $n }' | tr -d '"'; }

[ "$(grep -c '^"' "$book")" -eq 16 ] || fail "the gradebook does not have 16 rows"
[ "$(field bob 2)" = "course/exercises/02-max-reduction/argmax.cu" ] || fail "bob's file was not the one in exercises/: $(row bob)"
[ "$(field carol 3)" = "compile error" ] || fail "carol's syntax error was not a compile error: $(row carol)"
grep -q "error" "$work/grades/feedback/carol.txt" || fail "carol's feedback does not show the compiler's error"
[ "$(field grace 3)" = "missing file" ] || fail "grace's misnamed file was not reported missing: $(row grace)"
for student in alice bob dave erin frank heidi ivan judy kim leo mallory nick olivia peggy; do
  [ "$(field "$student" 3)" = built ] || fail "$student's submission did not build: $(row "$student")"
done

if [ $status -eq 77 ]; then
  grep -q 'no CUDA device' "$work/grade-class.out" || fail "without a GPU, grade-class did not say why nothing ran"
  for student in alice bob dave erin frank heidi ivan judy kim leo mallory nick olivia peggy; do
    row "$student" | grep -q 'not run: no CUDA device' || fail "$student's row does not say it was not run"
  done
  echo "grade-class: all checks passed without a GPU (16 submissions built or reported; nothing run)"
  exit 0
fi
[ $status -eq 0 ] || { tail -20 "$work/grade-class.out"; fail "grade-class exited with $status"; }
total=$(field alice 7)
cost=$(((total + 1) / 2))  # what a compute-sanitizer finding costs (argmax.points does not say)
for student in alice peggy; do  # the solution, before and after the others
  [ "$(field $student 6)" = "$total" ] && [ "$(field $student 4)" = "$(field $student 5)" ] || fail "$student (the solution) lost points: $(row $student)"
  [ -n "$(field $student 8)" ] || fail "$student passed but has no time: $(row $student)"
  [ "$(field $student 10)" = clean ] || fail "compute-sanitizer found something in $student's (the solution): $(row $student)"
  grep -q "^compute-sanitizer (memcheck racecheck synccheck) on the small size (--n 1000003): no error" \
    "$work/grades/feedback/$student.txt" || fail "$student's feedback does not say which sanitizers ran"
done
[ "$(field ivan 4)" = "$(field ivan 5)" ] && [ -n "$(field ivan 8)" ] || fail "ivan's printing cost him his time or his cases: $(row ivan)"
[ "$(field bob 6)" -lt "$total" ] || fail "bob's untouched stub earned full points: $(row bob)"
[ "$(field heidi 6)" -lt "$total" ] || fail "heidi's edited test was used: $(row heidi)"
grep -q 'FAIL  argmax: a repeated maximum is reported at its first index' "$work/grades/feedback/dave.txt" ||
  fail "dave's ties to the larger index did not fail the repeated-maximum case"
grep -q 'TIME-OUT' "$work/grades/feedback/erin.txt" || fail "erin's endless kernel was not a time-out"
[ "$(grep -c '^NOT RUN' "$work/grades/feedback/erin.txt")" -eq $(($(field erin 5) - 1)) ] ||
  fail "erin's cases after her time-out were not all left unrun"
[ "$(field frank 4)" = "$(field frank 5)" ] || fail "frank's answers are right, yet he lost cases: $(row frank)"
[ "$(field frank 10)" = "memory error (memcheck)" ] && [ "$(field frank 6)" -eq $((total - cost)) ] ||
  fail "frank's write past the scratch was not found by memcheck, or did not cost $cost points: $(row frank)"
grep -q -E '^      ========= +Invalid __global__ write' "$work/grades/feedback/frank.txt" ||
  fail "frank's feedback does not show memcheck's report"
[ "$(field olivia 10)" = "race (racecheck)" ] && [ "$(field olivia 6)" -eq $((total - cost)) ] ||
  fail "olivia's race in shared memory was not found by racecheck, or did not cost $cost points: $(row olivia)"
grep -q 'TIME-OUT' "$work/grades/feedback/kim.txt" || fail "kim's spinning was not a time-out"
# leo's own cases may fail for want of memory; the memory is back for those after him (nick, peggy).
[[ $(field leo 4) =~ ^[0-9]+$ ]] || fail "leo was not graded: $(row leo)"
grep -q '^TOO MUCH OUTPUT' "$work/grades/feedback/mallory.txt" || fail "mallory's megabytes of output were not stopped"
[ "$(stat -c %s "$work/grades/feedback/mallory.txt")" -lt 200000 ] || fail "mallory's megabytes reached her feedback"
if "$work/build/bin/course_sandbox" --check >/dev/null; then
  [ ! -e "$work/outside.txt" ] || fail "nick wrote outside his folder"
  [ -f "$work/grades/feedback/alice.txt" ] || fail "nick removed alice's feedback"
  [ "$(field nick 4)" = "$(field nick 5)" ] && [ "$(field nick 10)" = clean ] || fail "nick's failed writes changed his grade: $(row nick)"
else
  echo "not checked: that nick cannot write outside his folder ($("$work/build/bin/course_sandbox" --check))"
fi
grep -q 'CRASH' "$work/grades/feedback/judy.txt" || fail "judy's crash on odd sizes was not reported as a crash"
[ "$(field judy 4)" -gt 0 ] || fail "judy's crash on odd sizes cost her every case: $(row judy)"
for student in frank olivia dave; do
  ! grep -q "\"$student\"" "$work/grades/leaderboard.csv" || fail "$student is on the leaderboard"
done
grep -q '"peggy"' "$work/grades/leaderboard.csv" || fail "peggy (the solution, graded last) is not on the leaderboard"
echo "grade-class: all checks passed on a GPU (verdicts, points, time-outs, output, sanitizers, confinement, leaderboard)"
