#!/usr/bin/env bash
# The fuzz test of what the judge reads from a student's process and what course_intake reads from a
# class's file names (fuzz/fuzz_judge_input.cpp), with a fixed budget, from the corpus in the tree:
#   common/tests/test_fuzz.sh libfuzzer|mutator FUZZER RUNS WORK_DIR
# libfuzzer: clang's coverage-guided fuzzer (the fuzzer's own main); mutator: fuzz_mutator.cpp's seeded
# mutations, where clang's libFuzzer is missing. Both are built with AddressSanitizer and
# UndefinedBehaviorSanitizer; a crash, a sanitizer's finding or a property that fails is a failure.
# The corpus is copied first, so that what libFuzzer adds to it stays out of the tree.
set -uo pipefail
[ $# -eq 4 ] || { echo "usage: test_fuzz.sh libfuzzer|mutator FUZZER RUNS WORK_DIR" >&2; exit 2; }
kind=$1 fuzzer=$2 runs=$3 work=$4
corpus=$(cd "$(dirname "$0")/fuzz/corpus" && pwd)
rm -rf "$work"
mkdir -p "$work/corpus"
cp "$corpus"/* "$work/corpus/"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
case $kind in
  libfuzzer) "$fuzzer" -runs="$runs" -seed=1 -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
               -artifact_prefix="$work/" "$work/corpus" 2>&1 | tail -20 ;;
  mutator) "$fuzzer" --runs "$runs" --seed 1 --max-len 4096 "$work/corpus" 2>&1 | tail -20 ;;
  *) echo "test_fuzz.sh: '$kind' is neither libfuzzer nor mutator" >&2; exit 2 ;;
esac
code=${PIPESTATUS[0]}
where="the input that breaks it is in $work/"
[ "$kind" = libfuzzer ] || where="the same seed and runs make the same inputs again"
[ "$code" -eq 0 ] || { echo "FAILED: the fuzzer stopped with exit code $code ($where)"; exit 1; }
echo "fuzz ($kind): $runs runs from $(ls "$corpus" | wc -l) inputs of the corpus, no crash, no sanitizer finding"
