#!/usr/bin/env bash
# The assembler as a submission's compile meets it (compile_submission.sh puts it first in the host
# compiler's search path):
#   common/tools/assemble_submission.sh REFUSED-FILE REAL-AS ARGUMENTS...
# Before the real assembler runs, every assembly file among ARGUMENTS is read for the submission's own
# inline assembly (what the compiler writes between its #APP and #NO_APP lines): a directive there that
# reads a file (.incbin, .include) or makes directives of its own (.macro, .rept, .irp, .irpc,
# .altmacro, .purgem) refuses the submission, whatever spelling the source gave it: one line goes to
# REFUSED-FILE and the exit code is 1. The compiler's own output has none of them.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: assemble_submission.sh REFUSED-FILE REAL-AS ARGUMENTS..." >&2; exit 2; }
refused=$1 real=$2
shift 2
for argument in "$@"; do
  case $argument in *.s | *.S) ;; *) continue ;; esac
  [ -f "$argument" ] || continue
  found=$(awk '/^[ \t]*#APP/ { inside = 1; next } /^[ \t]*#NO_APP/ { inside = 0; next }
               inside && match(tolower($0), /\.(incbin|include|macro|rept|irpc|irp|altmacro|purgem)([ \t"]|$)/) {
                 print substr(tolower($0), RSTART + 1, RLENGTH - 1); exit }' "$argument" | tr -d ' \t"')
  if [ -n "$found" ]; then
    case $found in
      incbin | include) echo "it reads another file into its code with the assembler's .$found, which a submission may not" ;;
      *) echo "its inline assembly makes directives of its own (.$found), which a submission may not" ;;
    esac >"$refused"
    echo "refused: $(cat "$refused")" >&2
    exit 1
  fi
done
[ -n "$real" ] || { echo "assemble_submission.sh: no assembler (as) on PATH" >&2; exit 1; }
exec "$real" "$@"
