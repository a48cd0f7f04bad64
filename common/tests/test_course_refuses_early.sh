#!/usr/bin/env bash
# ./course checks what it is asked before it builds anything: each mistake below, on a fresh build
# folder, gets one line on standard error and its exit code within seconds, and no compiler has run
# (no object file in the build folder). `test` with a selection that picks no test configures (its
# list of tests comes from CMake) but builds nothing.
# usage: test_course_refuses_early.sh COURSE_SCRIPT
set -euo pipefail
course=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAILED: $*"; exit 1; }
checked=0

# refused SECONDS EXIT_CODE MESSAGE ARGUMENTS...: ./course ARGUMENTS on a fresh build folder exits with
# EXIT_CODE within SECONDS, its standard error one line containing MESSAGE (after the progress line of
# a configure, where it configures), and compiles nothing.
refused() {
  local seconds=$1 code=$2 message=$3
  shift 3
  local build=$work/build-$checked status=0 started elapsed
  started=$(date +%s)
  COURSE_BUILD_DIR=$build timeout 300 bash "$course" "$@" >"$work/out" 2>"$work/err" </dev/null || status=$?
  elapsed=$(($(date +%s) - started))
  [ "$status" = "$code" ] || fail "./course $* exited with $status, not $code: $(cat "$work/err")"
  # (the lines saying that the build folder is being configured, or that ccache is being installed,
  # where they are, are progress, not the answer)
  grep -v -E '^course: (configuring in |installing ccache )' "$work/err" >"$work/answer" || true
  [ "$(wc -l <"$work/answer")" = 1 ] || fail "./course $* wrote $(wc -l <"$work/answer") lines on standard error, not one: $(cat "$work/err")"
  grep -qF -- "$message" "$work/err" || fail "./course $* did not say '$message': $(cat "$work/err")"
  [ "$elapsed" -le "$seconds" ] || fail "./course $* took ${elapsed} s to refuse (at most $seconds)"
  if [ -d "$build" ]; then
    # (CMake's own probe of the compilers, under CMakeFiles/<version>/, is part of configuring)
    objects=$(find "$build" -name '*.o' -not -path "$build/CMakeFiles/[0-9]*" | wc -l)
    [ "$objects" = 0 ] || fail "./course $* compiled $objects files before it refused"
    [ ! -d "$build/bin" ] || [ -z "$(find "$build/bin" -type f -perm -u+x)" ] ||
      fail "./course $* built programs before it refused"
  fi
  echo "refused in ${elapsed} s, nothing built: ./course $*"
  checked=$((checked + 1))
}

refused 5 2 "no lesson '9': the lessons are 01, 02, 03, 04, 05" run --lesson 9
refused 5 2 "run: unknown option '--bogus'" run --bogus
refused 5 2 "run: --lesson needs a lesson number" run --lesson
# test's arguments go to CTest, which passes over a word it does not know: checked against its options.
refused 5 2 "test: unknown option '--bogus'" test --bogus
refused 5 2 "test: unknown option '-x'" test -L cpu -x
refused 5 2 "no lesson '9': the lessons are 01, 02, 03, 04, 05" profile 9
refused 5 2 "/nonexistent: no such folder" grade-class 02 argmax /nonexistent
refused 5 2 "--jobs" grade-class 02 argmax "$work" --jobs none
refused 5 2 "unknown command 'nosuch': ./course help lists the commands" nosuch
# A test selection that picks nothing: refused once CMake has listed the tests, not after a build.
refused 120 2 "no test matches '-R nosuchtest'" test -R nosuchtest

# Grading needs a GPU: without one, the refusal names the hosted-GPU notebook (on a machine with a GPU
# grading goes ahead, so this case is not tried there).
if compgen -G "/dev/nvidia[0-9]*" >/dev/null; then
  echo "not tried here (this machine has a GPU): ./course grade 02 argmax without a GPU"
else
  refused 5 77 "docs/hosted-gpu.ipynb" grade 02 argmax
fi

echo "./course refuses early: all $checked checks passed"
