#!/usr/bin/env bash
# Tests course_sandbox (common/tools/course_sandbox.cpp), the jail of ./course grade-class, with
# commands made to misbehave as a submission might: write outside its folder, read what is not its own,
# take all the memory, fill the disk, hang, spin, print without end, leave a process behind. Skipped (77) on a machine whose kernel has no Landlock.
# Usage: common/tests/test_sandbox.sh SANDBOX WORK_DIR
set -uo pipefail
sandbox=$1 work=$2
rm -rf "$work"
mkdir -p "$work/mine" "$work/theirs"
echo "grades" >"$work/theirs/gradebook.csv"
if ! "$sandbox" --check >/dev/null; then
  echo "skipped: $("$sandbox" --check)"
  exit 77
fi
failures=0
expect() {  # expect WHAT CODE COMMAND...: the sandboxed command's exit code is CODE
  local what=$1 want=$2 got
  shift 2
  "$@" >"$work/last.out" 2>&1
  got=$?
  if [ "$got" -eq "$want" ]; then
    echo "ok: $what"
  else
    echo "FAILED: $what: exit code $got, expected $want"
    sed 's/^/    /' "$work/last.out" | head -5
    failures=$((failures + 1))
  fi
}
check() {  # check WHAT CONDITION...: the condition (a test command) holds
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
run() { "$sandbox" --writable "$work/mine" --time-limit 5 -- bash -c "$1"; }

expect "a file in its own folder can be written" 0 run "echo answer >'$work/mine/result.txt'"
check "... and is there" grep -q answer "$work/mine/result.txt"
expect "a file outside its folder cannot be written" 1 run "echo 1 >'$work/theirs/row.csv'"
check "... and is not there" test ! -e "$work/theirs/row.csv"
expect "a file outside its folder cannot be changed" 1 run "echo 100 >>'$work/theirs/gradebook.csv'"
expect "... or emptied" 1 run ": >'$work/theirs/gradebook.csv'"
expect "... or removed" 1 run "rm -f '$work/theirs/gradebook.csv'"
expect "... or moved into its folder" 1 run "mv '$work/theirs/gradebook.csv' '$work/mine/'"
check "the file outside is as it was" grep -qx grades "$work/theirs/gradebook.csv"
expect "no folder can be made outside its folder" 1 run "mkdir '$work/theirs/x'"
expect "a program it starts is confined too" 1 run "bash -c 'sh -c \"touch $work/theirs/deep\"'"
expect "device files such as /dev/null can be written" 0 run "echo discarded >/dev/null"
expect "a program may name itself and its threads through /proc (CUDA names its threads so)" 0 \
  run 'echo worker >/proc/self/comm && echo helper >/proc/$$/task/$$/comm'
expect "reading is not restricted" 0 run "cat '$work/theirs/gradebook.csv' >/dev/null"
expect "its exit code is passed on" 3 run "exit 3"
expect "a signal that ends it is 128 + its number" 137 run 'kill -9 $$'

# With --readable, reading is confined too: the system's folders to run the command, and what is named.
echo "answer key" >"$work/theirs/solution.txt"
echo "my work" >"$work/mine/work.txt"
system=()
for folder in /usr /lib /lib64 /bin /sbin; do [ ! -e "$folder" ] || system+=(--readable "$folder"); done
reading() { "$sandbox" "${system[@]}" "$@" --time-limit 5 -- bash -c "$last"; }
last="cat '$work/theirs/solution.txt'"
expect "with --readable, a file outside what is named cannot be read" 1 reading --writable "$work/mine"
lacks() { ! grep -q "$1" "$2"; }  # lacks TEXT FILE
check "... and nothing of it was printed" lacks "answer key" "$work/last.out"
last="cat '$work/mine/work.txt' && ls '$work/mine' >/dev/null"
expect "... its own folder can be read" 0 reading --writable "$work/mine"
last="cat /etc/hostname"
expect "... nor a file of /etc" 1 reading --writable "$work/mine"
last="cat '$work/theirs/solution.txt'"
expect "... a file named alone can be read" 0 reading --readable "$work/theirs/solution.txt"
last="ls '$work/theirs'"
expect "... but not the folder it lies in" 2 reading --readable "$work/theirs/solution.txt"
last="cat '$work/theirs/gradebook.csv'"
expect "... nor its neighbour" 1 reading --readable "$work/theirs/solution.txt"
last="echo '#include \"$work/theirs/solution.txt\"' >'$work/mine/t.c' && cpp '$work/mine/t.c'"
expect "... nor by a program it starts (a compiler's #include)" 1 reading --writable "$work/mine"
expect "a --readable path that does not exist: exit 2" 2 "$sandbox" --readable "$work/none" -- true

# Memory and file size: a process past --memory-limit cannot allocate; a file cannot grow past
# --file-size-limit.
expect "a program that asks for more memory than --memory-limit fails" 1 \
  "$sandbox" --memory-limit 200000000 --time-limit 10 -- python3 -c 'bytearray(1 << 30)'
expect "... and one within it runs" 0 \
  "$sandbox" --memory-limit 200000000 --time-limit 10 -- python3 -c 'bytearray(1 << 20)'
"$sandbox" --writable "$work/mine" --file-size-limit 100000 --time-limit 10 -- \
  bash -c "head -c 1000000 /dev/zero >'$work/mine/big'" >/dev/null 2>&1
check "a file cannot grow past --file-size-limit" test "$(stat -c %s "$work/mine/big")" -le 100000

SECONDS=0
expect "a command that hangs is stopped at the time limit (124)" 124 "$sandbox" --time-limit 1 -- sleep 60
expect "a command that spins is stopped at the time limit (124)" 124 "$sandbox" --time-limit 1 -- bash -c 'while :; do :; done'
check "... within a few seconds" test $SECONDS -lt 10

expect "a command that prints without end is stopped at the output limit (125)" 125 \
  "$sandbox" --output "$work/output.txt" --output-limit 100000 --time-limit 20 -- yes "megabytes of output"
check "... and its output file holds no more than the limit" test "$(stat -c %s "$work/output.txt")" -le 100000
expect "its output goes to --output" 0 \
  "$sandbox" --output "$work/output.txt" -- bash -c 'echo to stdout; echo to stderr >&2'
check "... standard output and error both" test "$(sort "$work/output.txt" | tr '\n' ' ')" = "to stderr to stdout "

expect "a process it leaves behind (setsid, in the background) ..." 0 \
  run "setsid sleep 300 </dev/null >/dev/null 2>&1 & echo \$! >'$work/mine/left.pid'"
sleep 0.2
check "... is gone when it ends" test ! -e "/proc/$(cat "$work/mine/left.pid")"

SECONDS=0
expect "a process left behind that holds the output open does not keep it waiting" 0 \
  "$sandbox" --output "$work/output.txt" --time-limit 20 -- bash -c 'sleep 300 & sh -c "sleep 300 &" ; echo started'
check "... it returns at once, with the output" test $SECONDS -lt 5 -a "$(cat "$work/output.txt")" = started

# --no-left-running: a process still running when the command ends is named by the exit code (123),
# and stopped all the same; one that ended first, or a command that starts none, changes nothing.
SECONDS=0
expect "with --no-left-running, a process still running when the command ends: exit 123" 123 \
  "$sandbox" --writable "$work/mine" --no-left-running --time-limit 20 -- \
  bash -c 'sleep 300 & echo $! >'"'$work/mine/left2.pid'"'; exit 0'
sleep 0.2
check "... it is stopped all the same, at once" test ! -e "/proc/$(cat "$work/mine/left2.pid")" -a $SECONDS -lt 5
expect "... one that left its process group too" 123 \
  "$sandbox" --no-left-running --time-limit 20 -- bash -c 'setsid sleep 300 </dev/null >/dev/null 2>&1 & exit 1'
expect "... but not one that ended before the command" 0 \
  "$sandbox" --no-left-running --time-limit 20 -- bash -c 'true & wait; sleep 0.1 & sleep 0.3; exit 0'
expect "... and a command that starts none keeps its own exit code" 3 "$sandbox" --no-left-running -- bash -c 'exit 3'
expect "... while the time limit still reads 124" 124 "$sandbox" --no-left-running --time-limit 1 -- bash -c 'sleep 60 & sleep 60'

expect "no command: exit 2" 2 "$sandbox" --time-limit 1
expect "an unknown option: exit 2" 2 "$sandbox" --nonsense -- true
expect "a time limit that is not a number: exit 2" 2 "$sandbox" --time-limit soon -- true
expect "a writable folder that does not exist: exit 2" 2 "$sandbox" --writable "$work/none" -- true
expect "a command that does not exist: exit 126" 126 "$sandbox" -- "$work/no-such-program"

[ $failures -eq 0 ] || { echo "$failures checks failed"; exit 1; }
echo "all checks passed"
