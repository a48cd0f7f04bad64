#!/usr/bin/env bash
# Grades a whole class: ./course grade-class NN NAME SUBMISSIONS [--out DIR] [--no-sanitize]
#                                           [--jobs N] [--time-limit SECONDS]
#                                           [--slurm [--partition P] [--gpus-per-task G] [--time T]
#                                                    [--throttle K] [--dry-run]]
# Each folder in SUBMISSIONS is one student's work: the exercise's file NAME.cu at any depth (a lone
# file, or a whole copy of the course). Each is built against the course's own grading test and
# benchmark (a student's edited copy of the test is never used), all in one build tree where what they
# share is compiled once and the students' files side by side on the CPU's cores; then, one student
# after another on the GPU, every test case runs alone, and a submission that passes them all runs
# once more on the lesson's small size under compute-sanitizer (memcheck; racecheck and synccheck too
# where the file uses shared memory, barriers or warp-level primitives: an error costs the points
# that NAME.points gives "compute-sanitizer", half the total unless it says), and the benchmark times
# the kernel. Each of those runs is confined by course_sandbox: it may write only in a scratch folder
# of its own, it is stopped at the time limit or after 1 MB of output, and nothing it started is left
# running. --no-sanitize leaves the compute-sanitizer run out. Written to DIR
# (default grades/NN-NAME): gradebook.csv (a row per student), feedback/STUDENT.txt, leaderboard.csv.
# Points per test case come from exercises/NN-*/NAME.points ("case name = points"), 1 each otherwise.
# With --slurm the submissions are built here, then graded on the cluster: a job array with a task per
# student (K at a time, --throttle, default 8), each writing the student's row and feedback into DIR on
# the shared filesystem, and a job after them all (afterany) that merges the same gradebook,
# feedback and leaderboard. --dry-run prints the two batch scripts instead of submitting them.
# Exit codes: 0 graded (or submitted), 2 bad arguments, 77 no GPU (builds checked, nothing run).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
say() { printf 'course: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

usage="usage: ./course grade-class NN NAME SUBMISSIONS [--out DIR] [--no-sanitize] [--jobs N] [--time-limit S] [--slurm [--partition P] [--gpus-per-task G] [--time T] [--throttle K] [--dry-run]]"
[ $# -ge 3 ] || die "$usage"
lesson=$1 name=$2 submissions=$3
shift 3
out=$root/grades/$lesson-$name
sanitize=1
jobs=$(nproc 2>/dev/null || echo 2)
limit=60
slurm=0 dry_run=0 partition="" gpus_per_task=1 slurm_time=01:00:00 throttle=8 cluster_options=0
mode=all task=0  # the jobs of --slurm run this script again: --grade-one K (a task), --merge (the last)
passed_on=()     # the options the jobs of --slurm pass on
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
    --no-sanitize) sanitize=0; passed_on+=(--no-sanitize); shift ;;
    --sanitize) shift ;;  # the default; still accepted from the days it was not
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number"; jobs=$2; shift 2 ;;
    --time-limit) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--time-limit needs a number of seconds"; limit=$2
      passed_on+=(--time-limit "$2"); shift 2 ;;
    --slurm) slurm=1; shift ;;
    --partition) [ -n "${2:-}" ] || die "--partition needs a name"; partition=$2; cluster_options=1; shift 2 ;;
    --gpus-per-task) [[ ${2:-} =~ ^[0-9]+$ ]] || die "--gpus-per-task needs a number (0: none)"; gpus_per_task=$2
      cluster_options=1; shift 2 ;;
    --time) [[ ${2:-} =~ ^[0-9][0-9:-]*$ ]] || die "--time needs a Slurm time such as 30 or 01:00:00"; slurm_time=$2
      cluster_options=1; shift 2 ;;
    --throttle) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--throttle needs a positive number"; throttle=$2; cluster_options=1
      shift 2 ;;
    --dry-run) dry_run=1; cluster_options=1; shift ;;
    --grade-one) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--grade-one needs a task number"; mode=one task=$2; shift 2 ;;
    --merge) mode=merge; shift ;;
    *) die "unknown option $1" ;;
  esac
