/// @file grading_seal.h
/// @brief How `./course grade-class` knows that a grading test or an exercise's benchmark ran to its
/// own end: a student's code runs inside these programs, and `exit(0)` called there would otherwise
/// read as a pass.
///
/// grade-class puts a fresh random word in the environment variable COURSE_GRADE_SEAL of every run.
/// The program takes it out of its environment as its main() begins (take_grading_seal), and prints
/// it on a line of its own with its exit code as the last thing it does (print_grading_seal):
///
///     course-grade-seal: 3f9c0a1e77d2b6a4 exit 0
///
/// A run whose exit code is 0 but whose output lacks that line with that word stopped early, inside
/// the student's code. Without the variable (every run outside grade-class) nothing is printed.
/// A submission is code in the same process, so this stops the one-line trick, not a student who
/// studies how the course grades; the instructor guide says so.
#pragma once

#include <cstdio>

namespace course {

/// Takes COURSE_GRADE_SEAL out of the environment and keeps it for print_grading_seal(). Called first
/// in main(); later calls keep the word already taken.
void take_grading_seal();

/// Prints "course-grade-seal: WORD exit CODE" on a line of its own to @p out (flushed) when a word was
/// taken; returns @p exit_code, so that main() can end with `return print_grading_seal(code);`.
int print_grading_seal(int exit_code, std::FILE* out = stdout);

}  // namespace course
