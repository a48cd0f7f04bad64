#!/usr/bin/env bash
# Grades a whole class: ./course grade-class NN NAME SUBMISSIONS [--out DIR] [--sanitize]
#                                           [--jobs N] [--time-limit SECONDS]
# Each folder in SUBMISSIONS is one student's work: the exercise's file NAME.cu at any depth (a lone
# file, or a whole copy of the course). Each is built against the course's own grading test and
# benchmark (a student's edited copy of the test is never used), all in one build tree where what they
# share is compiled once and the students' files side by side on the CPU's cores; then, one student
# after another on the GPU, every test case runs alone under a time limit (and compute-sanitizer
# memcheck with --sanitize), and the benchmark times the kernel. Written to DIR
# (default grades/NN-NAME): gradebook.csv (a row per student), feedback/STUDENT.txt, leaderboard.csv.
# Points per test case come from exercises/NN-*/NAME.points ("case name = points"), 1 each otherwise.
# Exit codes: 0 graded, 2 bad arguments, 77 no GPU (builds checked, nothing run).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
say() { printf 'course: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

[ $# -ge 3 ] || die "usage: ./course grade-class NN NAME SUBMISSIONS [--out DIR] [--sanitize] [--jobs N] [--time-limit S]"
lesson=$1 name=$2 submissions=$3
shift 3
out=$root/grades/$lesson-$name
sanitize=0
jobs=$(nproc 2>/dev/null || echo 2)
limit=60
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out=$2; shift 2 ;;
    --sanitize) sanitize=1; shift ;;
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number"; jobs=$2; shift 2 ;;
    --time-limit) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--time-limit needs a number of seconds"; limit=$2; shift 2 ;;
    *) die "unknown option $1" ;;
  esac
done
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
declare -A file_of build_of odd_path_of
builds=$out/builds
rm -rf "$builds"
mkdir -p "$builds"
list=$builds/submissions.tsv
: >"$list"
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
  printf '%s\t%s\n' "$number" "$found" >>"$list"
done
tree=$builds/class
generator=() keep_going=(-k)
command -v ninja >/dev/null && generator=(-G Ninja) keep_going=(-k 0)
read -r -a extra <<<"${COURSE_CMAKE_ARGS:-}"
SECONDS=0
say "building $number submissions, $jobs jobs at a time"
cmake -S "$root" -B "$tree" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCOURSE_LESSONS="$lesson" \
  -DCOURSE_SUBMISSIONS="$list" -DCOURSE_SUBMISSION_EXERCISE="${lesson}_${name}" -DCOURSE_CHECK_STUBS=OFF \
  "${extra[@]}" >"$builds/configure.log" 2>&1 ||
  { tail -5 "$builds/configure.log" >&2; die "configuring the class's build failed, which is the grading machine's problem (log: $builds/configure.log)"; }
base=exercise${lesson}_${name}
# What every submission shares: a failure here is the course's, not a student's.
cmake --build "$tree" -j "$jobs" --target "${base}_grade_objects" "${base}_bench_objects" course_catch_main_gpu \
  >"$builds/shared.log" 2>&1 || { tail -20 "$builds/shared.log" >&2; die "the course's own grading code did not build (log: $builds/shared.log)"; }
targets=()
for ((k = 1; k <= number; k++)); do targets+=("submission_${k}_grade" "submission_${k}_bench"); done
[ $number -eq 0 ] || cmake --build "$tree" -j "$jobs" --target "${targets[@]}" -- "${keep_going[@]}" >"$builds/all.log" 2>&1
# program STUDENT KIND: the student's grade or bench program.
program() { echo "$tree/bin/students/${build_of[$1]}/${base}_$2"; }
declare -A built_of log_of
for student in "${students[@]}"; do
  [ -n "${build_of[$student]:-}" ] || continue
  if [ -x "$(program "$student" grade)" ] && [ -x "$(program "$student" bench)" ]; then
    built_of[$student]=1
  else
    log_of[$student]=$builds/$student.log
    cmake --build "$tree" --target "submission_${build_of[$student]}_grade" "submission_${build_of[$student]}_bench" \
      >"${log_of[$student]}" 2>&1
  fi
done
say "built in $SECONDS s"