done
[ $slurm -eq 1 ] || [ $cluster_options -eq 0 ] ||
  die "--partition, --gpus-per-task, --time, --throttle and --dry-run go with --slurm"
[ $sanitize -eq 1 ] || [ $mode != all ] ||
  say "--no-sanitize: no submission runs under compute-sanitizer, so a write out of bounds, a race or a barrier misuse that leaves the answers right goes unnoticed"
stub=$(ls "$root"/exercises/"$lesson"-*/"$name".cu 2>/dev/null | head -1)
[ -n "$stub" ] || die "no exercise '$name' in lesson '$lesson' (look in exercises/)"
[ -d "$submissions" ] || die "$submissions: no such folder"
submissions=$(cd "$submissions" && pwd)
mkdir -p "$out/feedback"
out=$(cd "$out" && pwd)
points_file="${stub%.cu}.points"

mapfile -t students < <(find "$submissions" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | LC_ALL=C sort)
[ ${#students[@]} -gt 0 ] || die "$submissions holds no student folders"

# --- 1. find each student's file; build them all in one tree ---------------------------------------
# One CMake tree holds every submission (COURSE_SUBMISSIONS): the course's libraries, the grading test
# and the benchmark are compiled once, then each student's file, side by side on the CPU's cores. A
# submission that does not compile is built again alone, for its own compiler messages.
declare -A file_of build_of odd_path_of built_of log_of
builds=$out/builds
tree=$builds/class
base=exercise${lesson}_${name}
list=$builds/submissions.tsv
# Only the whole run builds (not --dry-run); the jobs of --slurm find its build tree in DIR.
building=0
[ $mode = all ] && [ $dry_run -eq 0 ] && building=1
if [ $building -eq 1 ]; then
  rm -rf "$builds" "$out/rows"
  mkdir -p "$builds"
  : >"$list"
fi
number=0
for student in "${students[@]}"; do
  dir=$submissions/$student
  # The exercise's file: inside a copy of the course's exercises/ if there is one, else anywhere.
  found=$(find "$dir" -type f -name "$name.cu" -path "*/exercises/*" | LC_ALL=C sort | head -1)
  [ -n "$found" ] || found=$(find "$dir" -type f -name "$name.cu" | LC_ALL=C sort | head -1)
  file_of[$student]=$found
  [ -n "$found" ] || continue
  if [[ $found == *[$'\n\t;']* ]]; then  # a path CMake cannot take
    file_of[$student]="" odd_path_of[$student]=1
    continue
  fi
  number=$((number + 1))
  build_of[$student]=$number
  [ $building -eq 0 ] || printf '%s\t%s\n' "$number" "$found" >>"$list"
done
# program STUDENT KIND: the student's grade or bench program.
program() { echo "$tree/bin/students/${build_of[$1]}/${base}_$2"; }
if [ $building -eq 1 ]; then
  generator=() keep_going=(-k)
  command -v ninja >/dev/null && generator=(-G Ninja) keep_going=(-k 0)
  read -r -a extra <<<"${COURSE_CMAKE_ARGS:-}"
  SECONDS=0
  say "building $number submissions, $jobs jobs at a time"
  cmake -S "$root" -B "$tree" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCOURSE_LESSONS="$lesson" \
    -DCOURSE_SUBMISSIONS="$list" -DCOURSE_SUBMISSION_EXERCISE="${lesson}_${name}" -DCOURSE_CHECK_STUBS=OFF \
    "${extra[@]}" >"$builds/configure.log" 2>&1 ||
    { tail -5 "$builds/configure.log" >&2; die "configuring the class's build failed, which is the grading machine's problem (log: $builds/configure.log)"; }
  # What every submission shares: a failure here is the course's, not a student's.
  cmake --build "$tree" -j "$jobs" --target "${base}_grade_objects" "${base}_bench_objects" "${base}_cases" \
    >"$builds/shared.log" 2>&1 || { tail -20 "$builds/shared.log" >&2; die "the course's own grading code did not build (log: $builds/shared.log)"; }
  targets=()
  for ((k = 1; k <= number; k++)); do targets+=("submission_${k}_grade" "submission_${k}_bench"); done
  [ $number -eq 0 ] || cmake --build "$tree" -j "$jobs" --target "${targets[@]}" -- "${keep_going[@]}" >"$builds/all.log" 2>&1
  for student in "${students[@]}"; do
    [ -n "${build_of[$student]:-}" ] || continue
    [ -x "$(program "$student" grade)" ] && [ -x "$(program "$student" bench)" ] && continue
    # Built again alone, for its own compiler messages: the log marks the submission as not built.
    cmake --build "$tree" --target "submission_${build_of[$student]}_grade" "submission_${build_of[$student]}_bench" \
      >"$builds/$student.log" 2>&1
  done
  say "built in $SECONDS s"
fi
for student in "${students[@]}"; do
  [ -n "${build_of[$student]:-}" ] || continue
  if [ -f "$builds/$student.log" ]; then
    log_of[$student]=$builds/$student.log
  elif [ -x "$(program "$student" grade)" ] && [ -x "$(program "$student" bench)" ]; then
    built_of[$student]=1
  fi
done

# --- with --slurm: the class is graded by the cluster's jobs -----------------------------------------
# A job array with a task per student (each runs this script with --grade-one K on the build tree above,
# on the shared filesystem) and a job after them all (--merge). The course's build folder holds the
# runner and the solution's benchmark, built by ./course grade-class before this script.
if [ $slurm -eq 1 ] && [ $mode = all ]; then
  command -v sbatch >/dev/null || [ $dry_run -eq 1 ] || die "--slurm: sbatch is not on PATH (run this on a machine of the cluster)"
  mkdir -p "$out/slurm"
  grade=(env "COURSE_BUILD_DIR=${COURSE_BUILD_DIR:-$root/build}" bash "$root/common/tools/grade-class.sh"
         "$lesson" "$name" "$submissions" --out "$out" "${passed_on[@]}")
  # batch_script JOB-NAME OUTPUT LAST-WORDS [#SBATCH lines...] -- COMMAND...: a batch script that runs
  # COMMAND, every word quoted, then LAST-WORDS as they are (a variable the job's shell expands).
  batch_script() {
    local job=$1 output=$2 last=$3
    shift 3
    echo "#!/bin/bash"
    echo "#SBATCH --job-name=$job"
    echo "#SBATCH --output=$output"
    echo "#SBATCH --time=$slurm_time"
    [ -z "$partition" ] || echo "#SBATCH --partition=$partition"
    while [ "$1" != -- ]; do echo "#SBATCH $1"; shift; done
    shift
    printf '%q ' "$@"
    echo "$last"
  }
  array_lines=("--array=1-${#students[@]}%$throttle")
  [ "$gpus_per_task" -eq 0 ] || array_lines+=("--gpus-per-task=$gpus_per_task")
  batch_script "grade-$lesson-$name" "$out/slurm/task-%a.log" '--grade-one "$SLURM_ARRAY_TASK_ID"' "${array_lines[@]}" -- \
    "${grade[@]}" >"$out/slurm/grade.sbatch"
  batch_script "merge-$lesson-$name" "$out/slurm/merge.log" --merge -- "${grade[@]}" >"$out/slurm/merge.sbatch"
  if [ $dry_run -eq 1 ]; then
    for script in grade merge; do
      echo "# $out/slurm/$script.sbatch$([ $script = merge ] && echo ", submitted with --dependency=afterany:<the array's job id>")"
      cat "$out/slurm/$script.sbatch"
    done
    exit 0
  fi
  array_job=$(sbatch --parsable "$out/slurm/grade.sbatch") || die "sbatch refused the job array (script: $out/slurm/grade.sbatch)"
  array_job=${array_job%%;*}
  merge_job=$(sbatch --parsable --dependency="afterany:$array_job" "$out/slurm/merge.sbatch") ||
    die "sbatch refused the merge job (script: $out/slurm/merge.sbatch)"
  say "submitted job array $array_job (${#students[@]} students, $throttle at a time) and job ${merge_job%%;*}, which merges"
  say "when it ends: ${out#"$root"/}/gradebook.csv, feedback/ and leaderboard.csv (logs in ${out#"$root"/}/slurm/)"
  exit 0
fi

# A gradebook field, quoted for CSV.
quote() { local s=${1//\"/\"\"}; printf '"%s"' "${s//$'\n'/ }"; }
# Each student's gradebook row goes to rows/STUDENT.csv, and the time of one who passed every case to
# rows/STUDENT.finish; the merge (step 4) puts them together, here or in the last job of --slurm.
rows=$out/rows
mkdir -p "$rows"
graded=("${students[@]}")
[ $mode = one ] && { [ "$task" -le ${#students[@]} ] || die "--grade-one $task: the class has ${#students[@]} students"; graded=("${students[$((task - 1))]}"); }
[ $mode = merge ] && graded=()

# --- 2. the solution's time, and whether there is a GPU ----------------------------------------------
# ./course grade-class has built the course's runner, device query and the solution's benchmark.
course_build=${COURSE_BUILD_DIR:-$root/build}
runner=$course_build/bin/course_runner
# A measurement (a benchmark's --csv output in a file) as "verdict<TAB>median ms<TAB>GPU".
summary() { "$runner" --summary "$1" 2>/dev/null; }
have_gpu=0
if [ $mode != merge ] && "$course_build/bin/course_device_info" >/dev/null 2>&1; then have_gpu=1; fi
solution_ms="" solution_note=""
if [ $have_gpu -eq 1 ] && [ $mode != merge ]; then
  solution_csv=$builds/solution.csv
  [ $mode = all ] || solution_csv=$builds/solution-task$task.csv  # the tasks of --slurm run side by side
  if [ -x "$course_build/bin/solution${lesson}_${name}_bench" ] &&
    timeout -k 5 "$limit" "$course_build/bin/solution${lesson}_${name}_bench" --csv >"$solution_csv" 2>/dev/null; then
    IFS=$'\t' read -r verdict solution_ms _ < <(summary "$solution_csv")
    [ "$verdict" = PASS ] || solution_ms=""
  elif [ -f "${stub%.cu}.solution-time.csv" ]; then  # a student's copy: the time recorded with it
    IFS=$'\t' read -r verdict solution_ms gpu < <(summary "${stub%.cu}.solution-time.csv")
    [ "$verdict" = PASS ] && solution_note=" (recorded on $gpu)" || solution_ms=""
  fi
fi

# --- the sandbox and compute-sanitizer, for every run of a student's program --------------------------
# course_sandbox (./course grade-class builds it) confines each run; where the kernel cannot (no
# Landlock) the runs keep their time and output limits, and a warning says what is missing.
sandbox=$course_build/bin/course_sandbox
confine=()
sanitizer="" small=()
sanitize_check=$root/common/tools/sanitize_submission.sh
if [ $have_gpu -eq 1 ]; then
  [ -x "$sandbox" ] || die "$sandbox is missing (./course grade-class builds it)"
  if ! "$sandbox" --check >/dev/null; then
    confine=(--allow-unconfined)
    say "warning: $("$sandbox" --check); the submissions run with their time and output limits, but could write outside their folders"
  fi
  [ "$(id -u)" -ne 0 ] ||
    say "warning: grading as root: a submission may still write device files and /proc as root may; grade as an ordinary user"
  if [ $sanitize -eq 1 ]; then
    # The lesson's small size (course_add_lesson's SMALL) is one the exercise's benchmark takes too.
    { read -r sanitizer; read -r -a small; } < <(bash "$sanitize_check" --setup "$tree" "$lesson")
    [ -n "$sanitizer" ] || die "compute-sanitizer was not found (it comes with the CUDA Toolkit): install it, or grade with --no-sanitize"
  fi
fi
output_limit=1000000  # bytes a run may print

# jailed SECONDS COMMAND...: runs a program of the student's through course_sandbox, in $scratch (its
# working folder, HOME and TMPDIR, the one folder it may write in), for at most SECONDS; what it prints (1 MB
# at most) goes to $printed, outside that folder. Exit code: the program's, 124 at the time limit, 125
# at the output limit. Nothing it started outlives it.
jailed() {
  local seconds=$1
  shift
  (cd "$scratch" && HOME=$scratch TMPDIR=$scratch CUDA_CACHE_PATH=$scratch/.nv "$sandbox" "${confine[@]}" --writable "$scratch" \
    --time-limit "$seconds" --output "$printed" --output-limit $output_limit -- "$@")
}
# The first lines a run printed, printable characters only, without this machine's paths.
printed_lines() { head -c 100000 "$printed" | sed -e "s|$root/||g" -e "s|$out/||g" -e "s|$submissions/||g" | tr -cd '\11\12\40-\176'; }

# Before any student: the check runs on the course's own solution, sandboxed as a student's program
# is. Should it find something there (compute-sanitizer that cannot work inside the sandbox on this
# machine, say), it would cost every student points, so grading stops instead.
solution_bench=$course_build/bin/solution${lesson}_${name}_bench
solution_file=$(ls "$root"/solutions/"$lesson"-*/"$name".cu 2>/dev/null | head -1)
if [ $have_gpu -eq 1 ] && [ $sanitize -eq 1 ] && [ -x "$solution_bench" ] && [ -n "$solution_file" ]; then
  scratch=$builds/run/solution-check printed=$builds/run/solution-check.printed
  rm -rf "$scratch"
  mkdir -p "$scratch"
  jailed $((3 * limit)) bash "$sanitize_check" "$sanitizer" "$solution_bench" "$solution_file" \
    "${small[@]}" || { tail -5 "$printed" >&2; die "the compute-sanitizer check fails on the course's own solution here, so it would cost every student points (above; grade with --no-sanitize, or see $printed)"; }
  rm -rf "$scratch"
fi

SECONDS=0
# --- 3. run each student's work, one after another ---------------------------------------------------
# The test cases, from the grading test built with the course's stub (never a student's program).
declare -A points_of
total_points=0
cases=()
listing=$tree/bin/${base}_cases
if [ $mode != merge ]; then
  [ -x "$listing" ] || die "$listing is missing: build the class again (without --dry-run)"
  mapfile -t cases < <("$listing" --list-test-names-only 2>/dev/null | sed -e 's/^ *//' -e '/^$/d')
  [ ${#cases[@]} -gt 0 ] || die "the grading test $listing lists no test case"
fi
# Each case is run alone, by a test spec that names it exactly (Catch2's special characters escaped);
# a spec that does not pick out its one case is a fault of this script, so it stops.
declare -A spec_of
for c in "${cases[@]}"; do
  spec_of[$c]=$(sed 's/[][\\,*"~]/\\&/g' <<<"$c")
  picked=$("$listing" "${spec_of[$c]}" --list-test-names-only 2>/dev/null | sed -e 's/^ *//' -e '/^$/d')
  [ "$picked" = "$c" ] || die "cannot run the test case '$c' alone (its spec picks: ${picked:-nothing})"
done
for c in "${cases[@]}"; do points_of[$c]=1; done
sanitizer_cost=""  # the points a compute-sanitizer error costs
if [ -f "$points_file" ] && [ ${#cases[@]} -gt 0 ]; then  # lines "case name = points"; '#' starts a comment
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    c=${line% = *} p=${line##* = }
    [[ $line == *" = "* && $p =~ ^[0-9]+$ ]] || die "${points_file#"$root"/}: '$line' is not 'case name = points'"
    if [ "$c" = compute-sanitizer ]; then
      sanitizer_cost=$p
      continue
    fi
    [ -n "${points_of[$c]+set}" ] || die "${points_file#"$root"/}: no test case '$c' in the grading test"
    points_of[$c]=$p
  done <"$points_file"
fi
for c in "${cases[@]}"; do total_points=$((total_points + ${points_of[$c]})); done
[ -n "$sanitizer_cost" ] || sanitizer_cost=$(((total_points + 1) / 2))

for student in "${graded[@]}"; do
  feedback=$out/feedback/$student.txt
  row=$rows/$student.csv
  rm -f "$row" "$rows/$student.finish"
  file=${file_of[$student]}
  {
    echo "Grading of $student, exercise $lesson $name"
    echo
  } >"$feedback"
  if [ -z "$file" ]; then
    why="no $name.cu found"
    [ -z "${odd_path_of[$student]:-}" ] || why="$name.cu is in a folder whose name holds a tab, newline or ';': rename it"
    echo "$why in the submission" >>"$feedback"
    echo "$(quote "$student"),,missing file,0,${#cases[@]},0,$total_points,,,,$(quote "$why")" >"$row"
    continue
  fi
  relative=${file#"$submissions/$student/"}
  if [ -z "${built_of[$student]:-}" ]; then
    first=$(grep -m 8 -E "error" "${log_of[$student]}" | sed "s|$root/||g; s|$submissions/||g")
    { echo "The file $relative did not compile. The first errors:"; echo; echo "$first"; } >>"$feedback"
    echo "$(quote "$student"),$(quote "$relative"),compile error,0,${#cases[@]},0,$total_points,,,,$(quote "$(head -1 <<<"$first")")" >"$row"
    continue
  fi
  if [ $have_gpu -eq 0 ]; then
    echo "Built. Not run: no CUDA device on the grading machine." >>"$feedback"
    echo "$(quote "$student"),$(quote "$relative"),built,,${#cases[@]},,$total_points,,,,$(quote "not run: no CUDA device")" >"$row"
    continue
  fi
  grader=$(program "$student" grade)
  bench=$(program "$student" bench)
  scratch=$builds/run/$student
  printed=$builds/run/$student.printed
  rm -rf "$scratch"
  mkdir -p "$scratch"
  passed=0 earned=0 first_failure="" timed_out=0
  for c in "${cases[@]}"; do
    # After one time-out the rest are not run: an endless kernel would cost the limit in every case.
    if [ $timed_out -eq 1 ]; then
      echo "NOT RUN (an earlier case ran over the time limit)  $c" >>"$feedback"
      continue
    fi
    jailed "$limit" "$grader" "${spec_of[$c]}"
    code=$?
    output=$(printed_lines)
    case $code in
      0) verdict=PASS passed=$((passed + 1)) earned=$((earned + ${points_of[$c]})) ;;
      124) verdict="TIME-OUT (over $limit s)" timed_out=1 ;;
      125) verdict="TOO MUCH OUTPUT (over $output_limit bytes; stopped)" ;;
      1) verdict=FAIL ;;
      77) verdict="SKIPPED ($(grep -m1 -i 'skipped:' <<<"$output" | sed 's/.*skipped: *//I'))" ;;
      *) verdict="CRASH (exit code $code)" ;;
    esac
    echo "$verdict  $c" >>"$feedback"
    if [ "$verdict" != PASS ]; then
      # The test's own words (Catch's FAILED block: the check, its values, its messages) or the error.
      detail=$(grep -E -A8 "FAILED|error:" <<<"$output" | head -16)
      [ -z "$detail" ] || printf '%s\n\n' "$detail" | sed 's/^/      /' >>"$feedback"
      [ -n "$first_failure" ] || first_failure="$verdict: $c$(grep -m1 -E '^ +(with expansion|step|[A-Za-z].*:)' <<<"$output" | sed 's/^ */: /')"
    fi
  done
  # A submission that passed every case: once more on the small size under compute-sanitizer
  # (common/tools/sanitize_submission.sh, as ./course grade runs it), which finds what gives right
  # answers by luck: a write past an allocation, a race, a barrier not reached by every thread. A
  # finding costs $sanitizer_cost points.
  checked=""
  if [ $passed -eq ${#cases[@]} ] && [ $sanitize -eq 0 ]; then
    checked="not run (--no-sanitize)"
  elif [ $passed -eq ${#cases[@]} ]; then
    jailed $((3 * limit)) bash "$sanitize_check" "$sanitizer" "$bench" "$file" "${small[@]}"
    code=$?
    verdict=$(grep '^verdict: ' "$printed" | tail -1)
    verdict=${verdict#verdict: }
    case $code in
      0) checked=clean ;;
      1) checked=${verdict:-a finding} ;;
      124) checked="time-out under compute-sanitizer (over $((3 * limit)) s)" ;;
      125) checked="too much output under compute-sanitizer" ;;
      *) checked="crash under compute-sanitizer (exit code $code)" ;;
    esac
    if [ "$checked" = clean ]; then
      tools=${verdict#clean (}
      echo "compute-sanitizer (${tools%)}) on the small size (${small[*]}): no error" >>"$feedback"
    else
      earned=$((earned > sanitizer_cost ? earned - sanitizer_cost : 0))
      {
        echo "COMPUTE-SANITIZER: ${checked^^}, on the small size (${small[*]}): -$sanitizer_cost points"
        printed_lines | grep -E '^=========' | grep -v -E 'COMPUTE-SANITIZER$|^========= *$' | head -12 | sed 's/^/      /'
        echo
      } >>"$feedback"
      first_failure="compute-sanitizer: $checked$(printed_lines | grep -E '^========= +[A-Z]' | grep -v 'COMPUTE-SANITIZER' | head -1 | sed 's/^=* */: /')"
    fi
  fi
  time_ms="" ratio=""
  if [ $passed -eq ${#cases[@]} ]; then
    measured=$builds/$student.bench.csv
    verdict=""
    # The measurement is the last CSV header and the line after it (the benchmark prints them once the
    # kernel's runs are over), whatever else the student's code printed, lines like them included.
    jailed "$limit" "$bench" --csv && grep -A1 '^lesson,step,title,' "$printed" | grep -v '^--$' | tail -2 >"$measured" &&
      IFS=$'\t' read -r verdict time_ms _ < <(summary "$measured")
    if [ "$verdict" = PASS ]; then
      [ -n "$solution_ms" ] && ratio=$(awk -v a="$time_ms" -v b="$solution_ms" 'BEGIN { if (b > 0) printf "%.2f", a / b }')
      compared=""
      [ -n "$ratio" ] && compared=", ${ratio}x the solution's $solution_ms ms$solution_note"
      echo "time: $time_ms ms$compared" >>"$feedback"
    else
      time_ms=""
      echo "time: not measured (the benchmark failed, ran over $limit s or printed something else)" >>"$feedback"
    fi
  fi
  rm -rf "$scratch" "$printed"
  echo "$(quote "$student"),$(quote "$relative"),built,$passed,${#cases[@]},$earned,$total_points,$time_ms,$ratio,$(quote "$checked"),$(quote "$first_failure")" >"$row"
  # The leaderboard: those whose every answer is right and whom compute-sanitizer found nothing in.
  [ -z "$time_ms" ] || [[ $checked != clean && $checked != not\ run* ]] ||
    printf '%s\t%s\t%s\n' "$time_ms" "$student" "$ratio" >"$rows/$student.finish"
done
if [ $mode = one ]; then
  [ $have_gpu -eq 1 ] || say "no CUDA device on this node: $student's submission was built, not run"
  exit 0
fi

# --- 4. the gradebook, in the students' order, and the leaderboard: those that pass every case, fastest
# first. A student whose row is missing (a job of --slurm that was cancelled or ran out of time) gets one
# that says so.
gradebook=$out/gradebook.csv
echo "student,file,build,cases_passed,cases_total,points,points_total,time_ms,vs_solution,sanitizer,first_failure" >"$gradebook"
for student in "${students[@]}"; do
  if [ -f "$rows/$student.csv" ]; then
    cat "$rows/$student.csv"
  else
    echo "$(quote "$student"),,not graded,,,,,,,,$(quote "its grading job did not finish (see ${out#"$root"/}/slurm/)")"
  fi
done >>"$gradebook"
leaderboard=$out/leaderboard.csv
echo "rank,student,time_ms,vs_solution" >"$leaderboard"
rank=0
finishers=()
for student in "${students[@]}"; do
  [ ! -f "$rows/$student.finish" ] || finishers+=("$(cat "$rows/$student.finish")")
done
[ ${#finishers[@]} -eq 0 ] || printf '%s\n' "${finishers[@]}" | LC_ALL=C sort -t$'\t' -k1,1g |
  while IFS=$'\t' read -r ms student ratio; do
    rank=$((rank + 1))
    echo "$rank,$(quote "$student"),$ms,$ratio"
  done >>"$leaderboard"

[ $have_gpu -eq 0 ] || say "ran on the GPU in $SECONDS s"
say "gradebook: ${gradebook#"$root"/} (${#students[@]} students); feedback in ${out#"$root"/}/feedback/"
sed "s/\"//g" "$gradebook" | { column -s, -t 2>/dev/null || cat; }
[ $mode = merge ] && exit 0
if [ $have_gpu -eq 0 ]; then
  say "no CUDA device: every submission was built, none was run"
  exit 77
fi
exit 0
