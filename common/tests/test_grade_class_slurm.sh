#!/usr/bin/env bash
# Tests `./course grade-class --slurm` on a real one-node Slurm (common/testing/slurm_cluster.sh): a class
# of 39 (the made-up class of thirty-six of test_grade_class.sh, and three of them again: correct,
# wrong, not compiling, hanging, crashing, misnamed, refused, ...) graded by the local command and through Slurm
# (a job array and the merge after it) must give the same gradebook row for row, the same feedback and
# the same leaderboard. The array waits (its partition down) while a new student's folder is added to
# the class (first by name, where it would shift every task's student): the jobs grade the class as it
# was submitted, and a regrade into the folder meanwhile is refused.
# Without a GPU nothing is run in either, so every row and file is equal but for the time of grading;
# on a GPU the times differ from run to run, so the time columns and lines are left out of the comparison.
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
for student in alice carol erin; do cp -r "$class/$student" "$class/$student-2"; done
[ "$(find "$class" -mindepth 1 -maxdepth 1 -type d | wc -l)" -eq 39 ] || fail "the class does not have 39 students"
# The course that grades them, written with the class (its ./course builds in its build/).
course=$work/made-up/course
export COURSE_BUILD_DIR=$course/build
options=(--time-limit 20 --compile-time-limit 30)

status=0
"$course/course" grade-class 02 argmax "$class" --out "$work/grades" "${options[@]}" >"$work/local.out" 2>&1 || status=$?
[ $status -eq 0 ] || [ $status -eq 77 ] || { tail -20 "$work/local.out"; fail "the local grading exited with $status"; }
# Kept aside; the cluster's grading then goes into the same folder, whose build it finds made.
mkdir -p "$work/local"
cp -R "$work/grades/gradebook.csv" "$work/grades/leaderboard.csv" "$work/grades/feedback" "$work/local/"

dry=$("$course/course" grade-class 02 argmax "$class" --out "$work/dry" --slurm --dry-run --partition course --time 30) ||
  fail "--dry-run failed"
grep -q '^#SBATCH --array=1-39%8$' <<<"$dry" || fail "the dry run's array is not 1-39%8: $dry"
grep -q '^#SBATCH --partition=course$' <<<"$dry" || fail "the dry run does not name the partition"
grep -q -- '--merge$' <<<"$dry" || fail "the dry run has no merge job"
[ ! -e "$work/dry/gradebook.csv" ] || fail "the dry run graded"
# --no-sanitize says what it leaves out, and the tasks are told it too.
quick=$("$course/course" grade-class 02 argmax "$class" --out "$work/dry" --slurm --dry-run --no-sanitize 2>&1) ||
  fail "--dry-run --no-sanitize failed"
grep -q 'no-sanitize: no submission runs under compute-sanitizer' <<<"$quick" || fail "--no-sanitize did not say what it leaves out"
grep -q -- '--no-sanitize --grade-one' <<<"$quick" || fail "the tasks are not told --no-sanitize: $quick"

start_slurm "$work/slurm"
# The one-node cluster has no GPUs to hand out (no GRES): the tasks ask for none, and use the
# machine's GPU, if any, as the local command does.
# The jobs wait: the cluster's partition is down while they are submitted (they pend, PartitionDown,
# however long the rest takes); meanwhile a student who sorts first joins the class.
scontrol update PartitionName=course State=DOWN || fail "scontrol could not take the partition down"
"$course/course" grade-class 02 argmax "$class" --out "$work/grades" "${options[@]}" --slurm --gpus-per-task 0 \
  --time 30 --throttle 4 >"$work/cluster.out" 2>&1 || { tail -20 "$work/cluster.out"; fail "grade-class --slurm failed"; }
grep -q 'submitted job array' "$work/cluster.out" || fail "grade-class --slurm did not say what it submitted"
# While the array waits, the folder is the cluster's: a regrade there is refused at once, in one line.
status=0
"$course/course" grade-class 02 argmax "$class" --out "$work/grades" "${options[@]}" --only carol >"$work/while-held.out" 2>&1 ||
  status=$?
[ $status -eq 2 ] && grep -q "is being graded by the Slurm jobs" "$work/while-held.out" ||
  fail "an --only regrade while the array waited was not refused: $(tail -3 "$work/while-held.out")"
mkdir "$class/aaron"
cp "$root/solutions/02-max-reduction/argmax.cu" "$class/aaron/"
[ -z "$(ls "$work/grades/slurm"/task-*.log 2>/dev/null)" ] || fail "a task ran while the partition was down"
scontrol update PartitionName=course State=UP || fail "scontrol could not bring the partition up"
wait_for_jobs 1500 || { squeue; fail "the jobs did not finish within 1500 s"; }
grep -q 'submitted job array' "$work/cluster.out" && [ -f "$work/grades/gradebook.csv" ] &&
  [ "$work/grades/gradebook.csv" -nt "$work/cluster.out" ] || { tail -5 "$work/grades/slurm/merge.log"; fail "the merge job wrote no gradebook"; }

# Rows without the time columns (time_ms, vs_solution, graded_at: fields 10, 11 and 14 of the CSV).
without_times() {
  python3 -c 'import csv, sys
for row in csv.reader(open(sys.argv[1])): print(row[:9] + row[11:13])' "$1"
}
diff <(without_times "$work/local/gradebook.csv") <(without_times "$work/grades/gradebook.csv") ||
  fail "the gradebooks differ (above: local <, Slurm >)"
[ "$(wc -l <"$work/grades/gradebook.csv")" -eq 40 ] || fail "the gradebook does not have 39 rows"
! grep -q '^aaron,' "$work/grades/gradebook.csv" || fail "aaron, who joined after the array was submitted, was graded"
diff -r -I '^time: ' -I '^      timed runs: ' -I '^Grading of ' "$work/local/feedback" "$work/grades/feedback" || fail "the feedback differs"
diff <(cut -d, -f2 "$work/local/leaderboard.csv" | sort) <(cut -d, -f2 "$work/grades/leaderboard.csv" | sort) ||
  fail "the leaderboards hold different students"
# Without a GPU nothing ran, so every cell but the time of grading is the same.
without_grading_time() {
  python3 -c 'import csv, sys
for row in csv.reader(open(sys.argv[1])): print(row[:13])' "$1"
}
if [ $status -eq 77 ]; then
  diff <(without_grading_time "$work/local/gradebook.csv") <(without_grading_time "$work/grades/gradebook.csv") ||
    fail "without a GPU the gradebooks differ"
fi
stop_slurm
echo "grade-class --slurm: 39 students graded through a job array and a merge job, as the local command grades them, and no one who joined later"