# --- 2. the solution's time, and whether there is a GPU ----------------------------------------------
# ./course grade-class has built the course's runner, device query and the solution's benchmark.
course_build=${COURSE_BUILD_DIR:-$root/build}
runner=$course_build/bin/course_runner
# A measurement (a benchmark's --csv output in a file) as "verdict<TAB>median ms<TAB>GPU".
summary() { "$runner" --summary "$1" 2>/dev/null; }
have_gpu=0
"$course_build/bin/course_device_info" >/dev/null 2>&1 && have_gpu=1
solution_ms="" solution_note=""
if [ $have_gpu -eq 1 ]; then
  solution_csv=$builds/solution.csv
  if [ -x "$course_build/bin/solution${lesson}_${name}_bench" ] &&
    timeout -k 5 "$limit" "$course_build/bin/solution${lesson}_${name}_bench" --csv >"$solution_csv" 2>/dev/null; then
    IFS=$'\t' read -r verdict solution_ms _ < <(summary "$solution_csv")
    [ "$verdict" = PASS ] || solution_ms=""
  elif [ -f "${stub%.cu}.solution-time.csv" ]; then  # a student's copy: the time recorded with it
    IFS=$'\t' read -r verdict solution_ms gpu < <(summary "${stub%.cu}.solution-time.csv")
    [ "$verdict" = PASS ] && solution_note=" (recorded on $gpu)" || solution_ms=""
  fi
fi

SECONDS=0
# --- 3. run each student's work, one after another ---------------------------------------------------
declare -A points_of
total_points=0
cases=()
for student in "${students[@]}"; do
  [ -n "${built_of[$student]:-}" ] || continue
  grader=$(program "$student" grade)
  mapfile -t cases < <("$grader" --list-test-names-only 2>/dev/null | sed -e 's/^ *//' -e '/^$/d')
  break
done
# Each case is run alone, by a test spec that names it exactly (Catch2's special characters escaped);
# a spec that does not pick out its one case is a fault of this script, so it stops.
declare -A spec_of
for c in "${cases[@]}"; do
  spec_of[$c]=$(sed 's/[][\\,*"~]/\\&/g' <<<"$c")
  picked=$("$grader" "${spec_of[$c]}" --list-test-names-only 2>/dev/null | sed -e 's/^ *//' -e '/^$/d')
  [ "$picked" = "$c" ] || die "cannot run the test case '$c' alone (its spec picks: ${picked:-nothing})"
