#!/usr/bin/env bash
# Tests the two ends of ./course grade-class without building anything: course_intake, which lists the
# class from folders or from a Canvas or Moodle bulk download, and course_gradebook, which puts graded
# rows together (gradebook, leaderboard, identical files, the platforms' imports) so that no cell
# would run as a formula in a spreadsheet.
# Usage: common/tests/test_intake_and_gradebook.sh BIN_DIR WORK_DIR
set -uo pipefail
bin=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
failures=0
check() {  # check WHAT CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
has_line() { grep -q -x -F -- "$1" "$2"; }  # has_line LINE FILE
lacks() { ! grep -q -F -- "$1" "$2"; }       # lacks TEXT FILE
field() { awk -F'\t' -v s="$1" -v n="$2" '$1 == s { print $n }' "$3"; }  # field STUDENT N LIST

# --- course_intake: folders --------------------------------------------------------------------------
folders=$work/folders
mkdir -p "$folders/alice/course/exercises/02-max-reduction" "$folders/alice/scratch" "$folders/bob" \
  "$folders/Jane Doe_4207_assignsubmission_file" "$folders/.hidden"
touch "$folders/alice/course/exercises/02-max-reduction/argmax.cu" "$folders/alice/scratch/argmax.cu" \
  "$folders/bob/argmax_final.cu" "$folders/Jane Doe_4207_assignsubmission_file/argmax.cu"
"$bin/course_intake" --submissions "$folders" --exercise argmax.cu --list "$work/folders.tsv" 2>"$work/intake.err"
check "course_intake lists a folder per student" test $? -eq 0 -a "$(wc -l <"$work/folders.tsv")" -eq 3
check "... the file inside a copy of exercises/ first, naming the others" \
  test "$(field alice 7 "$work/folders.tsv")|$(field alice 8 "$work/folders.tsv")" = "course/exercises/02-max-reduction/argmax.cu|also found: scratch/argmax.cu"
check "... a student without the file as missing" test "$(field bob 5 "$work/folders.tsv")" = missing
check "... Moodle's folder as the student's name and participant number" \
  test "$(field 'Jane Doe' 2 "$work/folders.tsv")|$(field 'Jane Doe' 3 "$work/folders.tsv")" = "4207|moodle"
"$bin/course_intake" --submissions "$folders" --exercise argmax.cu --list "$work/only.tsv" --only "$(printf 'bob\talice')"
check "--only keeps the students named" test "$(cut -f1 "$work/only.tsv" | tr '\n' ' ')" = "alice bob "
"$bin/course_intake" --submissions "$folders" --exercise argmax.cu --list "$work/x.tsv" --only "carol" 2>"$work/only.err"
check "--only refuses a student who is not in the class, in one line (exit 2)" \
  test $? -eq 2 -a "$(wc -l <"$work/only.err")" -eq 1
"$bin/course_intake" --submissions "$work/none" --exercise argmax.cu --list "$work/x.tsv" 2>/dev/null
check "a folder that does not exist: exit 2" test $? -eq 2

# --- course_intake: what an instructor finds in week 10 ------------------------------------------------
# Copies the browser numbered, letters in another case, two participants of one name, a name with a
# space, and symbolic links (to a solution, say), which are refused, never followed.
week10=$work/week10
mkdir -p "$week10/ann" "$week10/ben" "$week10/cat/sub" "$week10/Jane Doe_4207_assignsubmission_file" \
  "$week10/Jane Doe_5555_assignsubmission_file" "$week10/Mary Ann" "$work/elsewhere/folder"
echo first >"$week10/ann/argmax.cu"
echo latest >"$week10/ann/argmax (2).cu"
echo older >"$week10/ann/argmax(1).cu"
echo capital >"$week10/ben/Argmax.cu"
echo "the solution" >"$work/elsewhere/argmax.cu"
ln -s "$work/elsewhere/argmax.cu" "$week10/cat/sub/argmax.cu"
cp "$work/elsewhere/argmax.cu" "$work/elsewhere/folder/argmax.cu"
ln -s "$work/elsewhere/folder" "$week10/dan"
touch "$week10/Jane Doe_4207_assignsubmission_file/argmax.cu" "$week10/Jane Doe_5555_assignsubmission_file/argmax.cu" \
  "$week10/Mary Ann/argmax.cu"
"$bin/course_intake" --submissions "$week10" --exercise argmax.cu --list "$work/week10.tsv" 2>"$work/week10.err"
check "course_intake lists a class with two participants of one name (exit 0)" test $? -eq 0
check "... each as NAME-ID" test "$(grep -c '^Jane Doe-\(4207\|5555\)'$'\t' "$work/week10.tsv")" -eq 2
check "... the latest copy a browser numbered, saying so" \
  test "$(field ann 5 "$work/week10.tsv")|$(field ann 7 "$work/week10.tsv")|$(field ann 8 "$work/week10.tsv")" = \
  "found|argmax (2).cu|graded argmax (2).cu as argmax.cu; also found: argmax(1).cu, argmax.cu"
check "... a file named in other letters" test "$(field ben 5 "$work/week10.tsv")|$(field ben 7 "$work/week10.tsv")" = "found|Argmax.cu"
check "... a symbolic link to a file refused, with its reason" \
  test "$(field cat 5 "$work/week10.tsv")|$(field cat 8 "$work/week10.tsv")" = \
  "refused|sub/argmax.cu is a symbolic link, which grading does not follow: send the file itself"
check "... a student's folder that is a symbolic link refused" test "$(field dan 5 "$work/week10.tsv")" = refused
check "... and neither link's target named" lacks elsewhere "$work/week10.tsv"
"$bin/course_intake" --submissions "$week10" --exercise argmax.cu --list "$work/week10-only.tsv" \
  --only "$(printf 'Mary Ann\tJane Doe-5555')"
check "--only takes a name with a space as one student" \
  test "$(cut -f1 "$work/week10-only.tsv" | tr '\n' '|')" = "Jane Doe-5555|Mary Ann|"
flat_links=$work/flat-links
mkdir -p "$flat_links"
ln -s "$work/elsewhere/argmax.cu" "$flat_links/doejane_4207_81234_argmax.cu"
"$bin/course_intake" --submissions "$flat_links" --exercise argmax.cu --list "$work/flat-links.tsv"
check "a download's file that is a symbolic link is refused" test "$(field doejane 5 "$work/flat-links.tsv")" = refused

# --- course_intake: a flat download --------------------------------------------------------------------
flat=$work/flat
mkdir -p "$flat"
touch "$flat/doejane_4207_81234_argmax.cu" "$flat/doejane_LATE_4207_81240_argmax-2.cu" "$flat/doejane_4207_81239_argmax-1.cu" \
  "$flat/doejane_4207_81241_notes.txt" "$flat/Mark Ray_555_assignsubmission_file_argmax.cu" "$flat/smithjo_12_13_other.cu" \
  "$flat/leejo_7_8_argmax.cu" "$flat/leejo_9_10_argmax.cu" "$flat/README.txt"
"$bin/course_intake" --submissions "$flat" --exercise argmax.cu --list "$work/flat.tsv" 2>"$work/flat.err"
check "course_intake reads a Canvas and Moodle download" test $? -eq 0
check "... Canvas's latest renamed copy, late, with the files sent" \
  test "$(field doejane 4 "$work/flat.tsv")|$(field doejane 7 "$work/flat.tsv")|$(field doejane 8 "$work/flat.tsv")" = \
  "late|argmax-2.cu|graded argmax-2.cu of the 4 files sent: argmax-1.cu, argmax-2.cu, argmax.cu, notes.txt"
check "... Moodle's file" test "$(field 'Mark Ray' 2 "$work/flat.tsv")|$(field 'Mark Ray' 7 "$work/flat.tsv")" = "555|argmax.cu"
check "... two students of one name apart, by their ids" test "$(grep -c '^leejo-' "$work/flat.tsv")" -eq 2
check "... a student without the exercise's file" \
  test "$(field smithjo 8 "$work/flat.tsv")" = "no argmax.cu among the 1 file sent: other.cu"
check "... and a file of no known form named and left out" grep -q 'left out, .*: README.txt$' "$work/flat.err"

# --- course_gradebook ----------------------------------------------------------------------------------
out=$work/grades
mkdir -p "$out/rows" "$out/files"
printf '%s\n' "alice	4207	canvas				" "=bob	555	moodle	late				" "carol								" \
  "dave								" "erin								" >"$out/class.tsv"
row() { echo "$1" >"$out/rows/$2.csv"; }  # row CSV-LINE STUDENT
row 'alice,argmax.cu,built,7,7,13,13,0.0625,1.01,clean,,2026-11-27T10:00:00Z' alice
row '"=bob","=HYPERLINK(""x"",""y"")/argmax.cu",built,5,7,8,13,,,,"@SUM(A1): FAIL: argmax: the default size",2026-11-27T10:00:01Z' =bob
row 'carol,argmax.cu,built,7,7,7,13,0.0600,0.97,race (racecheck),compute-sanitizer: race,2026-11-27T10:00:02Z' carol
row 'dave,argmax.cu,built,7,7,13,13,0.0500,0.81,clean,,2026-11-27T10:00:03Z' dave
echo 'int main() { return 0; } // mine' >"$out/files/alice.cu"
printf 'int main()\n{\n  return 0;   /* ours */\n}\n' >"$out/files/carol.cu"
echo 'int main() { return 0; } // mine' >"$out/files/dave.cu"
echo 'int main() { return 1; } // the stub' >"$work/stub.cu"
cp "$work/stub.cu" "$out/files/=bob.cu"
cp "$work/stub.cu" "$out/files/erin.cu"
"$bin/course_gradebook" --out "$out" --exercise "02 argmax" --stub "$work/stub.cu" --assignment "Argmax (4417)" 2>"$work/book.err"
check "course_gradebook writes the gradebook" test $? -eq 0 -a -f "$out/gradebook.csv"
check "... a row per student of the class, in its order" test "$(cut -d, -f1 "$out/gradebook.csv" | tr '\n' ' ')" = \
  "student alice '=bob carol dave erin "
check "... a student without a row as not graded" grep -q '^erin,,,,not graded,' "$out/gradebook.csv"
check "... every cell that begins as a formula as text" has_line \
  "'=bob,555,late,\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")/argmax.cu\",built,5,7,8,13,,,,'@SUM(A1): FAIL: argmax: the default size,,,2026-11-27T10:00:01Z" "$out/gradebook.csv"
