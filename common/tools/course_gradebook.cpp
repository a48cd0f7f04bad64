// course_gradebook: the last step of ./course grade-class, which puts the students' rows together:
//
//   course_gradebook --out DIR --exercise "NN NAME" [--stub FILE] [--solution FILE] [--assignment TITLE]
//
// It reads DIR/class.tsv (the class, as course_intake lists it), DIR/rows/STUDENT.csv (each graded
// student's row) and DIR/files/STUDENT.cu (the file graded, as it was), and writes into DIR
//   gradebook.csv      a row per student of the class: student, id, late, file, build, cases passed,
//                      points, time, the ratio to the solution's, compute-sanitizer's finding, the first
//                      failure, when it was graded; a student without a row "not graded";
//   leaderboard.csv    those who pass every case and in whom compute-sanitizer found nothing, fastest first;
//   identical.csv      for the instructor alone (no student's feedback mentions it): the students whose
//                      graded files are the same, byte for byte or once comments and spacing are set
//                      aside, with the SHA-256 of the file, and any file that is the course's stub or
//                      solution;
//   lms/canvas.csv     for Canvas's gradebook import (Student, ID, SIS User ID, SIS Login ID, Section, and
//                      the assignment's column, TITLE, "NN NAME" unless --assignment says), the students
//                      of a Canvas download;
//   lms/moodle.csv     for Moodle's "upload grading worksheet" (Identifier "Participant N", Full name,
//                      Grade, Maximum Grade, Last modified (grade), Feedback comments), the students of
//                      a Moodle download.
// Every cell that holds text is written so that a spreadsheet shows it as text: one that begins with
// '=', '+', '-', '@', a tab or a carriage return (what Excel, LibreOffice and Google Sheets would run as
// a formula) gets a leading apostrophe. Exit code: 0, or 2 with one line.
#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/delimited_text.h"
#include "course/errors.h"
#include "course/program.h"

namespace fs = std::filesystem;

