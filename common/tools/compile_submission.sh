#!/usr/bin/env bash
# How ./course grade-class compiles one student's file: the compiler launcher of the class's build
# (COURSE_SUBMISSION_LAUNCHER), which CMake puts before each compile of submission K:
#   common/tools/compile_submission.sh POLICY K COMPILER ARGUMENTS...
# The compiler runs inside course_sandbox, as online judges compile:
#   - it may read only what POLICY names (`readable` lines: the class's copy of the course, which has no
#     solutions/, and the compiler's own folders), the student's one file (`sources`/K) and its object's
#     folder, the one folder it may write in; not the solutions, not the other students' files, not /etc;
#   - it is stopped after `time-limit` seconds, at `memory-limit` bytes of address space a process, at
#     `file-size-limit` bytes a file, and after `output-limit` bytes of messages;
#   - what it prints goes to `logs`/K.log, the student's compile log (feedback quotes its errors).
# Once it has compiled, every file the compiler read (its dependency file) must lie in those places
# too: on a machine without Landlock (`confine no`), where the sandbox cannot stop the reading, this
# is what refuses an #include of a file from elsewhere. The assembler reads files the dependency file
# never names (.incbin, .include): the host compiler runs each of its programs through
# assemble_submission.sh (-wrapper), which refuses a submission's inline assembly that reads a file or
# writes directives of its own (macros, repetitions) before the assembler runs, whatever the machine
# (-wrapper holds where a search path does not: a host compiler built with a fixed assembler path never
# looks in -B's folder). A refusal removes the object and ends the log with one line "refused: ...",
# which grade-class gives as the reason (an assembly refusal leaves that line alone); a time-out ends
# it with "stopped: ...", any other failure with "failed: ...".
# A compile that failed leaves logs/K.failed (its exit code): while grade-class keeps it (the student's
# file, the course's files and the limits are the same), the failure is given again without compiling,
# so that a regrade does not wait again for a compile that never ends.
# Exit code: the compiler's (0 compiled), 1 refused, 124 time limit, 125 output limit.
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: compile_submission.sh POLICY K COMPILER ARGUMENTS..." >&2; exit 2; }
policy=$1 k=$2
shift 2
readable=() sandbox="" confine=yes logs="" sources="" limits=() seconds="" file_size_limit="" memory_limit=""
while read -r key value; do
  case $key in
    sandbox) sandbox=$value ;;
    confine) confine=$value ;;
    readable) readable+=("$value") ;;
    time-limit | memory-limit | file-size-limit | output-limit) limits+=("--$key" "$value")
      [ "$key" != time-limit ] || seconds=$value
      [ "$key" != file-size-limit ] || file_size_limit=$value
      [ "$key" != memory-limit ] || memory_limit=$value ;;
    logs) logs=$value ;;
    sources) sources=$value ;;
  esac
done <"$policy"
log=$logs/$k.log
failed=$logs/$k.failed
source_folder=$sources/$k
[ ! -f "$failed" ] || exit "$(cat "$failed")"
# The object and its dependency file, from the compiler's arguments (-o, -MF).
object="" depfile="" previous=""
for argument in "$@"; do
  case $previous in
    -o) object=$argument ;;
    -MF) depfile=$argument ;;
  esac
  previous=$argument
done
[ -n "$object" ] || { echo "compile_submission.sh: no -o in the compile command" >"$log"; exit 2; }
extra=()
[ -n "$depfile" ] || { depfile=$object.d; extra=(-MD -MF "$depfile"); }
object_folder=$(cd "$(dirname "$object")" && pwd)
# The host compiler runs its programs through the assembly's check (-wrapper PROGRAM: the path can
# hold no comma, which would split it). -pipe would hand the assembler its input through a pipe the
# wrapper never sees: refused here, as the course never passes it.
assembler=$object_folder/assembler
case $assembler in *,*) echo "compile_submission.sh: $assembler holds a comma, which -wrapper cannot take; grade into a folder without one" >"$log"; exit 2 ;; esac
for argument in "$@"; do
  case ,$argument, in *,-pipe,* | *=-pipe,*) echo "compile_submission.sh: -pipe hides the assembly from its check; compile without it" >"$log"; exit 2 ;; esac
done
rm -rf "$assembler"
mkdir -p "$assembler"
printf '#!/usr/bin/env bash\nexec bash %q %q "$@"\n' "$(dirname "$0")/assemble_submission.sh" "$assembler/refused" >"$assembler/check"
chmod +x "$assembler/check"
case $(basename "$1") in
  nvcc*) extra+=(-Xcompiler -wrapper -Xcompiler "$assembler/check") ;;
  *) extra+=(-wrapper "$assembler/check") ;;
