#!/usr/bin/env bash
# The check of a submission's assembly: the wrapper through which the host compiler runs each of its
# programs (compile_submission.sh gives it -wrapper, which a compiler built with a fixed assembler path
# obeys too):
#   common/tools/assemble_submission.sh REFUSED-FILE PROGRAM ARGUMENTS...
# When PROGRAM is the assembler, the assembly file among ARGUMENTS is read first, its string literals
# set aside: a directive in it that reads a file (.incbin, .include) or makes directives of its own
# (.macro, .rept, .irp, .irpc, .altmacro, .purgem) refuses the submission, whatever spelling the source
# gave it (the compiler writes none of them itself; only a submission's inline assembly can, at the top
# of the file or inside a function): one line goes to REFUSED-FILE and the exit code is 1. An assembly
# that cannot be checked (a scan that fails, or none named) is refused too. Then PROGRAM runs.
set -uo pipefail
[ $# -ge 2 ] || { echo "usage: assemble_submission.sh REFUSED-FILE PROGRAM ARGUMENTS..." >&2; exit 2; }
refused=$1
shift
refuse() {  # refuse REASON: the one line, to REFUSED-FILE and to the log
  echo "$1" >"$refused"
  echo "refused: $1" >&2
  exit 1
}
case $(basename "$1") in
  as | *-as) ;;
  *) exec "$@" ;;
esac
cannot="its assembly could not be checked on this machine"
checked=0
for argument in "${@:2}"; do
  case $argument in *.s | *.S) ;; *) continue ;; esac
  [ -f "$argument" ] || continue
  checked=$((checked + 1))
  text=$(sed -e 's/"\([^"\\]\|\\.\)*"//g' -- "$argument") || refuse "$cannot (sed failed), so it was not assembled; tell your instructor"
  match=$(grep -o -i -m 1 -E '(^|[^A-Za-z0-9_.$])\.(incbin|include|macro|rept|irpc|irp|altmacro|purgem)([^A-Za-z0-9_]|$)' <<<"$text")
  [ $? -le 1 ] || refuse "$cannot (grep failed), so it was not assembled; tell your instructor"
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
[ $checked -gt 0 ] || refuse "$cannot (the assembler was given no file to read), so it was not assembled; tell your instructor"
exec "$@"
