#!/usr/bin/env bash
# Tests common/tools/compile_submission.sh, the compiler launcher of ./course grade-class, with the host
# C++ compiler (quick) on small files: it compiles a file that includes what a submission may include,
# and refuses one that includes a file of the machine or of the course outside the exercise, confined
# by the sandbox (where the kernel has Landlock) and, as on a kernel without it, by the check of what
# the compiler read ("confine no"), so that the file's lines never reach the log; and refuses inline
# assembly that reads a file (.incbin) or makes directives (.macro), on either kind of machine. It stops a compile at
# its time limit and gives that failure again, without compiling, while the file stays the same.
# Given the CUDA compiler too, the .incbin is also tried in a .cu file through it, as grade-class
# compiles a submission (nvcc hands the host compiler the folder of the assembler's check).
# Usage: common/tests/test_compile_submission.sh SANDBOX WORK_DIR [CUDA-COMPILER]
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sandbox=$1 work=$2 cuda_compiler=${3:-}
rm -rf "$work"
mkdir -p "$work/course/include" "$work/secret" "$work/src" "$work/logs" "$work/objects" "$work/fixed-as"
echo 'inline int answer() { return 42; }' >"$work/course/include/allowed.h"
echo 'int solution_of_the_exercise = 1; // the answer key' >"$work/secret/solution.h"
failures=0
check() {  # check WHAT CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
lacks() { ! grep -q "$1" "$2"; }
compiler=$(command -v c++ || command -v g++)
readable=("$work/course" "$work/fixed-as" /dev/null)
for folder in /usr/include /usr/lib/gcc /usr/libexec/gcc /usr/lib64 /usr/lib/"$(cc -print-multiarch 2>/dev/null)" /usr/bin \
  /lib64 /lib/"$(cc -print-multiarch 2>/dev/null)" "$(dirname "$(dirname "$(realpath "$compiler")")")"; do
  case $folder in /usr | / | /usr/lib/ | /lib/) continue ;; esac
  [ ! -d "$folder" ] || readable+=("$folder")
done
[ -z "$cuda_compiler" ] || readable+=("$(dirname "$(dirname "$(realpath "$cuda_compiler")")")")
policy() {  # policy CONFINE: writes the policy (a time limit that a loaded machine's nvcc stays far within)
  {
    echo "sandbox $sandbox"
    echo "confine $1"
    printf 'readable %s\n' "${readable[@]}"
    echo "time-limit 60"
    echo "memory-limit 2000000000"
    echo "output-limit 100000"
    echo "logs $work/logs"
    echo "sources $work/src"
  } >"$work/policy"
}
compile() {  # compile K SOURCE-TEXT: the exit code of compiling it as submission K
  mkdir -p "$work/src/$1" "$work/objects/$1"
  printf '%s\n' "$2" >"$work/src/$1/answer.cpp"
  (cd "$work" && bash "$root/common/tools/compile_submission.sh" "$work/policy" "$1" "$compiler" -I"$work/course/include" \
    -MD -MF "objects/$1/answer.o.d" -c "$work/src/$1/answer.cpp" -o "objects/$1/answer.o")
}
modes=(no)
"$sandbox" --check >/dev/null && modes=(yes no)
k=0
for mode in "${modes[@]}"; do
  policy "$mode"
  k=$((k + 1))
  compile $k '#include "allowed.h"
int main() { return answer(); }'
  check "confine $mode: a file that includes the course's header compiles" test $? -eq 0 -a -f "$work/objects/$k/answer.o"
  for outside in "$work/secret/solution.h" /etc/hostname /etc/os-release; do
    [ -f "$outside" ] || continue
    k=$((k + 1))
    compile $k "#include \"$outside\""
    code=$?
    check "confine $mode: #include \"$outside\" is refused" test $code -eq 1
    check "... with one line that says why" grep -q "^refused: it includes .*, outside what a submission may include" "$work/logs/$k.log"
    check "... and no object" test ! -e "$work/objects/$k/answer.o"
    [ "$outside" != "$work/secret/solution.h" ] || check "... and nothing of the file in the log" lacks "answer key" "$work/logs/$k.log"
  done
  k=$((k + 1))
  compile $k 'int main() { return 1 }'
  check "confine $mode: a syntax error is a compile error (1), its log ends 'failed: ...'" \
    test $? -eq 1 -a "$(tail -1 "$work/logs/$k.log")" = "failed: the compiler's exit code 1"
  # The assembler reads what no dependency file names: a file's bytes (.incbin, spelt in two pieces
  # here), or directives made by a macro.
  k=$((k + 1))
  compile $k "asm(\".inc\" \"bin \\\"$work/secret/solution.h\\\"\");
