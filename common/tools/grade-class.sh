#!/usr/bin/env bash
# Grades a whole class: ./course grade-class NN NAME SUBMISSIONS [--out DIR] [--only STUDENT...]
#                                           [--no-sanitize] [--jobs N] [--time-limit S] [--timed-runs N]
#                                           [--compile-time-limit S] [--assignment TITLE] [--points-possible P]
#                                           [--slurm [--partition P] [--gpus-per-task G] [--time T]
#                                                    [--throttle K] [--dry-run]]
# SUBMISSIONS holds one folder per student (the exercise's file NAME.cu at any depth: a lone file, or a
# whole copy of the course), or the flat files of a Canvas or Moodle bulk download; course_intake lists
# the class and the file of each (common/tools/course_intake.cpp). Then, as online judges grade:
#   1. Each file is copied (DIR/files/STUDENT.cu, the file graded, as it was) and compiled alone, in a
#      copy of the course without solutions/, through compile_submission.sh: the compiler may read only
#      the exercise's, the lesson's, the course library's and the system's headers and the student's one
#      file, and is time-, memory- and output-limited. The file becomes a shared library that exports
#      only the exercise's functions, linked into the student's contestant (course/contestant.h), the
#      only program that ever holds the student's code. The judge (course/judge.h) is the course's own
#      grading test (a student's edited copy is never used; the instructor's hidden cases, solutions/
#      NN-*/grade_NAME_hidden.cpp, are added), built once for the class and linked with no submission.
#   2. One student after another on the GPU, every test case runs alone: a fresh judge draws fresh
#      inputs, starts the contestant, hands it the inputs over two pipes, checks the answers that come
#      back itself, and writes the verdict where the contestant cannot write. A submission that passes
#      them all runs once more on the lesson's small size under compute-sanitizer, clean only where the
#      tools find nothing and the judge finds the answer right (a finding costs the points NAME.points
#      gives "compute-sanitizer", half the total unless it says); then the judge times it (each run on
#      a fresh input, every answer checked, the reported times held against its own clock and the
#      GPU's floor; a time that fails is "not trusted" and never ranked). Each contestant runs through
#      course_sandbox: it may write only in a scratch folder of its own and read only the system's
#      folders and its own programs, its signals reach only its own processes, it is stopped at the
#      time limit or after 1 MB of output, and nothing it started is left running. Whatever it prints,
#      writes or exits with, only right answers earn points.
#   3. course_gradebook puts the rows together in DIR (default grades/NN-NAME): gradebook.csv,
#      feedback/STUDENT.txt, leaderboard.csv, identical.csv (for the instructor) and lms/ (the imports
#      of Canvas and Moodle).
# --only STUDENT... grades those students again (or late ones for the first time) and merges them
# into the gradebook; without it the whole class is graded anew. Either way the run is written into
# DIR/incoming/ and taken in only once it has ended, the gradebook there was kept in DIR/earlier/; one
# run at a time holds DIR (its lock, and DIR/.slurm-jobs while a cluster's jobs grade it). Points per
# test case come from exercises/NN-*/NAME.points ("case name = points") and, for hidden cases,
# solutions/NN-*/NAME.hidden.points; 1 each otherwise. With --slurm the submissions are built here,
# then graded on the cluster: a job array with a task per student (K at a time, --throttle, default 8),
# each reading the class as it was when the array was submitted (DIR/builds/class.tsv) and writing its
# student's row and feedback into DIR/incoming/ on the shared filesystem, and a job after them all
# (afterany) that takes the run in.
# --dry-run prints the two batch scripts instead of submitting them.
# Exit codes: 0 graded (or submitted), 2 bad arguments, 77 no GPU (builds checked, nothing run).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
say() { printf 'course: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }
# without_folders FOLDER...: the standard input with each FOLDER/ taken out, so that what a student
# reads names no folder of this machine.
without_folders() {
  local edits=() folder
  for folder in "$@"; do edits+=(-e "s|$folder/||g"); done
  sed "${edits[@]}"
}

usage="usage: ./course grade-class NN NAME SUBMISSIONS [--out DIR] [--only STUDENT...] [--no-sanitize] [--jobs N] [--time-limit S] [--timed-runs N] [--compile-time-limit S] [--assignment TITLE] [--points-possible P] [--slurm [--partition P] [--gpus-per-task G] [--time T] [--throttle K] [--dry-run]]"
[ $# -ge 3 ] || die "$usage"
# An option is never taken for the lesson, the exercise or the folder of submissions.
for argument in "$1" "$2" "$3"; do
  [[ $argument != -* ]] || die "unknown option '$argument' where NN NAME SUBMISSIONS go, before the options: $usage"
done
lesson=$1 name=$2 submissions=$3
shift 3
out=$root/grades/$lesson-$name
sanitize=1
jobs=$(nproc 2>/dev/null || echo 2)
limit=60 compile_limit=120 assignment="" only=() timed_runs=7 points_possible=""
slurm=0 dry_run=0 partition="" gpus_per_task=1 slurm_time=01:00:00 throttle=8 cluster_options=0
mode=all task=0  # the jobs of --slurm run this script again: --grade-one K (a task), --merge (the last)
passed_on=()     # the options the jobs of --slurm pass on
while [ $# -gt 0 ]; do
  case $1 in
    --out) [ $# -ge 2 ] && [[ $2 != -* ]] || die "--out needs a folder"; out=$2; shift 2 ;;
    --only) shift  # the students, up to the next option: a word that starts with '-' is never a student
      while [ $# -gt 0 ] && [[ $1 != -* ]]; do only+=("$1"); shift; done
      [ ${#only[@]} -gt 0 ] || die "--only needs the students to grade (their folders' names)" ;;
    --no-sanitize) sanitize=0; passed_on+=(--no-sanitize); shift ;;
    --sanitize) shift ;;  # the default; still accepted from the days it was not
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number"; jobs=$2; shift 2 ;;
    --time-limit) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--time-limit needs a number of seconds"; limit=$2
      passed_on+=(--time-limit "$2"); shift 2 ;;
    --timed-runs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] && [ "$2" -ge 3 ] || die "--timed-runs needs a number of runs, 3 or more"
      timed_runs=$2; passed_on+=(--timed-runs "$2"); shift 2 ;;
    --compile-time-limit) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || die "--compile-time-limit needs a number of seconds"
      compile_limit=$2; shift 2 ;;
    --assignment) [ -n "${2:-}" ] || die "--assignment needs a title (Canvas's column, e.g. \"Argmax (4417)\")"
      assignment=$2; passed_on+=(--assignment "$2"); shift 2 ;;
    --points-possible) [[ ${2:-} =~ ^[0-9]+([.][0-9]+)?$ ]] && [[ ${2:-} =~ [1-9] ]] ||
      die "--points-possible needs the assignment's points on the platform, a positive number (e.g. 10)"
      points_possible=$2; passed_on+=(--points-possible "$2"); shift 2 ;;
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
    *) die "unknown option '$1' (./course grade-class --help lists the options)" ;;
  esac
