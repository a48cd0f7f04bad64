#!/usr/bin/env bash
# Tests ./course itself on a machine like a student's on a shared server: no Doxygen, no Catch2, no
# Ninja, and no way to install anything (no apt-get, no sudo). Simulated on any machine: the commands
# run with a PATH that holds every program of this machine except those, and CMake is told not to find
# Catch2. Expected:
#   ./course run --lesson 02   configures with the tests off (one line says so), builds lesson 02's
#                   ladder with Make (nothing of the other lessons), runs its CPU steps (the GPU steps
#                   SKIP without a GPU), exits 0;
#   ./course test   says in one line that Catch2 is missing and how to get it without root, exits 2;
#   ./course grade  the same on a GPU; without one, one line naming the hosted-GPU notebook, exit 77;
#   ./course docs   one line about Doxygen, exit 2;
#   and the build folder still runs the lesson after those refusals.
# Each run starts from an empty build in WORK_DIR/build, as on a student's first day; COURSE_CMAKE_ARGS
# (e.g. a compiler launcher) is passed on to it.
# Usage: common/tests/test_course_without_tools.sh [WORK_DIR]   (default: a temporary folder, removed
#        afterwards); CTest runs it as "tools: ./course on a machine without ...".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d)}
[ $# -gt 0 ] || trap 'rm -rf "$work"' EXIT
rm -rf "$work/path" "$work/build"
mkdir -p "$work/path"

# A PATH of links to every program on this one, except the ones a student's machine lacks. The CUDA
# Toolkit's folder joins it as it is (CMake finds the toolkit from nvcc's real place).
hidden=" doxygen catch2 ninja ninja-build apt-get apt sudo dpkg "
student_path=$work/path
IFS=: read -r -a dirs <<<"$PATH"
cuda_bin=$(dirname "$(readlink -f "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
student_path+=:$cuda_bin
for dir in "${dirs[@]}"; do
  [ -d "$dir" ] && [ "$(readlink -f "$dir")" != "$cuda_bin" ] || continue
  for program in "$dir"/*; do
    name=$(basename "$program")
    [[ -x "$program" && ! -d "$program" && "$hidden" != *" $name "* && ! -e "$work/path/$name" ]] || continue
    ln -s "$program" "$work/path/$name"
  done
done

student() {  # student NAME COMMAND...: runs ./course as that student would, output in NAME.out/.err
  local name=$1
  shift
  local status=0
  env PATH="$student_path" COURSE_BUILD_DIR="$work/build" \
    COURSE_CMAKE_ARGS="${COURSE_CMAKE_ARGS:-} -DCMAKE_DISABLE_FIND_PACKAGE_Catch2=ON" \
    "$root/course" "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
  echo "$status"
}
fail() {
  echo "FAILED: $*"
  for f in "$work"/*.err; do echo "--- $(basename "$f")"; tail -5 "$f"; done
  exit 1
}
lines_matching() { grep -c -- "$1" "$2" || true; }

for program in doxygen ninja apt-get sudo; do
  env PATH="$student_path" bash -c "command -v $program" >/dev/null && fail "$program is still on the student's PATH"
done

# --results: the tables go to the work folder, not the course's results/.
status=$(student run run --lesson 02 --args "--reps 1 --warmup 0" --results "$work/results")
[ "$status" = 0 ] || fail "./course run exited with $status"
[ "$(lines_matching 'Catch2 2.x not found: building without the tests' "$work/run.err")" = 1 ] ||
  fail "./course run did not say once that the tests are off"
grep -q 'CMAKE_GENERATOR:INTERNAL=Unix Makefiles' "$work/build/CMakeCache.txt" || fail "the build did not fall back to Make"
grep -qE '^ +01 +CPU sequential .*PASS' "$work/run.out" || fail "./course run did not run and pass a CPU step"
grep -qE '^\[ *[0-9]+%\] ' "$work/run.err" || fail "./course run's first build showed no progress (Make's [ NN%] lines)"
grep -qiE 'error|could not' "$work/run.err" && fail "./course run printed an error"
ls "$work/build/bin/"*_test >/dev/null 2>&1 && fail "test programs were built without Catch2"
ls "$work/build/bin/"lesson0[1345]_* >/dev/null 2>&1 && fail "./course run --lesson 02 built other lessons' programs"

# -N: should Catch2 be found after all, ctest only lists the tests instead of running this suite again
# inside itself (and the exit code, 0, fails the check below).
status=$(student test test -N)
[ "$status" = 2 ] || fail "./course test exited with $status, not 2"
[ "$(wc -l <"$work/test.err")" -le 2 ] || fail "./course test said more than it should"
[ "$(lines_matching 'Catch2 2.x is missing' "$work/test.err")" = 1 ] || fail "./course test did not name Catch2 in one line"
grep -q 'CMAKE_PREFIX_PATH' "$work/test.err" || fail "./course test did not say how to point the build at Catch2"

status=$(student grade grade 02 argmax)
if [ "$status" = 77 ]; then  # no GPU here: said first, before Catch2 would matter
  [ "$(wc -l <"$work/grade.err")" = 1 ] && grep -q 'docs/hosted-gpu.ipynb' "$work/grade.err" ||
    fail "./course grade without a GPU did not name the hosted-GPU notebook in one line"
else
  [ "$status" = 2 ] || fail "./course grade exited with $status, not 2"
  [ "$(lines_matching 'Catch2 2.x is missing' "$work/grade.err")" = 1 ] || fail "./course grade did not name Catch2"
fi

status=$(student docs docs)
[ "$status" = 2 ] || fail "./course docs exited with $status, not 2"
[ "$(wc -l <"$work/docs.err")" = 1 ] || fail "./course docs said more than one line"
grep -q 'Doxygen is missing' "$work/docs.err" || fail "./course docs did not name Doxygen"

status=$(student again run --lesson 02 --args "--reps 1 --warmup 0" --results "$work/results")
[ "$status" = 0 ] || fail "./course run exited with $status after the refused commands"
grep -qE '^ +01 +CPU sequential .*PASS' "$work/again.out" || fail "./course run did not pass its CPU step after the refused commands"

echo "course script: all checks passed (run, test, grade and docs without Doxygen, Catch2, Ninja or root)"