done
for c in "${cases[@]}"; do points_of[$c]=1; done
if [ -f "$points_file" ] && [ ${#cases[@]} -gt 0 ]; then  # lines "case name = points"; '#' starts a comment
  while IFS= read -r line || [ -n "$line" ]; do
    [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
    c=${line% = *} p=${line##* = }
    [[ $line == *" = "* && $p =~ ^[0-9]+$ ]] || die "${points_file#"$root"/}: '$line' is not 'case name = points'"
    [ -n "${points_of[$c]+set}" ] || die "${points_file#"$root"/}: no test case '$c' in the grading test"
    points_of[$c]=$p
  done <"$points_file"
fi
for c in "${cases[@]}"; do total_points=$((total_points + ${points_of[$c]})); done

gradebook=$out/gradebook.csv
echo "student,file,build,cases_passed,cases_total,points,points_total,time_ms,vs_solution,first_failure" >"$gradebook"
quote() { local s=${1//\"/\"\"}; printf '"%s"' "${s//$'\n'/ }"; }
finishers=()  # "time<TAB>student<TAB>ratio" of those that pass every case
for student in "${students[@]}"; do
  feedback=$out/feedback/$student.txt
  file=${file_of[$student]}
  {
    echo "Grading of $student, exercise $lesson $name"
    echo
  } >"$feedback"
  if [ -z "$file" ]; then
    why="no $name.cu found"
    [ -z "${odd_path_of[$student]:-}" ] || why="$name.cu is in a folder whose name holds a tab, newline or ';': rename it"
    echo "$why in the submission" >>"$feedback"
    echo "$(quote "$student"),,missing file,0,${#cases[@]},0,$total_points,,,$(quote "$why")" >>"$gradebook"
    continue
  fi
  relative=${file#"$submissions/$student/"}
  if [ -z "${built_of[$student]:-}" ]; then
    first=$(grep -m 8 -E "error" "${log_of[$student]}" | sed "s|$root/||g; s|$submissions/||g")
    { echo "The file $relative did not compile. The first errors:"; echo; echo "$first"; } >>"$feedback"
    echo "$(quote "$student"),$(quote "$relative"),compile error,0,${#cases[@]},0,$total_points,,,$(quote "$(head -1 <<<"$first")")" >>"$gradebook"
    continue
  fi
  if [ $have_gpu -eq 0 ]; then
    echo "Built. Not run: no CUDA device on the grading machine." >>"$feedback"
    echo "$(quote "$student"),$(quote "$relative"),built,,${#cases[@]},,$total_points,,,$(quote "not run: no CUDA device")" >>"$gradebook"
    continue
  fi
  grader=$(program "$student" grade)
  bench=$(program "$student" bench)
  passed=0 earned=0 first_failure="" timed_out=0
  for c in "${cases[@]}"; do
    # After one time-out the rest are not run: an endless kernel would cost the limit in every case.
    if [ $timed_out -eq 1 ]; then
      echo "NOT RUN (an earlier case ran over the time limit)  $c" >>"$feedback"
      continue
    fi
    prefix=(timeout -k 5 "$limit")
    [ $sanitize -eq 1 ] && prefix+=(compute-sanitizer --tool memcheck --error-exitcode 99)
    output=$("${prefix[@]}" "$grader" "${spec_of[$c]}" 2>&1)
    code=$?
    # A memory error is what memcheck reports; its exit code alone would count a crash as one too.
    memory_error=0
    [ $code -ne 0 ] && [ $sanitize -eq 1 ] &&
      grep -qE '^========= +(Invalid|Out-of-range|Misaligned|Malloc/Free error|.*is out of bounds)' <<<"$output" &&
      memory_error=1
    if [ $code -eq 0 ]; then
      verdict=PASS passed=$((passed + 1)) earned=$((earned + ${points_of[$c]}))
    elif [ $code -eq 124 ] || [ $code -eq 137 ]; then
      verdict="TIME-OUT (over $limit s)" timed_out=1
    elif [ $memory_error -eq 1 ]; then
      verdict="MEMORY ERROR (compute-sanitizer memcheck)"
    elif [ $code -eq 1 ]; then
      verdict=FAIL
    elif [ $code -eq 77 ]; then
      verdict="SKIPPED ($(grep -m1 -i 'skipped:' <<<"$output" | sed 's/.*skipped: *//I' | tr -cd '\40-\176'))"
    elif [ $code -eq 99 ] && [ $sanitize -eq 1 ]; then
      verdict="CRASH (under compute-sanitizer)"
    else
      verdict="CRASH (exit code $code)"
    fi
    echo "$verdict  $c" >>"$feedback"
    if [ "$verdict" != PASS ]; then
      # The test's own words (Catch's FAILED block: the check, its values, its messages), memcheck's
      # first report or the error, without this machine's paths.
      detail=$(grep -E -A8 "FAILED|^========= +(Invalid|Out-of-range|Misaligned)|error:" <<<"$output" | head -16 |
        sed -e "s|$root/||g" -e "s|$out/||g" | tr -cd '\11\12\40-\176')
      [ -z "$detail" ] || printf '%s\n\n' "$detail" | sed 's/^/      /' >>"$feedback"
      [ -n "$first_failure" ] || first_failure="$verdict: $c$(grep -m1 -E '^ +(with expansion|step|[A-Za-z].*:)' <<<"$output" | sed 's/^ */: /' | tr -cd '\40-\176')"
    fi
  done
  time_ms="" ratio=""
  if [ $passed -eq ${#cases[@]} ]; then
    measured=$builds/$student.bench.csv
    verdict=""
    # The measurement is the last CSV header and the line after it (the benchmark prints them once the
    # kernel's runs are over), whatever else the student's code printed, lines like them included.
    timeout -k 5 "$limit" "$bench" --csv 2>/dev/null | grep -A1 '^lesson,step,title,' | grep -v '^--$' | tail -2 >"$measured" &&
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
  echo "$(quote "$student"),$(quote "$relative"),built,$passed,${#cases[@]},$earned,$total_points,$time_ms,$ratio,$(quote "$first_failure")" >>"$gradebook"
  [ -n "$time_ms" ] && finishers+=("$time_ms"$'\t'"$student"$'\t'"$ratio")
done

# --- 4. leaderboard: the submissions that pass every case, fastest first ------------------------------
leaderboard=$out/leaderboard.csv
echo "rank,student,time_ms,vs_solution" >"$leaderboard"
rank=0
[ ${#finishers[@]} -eq 0 ] || printf '%s\n' "${finishers[@]}" | LC_ALL=C sort -t$'\t' -k1,1g |
  while IFS=$'\t' read -r ms student ratio; do
    rank=$((rank + 1))
    echo "$rank,$(quote "$student"),$ms,$ratio"
  done >>"$leaderboard"

[ $have_gpu -eq 0 ] || say "ran on the GPU in $SECONDS s"
say "gradebook: ${gradebook#"$root"/} (${#students[@]} students); feedback in ${out#"$root"/}/feedback/"
sed "s/\"//g" "$gradebook" | { column -s, -t 2>/dev/null || cat; }
if [ $have_gpu -eq 0 ]; then
  say "no CUDA device: every submission was built, none was run"
  exit 77
fi
exit 0
