#!/usr/bin/env bash
# Tests course_check_figures on the course itself and on a copy where a figure was changed by hand:
# the course's lesson pages and step files pass; a README time and a README ratio changed by hand, a
# ratio whose paragraph does not show what it is made of, a figure of a page whose table was changed,
# and a measured time planted in a step file's comment each fail, naming the file and the line; a
# figure marked as no measurement is let through.
# Usage: common/tests/test_check_figures.sh CHECKER ROOT WORK_DIR
set -uo pipefail
checker=$1 root=$2 work=$3
failures=0
check() {  # check WHAT CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
"$checker" --root "$root" >"$work.course.out" 2>&1
code=$?
check "the course's pages and step files pass" test $code -eq 0
[ $code -eq 0 ] || head -20 "$work.course.out"

# A copy of what the check reads: the lessons and their tables.
rm -rf "$work"
mkdir -p "$work/docs"
cp -R "$root/lessons" "$work/"
cp -R "$root/docs/results" "$work/docs/"
page=$work/lessons/05-matvec-transpose/README.md
figure=$(grep -o -m1 -E '[0-9]+\.[0-9]{4} ms' "$page" | head -1)  # a time of the page's prose or tables
line=$(grep -n -F "$figure" "$page" | grep -v '^[0-9]*: *[0-9]' | head -1 | cut -d: -f1)
[ -n "$line" ] || { echo "FAILED: no figure of lesson 05's prose to change"; exit 1; }
changed=$(awk -v f="$figure" 'BEGIN { split(f, p, " "); printf "%.4f ms", p[1] * 1.37 }')
sed -i "${line}s/$figure/$changed/" "$page"
"$checker" --root "$work" >"$work/changed.out" 2>&1
check "a README figure changed by hand ($figure to $changed) fails" test $? -eq 1
check "... naming the page's line" grep -q "^lessons/05-matvec-transpose/README.md:$line: '$changed'" "$work/changed.out"
sed -i "${line}s/$changed/$changed<!-- a bound -->/" "$page"
"$checker" --root "$work" >"$work/marked.out" 2>&1
check "... and passes once marked as no measurement" test $? -eq 0

# A ratio changed by hand: 1.67 times (0.4333 against 0.2591 ms) made 1.57 times fails (no table
# prints 1.57 as such, and its paragraph's figures do not make it); so does a right ratio (1.26 times, 0.3442 against
# 0.2732 ms) once its paragraph no longer shows what it is made of.
ratio_line=$(grep -n -F '1.67 times faster at 4096 x 65536 (0.4333 against 0.2591 ms' "$page" | cut -d: -f1)
[ -n "$ratio_line" ] || { echo "FAILED: lesson 05's page no longer holds the ratio this test changes"; exit 1; }
cp "$page" "$work/page.saved"
sed -i "${ratio_line}s/1.67 times/1.57 times/" "$page"
"$checker" --root "$work" >"$work/ratio.out" 2>&1
check "a ratio changed by hand (1.67 to 1.57 times) fails" test $? -eq 1
check "... naming the page's line" grep -q "^lessons/05-matvec-transpose/README.md:$ratio_line: '1.57 times'" "$work/ratio.out"
cp "$work/page.saved" "$page"
bare_line=$(grep -n -F '1.26 times at' "$page" | cut -d: -f1)
sed -i "$((bare_line + 1))s/ (0.3442 against 0.2732 ms, groups/ (groups/" "$page"
"$checker" --root "$work" >"$work/bare.out" 2>&1
check "a ratio whose paragraph does not show its two numbers fails" test $? -eq 1
check "... naming the page's line" grep -q "^lessons/05-matvec-transpose/README.md:$bare_line: '1.26 times'" "$work/bare.out"
cp "$work/page.saved" "$page"

# A table changed under its page: the page's figures from it no longer hold.
# (Step 11's median at n = 2048, in the ladder's CSV and in the run's printed table.)
# (A quoted title may hold commas: each quoted field becomes one word before the split.)
median=$(sed -E 's/"[^"]*"/quoted/g' "$work/docs/results/lesson04-ladder.csv" | awk -F, '$2 == "11" { print $7 }')
shown=$(awk -v m="$median" 'BEGIN { printf "%.3f", m }')
sed -i "s/,$median,/,9.999,/" "$work/docs/results/lesson04-ladder.csv"
sed -i "s/ $shown / 9.999 /" "$work/docs/results/lesson04-run.txt"
"$checker" --root "$work" >"$work/table.out" 2>&1
check "a page whose table changed fails" test $? -eq 1
check "... at the figure the table no longer holds ($shown ms)" grep -q "^lessons/04-floyd-warshall/README.md:[0-9]*: '$shown ms'" "$work/table.out"
cp "$root/docs/results/lesson04-ladder.csv" "$root/docs/results/lesson04-run.txt" "$work/docs/results/"

# A step file's comment that quotes a measured time.
step=$(ls "$work"/lessons/02-max-reduction/06_*.cu | head -1)
sed -i '1a // On the H100 this step takes 0.1622 ms.' "$step"
"$checker" --root "$work" >"$work/comment.out" 2>&1
check "a step file's comment that quotes a measured time fails" test $? -eq 1
check "... naming the file and the line" grep -q "^lessons/02-max-reduction/$(basename "$step"):2: a comment quotes a measured figure ('0.1622 ms')" "$work/comment.out"
sed -i '2s/$/ (bound)/' "$step"
"$checker" --root "$work" >"$work/bound.out" 2>&1
check "... and passes as a bound's arithmetic" test $? -eq 0
[ $failures -eq 0 ] || { echo "$failures checks failed"; exit 1; }
echo "all checks passed"