check "the leaderboard: every case passed and nothing found, fastest first" \
  test "$(tail -n +2 "$out/leaderboard.csv" | cut -d, -f1-2 | tr '\n' ' ')" = "1,dave 2,alice "
check "identical.csv: the same file" has_line "1,same file,alice; dave,$(sha256sum "$out/files/alice.cu" | cut -c1-64)," "$out/identical.csv"
check "... and the same code once comments and spacing are set aside" \
  has_line "3,same code (comments and spacing aside),alice; carol; dave,," "$out/identical.csv"
check "... and files the same as the stub are said to be" grep -q "same file,'=bob; erin,.*,\"the course's stub, unchanged\"" "$out/identical.csv"
check "... and the instructor is told, in one line" test "$(grep -c identical.csv "$work/book.err")" -eq 1
check "lms/canvas.csv: Canvas's columns and the assignment's" has_line "Student,ID,SIS User ID,SIS Login ID,Section,Argmax (4417)" "$out/lms/canvas.csv"
check "... a row per Canvas student" has_line "alice,4207,,,,13" "$out/lms/canvas.csv"
check "lms/moodle.csv: the grading worksheet's columns" \
  has_line "Identifier,Full name,Grade,Maximum Grade,Last modified (grade),Feedback comments" "$out/lms/moodle.csv"
