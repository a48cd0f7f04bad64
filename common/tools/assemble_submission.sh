#!/usr/bin/env bash
# The check of a submission's assembly, as its compile meets it:
#   common/tools/assemble_submission.sh REFUSED-FILE REAL-AS ARGUMENTS...
#     in front of the assembler (compile_submission.sh puts it first in the host compiler's search
#     path): the assembly files among ARGUMENTS are checked, then the real assembler runs;
#   common/tools/assemble_submission.sh --scan REFUSED-FILE FILE...
#     after the compile, on the assembly the host compiler kept (a host compiler built with a fixed
#     assembler path never looks in the search path, so this is the check every machine gets).
# Each assembly file is read with its string literals set aside: a directive in it that reads a file
# (.incbin, .include) or makes directives of its own (.macro, .rept, .irp, .irpc, .altmacro, .purgem)
# refuses the submission, whatever spelling the source gave it (the compiler writes none of them
# itself; only a submission's inline assembly can, at the top of the file or inside a function): one
# line goes to REFUSED-FILE and the exit code is 1. A scan that cannot run refuses too.
set -uo pipefail
usage="usage: assemble_submission.sh REFUSED-FILE REAL-AS ARGUMENTS... | --scan REFUSED-FILE FILE..."
scan_only=0
[ "${1:-}" != --scan ] || { scan_only=1; shift; }
[ $# -ge $((2 - scan_only)) ] || { echo "$usage" >&2; exit 2; }
refused=$1
shift
real=""
[ $scan_only -eq 1 ] || { real=$1; shift; }
refuse() {  # refuse REASON: the one line, to REFUSED-FILE and to the log
  echo "$1" >"$refused"
  echo "refused: $1" >&2
  exit 1
}
for argument in "$@"; do
  case $argument in *.s | *.S) ;; *) continue ;; esac
  [ -f "$argument" ] || continue
  text=$(sed -e 's/"\([^"\\]\|\\.\)*"//g' -- "$argument") ||
    refuse "its assembly could not be checked on this machine (sed failed), so it was not assembled; tell your instructor"
  match=$(grep -o -i -m 1 -E '(^|[^A-Za-z0-9_.$])\.(incbin|include|macro|rept|irpc|irp|altmacro|purgem)([^A-Za-z0-9_]|$)' <<<"$text")
  [ $? -le 1 ] ||
    refuse "its assembly could not be checked on this machine (grep failed), so it was not assembled; tell your instructor"
  [ -n "$match" ] || continue
  found=${match%%$'\n'*}
  found=${found#*.}
  found=${found%%[!A-Za-z]*}
  found=${found,,}
  case $found in
    incbin | include) refuse "it reads another file into its code with the assembler's .$found, which a submission may not" ;;
    *) refuse "its inline assembly makes directives of its own (.$found), which a submission may not" ;;
  esac
done
[ $scan_only -eq 0 ] || exit 0
[ -n "$real" ] || { echo "assemble_submission.sh: no assembler (as) on PATH" >&2; exit 1; }
exec "$real" "$@"