esac
allowed=("${readable[@]}" "$source_folder" "$object_folder" "$(dirname "$0")/assemble_submission.sh")
# Confined to them; with `confine no` (a machine whose kernel has no Landlock) reading is left free,
# and the check of the dependency file below is what keeps other files out.
confined=(--allow-unconfined)
if [ "$confine" = yes ]; then
  confined=()
  for path in "${allowed[@]}"; do confined+=(--readable "$path"); done
fi
rm -f "$depfile"
"$sandbox" "${confined[@]}" --writable "$object_folder" "${limits[@]}" --output "$log" -- \
  env LC_ALL=C TMPDIR="$object_folder" "$@" "${extra[@]}"
code=$?
# A file of the compiler's that reached the file-size limit: the limit, not the student's code, stopped it.
too_large=""
[ -z "$file_size_limit" ] || too_large=$(find "$object_folder" -type f -size +$((file_size_limit - 1))c -print -quit)
rm -f "$object_folder"/tmpxft_*  # what nvcc leaves of a compile that was stopped
outside="outside what a submission may include (the exercise's, the lesson's, the course library's and the system's headers)"
refuse() {
  rm -f "$object"
  echo "refused: $1" >>"$log"
  echo 1 >"$failed"
  exit 1
}
mapfile -t canonical_allowed < <(realpath -m -- "${allowed[@]}")
# check_read FILE...: refuses the submission if one of the files lies outside what it may read.
check_read() {
  local file folder inside
  while IFS= read -r file; do
    inside=0
    for folder in "${canonical_allowed[@]}"; do
      case $file in "$folder" | "$folder"/*) inside=1; break ;; esac
    done
    [ $inside -eq 1 ] || refuse "it includes $file, $outside"
  done < <(realpath -m -- "$@")
}
# Every file the compiler read, from its dependency file ("object: file file \ ...", a space in a name
# written "\ "), and every file its messages name ("FILE:LINE:" or "FILE(LINE):").
read_files=()
[ ! -f "$depfile" ] ||
  mapfile -t read_files < <(sed -e 's/\\$//' -e '1s/^[^:]*: *//' -e 's/\\ /\x01/g' "$depfile" | tr -s ' \t' '\n\n' |
    sed -e '/^$/d' -e 's/\x01/ /g')
mapfile -t named_files < <(sed -n -E 's/^(In file included from )?([^ :(][^:(]*)(:[0-9]+|\([0-9]+\)).*/\2/p' "$log" | sort -u)
# The assembler's check refused: its one line is the reason, and the log keeps nothing else.
if [ -s "$assembler/refused" ]; then
  : >"$log"
  refuse "$(head -1 "$assembler/refused")"
fi
case $code in
  0) ;;
  124) echo "stopped: compiling took longer than the time limit ($seconds s)" >>"$log"; echo 124 >"$failed"; exit 124 ;;
  125) echo "failed: the compiler printed more than the output limit" >>"$log"; echo 125 >"$failed"; exit 125 ;;
  *)
    # The sandbox's refusal of a file outside what a submission may read, as the compiler reports it.
    denied=$(sed -n 's/.*fatal error: \(.*\): Permission denied$/\1/p' "$log" | head -1)
    [ -z "$denied" ] || refuse "it includes $denied, $outside"
    [ ${#read_files[@]} -eq 0 ] || check_read "${read_files[@]}"
    [ ${#named_files[@]} -eq 0 ] || check_read "${named_files[@]}"
    # A limit met: nvcc removes its temporary files as it fails, so its compiler's own words say so too.
    if [ -n "$too_large" ] || grep -q 'File size limit exceeded' "$log"; then
      echo "failed: a file the compiler wrote reached the file-size limit ($file_size_limit bytes)" >>"$log"
    elif grep -q -i -E 'memory exhausted|out of memory|cannot allocate' "$log"; then
      echo "failed: the compiler ran out of memory at the memory limit (${memory_limit:-no} bytes)" >>"$log"
    elif ! grep -q -i 'error' "$log"; then
      echo "failed: the compiler's exit code $code, with no error of its own: it may have met a limit (memory ${memory_limit:-none}, file size ${file_size_limit:-none} bytes)" >>"$log"
    else
      echo "failed: the compiler's exit code $code" >>"$log"
    fi
    echo "$code" >"$failed"
    exit "$code"
    ;;
esac
[ ${#read_files[@]} -gt 0 ] || refuse "the compiler wrote no list of the files it read"
check_read "${read_files[@]}"
exit 0
