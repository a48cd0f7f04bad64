#!/usr/bin/env bash
# What the lessons' file-tool tests (lessons/NN-*/tests/test_tools.sh) share; each sources this file
# after setting `work`, its scratch folder. They count failures and go on, so one run lists them all.

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_usage_error "what" command...: exit code 2 and exactly one line on stderr
expect_usage_error() {
  local what=$1
  shift
  "$@" >"$work/out" 2>"$work/err"
  local code=$?
  [ $code -eq 2 ] || fail "$what: exit code $code, expected 2"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "$what: expected one line on stderr, got: $(cat "$work/err")"
  echo "ok: $what -> $(cat "$work/err")"
}

# finish_tool_tests: the verdict line, and the exit code (0 only when nothing failed).
finish_tool_tests() {
  [ $failures -eq 0 ] && echo "all tool tests passed"
  exit $((failures > 0))
}
