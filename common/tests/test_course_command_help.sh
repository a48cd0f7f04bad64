#!/usr/bin/env bash
# Every ./course command answers `COMMAND --help`, `COMMAND -h` and `./course help COMMAND` at once: exit
# code 0, its usage on standard output (each option of the usage line with a line of its own, -h and an
# example), nothing on standard error. A word that starts with '-' where the command takes none, or an
# option it does not know, is refused in one line on standard error with exit code 2. Either way, on a
# fresh build folder, nothing is set up, built or written: no CMake, compiler, build tool, Doxygen or
# Slurm starts (stand-ins for them come first on PATH, and write down each start), and no file or folder
# appears or changes in a copy of the course, its build folder, the folder ./course runs in or HOME.
# (test's options are CTest's, checked with CTest itself: test_course_refuses_early.sh tries them.)
# usage: test_course_command_help.sh COURSE_SCRIPT
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$1" ] || { echo "usage: test_course_command_help.sh COURSE_SCRIPT" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

# A copy of the course that holds the script (copy_of_course.sh copies the course it lies in).
bash "$here/copy_of_course.sh" "$work/course"
course=$work/course/course
cmp -s "$1" "$course" || fail "the copy's ./course differs from $1"
mkdir "$work/cwd" "$work/home"

# The stand-ins: each writes its name and arguments into started.log, and fails.
started=$work/started.log
mkdir "$work/tools"
for tool in cmake ctest cpack nvcc c++ cc gcc g++ clang clang++ make gmake ninja ccache doxygen sbatch srun squeue \
  scontrol ncu nvidia-smi compute-sanitizer apt-get sudo; do
  printf '#!/bin/sh\necho "%s $*" >>"%s"\nexit 1\n' "$tool" "$started" >"$work/tools/$tool"
  chmod +x "$work/tools/$tool"
done