check "... a row per Moodle student, the comment as text" has_line \
  "Participant 555,'=bob,8,13,2026-11-27T10:00:01Z,8 of 13 points: 5 of 7 test cases pass; first failure: @SUM(A1): FAIL: argmax: the default size" \
  "$out/lms/moodle.csv"
check "... and the students of neither platform named" grep -q '3 students have no Canvas or Moodle id' "$work/book.err"
echo "damaged" >"$out/rows/carol.csv"
"$bin/course_gradebook" --out "$out" --exercise "02 argmax" 2>/dev/null
check "a damaged row says so, and asks for a regrade" grep -q '^carol,,,,not graded,.*its row is damaged: grade the student again (--only)' "$out/gradebook.csv"
"$bin/course_gradebook" --out "$work/none" --exercise "02 argmax" 2>"$work/none.err"
check "a grading folder without its class list: one line, exit 2" test $? -eq 2 -a "$(wc -l <"$work/none.err")" -eq 1

# --- course_gradebook: times on two GPU models, points on the platforms, feedback in one upload -------
row 'alice,argmax.cu,built,7,7,13,13,0.0625,1.01,clean,,NVIDIA H200,,2026-11-27T10:00:00Z' alice
row 'carol,argmax.cu,built,7,7,13,13,0.0900,0.97,clean,,NVIDIA A100,,2026-11-27T10:00:02Z' carol
row 'dave,argmax.cu,built,7,7,13,13,0.0500,0.81,clean,,NVIDIA H200,,2026-11-27T10:00:03Z' dave
row 'erin,argmax.cu,built,7,7,13,13,,,clean,,,"not trusted: 0.002 ms is faster than this GPU can go",2026-11-27T10:00:04Z' erin
mkdir -p "$out/feedback"
for s in alice '=bob' carol dave erin; do echo "feedback of $s" >"$out/feedback/$s.txt"; done
printf '%s\n' "alice	4207	canvas		found	/x/alice_4207_81234_argmax.cu	argmax.cu	" "=bob	555	moodle	late				" \
  "carol								" "dave								" "erin								" >"$out/class.tsv"