done
[ $slurm -eq 1 ] || [ $cluster_options -eq 0 ] ||
  die "--partition, --gpus-per-task, --time, --throttle and --dry-run go with --slurm"
[ $sanitize -eq 1 ] || [ $mode != all ] || [ -n "${COURSE_GRADE_CLASS_CHECK_ONLY:-}" ] ||
  say "--no-sanitize: no submission runs under compute-sanitizer, so a write out of bounds, a race or a barrier misuse that leaves the answers right goes unnoticed"
stub=$(ls "$root"/exercises/"$lesson"-*/"$name".cu 2>/dev/null | head -1)
[ -n "$stub" ] || die "no exercise '$name' in lesson '$lesson' (look in exercises/)"
[ -d "$submissions" ] || die "$submissions: no such folder"
submissions=$(cd "$submissions" && pwd)
# ./course grade-class checks the arguments so before it builds anything.
[ -z "${COURSE_GRADE_CLASS_CHECK_ONLY:-}" ] || exit 0
mkdir -p "$out"
out=$(cd "$out" && pwd)
# One run at a time in a grading folder: this process holds DIR/.lock while it runs, and a run on a
# cluster leaves DIR/.slurm-jobs (its jobs) until its merge job has taken it in. A second run is
# refused in one line, whatever its options (an --only while an array waits would rebuild the class
# under the jobs' feet and give one student another's program). The jobs of --slurm are that run's.
if [ $mode = all ] && [ $dry_run -eq 0 ]; then
  exec 9>>"$out/.lock"
  flock -n 9 || die "$out is being graded by another run of grade-class ($(cat "$out/.lock.who" 2>/dev/null || echo "on this machine")): wait for it to end, or grade into another --out"
  if [ -f "$out/.slurm-jobs" ]; then
    read -r -a jobs_waiting <"$out/.slurm-jobs"
    if command -v squeue >/dev/null && [ -z "$(squeue -h -j "$(IFS=,; echo "${jobs_waiting[*]}")" -o %i 2>/dev/null)" ]; then
      rm -f "$out/.slurm-jobs"  # its jobs are gone: cancelled, or ended without their merge
    else
      die "$out is being graded by the Slurm jobs ${jobs_waiting[*]}: wait for them to end (squeue), or grade into another --out; if they are gone, remove $out/.slurm-jobs"
    fi
  fi
  echo "pid $$ on $(hostname 2>/dev/null || echo this machine), since $(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$out/.lock.who"
