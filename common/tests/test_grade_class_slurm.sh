#!/usr/bin/env bash
# Tests `./course grade-class --slurm` on a real one-node Slurm (common/testing/slurm_cluster.sh): a class
# of 20 (the made-up class of sixteen of test_grade_class.sh, and four of them again: correct, wrong,
# not compiling, hanging, crashing, misnamed, ...) graded by the local command and through Slurm (a job array and the merge
# after it) must give the same gradebook row for row, the same feedback and the same leaderboard.
# Without a GPU nothing is run in either, so every row and file is equal to the byte; on a GPU the
# times differ from run to run, so the time columns and lines are left out of the comparison.
# --dry-run prints the two batch scripts. Skipped (exit 77) where there can be no Slurm.
# Usage: common/tests/test_grade_class_slurm.sh WORK_DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/common/testing/slurm_cluster.sh"
skip_unless_slurm
work=$1
fail() {
  echo "FAILED: $*"
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
bash "$here/test_grade_class.sh" --make-class "$work/made-up"
class=$work/class
mkdir -p "$class"
cp -r "$work"/made-up/class/* "$class/"
for student in alice carol dave erin; do cp -r "$class/$student" "$class/$student-2"; done
[ "$(find "$class" -mindepth 1 -maxdepth 1 -type d | wc -l)" -eq 20 ] || fail "the class does not have 20 students"
export COURSE_BUILD_DIR=$work/build
options=(--time-limit 20)

status=0
"$root/course" grade-class 02 argmax "$class" --out "$work/local" "${options[@]}" >"$work/local.out" 2>&1 || status=$?
[ $status -eq 0 ] || [ $status -eq 77 ] || { tail -20 "$work/local.out"; fail "the local grading exited with $status"; }

dry=$("$root/course" grade-class 02 argmax "$class" --out "$work/dry" --slurm --dry-run --partition course --time 30) ||
  fail "--dry-run failed"
grep -q '^#SBATCH --array=1-20%8$' <<<"$dry" || fail "the dry run's array is not 1-20%8: $dry"
grep -q '^#SBATCH --partition=course$' <<<"$dry" || fail "the dry run does not name the partition"
grep -q -- '--merge$' <<<"$dry" || fail "the dry run has no merge job"
[ ! -e "$work/dry/gradebook.csv" ] || fail "the dry run graded"
# --no-sanitize says what it leaves out, and the tasks are told it too.
quick=$("$root/course" grade-class 02 argmax "$class" --out "$work/dry" --slurm --dry-run --no-sanitize 2>&1) ||
  fail "--dry-run --no-sanitize failed"
grep -q 'no-sanitize: no submission runs under compute-sanitizer' <<<"$quick" || fail "--no-sanitize did not say what it leaves out"
grep -q -- '--no-sanitize --grade-one' <<<"$quick" || fail "the tasks are not told --no-sanitize: $quick"

start_slurm "$work/slurm"
# The one-node cluster has no GPUs to hand out (no GRES): the tasks ask for none, and use the
# machine's GPU, if any, as the local command does.
"$root/course" grade-class 02 argmax "$class" --out "$work/cluster" "${options[@]}" --slurm --gpus-per-task 0 --time 30 \
  --throttle 4 >"$work/cluster.out" 2>&1 || { tail -20 "$work/cluster.out"; fail "grade-class --slurm failed"; }
grep -q 'submitted job array' "$work/cluster.out" || fail "grade-class --slurm did not say what it submitted"
wait_for_jobs 1500 || { squeue; fail "the jobs did not finish within 1500 s"; }
[ -f "$work/cluster/gradebook.csv" ] || { tail -5 "$work/cluster/slurm/merge.log"; fail "the merge job wrote no gradebook"; }

# Rows without the two time columns (time_ms, vs_solution: fields 8 and 9 of the CSV).
without_times() {
  python3 -c 'import csv, sys
for row in csv.reader(open(sys.argv[1])): print(row[:7] + row[9:])' "$1"
}
diff <(without_times "$work/local/gradebook.csv") <(without_times "$work/cluster/gradebook.csv") ||
  fail "the gradebooks differ (above: local <, Slurm >)"
[ "$(wc -l <"$work/cluster/gradebook.csv")" -eq 21 ] || fail "the gradebook does not have 20 rows"
diff -r -I '^time: ' "$work/local/feedback" "$work/cluster/feedback" || fail "the feedback differs"
diff <(cut -d, -f2 "$work/local/leaderboard.csv" | sort) <(cut -d, -f2 "$work/cluster/leaderboard.csv" | sort) ||
  fail "the leaderboards hold different students"
if [ $status -eq 77 ]; then
  cmp -s "$work/local/gradebook.csv" "$work/cluster/gradebook.csv" || fail "without a GPU the gradebooks differ"
fi
stop_slurm
echo "grade-class --slurm: 20 students graded through a job array and a merge job, as the local command grades them"