"$bin/course_gradebook" --out "$out" --exercise "02 argmax" --points-possible 10 2>/dev/null
check "the leaderboard ranks within each GPU model, and names it" \
  test "$(tail -n +2 "$out/leaderboard.csv" | tr '\n' ' ')" = "1,carol,0.0900,0.97,NVIDIA A100 1,dave,0.0500,0.81,NVIDIA H200 2,alice,0.0625,1.01,NVIDIA H200 "
check "... and leaves out a time the judge did not trust" lacks erin "$out/leaderboard.csv"
check "the gradebook names the GPU and why a time was not taken" \
  grep -q '^erin,.*,clean,,,not trusted: 0.002 ms is faster than this GPU can go,2026-11-27T10:00:04Z$' "$out/gradebook.csv"
check "--points-possible 10: Canvas's grade out of 10" has_line "alice,4207,,,,10" "$out/lms/canvas.csv"
check "... and Moodle's, with its maximum" grep -q '^Participant 555,.=bob,6.15,10,' "$out/lms/moodle.csv"
unzip_list() { python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [print(n + "=" + z.read(n).decode().strip()) for n in z.namelist()]' "$1"; }
check "lms/canvas-feedback.zip: the feedback, named as Canvas's download named the file" \
  test "$(unzip_list "$out/lms/canvas-feedback.zip")" = "alice_4207_81234_feedback.txt=feedback of alice"
check "lms/moodle-feedback.zip: the feedback, in the folder Moodle's download names" \
  test "$(unzip_list "$out/lms/moodle-feedback.zip")" = "=bob_555_assignsubmission_file_/feedback.txt=feedback of =bob"
"$bin/course_gradebook" --out "$out" --exercise "02 argmax" --points-possible 0 2>"$work/points.err"
check "--points-possible 0 is refused in one line" test $? -eq 2 -a "$(wc -l <"$work/points.err")" -eq 1

# --- course_gradebook --commit: a run taken in whole, the gradebook there was kept ----------------------
touch -d '2026-11-27 10:00:00 UTC' "$out/gradebook.csv"
mkdir -p "$out/incoming/rows" "$out/incoming/feedback" "$out/incoming/files"
printf '%s\n' "carol								" "frank								" >"$out/incoming/class.tsv"
echo 'carol,argmax.cu,built,7,7,13,13,0.0800,0.95,clean,,NVIDIA A100,,2026-11-28T10:00:00Z' >"$out/incoming/rows/carol.csv"
echo 'frank,argmax.cu,built,3,7,5,13,,,,FAIL,,,2026-11-28T10:00:01Z' >"$out/incoming/rows/frank.csv"
echo "carol again" >"$out/incoming/feedback/carol.txt"
echo "frank's" >"$out/incoming/feedback/frank.txt"
"$bin/course_gradebook" --out "$out" --exercise "02 argmax" --commit --only 2>"$work/commit.err"
check "--commit --only: the run's students replace their rows, feedback and lines" \
  test "$(cut -f1 "$out/class.tsv" | tr '\n' ' ')|$(cat "$out/feedback/carol.txt")|$(cut -d, -f1 "$out/gradebook.csv" | tr '\n' ' ')" = \
  "=bob alice carol dave erin frank |carol again|student '=bob alice carol dave erin frank "
check "... the others' as they were" test "$(cat "$out/feedback/alice.txt")" = "feedback of alice"
check "... the gradebook there was kept, with its feedback, in earlier/ (named for when it was written)" \
  test -f "$out/earlier/2026-11-27T10-00-00Z/gradebook.csv" -a "$(cat "$out/earlier/2026-11-27T10-00-00Z/feedback/carol.txt")" = "feedback of carol"
check "... and the run taken in is gone" test ! -e "$out/incoming"
mkdir -p "$out/incoming/rows"
printf '%s\n' "zed								" >"$out/incoming/class.tsv"
echo 'zed,argmax.cu,built,7,7,13,13,,,clean,,,,2026-11-29T10:00:00Z' >"$out/incoming/rows/zed.csv"
"$bin/course_gradebook" --out "$out" --exercise "02 argmax" --commit 2>/dev/null
check "--commit of a whole class: the class is the run's" test "$(tail -n +2 "$out/gradebook.csv" | cut -d, -f1)" = zed
check "... every earlier gradebook kept" test "$(ls "$out/earlier" | wc -l)" -eq 2
"$bin/course_gradebook" --out "$out" --exercise "02 argmax" --commit 2>"$work/nothing.err"
check "--commit with no run to take in: one line, exit 2" test $? -eq 2 -a "$(wc -l <"$work/nothing.err")" -eq 1
[ $failures -eq 0 ] || { echo "$failures checks failed"; exit 1; }
echo "all checks passed"
