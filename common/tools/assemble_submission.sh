#!/usr/bin/env bash
# The assembler as a submission's compile meets it (compile_submission.sh puts it first in the host
# compiler's search path):
#   common/tools/assemble_submission.sh REFUSED-FILE REAL-AS ARGUMENTS...
# Before the real assembler runs, every assembly file among ARGUMENTS is read, its string literals set
# aside: a directive in it that reads a file (.incbin, .include) or makes directives of its own (.macro,
# .rept, .irp, .irpc, .altmacro, .purgem) refuses the submission, whatever spelling the source gave it
# (the compiler writes none of them itself; only a submission's inline assembly can, at the top of the
# file or inside a function): one line goes to REFUSED-FILE and the exit code is 1.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: assemble_submission.sh REFUSED-FILE REAL-AS ARGUMENTS..." >&2; exit 2; }
refused=$1 real=$2
shift 2
for argument in "$@"; do
  case $argument in *.s | *.S) ;; *) continue ;; esac
  [ -f "$argument" ] || continue
  found=$(sed -e 's/"\([^"\\]\|\\.\)*"//g' "$argument" |
    grep -o -i -E '(^|[^A-Za-z0-9_.$])\.(incbin|include|macro|rept|irpc|irp|altmacro|purgem)([^A-Za-z0-9_]|$)' | head -1 |
    sed -E 's/^[^.]*\.([A-Za-z]+).*/\1/' | tr 'A-Z' 'a-z')
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
