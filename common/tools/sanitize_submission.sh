#!/usr/bin/env bash
# The compute-sanitizer check of an exercise, the same for `./course grade` (a student's own check) and
# `./course grade-class` (which runs it inside course_sandbox, after every case has passed):
#   common/tools/sanitize_submission.sh SANITIZER BENCH FILE [SMALL ARGUMENTS...]
# runs the exercise's benchmark BENCH once, on the lesson's small size, under compute-sanitizer:
# memcheck, then racecheck and synccheck where FILE (the student's source) uses shared memory,
# barriers or warp-level primitives. It stops at the first tool that finds something. Printed: what
# the tools print, then a last line "verdict: clean (TOOLS)" or "verdict: FINDING (TOOL)", FINDING one
# of: memory error, race, barrier misuse, wrong answer on the benchmark's input (its check failed: the
# benchmark exits 1), crash (exit code N). Exit code 0 clean, 1 a finding, 77
# skipped (no compute-sanitizer, or no GPU: the benchmark's own 77).
#   common/tools/sanitize_submission.sh --tools FILE
# prints the tools the check runs for the source FILE, in order (./course grade-class runs each through
# its judge, which also checks the answer of the run).
#   common/tools/sanitize_submission.sh --setup BUILD_DIR LESSON
# prints what a caller passes to the check, as found in a build of the course: the compute-sanitizer
# to run (the one CMake found, else the one on PATH; an empty line without either), then the lesson's
# small size (course_add_lesson's SMALL, from the build's manifest).
set -uo pipefail
# The tools for a source: memcheck, and racecheck and synccheck where it uses shared memory, barriers
# or warp-level primitives.
tools_for() {
  echo memcheck
  ! grep -qE '__shared__|__syncthreads|__syncwarp|_sync\(|cooperative_groups|barrier|memcpy_async|__pipeline' "$1" ||
    printf '%s\n' racecheck synccheck
}
if [ "${1:-}" = --tools ]; then
  [ $# -eq 2 ] && [ -f "$2" ] || { echo "usage: sanitize_submission.sh --tools FILE" >&2; exit 2; }
  tools_for "$2" | tr '\n' ' ' | sed 's/ $//'
  echo
  exit 0
fi
if [ "${1:-}" = --setup ]; then
  [ $# -eq 3 ] || { echo "usage: sanitize_submission.sh --setup BUILD_DIR LESSON" >&2; exit 2; }
  sanitizer=$(sed -n 's/^COURSE_COMPUTE_SANITIZER:[A-Z]*=//p' "$2/CMakeCache.txt" 2>/dev/null)
  [ -x "$sanitizer" ] || sanitizer=$(command -v compute-sanitizer || true)
  echo "$sanitizer"
  echo "$(awk -F'\t' -v l="$3" '$1 == l && $2 == "small" { print $4 }' "$2/bin/course_manifest.tsv")"
  exit 0
fi
[ $# -ge 3 ] || { echo "usage: sanitize_submission.sh SANITIZER BENCH FILE [SMALL ARGUMENTS...]" >&2; exit 2; }
sanitizer=$1 bench=$2 file=$3
shift 3
[ -x "$sanitizer" ] || { echo "skipped: compute-sanitizer was not found"; exit 77; }
mapfile -t tools < <(tools_for "$file")
for tool in "${tools[@]}"; do
  output=$("$sanitizer" --tool "$tool" --error-exitcode 99 --print-limit 10 \
    "$bench" "$@" --reps 1 --warmup 0 --copy-bandwidth 1 --read-bandwidth 1 2>&1)
  code=$?
  echo "$output"
  [ $code -ne 0 ] || continue
  [ $code -ne 77 ] || { echo "skipped: no CUDA device"; exit 77; }
  case $code:$tool in
    99:memcheck) echo "verdict: memory error (memcheck)" ;;
    99:racecheck) echo "verdict: race (racecheck)" ;;
    99:synccheck) echo "verdict: barrier misuse (synccheck)" ;;
    1:*) echo "verdict: wrong answer on the benchmark's input ($tool)" ;;
    *) echo "verdict: crash (exit code $code) ($tool)" ;;
  esac
  exit 1
done
echo "verdict: clean (${tools[*]})"