int main() { return 0; }"
  check "confine $mode: inline assembly that .incbins a file is refused" test $? -eq 1
  check "... with one line that says why" grep -q "^refused: it reads another file into its code with the assembler's .incbin" "$work/logs/$k.log"
  check "... and no object" test ! -e "$work/objects/$k/answer.o"
  check "... nothing of the file in the log" lacks "answer key" "$work/logs/$k.log"
  # A host compiler built with a fixed assembler path never looks in -B's folder (played here by a
  # compiler that drops -B): the check, run through -wrapper, does not depend on it.
  k=$((k + 1))
  mkdir -p "$work/src/$k" "$work/objects/$k"
  printf '#!/usr/bin/env bash\nargs=()\nfor a in "$@"; do case $a in -B*) ;; *) args+=("$a") ;; esac; done\nexec %q "${args[@]}"\n' \
    "$compiler" >"$work/fixed-as/c++"
  chmod +x "$work/fixed-as/c++"
  printf '%s\n' "asm(\".inc\" \"bin \\\"$work/secret/solution.h\\\"\");" "int main() { return 0; }" >"$work/src/$k/answer.cpp"
  (cd "$work" && bash "$root/common/tools/compile_submission.sh" "$work/policy" $k "$work/fixed-as/c++" \
    -MD -MF "objects/$k/answer.o.d" -c "$work/src/$k/answer.cpp" -o "objects/$k/answer.o")
  code=$?
  check "confine $mode: a compiler that never looks in -B's folder still has the .incbin refused" test $code -eq 1
  check "... with one line that says why, and nothing else in the log" \
    test "$(cat "$work/logs/$k.log")" = "refused: it reads another file into its code with the assembler's .incbin, which a submission may not"
  check "... and no object, and nothing the compiler kept" \
    test -z "$(find "$work/objects/$k" -maxdepth 1 \( -name '*.o' -o -name '*.s' -o -name '*.ii' \))"
  if [ -n "$cuda_compiler" ]; then
    k=$((k + 1))
    mkdir -p "$work/src/$k" "$work/objects/$k"
    printf '%s\n' "__global__ void kernel() {}" "asm(\".inc\" \"bin \\\"$work/secret/solution.h\\\"\");" >"$work/src/$k/answer.cu"
    (cd "$work" && bash "$root/common/tools/compile_submission.sh" "$work/policy" $k "$cuda_compiler" -I"$work/course/include" \
      -MD -MF "objects/$k/answer.o.d" -c "$work/src/$k/answer.cu" -o "objects/$k/answer.o")
    code=$?
    check "confine $mode: a .cu file whose inline assembly .incbins a file is refused through $(basename "$cuda_compiler")" test $code -eq 1
    check "... with one line that says why" grep -q "^refused: it reads another file into its code with the assembler's .incbin" "$work/logs/$k.log"
  fi
  k=$((k + 1))
  compile $k 'asm(".macro pick\n.endm");
int main() { return 0; }'
  check "confine $mode: inline assembly that makes a macro is refused" test $? -eq 1
  check "... with one line that says why" grep -q "^refused: its inline assembly makes directives of its own (.macro)" "$work/logs/$k.log"
  k=$((k + 1))
  compile $k 'const char* text = ".incbin is only text here";
int main() { asm volatile("nop"); return text[0] == 0; }'
  check "confine $mode: plain inline assembly, and the word .incbin in a string, compile" test $? -eq 0 -a -f "$work/objects/$k/answer.o"
done
k=$((k + 1))
sed -i 's/^time-limit .*/time-limit 5/' "$work/policy"  # a compile that never ends: no need to wait long
compile $k '#if __INCLUDE_LEVEL__ < 40
#include __FILE__
#include __FILE__
#endif'
check "a compile that never ends is stopped at the time limit (124)" test $? -eq 124
check "... and its log says so" grep -q '^stopped: compiling took longer than the time limit (5 s)' "$work/logs/$k.log"
SECONDS=0
(cd "$work" && bash "$root/common/tools/compile_submission.sh" "$work/policy" $k "$compiler" -c "$work/src/$k/answer.cpp" \
  -o "objects/$k/answer.o")
code=$?
check "... and while its file is the same the failure is given again at once" test "$code" -eq 124 -a $SECONDS -lt 3
# A compiler that writes a file past the file-size limit (its temporary files kept beside the object).
sed -i 's/^time-limit .*/time-limit 60/' "$work/policy"
echo "file-size-limit 1000000" >>"$work/policy"
k=$((k + 1))
mkdir -p "$work/src/$k" "$work/objects/$k"
cp "$work/src/$((k - 1))/answer.cpp" "$work/src/$k/answer.cpp"
(cd "$work" && bash "$root/common/tools/compile_submission.sh" "$work/policy" $k "$compiler" -save-temps=obj \
  -c "$work/src/$k/answer.cpp" -o "objects/$k/answer.o")
check "a compile that writes a file past the file-size limit fails" test $? -ne 0
check "... and its log says so" grep -q '^failed: a file the compiler wrote reached the file-size limit' "$work/logs/$k.log"
# A compiler that fails without a word (as one stopped by a limit may): the log says what may have.
k=$((k + 1))
mkdir -p "$work/src/$k" "$work/objects/$k"
printf '#!/usr/bin/env bash\nexit 1\n' >"$work/fixed-as/silent"
chmod +x "$work/fixed-as/silent"
echo 'int main() { return 0; }' >"$work/src/$k/answer.cpp"
(cd "$work" && bash "$root/common/tools/compile_submission.sh" "$work/policy" $k "$work/fixed-as/silent" -c "$work/src/$k/answer.cpp" \
  -o "objects/$k/answer.o")
check "a compiler that fails without an error of its own: its log names the limits it may have met" \
  grep -q "^failed: the compiler's exit code 1, with no error of its own: it may have met a limit" "$work/logs/$k.log"
[ $failures -eq 0 ] || { echo "$failures checks failed"; exit 1; }
echo "all checks passed"