namespace {

const char* const kProgram = "course_gradebook";

// --- the columns ------------------------------------------------------------------------------------
// A row as grade-class writes it (rows/STUDENT.csv), in this order.
const std::vector<std::string> kRowColumns = {"student",   "file",     "build",       "cases_passed",
                                              "cases_total", "points", "points_total", "time_ms",
                                              "vs_solution", "sanitizer", "first_failure", "graded_at"};
// The gradebook's columns: the row's, with the student's id and lateness from the class list.
const std::vector<std::string> kGradebookColumns = {
    "student",   "id",      "late",        "file",     "build",       "cases_passed",  "cases_total",
    "points",    "points_total", "time_ms", "vs_solution", "sanitizer", "first_failure", "graded_at"};

using Record = std::map<std::string, std::string>;

// --- spreadsheet-safe CSV --------------------------------------------------------------------------
// @p text as a spreadsheet shows it, never runs it: a leading apostrophe before a formula's first sign.
std::string as_text(const std::string& text) {
  if (!text.empty() && std::string("=+-@\t\r").find(text[0]) != std::string::npos) return "'" + text;
  return text;
}

std::string csv_line(const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + course::csv_field(as_text(cells[i]));
  return line + "\n";
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  if (!(out << text)) throw course::UsageError(path.string() + ": cannot be written");
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// --- SHA-256 (FIPS 180-4), of the graded files ---------------------------------------------------------
std::string sha256(const std::string& message) {
  static const std::array<std::uint32_t, 64> k = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  auto rotate = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  std::string padded = message + '\x80';
  while (padded.size() % 64 != 56) padded += '\0';
  const std::uint64_t bits = static_cast<std::uint64_t>(message.size()) * 8;
  for (int shift = 56; shift >= 0; shift -= 8) padded += static_cast<char>((bits >> shift) & 0xff);
  for (std::size_t block = 0; block < padded.size(); block += 64) {
    std::array<std::uint32_t, 64> w{};
    for (int t = 0; t < 16; ++t)
      for (int b = 0; b < 4; ++b) w[t] = (w[t] << 8) | static_cast<unsigned char>(padded[block + 4 * t + b]);
    for (int t = 16; t < 64; ++t) {
      const std::uint32_t s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const std::uint32_t s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    std::array<std::uint32_t, 8> v = h;
    for (int t = 0; t < 64; ++t) {
      const std::uint32_t s1 = rotate(v[4], 6) ^ rotate(v[4], 11) ^ rotate(v[4], 25);
      const std::uint32_t choice = (v[4] & v[5]) ^ (~v[4] & v[6]);
      const std::uint32_t t1 = v[7] + s1 + choice + k[t] + w[t];
      const std::uint32_t s0 = rotate(v[0], 2) ^ rotate(v[0], 13) ^ rotate(v[0], 22);
      const std::uint32_t majority = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      v = {t1 + s0 + majority, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
    }
    for (int i = 0; i < 8; ++i) h[i] += v[i];
  }
  std::string hex;
  for (std::uint32_t word : h)
    for (int shift = 28; shift >= 0; shift -= 4) hex += "0123456789abcdef"[(word >> shift) & 0xf];
  return hex;
}

// C++ source with its comments and its spacing taken out (string and character literals kept as they
// are): two files that differ only there are the same code.
std::string without_comments_and_spacing(const std::string& source) {
  std::string code;
  for (std::size_t i = 0; i < source.size(); ++i) {
    const char c = source[i];
    if (c == '/' && i + 1 < source.size() && source[i + 1] == '/') {
      while (i < source.size() && source[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < source.size() && source[i + 1] == '*') {
      const std::size_t end = source.find("*/", i + 2);
      i = end == std::string::npos ? source.size() : end + 1;
    } else if (c == '"' || c == '\'') {
      code += c;
      for (++i; i < source.size() && source[i] != c; ++i) {
        code += source[i];
        if (source[i] == '\\' && i + 1 < source.size()) code += source[++i];
      }
      if (i < source.size()) code += c;
    } else if (!std::isspace(static_cast<unsigned char>(c))) {
      code += c;
    }
  }
  return code;
}

// --- the class and its rows ------------------------------------------------------------------------
struct Member {
  std::string student, id, platform, late;
};

std::vector<Member> read_class(const fs::path& list) {
  if (!fs::exists(list)) throw course::UsageError(list.string() + ": no such file (the class list grade-class writes)");
  std::vector<Member> members;
  for (const std::string& line : course::content_lines_of(read_file(list))) {
    const std::vector<std::string> f = course::fields_of(line, course::kTabSeparated);
    if (f.size() < 4) throw course::UsageError(list.string() + ": '" + line + "' is not a line of the class list");
    members.push_back({f[0], f[1], f[2], f[3]});
  }
  return members;
}

// The student's row, or one that says the student was not graded.
Record read_row(const fs::path& rows, const std::string& student) {
  Record record;
  const fs::path file = rows / (student + ".csv");
  std::vector<std::string> fields;
  if (fs::exists(file)) fields = course::fields_of(course::lines_of(read_file(file)).at(0));
  if (fields.size() != kRowColumns.size()) {
    record["student"] = student;
    record["build"] = "not graded";
    record["first_failure"] = fs::exists(file) ? "its row is damaged: grade the student again (--only)"
                                               : "its grading did not finish (with --slurm: see slurm/)";
    return record;
  }
  for (std::size_t i = 0; i < fields.size(); ++i) record[kRowColumns[i]] = fields[i];
  return record;
}

bool on_leaderboard(const Record& r) {
  const auto get = [&](const char* key) { auto it = r.find(key); return it == r.end() ? std::string() : it->second; };
  const std::string sanitizer = get("sanitizer");
  return !get("time_ms").empty() && get("cases_passed") == get("cases_total") &&
         (sanitizer == "clean" || sanitizer.rfind("not run", 0) == 0);
}

// --- identical files ---------------------------------------------------------------------------------
// The groups of students whose graded files are the same: byte for byte ("same file"), or only once
// comments and spacing are set aside ("same code", where the files themselves differ). A single file
// that is the course's solution is listed too; each group says whether it is the stub or the solution.
void write_identical(const fs::path& out, const std::vector<Member>& members, const fs::path& stub, const fs::path& solution) {
  std::map<std::string, std::vector<std::string>> by_file, by_code;  // students by hash
  std::map<std::string, std::string> file_hash_of;                     // student -> hash of the file
  for (const Member& m : members) {
    const fs::path file = out / "files" / (m.student + ".cu");
    if (!fs::exists(file)) continue;
    const std::string text = read_file(file);
    file_hash_of[m.student] = sha256(text);
    by_file[file_hash_of[m.student]].push_back(m.student);
    by_code[sha256(without_comments_and_spacing(text))].push_back(m.student);
  }
  // The course's own files, by both hashes.
  std::map<std::string, std::string> course_file, course_code;
  std::string solution_file_hash;
  for (const auto& [path, what] : {std::pair<fs::path, std::string>{stub, "the course's stub, unchanged"},
                                   std::pair<fs::path, std::string>{solution, "the course's solution"}}) {
    if (path.empty() || !fs::exists(path)) continue;
    const std::string text = read_file(path);
    course_file[sha256(text)] = what;
    course_code[sha256(without_comments_and_spacing(text))] = what;
    if (path == solution) solution_file_hash = sha256(text);
  }
  const auto note_of = [](const std::map<std::string, std::string>& known, const std::string& hash) {
    const auto it = known.find(hash);
    return it == known.end() ? std::string() : it->second;
  };
  const auto names = [](const std::vector<std::string>& students) {
    std::string text;
    for (const std::string& s : students) text += (text.empty() ? "" : "; ") + s;
    return text;
  };
  std::string text = csv_line({"group", "kind", "students", "sha256", "note"});
  int group = 0;
  for (const auto& [hash, students] : by_file) {
    const std::string note = note_of(course_file, hash);
    if (students.size() >= 2 || (!note.empty() && hash == solution_file_hash))
      text += csv_line({std::to_string(++group), "same file", names(students), hash, note});
  }
  for (const auto& [hash, students] : by_code) {
    std::map<std::string, bool> files;
    for (const std::string& s : students) files[file_hash_of[s]] = true;
    const std::string note = note_of(course_code, hash);
    const bool copies_solution = note == "the course's solution" && !(files.size() == 1 && files.count(solution_file_hash));
    if (files.size() >= 2 || copies_solution)
      text += csv_line({std::to_string(++group), "same code (comments and spacing aside)", names(students), "", note});
  }
  write_file(out / "identical.csv", text);
  if (group > 0)
    std::cerr << kProgram << ": " << group << (group == 1 ? " group" : " groups")
              << " of identical submissions in identical.csv (for you; no feedback mentions it)\n";
}

// --- the learning platforms' imports ---------------------------------------------------------------
// One line for the student's grade comment: points, cases, compute-sanitizer, the first failure.
std::string summary_of(const Record& r) {
  const auto get = [&](const char* key) { auto it = r.find(key); return it == r.end() ? std::string() : it->second; };
  if (get("build") != "built") return get("build") + (get("first_failure").empty() ? "" : ": " + get("first_failure"));
  if (get("points").empty()) return get("first_failure");  // built, not run
  std::string line = get("points") + " of " + get("points_total") + " points: " + get("cases_passed") + " of " +
                     get("cases_total") + " test cases pass";
  if (!get("sanitizer").empty()) line += "; compute-sanitizer: " + get("sanitizer");
  if (!get("first_failure").empty()) line += "; first failure: " + get("first_failure");
  if (!get("time_ms").empty()) line += "; time " + get("time_ms") + " ms";
  return line;
}

void write_platform_imports(const fs::path& out, const std::vector<Member>& members, const std::vector<Record>& rows,
                            const std::string& assignment) {
  std::string canvas = csv_line({"Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment});
  std::string moodle = csv_line({"Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)",
                                 "Feedback comments"});
  int on_canvas = 0, on_moodle = 0, without = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const Member& m = members[i];
    const Record& r = rows[i];
    const auto get = [&](const char* key) { auto it = r.find(key); return it == r.end() ? std::string() : it->second; };
    const std::string points = get("points");  // empty where nothing ran: no grade, rather than 0
    if (m.platform == "canvas" && !m.id.empty()) {
      canvas += csv_line({m.student, m.id, "", "", "", points});
      ++on_canvas;
    } else if (m.platform == "moodle" && !m.id.empty()) {
      moodle += csv_line({"Participant " + m.id, m.student, points, get("points_total"), get("graded_at"), summary_of(r)});
      ++on_moodle;
    } else {
      ++without;
    }
  }
  for (const char* name : {"canvas.csv", "moodle.csv"}) fs::remove(out / "lms" / name);
  if (on_canvas > 0 || on_moodle > 0) fs::create_directories(out / "lms");
  if (on_canvas > 0) write_file(out / "lms" / "canvas.csv", canvas);
  if (on_moodle > 0) write_file(out / "lms" / "moodle.csv", moodle);
  if (without > 0 && (on_canvas > 0 || on_moodle > 0))
    std::cerr << kProgram << ": " << without << " students have no Canvas or Moodle id (their folders were not named by a "
              << "download): they are in gradebook.csv only\n";
}

void write_gradebook(const fs::path& out, const std::string& exercise, const fs::path& stub, const fs::path& solution,
                     std::string assignment) {
  const std::vector<Member> members = read_class(out / "class.tsv");
  std::vector<Record> rows;
  std::string book = csv_line(kGradebookColumns);
  std::vector<std::pair<double, Record>> finishers;
  for (const Member& m : members) {
    Record r = read_row(out / "rows", m.student);
    r["id"] = m.id;
    r["late"] = m.late;
    std::vector<std::string> cells;
    for (const std::string& column : kGradebookColumns) cells.push_back(r[column]);
    book += csv_line(cells);
    if (on_leaderboard(r)) finishers.emplace_back(std::stod(r["time_ms"]), r);
    rows.push_back(r);
  }
  write_file(out / "gradebook.csv", book);
  std::stable_sort(finishers.begin(), finishers.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string board = csv_line({"rank", "student", "time_ms", "vs_solution"});
  for (std::size_t i = 0; i < finishers.size(); ++i) {
    Record& r = finishers[i].second;
    board += csv_line({std::to_string(i + 1), r["student"], r["time_ms"], r["vs_solution"]});
  }
  write_file(out / "leaderboard.csv", board);
  write_identical(out, members, stub, solution);
  write_platform_imports(out, members, rows, assignment.empty() ? exercise : assignment);
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program(kProgram, [&] {
    course::CommandLine cli(kProgram, "Puts a graded class's rows together: the gradebook, the leaderboard, the "
                                      "identical submissions and the learning platforms' imports.");
    cli.add_text("out", "", "the grading folder (class.tsv, rows/, files/)", "DIR");
    cli.add_text("exercise", "", "the exercise, e.g. \"02 argmax\"", "NN NAME");
    cli.add_text("stub", "", "the exercise's stub, to recognise it unchanged", "FILE");
    cli.add_text("solution", "", "the exercise's solution, to recognise a copy of it", "FILE");
    cli.add_text("assignment", "", "the assignment's column in Canvas's import (default: the exercise)", "TITLE");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (!cli.given("out") || !cli.given("exercise")) throw course::UsageError("--out and --exercise are required");
    write_gradebook(cli.text("out"), cli.text("exercise"), cli.text("stub"), cli.text("solution"), cli.text("assignment"));
    return course::kExitPass;
  });
}