fi
# What this run grades goes to DIR/incoming/ (class.tsv, rows/, feedback/, files/); only once it has
# ended does course_gradebook --commit take it in, keeping the gradebook there was in DIR/earlier/.
# A run that stops half-way leaves the gradebook as it was.
incoming=$out/incoming
course_build=${COURSE_BUILD_DIR:-$root/build}
bin=$course_build/bin
solution_file=$(ls "$root"/solutions/"$lesson"-*/"$name".cu 2>/dev/null | head -1)
hidden_tests=$(ls "$root"/solutions/"$lesson"-*/grade_"$name"_hidden.cpp 2>/dev/null | head -1)
points_files=("${stub%.cu}.points")
[ -z "$solution_file" ] || points_files+=("${solution_file%.cu}.hidden.points")
builds=$out/builds
tree=$builds/class
base=exercise${lesson}_${name}
now() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# --- 1. the class: who, and which file (course_intake) ----------------------------------------------
# builds/class.tsv is the class this run grades, one line per student (its line number is the student's
# number K, of the build and of the --slurm task); DIR/class.tsv is the whole class of the gradebook,
# which --only updates. A job of --slurm reads builds/class.tsv as it was when the array was submitted.
building=0
[ $mode = all ] && [ $dry_run -eq 0 ] && building=1
class_list=$builds/class.tsv
if [ $mode = all ]; then
  listed=$class_list
  if [ $building -eq 1 ]; then
    # The class's build tree stays from one run to the next: what every submission shares, and each
    # student's file whose content has not changed, is not compiled again (a regrade, --only).
    rm -rf "$builds/run" "$builds/submissions.tsv" "$incoming"
    mkdir -p "$builds/src" "$builds/logs" "$incoming/rows" "$incoming/files" "$incoming/feedback"
    # Whether the run grades the class or some of it, for the commit (also the merge job's).
    [ ${#only[@]} -eq 0 ] && echo class >"$incoming/kind" || echo only >"$incoming/kind"
  else
    listed=$(mktemp)
    trap 'rm -f "$listed"' EXIT
  fi
  intake=("$bin/course_intake" --submissions "$submissions" --exercise "$name.cu" --list "$listed")
  [ ${#only[@]} -eq 0 ] || intake+=(--only "$(IFS=$'\t'; echo "${only[*]}")")  # a name may hold spaces
  "${intake[@]}" || exit 2
  class_list=$listed
else
  [ -f "$class_list" ] || die "$class_list is missing: the class was not built (run without --dry-run first)"
fi
declare -A number_of file_of shown_of status_of note_of late_of
students=()
while IFS=$'\x1f' read -r student id platform late status file shown note; do
  students+=("$student")
  number_of[$student]=${#students[@]}
  status_of[$student]=$status file_of[$student]=$file shown_of[$student]=$shown note_of[$student]=$note late_of[$student]=$late
done < <(tr '\t' '\037' <"$class_list")
[ ${#students[@]} -gt 0 ] || die "$submissions holds no student to grade"
if [ $building -eq 1 ]; then
  # The students this run grades (course_gradebook --commit merges them into the class's list).
  cp "$class_list" "$incoming/class.tsv"
  # The file graded, as it was: the student's record (files/), and the one copy the compiler sees,
  # builds/src/K/NAME.cu. That copy is replaced only when its content changes, and then what was built
  # from it goes too: the build tool compiles again exactly the files that changed.
  stage() {  # stage K FILE
    local staged=$builds/src/$1/$name.cu
    cmp -s "$2" "$staged" && return 0
    forget "$1"
    mkdir -p "$builds/src/$1"
    cp "$2" "$staged" || die "cannot copy $2"
  }
  forget() { rm -rf "${builds:?}/src/$1" "$tree/bin/students/$1" "$builds/logs/$1".*; }
  # Number 0 is the course's own stub, compiled as a student's file is: the proof that the confinement
  # lets a file of the exercise compile on this machine.
  stage 0 "$stub"
  printf '0\t%s\n' "$builds/src/0/$name.cu" >"$builds/submissions.tsv"
  declare -A staged_now=([0]=1)
  for student in "${students[@]}"; do
    [ "${status_of[$student]}" = found ] || continue
    k=${number_of[$student]}
    cp "${file_of[$student]}" "$incoming/files/$student.cu" || die "cannot copy ${file_of[$student]}"
    stage "$k" "${file_of[$student]}"
    staged_now[$k]=1
    printf '%s\t%s\n' "$k" "$builds/src/$k/$name.cu" >>"$builds/submissions.tsv"
  done
  for folder in "$builds"/src/*; do
    [ -n "${staged_now[$(basename "$folder")]:-}" ] || forget "$(basename "$folder")"
  done
fi
# contestant STUDENT: the student's contestant, the one program that holds the student's code.
contestant() { echo "$tree/bin/students/${number_of[$1]}/${base}_contestant"; }
judge=$tree/bin/${base}_judge

# --- 2. the build: one tree for the class, each file compiled alone and confined ----------------------
# The class's copy of the course: what a student's copy has (no solutions/, no instructor guide), so that
# no #include, however many '../' it climbs, finds a solution there.
class_source=$builds/course
policy=$builds/compile.policy
if [ $building -eq 1 ]; then
  # Copied anew, and put in place only if it changed, so that the build tree's files keep their times.
  rm -rf "$class_source.new"
  mkdir -p "$class_source.new"
  for entry in CMakeLists.txt CMakePresets.json README.md cmake common lessons exercises docs; do
    [ ! -e "$root/$entry" ] || cp -R "$root/$entry" "$class_source.new/" || die "cannot copy the course into $class_source"
  done
  rm -f "$class_source.new/docs/instructor-guide.md"
  if [ -d "$class_source" ] && diff -r -q "$class_source" "$class_source.new" >/dev/null 2>&1; then
    rm -rf "$class_source.new"
  else
    rm -rf "$class_source"
    mv "$class_source.new" "$class_source"
    rm -f "$builds"/logs/*.failed  # a compile that failed may not fail with the course's new files
  fi
  generator=() keep_going=(-k)
  command -v ninja >/dev/null && generator=(-G Ninja) keep_going=(-k 0)
  read -r -a extra <<<"${COURSE_CMAKE_ARGS:-}"
  hidden=()
  [ -z "$hidden_tests" ] || hidden=(-DCOURSE_HIDDEN_TESTS="$hidden_tests")
  SECONDS=0
  say "building $(($(wc -l <"$builds/submissions.tsv") - 1)) submissions, $jobs jobs at a time"
  cmake -S "$class_source" -B "$tree" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCOURSE_LESSONS="$lesson" \
    -DCOURSE_SUBMISSIONS="$builds/submissions.tsv" -DCOURSE_SUBMISSION_EXERCISE="${lesson}_${name}" \
    -DCOURSE_CHECK_STUBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON "${hidden[@]}" \
    "-DCOURSE_SUBMISSION_LAUNCHER=bash;$root/common/tools/compile_submission.sh;$policy" \
    "${extra[@]}" >"$builds/configure.log" 2>&1 ||
    { tail -5 "$builds/configure.log" >&2; die "configuring the class's build failed, which is the grading machine's problem (log: $builds/configure.log)"; }
  # What the compiler of a submission may read: the class's copy of the course, and its own folders
  # (the CUDA Toolkit's, the host compiler's, the system's headers and libraries); not /etc, not your
  # home, not the solutions. Where the kernel cannot confine reading (no Landlock), every file the
  # compiler read is checked afterwards instead.
  cached() { sed -n "s/^$1:[A-Z]*=//p" "$tree/CMakeCache.txt"; }
  readable=("$class_source" /dev/null)
  for folder in "$(dirname "$(dirname "$(realpath "$(cached CMAKE_CUDA_COMPILER)")")")" \
    "$(dirname "$(dirname "$(realpath "$(cached CMAKE_CXX_COMPILER)")")")" /usr/include /usr/lib/gcc /usr/libexec/gcc \
    /usr/lib64 /usr/lib/"$(cc -print-multiarch 2>/dev/null)" /usr/bin /lib64 /lib/"$(cc -print-multiarch 2>/dev/null)"; do
    case $folder in /usr | / | /usr/lib/ | /lib/) continue ;; esac  # the whole system: only its parts above
    [ ! -d "$folder" ] || readable+=("$folder")
  done
  confine=yes
  "$bin/course_sandbox" --check >/dev/null || confine=no
  {
    echo "sandbox $bin/course_sandbox"
    echo "confine $confine"
    printf 'readable %s\n' "${readable[@]}"
    echo "time-limit $compile_limit"
    echo "memory-limit 4000000000"
    echo "file-size-limit 1000000000"
    echo "output-limit 1000000"
    echo "logs $builds/logs"
    echo "sources $builds/src"
  } >"$policy.new"
  # A compile that failed under other limits may not fail under these: it is tried again.
  cmp -s "$policy" "$policy.new" || rm -f "$builds"/logs/*.failed
  mv "$policy.new" "$policy"
  if [ $confine = no ]; then
    say "warning: $("$bin/course_sandbox" --check); each submission's compiler could read any file, so what it read is checked after it compiles"
  elif [ -n "$solution_file" ]; then
    # Proof, before any student: the compiler's confinement hides the solution.
    sandboxed=("$bin/course_sandbox")
    for folder in "${readable[@]}"; do sandboxed+=(--readable "$folder"); done
    ! "${sandboxed[@]}" -- cat "$solution_file" >/dev/null 2>&1 ||
      die "the solution ($solution_file) lies in a folder the compiler must read; move the course out of the system's folders to grade"
  fi
  # What every submission shares, and the stub as a submission: a failure here is the course's or this
  # machine's, not a student's.
  cmake --build "$tree" -j "$jobs" --target "${base}_judge" "${base}_contestant_objects" "${base}_contract" \
    >"$builds/shared.log" 2>&1 ||
    { tail -20 "$builds/shared.log" >&2; die "the course's own grading code did not build (log: $builds/shared.log)"; }
  cmake --build "$tree" --target submission_0_contestant >>"$builds/shared.log" 2>&1 ||
    { tail -n 5 "$builds/logs/0.log" "$builds/shared.log" >&2 2>/dev/null
      die "the course's own stub does not compile as a submission here: the compiler's confinement misses a folder it needs (policy: $policy; logs: $builds/logs/0.log, $builds/shared.log)"; }
  targets=()
  while IFS=$'\t' read -r k _; do
    [ "$k" = 0 ] || targets+=("submission_${k}_contestant")
  done <"$builds/submissions.tsv"
  [ ${#targets[@]} -eq 0 ] || cmake --build "$tree" -j "$jobs" --target "${targets[@]}" -- "${keep_going[@]}" >"$builds/all.log" 2>&1
  for student in "${students[@]}"; do
    [ "${status_of[$student]}" = found ] || continue
    [ -x "$(contestant "$student")" ] && continue
    # Compiled but not linked (the exercise's function missing, say): linked again alone, for the message.
    k=${number_of[$student]}
    cmake --build "$tree" --target "submission_${k}_contestant" >"$builds/logs/$k.link.log" 2>&1
  done
  say "built in $SECONDS s"
fi
# build_of STUDENT: built, compile error, refused, compile time-out, link error; and reason_of STUDENT.
declare -A build_of reason_of
for student in "${students[@]}"; do
  [ "${status_of[$student]}" = found ] || continue
  k=${number_of[$student]}
  compile_log=$builds/logs/$k.log
  if [ -x "$(contestant "$student")" ]; then
    build_of[$student]=built
  elif grep -q '^refused: ' "$compile_log" 2>/dev/null; then
    build_of[$student]=refused reason_of[$student]=$(sed -n 's/^refused: //p' "$compile_log" | tail -1)
  elif grep -q '^stopped: ' "$compile_log" 2>/dev/null; then
    build_of[$student]="compile time-out" reason_of[$student]=$(sed -n 's/^stopped: //p' "$compile_log" | tail -1)
  elif [ -f "$compile_log" ] && ! grep -q '^failed: ' "$compile_log"; then
    build_of[$student]="link error"
  else
    build_of[$student]="compile error"
  fi
  # Without this machine's folders: the course's, the class's.
  reason_of[$student]=$(without_folders "$class_source" "$out" "$root" <<<"${reason_of[$student]:-}")
done

# --- with --slurm: the class is graded by the cluster's jobs -----------------------------------------
# A job array with a task per student (each runs this script with --grade-one K on the build tree above,
# on the shared filesystem) and a job after them all (--merge). The course's build folder holds the
# device query and the solution's contestant, built by ./course grade-class before this script.
if [ $slurm -eq 1 ] && [ $mode = all ]; then
  command -v sbatch >/dev/null || [ $dry_run -eq 1 ] || die "--slurm: sbatch is not on PATH (run this on a machine of the cluster)"
  mkdir -p "$out/slurm"
  grade=(env "COURSE_BUILD_DIR=$course_build" bash "$root/common/tools/grade-class.sh"
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
  # Until the merge job has taken the run in, DIR is the cluster's: other runs are refused.
  echo "$array_job ${merge_job%%;*}" >"$out/.slurm-jobs"
  say "submitted job array $array_job (${#students[@]} students, $throttle at a time) and job ${merge_job%%;*}, which merges"
  say "when it ends: ${out#"$root"/}/gradebook.csv, feedback/ and leaderboard.csv (logs in ${out#"$root"/}/slurm/)"
  exit 0
fi

# A gradebook field, quoted for CSV.
quote() { local s=${1//\"/\"\"}; printf '"%s"' "${s//$'\n'/ }"; }
graded=("${students[@]}")
[ $mode = one ] && { [ "$task" -le ${#students[@]} ] || die "--grade-one $task: the class has ${#students[@]} students"; graded=("${students[$((task - 1))]}"); }
[ $mode = merge ] && graded=()

# --- 3. whether there is a GPU, its facts, and the course's solution as the judge sees it ------------
# ./course grade-class has built the device query and the solution's contestant. The read bandwidth,
# measured once here, sets the judge's floor on a reported time (what no kernel can beat), and the GPU's
# name goes with every time into the gradebook.
have_gpu=0 gpu_name="" read_bandwidth=0 l2_bytes=0
if [ $mode != merge ] && facts=$("$bin/course_device_info" --measure 2>/dev/null); then
  have_gpu=1
  gpu_name=$(sed -n 's/^name=//p' <<<"$facts")
  read_bandwidth=$(sed -n 's/^read_bandwidth_gbs=//p' <<<"$facts")
  l2_bytes=$(awk -F= '$1 == "l2_mib" { printf "%.0f", $2 * 1048576 }' <<<"$facts")
fi

# --- the judge, the sandbox and compute-sanitizer, for every run of a student's program ---------------
# A student's code runs only in its contestant (course/contestant.h), which the judge (course/judge.h,
# built from the grading test, never linked with a submission) starts through course_sandbox and
# questions over two pipes: the verdict, the points and the time are the judge's, written where the
# contestant cannot write. course_sandbox confines the contestant: it writes only in its scratch folder
# and reads only the system's folders (libraries, the GPU's device files, the CUDA Toolkit) and its own
# programs, not the solutions, your home, the judge's files or another student's programs; its signals
# reach only its own processes. Where the kernel cannot (no Landlock), the runs keep their time and
# output limits, and a warning says what is missing.
sandbox=$bin/course_sandbox
confine=()
sanitizer="" small=()
sanitize_check=$root/common/tools/sanitize_submission.sh
system_readable=()
for folder in /usr /lib /lib32 /lib64 /bin /sbin /etc/ld.so.cache /dev /proc /sys \
  "$(dirname "$(dirname "$(realpath "$(command -v nvcc 2>/dev/null || echo /usr/bin/nvcc)")")")"; do
  [ ! -e "$folder" ] || system_readable+=(--readable "$folder")
done
# The contestant's own confinement once CUDA is up (a seccomp filter, written for x86-64 Linux).
to_self=() lock_down=()
[ "$(uname -m)" != x86_64 ] || to_self=(--signals-to-self) lock_down=(--lock-down)
if [ $have_gpu -eq 1 ]; then
  [ -x "$sandbox" ] || die "$sandbox is missing (./course grade-class builds it)"
  if ! "$sandbox" --check >/dev/null; then
    confine=(--allow-unconfined)
    system_readable=()
    say "warning: $("$sandbox" --check); the submissions run with their time and output limits, but could write outside their folders, read any file and write the judge's verdicts"
  fi
  [ ${#to_self[@]} -gt 0 ] ||
    say "warning: on this processor ($(uname -m)) a submission's signals and new threads are not filtered: the judge's time is less sure"
  [ "$(id -u)" -ne 0 ] ||
    say "warning: grading as root: a submission may still write device files and /proc as root may; grade as an ordinary user"
  if [ $sanitize -eq 1 ]; then
    # The lesson's small size (course_add_lesson's SMALL) is one the exercise's benchmark takes too.
    { read -r sanitizer; read -r -a small; } < <(bash "$sanitize_check" --setup "$tree" "$lesson")
    [ -n "$sanitizer" ] || die "compute-sanitizer was not found (it comes with the CUDA Toolkit): install it, or grade with --no-sanitize"
    [ ${#system_readable[@]} -eq 0 ] || system_readable+=(--readable "$(dirname "$(dirname "$(realpath "$sanitizer")")")")
  fi
fi
output_limit=1000000  # bytes a run may print

# use_files NAME: the files of one student's (or the solution's) runs: $scratch, the one folder the
# contestant may write in (its working folder, HOME and TMPDIR); and outside it $printed (what the
# contestant printed), $judged (what the judge printed), $verdict_file and $commands (the contestant's
# command line for the judge).
use_files() {
  scratch=$builds/run/$1 printed=$builds/run/$1.printed judged=$builds/run/$1.judged
  verdict_file=$builds/run/$1.verdict commands=$builds/run/$1.command
  rm -rf "$scratch" "$printed" "$judged" "$verdict_file" "$commands"
  mkdir -p "$scratch"
}
# contestant_command SECONDS PROGRAMS-FOLDER [--no-left-running] -- COMMAND...: the contestant's command
# for the judge ($commands, one argument a line): COMMAND through course_sandbox, in $scratch, reading
# only the system's folders and PROGRAMS-FOLDER, for at most SECONDS; what it prints (1 MB at most)
# goes to $printed. Given --no-left-running, a process of its own still running as it ends is a fault.
contestant_command() {
  local seconds=$1 programs=$2 readable=() checks=()
  shift 2
  if [ "$1" = --no-left-running ]; then checks=(--no-left-running); shift; fi
  [ "$1" = -- ] && shift
  [ ${#system_readable[@]} -eq 0 ] || readable=("${system_readable[@]}" --readable "$programs")
  printf '%s\n' "$sandbox" "${confine[@]}" "${readable[@]}" --writable "$scratch" --time-limit "$seconds" \
    --output "$printed" --output-limit "$output_limit" "${checks[@]}" -- "$@" >"$commands"
}
# judge_run SECONDS JUDGE-ARGUMENTS...: the judge with that contestant; its verdict in $verdict (a line
# that says why where the judge itself did not finish), its exit code in $judge_code. The judge waits
# for the contestant at most about SECONDS; coreutils' timeout is there should it not.
judge_run() {
  local seconds=$1
  shift
  judge_code=0
  (cd "$scratch" && HOME=$scratch TMPDIR=$scratch CUDA_CACHE_PATH=$scratch/.nv \
    timeout -k 10 $((2 * seconds + 60)) "$judge" --contestant-command "$commands" --verdict "$verdict_file" \
    --time-limit "$seconds" "$@") >"$judged" 2>&1 || judge_code=$?
  verdict=$(head -1 "$verdict_file" 2>/dev/null)
  [ -n "$verdict" ] || verdict="NOT GRADED (the judge stopped, exit code $judge_code: the grading machine's fault; see $judged)"
}
# The first lines a run printed, printable characters only, without this machine's paths.
printed_lines() {
  head -c 100000 "$printed" 2>/dev/null |
    without_folders "$class_source" "$out" "$submissions" "$root" | tr -cd '\11\12\40-\176'
}
# under_sanitizer TOOL: the words before a contestant run under compute-sanitizer's TOOL (exit code 99
# for a finding, which the judge reads), in $sanitizer_words.
under_sanitizer() { sanitizer_words=("$sanitizer" --tool "$1" --error-exitcode 99 --print-limit 10); }

# Before any student: the course's own solution's contestant, judged as a student's is, in the sandbox:
# timed (its timing is the judge's reference for what a run costs beyond the reported time) and under
# each compute-sanitizer tool. Should either fail there (a sandbox too tight for this machine's GPU,
# compute-sanitizer that cannot work inside it), it would cost every student points, so grading stops.
solution_contestant=$bin/solution${lesson}_${name}_contestant
solution_ms="" reference=""
timing=()  # the judge's options of every timing
if [ $have_gpu -eq 1 ] && [ $mode != merge ]; then
  suffix=""
  [ $mode = all ] || suffix=-task$task  # the tasks of --slurm run side by side
  use_files "solution-check$suffix"
  timing=(--time --runs "$timed_runs" --read-bandwidth "$read_bandwidth" --l2-bytes "$l2_bytes")
  if [ -x "$solution_contestant" ]; then
    reference=$builds/run/solution$suffix.reference
    contestant_command $((3 * limit)) "$bin" -- "$solution_contestant" "${to_self[@]}" "${lock_down[@]}"
    judge_run $((3 * limit)) "${timing[@]}" --write-reference "$reference"
    [[ $verdict == "time "* ]] ||
      { tail -5 "$judged" >&2; die "the course's own solution is not timed rightly inside the sandbox here: $verdict (see $judged)"; }
    solution_ms=${verdict#time }
    timing+=(--reference "$reference")
    if [ $sanitize -eq 1 ]; then
      for tool in $(bash "$sanitize_check" --tools "$solution_file"); do
        under_sanitizer "$tool"
        contestant_command $((3 * limit)) "$bin" -- "${sanitizer_words[@]}" "$solution_contestant" "${to_self[@]}"
        judge_run $((3 * limit)) --sanitize-run --tool "$tool" -- "${small[@]}"
        [ "$verdict" = clean ] ||
          { printed_lines | tail -5 >&2; die "the compute-sanitizer check ($tool) fails on the course's own solution here: $verdict; it would cost every student points (above; grade with --no-sanitize, or see $printed)"; }
      done
    fi
  fi
  rm -rf "$scratch"
fi

SECONDS=0
# --- 4. run each student's work, one after another ---------------------------------------------------
# The test cases, from the judge (never a student's program); the instructor's hidden ones ([hidden])
# are named to the student only by their number.
declare -A points_of label_of hidden_of
total_points=0
cases=() hidden_cases=()
if [ $mode != merge ]; then
  [ -x "$judge" ] || die "$judge is missing: build the class again (without --dry-run)"
  mapfile -t cases < <("$judge" -- --list-test-names-only 2>/dev/null | sed -e 's/^ *//' -e '/^$/d')
  [ ${#cases[@]} -gt 0 ] || die "the judge $judge lists no test case"
  mapfile -t hidden_cases < <("$judge" -- "[hidden]" --list-test-names-only 2>/dev/null | sed -e 's/^ *//' -e '/^$/d')
fi
for c in "${cases[@]}"; do label_of[$c]=$c points_of[$c]=1; done
number=0
for c in "${hidden_cases[@]}"; do number=$((number + 1)); hidden_of[$c]=1 label_of[$c]="hidden case $number"; done
# Each case is run alone, by a test spec that names it exactly (Catch2's special characters escaped);
# a spec that does not pick out its one case is a fault of this script, so it stops.
declare -A spec_of
for c in "${cases[@]}"; do
  spec_of[$c]=$(sed 's/[][\\,*"~]/\\&/g' <<<"$c")
  picked=$("$judge" -- "${spec_of[$c]}" --list-test-names-only 2>/dev/null | sed -e 's/^ *//' -e '/^$/d')
  [ "$picked" = "$c" ] || die "cannot run the test case '$c' alone (its spec picks: ${picked:-nothing})"
done
sanitizer_cost=""  # the points a compute-sanitizer error costs
for points_file in "${points_files[@]}"; do  # lines "case name = points"; '#' starts a comment
  [ -f "$points_file" ] && [ ${#cases[@]} -gt 0 ] || continue
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
done
for c in "${cases[@]}"; do total_points=$((total_points + ${points_of[$c]})); done
[ -n "$sanitizer_cost" ] || sanitizer_cost=$(((total_points + 1) / 2))

position=0
for student in "${graded[@]}"; do
  position=$((position + 1))
  feedback=$incoming/feedback/$student.txt
  row=$incoming/rows/$student.csv
  rm -f "$row"
  shown=${shown_of[$student]}
  {
    echo "Grading of $student, exercise $lesson $name ($(now))"
    [ -z "$shown" ] || echo "File graded: $shown${note_of[$student]:+ (${note_of[$student]})}"
    [ -z "${late_of[$student]}" ] || echo "Sent late, as the learning platform marked it."
    echo
  } >"$feedback"
  # write_row BUILD PASSED POINTS TIME RATIO SANITIZER FIRST-FAILURE [GPU TIME-NOTE]: the student's
  # gradebook row (GPU: the GPU the time was taken on; TIME-NOTE: why a time was not).
  write_row() {
    echo "$(quote "$student"),$(quote "$shown"),$(quote "$1"),$2,${#cases[@]},$3,$total_points,$4,$5,$(quote "$6"),$(quote "$7"),$(quote "${8:-}"),$(quote "${9:-}"),$(now)" >"$row"
  }
  if [ "${status_of[$student]}" != found ]; then
    echo "${note_of[$student]}" >>"$feedback"
    build="missing file"
    [ "${status_of[$student]}" != refused ] || build=refused
    write_row "$build" 0 0 "" "" "" "${note_of[$student]}"
    continue
  fi
  k=${number_of[$student]}
  if [ "${build_of[$student]}" != built ]; then
    case ${build_of[$student]} in
      refused | "compile time-out")
        why=${reason_of[$student]}
        echo "The file $shown was not graded: $why." >>"$feedback" ;;
      *)
        log=$builds/logs/$k.log
        [ "${build_of[$student]}" = "compile error" ] || log=$builds/logs/$k.link.log
        first=$(grep -m 8 -iE "error" "$log")
        first=${first//"$builds/src/$k/$name.cu"/"$shown"}  # the student's own name for the file
        first=$(without_folders "$class_source" "$tree" "$root" <<<"$first")
        why=$(head -1 <<<"$first")
        # A compiler stopped by a limit, or one that printed no error line: the launcher's own last word.
        stopped=$(sed -n 's/^failed: \(a file the compiler wrote reached .*\)/\1/p' "$log" | tail -1)
        [ -n "$why" ] && [ -z "$stopped" ] || { why=${stopped:-$(sed -n 's/^failed: //p' "$log" | tail -1)}; first=$why; }
        { echo "The file $shown did not ${build_of[$student]/ error/}. The first errors:"; echo; echo "$first"; } >>"$feedback" ;;
    esac
    write_row "${build_of[$student]}" 0 0 "" "" "" "$why"
    continue
  fi
  if [ $have_gpu -eq 0 ]; then
    echo "Built. Not run: no CUDA device on the grading machine." >>"$feedback"
    write_row built "" "" "" "" "" "not run: no CUDA device"
    continue
  fi
  contestant_program=$(contestant "$student")
  programs=$tree/bin/students/$k
  student_source=$builds/src/$k/$name.cu
  use_files "$student"
  passed=0 earned=0 first_failure="" timed_out=0
  for c in "${cases[@]}"; do
    label=${label_of[$c]}
    # After one time-out the rest are not run: an endless kernel would cost the limit in every case.
    if [ $timed_out -eq 1 ]; then
      echo "NOT RUN (an earlier case ran over the time limit)  $label" >>"$feedback"
      continue
    fi
    # Each case: a fresh judge drawing fresh inputs, and a fresh contestant.
    contestant_command "$limit" "$programs" --no-left-running -- "$contestant_program" "${to_self[@]}"
    judge_run "$limit" -- "${spec_of[$c]}"
    case $verdict in
      PASS) passed=$((passed + 1)) earned=$((earned + ${points_of[$c]})) ;;
      TIME-OUT*) timed_out=1 ;;
    esac
    echo "$verdict  $label" >>"$feedback"
    if [ "$verdict" != PASS ]; then
      # The judge's words (Catch's FAILED block: the check, its values, its messages); of a hidden
      # case, nothing.
      output=$(head -c 100000 "$judged" | without_folders "$class_source" "$root" | tr -cd '\11\12\40-\176')
      detail=""
      [ -n "${hidden_of[$c]:-}" ] || detail=$(grep -E -A8 "FAILED|error:" <<<"$output" | head -16)
      [ -z "$detail" ] || printf '%s\n\n' "$detail" | sed 's/^/      /' >>"$feedback"
      if [ -z "$first_failure" ]; then
        first_failure="$verdict: $label"
        [ -n "${hidden_of[$c]:-}" ] ||
          first_failure+=$(grep -m1 -E '^ +(with expansion|step|[A-Za-z].*:)' <<<"$output" | sed 's/^ */: /')
      fi
    fi
  done
  # A submission that passed every case: once more on the small size under compute-sanitizer, the
  # tools sanitize_submission.sh picks (as ./course grade runs them), which finds what gives right
  # answers by luck: a write past an allocation, a race, a barrier not reached by every thread. It is
  # clean only where the tools find nothing and the judge finds the answer right. A finding costs
  # $sanitizer_cost points.
  checked=""
  if [ $passed -eq ${#cases[@]} ] && [ $sanitize -eq 0 ]; then
    checked="not run (--no-sanitize)"
  elif [ $passed -eq ${#cases[@]} ]; then
    tools=()
    for tool in $(bash "$sanitize_check" --tools "$student_source"); do
      tools+=("$tool")
      under_sanitizer "$tool"
      contestant_command $((3 * limit)) "$programs" -- "${sanitizer_words[@]}" "$contestant_program" "${to_self[@]}"
      judge_run $((3 * limit)) --sanitize-run --tool "$tool" -- "${small[@]}"
      checked=$verdict
      [ "$checked" = clean ] || break
    done
    if [ "$checked" = clean ]; then
      echo "compute-sanitizer (${tools[*]}) on the small size (${small[*]}): no error" >>"$feedback"
    else
      earned=$((earned > sanitizer_cost ? earned - sanitizer_cost : 0))
      {
        echo "COMPUTE-SANITIZER: ${checked^^}, on the small size (${small[*]}): -$sanitizer_cost points"
        printed_lines | grep -E '^=========' | grep -v -E 'COMPUTE-SANITIZER$|^========= *$|ERROR SUMMARY: 0 errors' | head -12 |
          sed 's/^/      /'
        echo
      } >>"$feedback"
      first_failure="compute-sanitizer: $checked$(printed_lines | grep -E '^========= +[A-Z]' |
        grep -v -E 'COMPUTE-SANITIZER|ERROR SUMMARY: 0 errors' | head -1 | sed 's/^=* */: /')"
    fi
  fi
  # Its time: the judge's timing (course/judge.h), each run on a fresh input the judge drew, every
  # answer checked, the reported times held against the judge's own clock and against what this GPU
  # can reach at all. A time that fails there is "not trusted", and never ranked.
  time_ms="" ratio="" timed_on="" time_note=""
  if [ $passed -eq ${#cases[@]} ]; then
    contestant_command $((3 * limit)) "$programs" -- "$contestant_program" "${to_self[@]}" "${lock_down[@]}"
    judge_run $((3 * limit)) "${timing[@]}"
    if [[ $verdict == "time "* ]]; then
      time_ms=${verdict#time }
      [ -n "$solution_ms" ] && ratio=$(awk -v a="$time_ms" -v b="$solution_ms" 'BEGIN { if (b > 0) printf "%.2f", a / b }')
      compared=""
      [ -n "$ratio" ] && compared=", ${ratio}x the solution's $solution_ms ms"
      timed_on=$gpu_name
      echo "time: $time_ms ms on $gpu_name$compared" >>"$feedback"
      grep -m1 '^timed runs: ' "$judged" | sed 's/^/      /' >>"$feedback"
    else
      time_note=$verdict
      echo "time: $verdict" >>"$feedback"
    fi
  fi
  rm -rf "$scratch"
  write_row built "$passed" "$earned" "$time_ms" "$ratio" "$checked" "$first_failure" "$timed_on" "$time_note"
  say "graded $student ($position of ${#graded[@]}): $earned of $total_points points"
done
if [ $mode = one ]; then
  [ $have_gpu -eq 1 ] || say "no CUDA device on this node: $student's submission was built, not run"
  exit 0
fi

# --- 5. the gradebook, the leaderboard, the identical files, the platforms' imports ------------------
# The run is taken in (course_gradebook --commit: the gradebook there was kept in earlier/), then the
# gradebook written. The assignment's title in Canvas's import and its points on the platforms are kept
# with the grades, for the regrades that come later.
for setting in assignment points_possible; do
  file=$out/${setting//_/-}.txt
  if [ -n "${!setting}" ]; then
    [ $mode = all ] && printf '%s\n' "${!setting}" >"$file"
  elif [ -f "$file" ]; then
    printf -v "$setting" '%s' "$(head -1 "$file")"
  fi
done
merge=("$bin/course_gradebook" --out "$out" --exercise "$lesson $name" --stub "$stub")
[ -z "$solution_file" ] || merge+=(--solution "$solution_file")
[ -z "$assignment" ] || merge+=(--assignment "$assignment")
[ -z "$points_possible" ] || merge+=(--points-possible "$points_possible")
if [ -f "$incoming/class.tsv" ]; then
  merge+=(--commit)
  [ "$(cat "$incoming/kind" 2>/dev/null)" != only ] || merge+=(--only)
fi
"${merge[@]}" || die "the gradebook could not be written"
[ $mode != merge ] || rm -f "$out/.slurm-jobs"  # the run on the cluster is over
[ $have_gpu -eq 0 ] || say "ran on the GPU in $SECONDS s"
gradebook=$out/gradebook.csv
say "gradebook: ${gradebook#"$root"/} ($(($(wc -l <"$gradebook") - 1)) students); feedback in ${out#"$root"/}/feedback/"
sed "s/\"//g" "$gradebook" | { column -s, -t 2>/dev/null || cat; }
[ $mode = merge ] && exit 0
if [ $have_gpu -eq 0 ]; then
  say "no CUDA device: every submission was built, none was run"
  exit 77
fi
exit 0