# The commands are the script's case labels (`  name)` lines), as test_course_help.sh finds them, and help.
mapfile -t commands < <(sed -n 's/^  \([a-z][a-z-]*\))$/\1/p' "$course")
[ ${#commands[@]} -ge 10 ] || fail "found only ${#commands[@]} commands in $course: ${commands[*]}"
commands+=(help)
instructors=" make-stubs handout grade-class new-lesson "

# What the runs may not change: every path, its type, size and time of change.
snapshot() { find "$work/course" "$work/cwd" "$work/home" -printf '%p %y %s %T@\n' | sort; }

# course ARGUMENTS...: ./course ARGUMENTS from cwd/, on a fresh build folder, the stand-ins first on
# PATH; sets status, its output in out and err. Fails if it started a stand-in or wrote anything.
course() {
  local before
  before=$(snapshot)
  status=0
  (cd "$work/cwd" && env PATH="$work/tools:$PATH" HOME="$work/home" COURSE_BUILD_DIR="$work/course/build" \
    COURSE_NO_INSTALL=1 timeout 20 "$course" "$@" >"$work/out" 2>"$work/err" </dev/null) || status=$?
  [ ! -s "$started" ] || fail "./course $* started: $(cat "$started")"
  [ "$(snapshot)" = "$before" ] || fail "./course $* wrote: $(diff <(echo "$before") <(snapshot) | grep '^[<>]' | head -5)"
  [ ! -e "$work/course/build" ] || fail "./course $* made its build folder"
}

# answers COMMAND ARGUMENTS...: ./course ARGUMENTS prints COMMAND's help.
answers() {
  local command=$1 option
  shift
  course "$@"
  [ "$status" = 0 ] || fail "./course $* exited with $status: $(cat "$work/err")"
  [ ! -s "$work/err" ] || fail "./course $* wrote to standard error: $(cat "$work/err")"
  grep -qE "^usage: \./course $command( |$)" "$work/out" || fail "./course $* printed no usage of $command: $(head -3 "$work/out")"
  # every option of the usage line has a line of its own that says what it does
  for option in $(head -1 "$work/out" | grep -oE '\[--?[a-z][a-z-]*' | tr -d '['); do
    grep -qE -- "^  $option( [A-Z.]+)? +[a-z(]" "$work/out" || fail "./course $* does not describe $option"
  done
  grep -qE -- '^  -h, --help +prints this text' "$work/out" || fail "./course $* does not name -h, --help"
  grep -A1 '^example:$' "$work/out" | grep -qE "\./course $command( |$)" || fail "./course $* gives no example of $command"
}

# refused MESSAGE ARGUMENTS...: ./course ARGUMENTS exits with 2, its standard error one line that says MESSAGE.
refused() {
  local message=$1
  shift
  course "$@"
  [ "$status" = 2 ] || fail "./course $* exited with $status, not 2: $(cat "$work/out" "$work/err")"
  [ ! -s "$work/out" ] || fail "./course $* wrote to standard output: $(cat "$work/out")"
  [ "$(wc -l <"$work/err")" = 1 ] || fail "./course $* wrote $(wc -l <"$work/err") lines on standard error, not one: $(cat "$work/err")"
  grep -qF -- "$message" "$work/err" || fail "./course $* did not say '$message': $(cat "$work/err")"
}

answered=0
for command in "${commands[@]}"; do
  for asked in "$command --help" "$command -h" "help $command"; do
    # shellcheck disable=SC2086 # the words of the call
    if [ -d "$work/course/solutions" ] || [[ $instructors != *" $command "* ]]; then
      answers "$command" $asked
    else  # a student's copy has no instructor's commands, nor their help
      refused "$command is an instructor's command" $asked
    fi
    answered=$((answered + 1))
  done
done
# Help after other arguments too, and not for what follows "--" (it goes to the programs profiled).
answers run run --lesson 02 --help
answers grade grade 02 argmax -h
answers help help --help
[ ! -e "$work/cwd/--help" ] || fail "a --help folder was written"
for asked in help --help -h ""; do
  # shellcheck disable=SC2086 # no argument at all for ""
  course $asked
  [ "$status" = 0 ] && grep -q '^usage: \./course COMMAND' "$work/out" || fail "./course $asked did not list the commands"
done

# Options where a folder, a lesson, an exercise or a student goes, and options a command does not take.
refused "unknown command 'nosuch'" nosuch --help
refused "unknown command 'nosuch'" help nosuch
refused "run: unknown option '--bogus'" run --bogus
refused "run: --results needs a value, not the option '-x'" run --results -x
refused "run: unexpected argument '02'" run 02
refused "grade: unknown option '--bogus'" grade --bogus argmax
refused "grade: unknown option '-x'" grade 02 -x
refused "profile: unknown option '--bogus'" profile --bogus
refused "profile: unknown option '-x'" profile 02 -x -- --type double
refused "docs: unknown option '--bogus'" docs --bogus
refused "docs: unexpected argument 'html'" docs html
refused "build: unknown option '-j'" build -j
if [ -d "$work/course/solutions" ]; then
  refused "handout: unknown option '-x'" handout -x
  refused "handout: unknown option '--bogus'" handout ../copy 02 --bogus
  refused "no lesson '07'" handout ../copy 02 07
  refused "handout: $work/course exists and is not empty" handout "$work/course"
  refused "grade-class: unknown option '--bogus'" grade-class 02 argmax --bogus
  refused "grade-class: unknown option '-x'" grade-class -x argmax ../submissions
  refused "grade-class: --out goes after NN NAME SUBMISSIONS" grade-class 02 argmax --out ../grades ../submissions
  refused "unknown option '--bogus'" grade-class 02 argmax "$work/cwd" --bogus
  refused "unknown option '-x'" grade-class 02 argmax "$work/cwd" --only alice -x
  refused "--only needs the students" grade-class 02 argmax "$work/cwd" --only -x
  refused "--out needs a folder" grade-class 02 argmax "$work/cwd" --out -x
  refused "new-lesson: unknown option '-x'" new-lesson -x
  refused "new-lesson: unknown option '--bogus'" new-lesson 06 --bogus
  refused "make-stubs: unknown option '--bogus'" make-stubs --bogus
fi
[ -z "$(ls -A "$work/cwd")" ] || fail "something was written where ./course ran: $(ls -A "$work/cwd")"

echo "./course COMMAND --help: all checks passed (${#commands[@]} commands, $answered answers, nothing started or written)"
