#!/usr/bin/env bash
# ./course's help: `help`, `--help`, `-h` and no command print it on standard output and exit 0 without
# setting anything up; it names every command the script dispatches, each with its description; an
# unknown command gets one line naming ./course help, and exit code 2. (Each command's own help:
# test_course_command_help.sh.)
# usage: test_course_help.sh COURSE_SCRIPT
set -euo pipefail
course=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }

# The commands are the script's case labels (`  name)` lines), so a new command without help fails.
mapfile -t commands < <(sed -n 's/^  \([a-z][a-z-]*\))$/\1/p' "$course")
[ ${#commands[@]} -ge 9 ] || fail "found only ${#commands[@]} commands in $course: ${commands[*]}"

for asked in help --help -h ""; do
  status=0
  # shellcheck disable=SC2086 # no argument at all for ""
  COURSE_BUILD_DIR=$work/build bash "$course" $asked >"$work/out" 2>"$work/err" || status=$?
  [ $status = 0 ] || fail "./course $asked exited with $status"
  [ ! -s "$work/err" ] || fail "./course $asked wrote to standard error: $(cat "$work/err")"
  [ ! -e "$work/build" ] || fail "./course $asked set up a build"
  for command in "${commands[@]}"; do
    grep -qE "^  \./course $command( |$).*[a-z]" "$work/out" || fail "./course $asked does not list '$command' with a description"
  done
done

status=0
bash "$course" nosuch >"$work/out" 2>"$work/err" || status=$?
[ $status = 2 ] || fail "./course nosuch exited with $status, not 2"
[ ! -s "$work/out" ] || fail "./course nosuch wrote to standard output"
grep -q "unknown command 'nosuch': ./course help lists the commands" "$work/err" ||
  fail "./course nosuch did not name the command and ./course help: $(cat "$work/err")"
[ "$(wc -l <"$work/err")" = 1 ] || fail "./course nosuch wrote more than one line: $(cat "$work/err")"
# A command's own usage error: one line on standard error, exit code 2, nothing set up.
status=0
COURSE_BUILD_DIR=$work/build bash "$course" profile 03 08 09 >"$work/out" 2>"$work/err" || status=$?
[ $status = 2 ] || fail "./course profile 03 08 09 exited with $status, not 2"
grep -q "usage: ./course profile NN \[STEP|EXERCISE\] \[-- ARGS...\]" "$work/err" || fail "./course profile 03 08 09 did not print its usage: $(cat "$work/err")"
[ ! -e "$work/build" ] || fail "./course profile 03 08 09 set up a build"

echo "./course help: all checks passed (${#commands[@]} commands listed)"
