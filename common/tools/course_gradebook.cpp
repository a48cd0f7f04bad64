// course_gradebook: the last step of ./course grade-class, which puts the students' rows together:
//
//   course_gradebook --out DIR --exercise "NN NAME" [--stub FILE] [--solution FILE] [--assignment TITLE]
//                    [--points-possible P] [--commit [--only]]
//
// With --commit it first takes in the run that just ended, from DIR/incoming/ (class.tsv, rows/,
// feedback/, files/, what grade-class wrote there): the gradebook there was (its rows, feedback, files,
// imports) is kept in DIR/earlier/TIME/ (TIME: when it was written), then the run's replace it, whole
// (a full run) or student by student (--only). A run that stopped half-way leaves the gradebook as it
// was: only a finished one is taken in. It reads DIR/class.tsv (the class, as course_intake lists it),
// DIR/rows/STUDENT.csv (each graded student's row) and DIR/files/STUDENT.cu (the file graded, as it
// was), and writes into DIR
//   gradebook.csv      a row per student of the class: student, id, late, file, build, cases passed,
//                      points, time, the ratio to the solution's, compute-sanitizer's finding, the first
//                      failure, the GPU timed on, why a time was not taken, when it was graded; a student
//                      without a row "not graded";
//   leaderboard.csv    those who pass every case and in whom compute-sanitizer found nothing, with a time
//                      the judge trusted: fastest first, ranked among those timed on the same GPU model
//                      (a time on another GPU is another race);
//   identical.csv      for the instructor alone (no student's feedback mentions it): the students whose
//                      graded files are the same, byte for byte or once comments and spacing are set
//                      aside, with the SHA-256 of the file, and any file that is the course's stub or
//                      solution;
//   lms/canvas.csv     for Canvas's gradebook import (Student, ID, SIS User ID, SIS Login ID, Section, and
//                      the assignment's column, TITLE, "NN NAME" unless --assignment says), the students
//                      of a Canvas download;
//   lms/moodle.csv     for Moodle's "upload grading worksheet" (Identifier "Participant N", Full name,
//                      Grade, Maximum Grade, Last modified (grade), Feedback comments), the students of
//                      a Moodle download;
//   lms/canvas-feedback.zip  each Canvas student's feedback, named as the download named the file
//                      graded, for Canvas's "Re-Upload Submissions" (each file a comment to its student);
//   lms/moodle-feedback.zip  each Moodle student's feedback in a folder named as Moodle's download names
//                      it, for Moodle's "Upload multiple feedback files in a zip".
// With --points-possible P the imports give each grade out of P (points x P / the exercise's total, to
// two decimals): the assignment's points on the platform, whatever the exercise's own total.
// Every cell that holds text is written so that a spreadsheet shows it as text: one that begins with
// '=', '+', '-', '@', a tab or a carriage return (what Excel, LibreOffice and Google Sheets would run as
// a formula) gets a leading apostrophe. Exit code: 0, or 2 with one line.
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
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
const std::vector<std::string> kRowColumns = {"student",     "file",      "build",         "cases_passed", "cases_total",
                                              "points",      "points_total", "time_ms",    "vs_solution",  "sanitizer",
                                              "first_failure", "gpu",     "time_note",     "graded_at"};
// A row of the course's earlier grade-class, without the GPU and the time's note (read as empty).
const std::size_t kEarlierRowColumns = 12;
// The gradebook's columns: the row's, with the student's id and lateness from the class list.
const std::vector<std::string> kGradebookColumns = {
    "student",     "id",          "late",      "file",          "build", "cases_passed", "cases_total", "points",
    "points_total", "time_ms",    "vs_solution", "sanitizer", "first_failure", "gpu",  "time_note",   "graded_at"};

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
  std::string file, shown;  // the file graded (its path), and its own name as the student sent it
};

std::vector<Member> read_class(const fs::path& list) {
  if (!fs::exists(list)) throw course::UsageError(list.string() + ": no such file (the class list grade-class writes)");
  std::vector<Member> members;
  for (const std::string& line : course::content_lines_of(read_file(list))) {
    const std::vector<std::string> f = course::fields_of(line, course::kTabSeparated);
    if (f.size() < 4) throw course::UsageError(list.string() + ": '" + line + "' is not a line of the class list");
    members.push_back({f[0], f[1], f[2], f[3], f.size() > 5 ? f[5] : "", f.size() > 6 ? f[6] : ""});
  }
  return members;
}

// The student's row, or one that says the student was not graded.
Record read_row(const fs::path& rows, const std::string& student) {
  Record record;
  const fs::path file = rows / (student + ".csv");
  std::vector<std::string> fields;
  if (fs::exists(file)) fields = course::fields_of(course::lines_of(read_file(file)).at(0));
  if (fields.size() == kEarlierRowColumns) fields.insert(fields.end() - 1, {"", ""});  // gpu, time_note
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
  if (!get("time_note").empty()) line += "; time " + get("time_note");
  return line;
}

// --- zip files (stored, no compression: Canvas and Moodle take them) -------------------------------
std::uint32_t crc32_of(const std::string& data) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : data) crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

// Writes a zip of @p entries (name, content) to @p path: each stored as it is, names in UTF-8.
void write_zip(const fs::path& path, const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string zip, directory;
  auto put16 = [](std::string& to, std::uint32_t v) { to += static_cast<char>(v & 0xFF), to += static_cast<char>((v >> 8) & 0xFF); };
  auto put32 = [&](std::string& to, std::uint32_t v) { put16(to, v & 0xFFFF), put16(to, v >> 16); };
  for (const auto& [name, content] : entries) {
    const std::uint32_t crc = crc32_of(content), offset = static_cast<std::uint32_t>(zip.size());
    const auto size = static_cast<std::uint32_t>(content.size());
    // The local header: version 2.0, flag 0x0800 (the name is UTF-8), stored, no time, CRC, sizes.
    put32(zip, 0x04034b50u), put16(zip, 20), put16(zip, 0x0800), put16(zip, 0), put16(zip, 0), put16(zip, 0x21);
    put32(zip, crc), put32(zip, size), put32(zip, size), put16(zip, static_cast<std::uint32_t>(name.size())), put16(zip, 0);
    zip += name + content;
    put32(directory, 0x02014b50u), put16(directory, 20), put16(directory, 20), put16(directory, 0x0800), put16(directory, 0);
    put16(directory, 0), put16(directory, 0x21), put32(directory, crc), put32(directory, size), put32(directory, size);
    put16(directory, static_cast<std::uint32_t>(name.size())), put16(directory, 0), put16(directory, 0), put16(directory, 0);
    put16(directory, 0), put32(directory, 0), put32(directory, offset);
    directory += name;
  }
  const auto start = static_cast<std::uint32_t>(zip.size()), count = static_cast<std::uint32_t>(entries.size());
  zip += directory;
  put32(zip, 0x06054b50u), put16(zip, 0), put16(zip, 0), put16(zip, count), put16(zip, count);
  put32(zip, static_cast<std::uint32_t>(directory.size())), put32(zip, start), put16(zip, 0);
  write_file(path, zip);
}

// The folder Moodle's download gives a participant ("Jane Doe_4207_assignsubmission_file_"), where its
// zip of feedback files puts the participant's: the name as Moodle has it (without the "-4207" the
// class list adds to tell two of one name apart).
std::string moodle_folder(const Member& m) {
  std::string name = m.student;
  const std::string suffix = "-" + m.id;
  if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    name.resize(name.size() - suffix.size());
  return name + "_" + m.id + "_assignsubmission_file_";
}

// A grade out of @p possible points (two decimals), from @p points of @p total; as it is without them.
std::string scaled(const std::string& points, const std::string& total, double possible) {
  if (possible <= 0 || points.empty() || total.empty() || std::stod(total) <= 0) return points;
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", std::stod(points) * possible / std::stod(total));
  std::string value = text;
  while (value.back() == '0') value.pop_back();
  if (value.back() == '.') value.pop_back();
  return value;
}

void write_platform_imports(const fs::path& out, const std::vector<Member>& members, const std::vector<Record>& rows,
                            const std::string& assignment, double points_possible) {
  std::vector<std::pair<std::string, std::string>> canvas_feedback, moodle_feedback;
  std::string canvas = csv_line({"Student", "ID", "SIS User ID", "SIS Login ID", "Section", assignment});
  std::string moodle = csv_line({"Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)",
                                 "Feedback comments"});
  int on_canvas = 0, on_moodle = 0, without = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const Member& m = members[i];
    const Record& r = rows[i];
    const auto get = [&](const char* key) { auto it = r.find(key); return it == r.end() ? std::string() : it->second; };
    // Empty where nothing ran: no grade, rather than 0.
    const std::string points = scaled(get("points"), get("points_total"), points_possible);
    const std::string maximum = points_possible > 0 ? scaled(get("points_total"), get("points_total"), points_possible)
                                                    : get("points_total");
    const fs::path feedback = out / "feedback" / (m.student + ".txt");
    if (m.platform == "canvas" && !m.id.empty()) {
      canvas += csv_line({m.student, m.id, "", "", "", points});
      ++on_canvas;
      // Named as the download named the file graded ("doejane_late_4207_81240_argmax-1.cu" gives
      // "doejane_late_4207_81240_feedback.txt"): Canvas finds the student by it.
      std::string prefix = fs::path(m.file).filename().string();
      if (!m.shown.empty() && prefix.size() > m.shown.size() && prefix.compare(prefix.size() - m.shown.size(), m.shown.size(), m.shown) == 0)
        prefix.resize(prefix.size() - m.shown.size());
      else
        prefix = m.student + "_" + m.id + "_";
      if (fs::exists(feedback)) canvas_feedback.emplace_back(prefix + "feedback.txt", read_file(feedback));
    } else if (m.platform == "moodle" && !m.id.empty()) {
      moodle += csv_line({"Participant " + m.id, m.student, points, maximum, get("graded_at"), summary_of(r)});
      ++on_moodle;
      // The folder of Moodle's download, where its zip of feedback files puts each student's.
      if (fs::exists(feedback)) moodle_feedback.emplace_back(moodle_folder(m) + "/feedback.txt", read_file(feedback));
    } else {
      ++without;
    }
  }
  for (const char* name : {"canvas.csv", "moodle.csv", "canvas-feedback.zip", "moodle-feedback.zip"}) fs::remove(out / "lms" / name);
  if (on_canvas > 0 || on_moodle > 0) fs::create_directories(out / "lms");
  if (on_canvas > 0) write_file(out / "lms" / "canvas.csv", canvas);
  if (on_moodle > 0) write_file(out / "lms" / "moodle.csv", moodle);
  if (!canvas_feedback.empty()) write_zip(out / "lms" / "canvas-feedback.zip", canvas_feedback);
  if (!moodle_feedback.empty()) write_zip(out / "lms" / "moodle-feedback.zip", moodle_feedback);
  if (without > 0 && (on_canvas > 0 || on_moodle > 0))
    std::cerr << kProgram << ": " << without << " students have no Canvas or Moodle id (their folders were not named by a "
              << "download): they are in gradebook.csv only\n";
}

void write_gradebook(const fs::path& out, const std::string& exercise, const fs::path& stub, const fs::path& solution,
                     std::string assignment, double points_possible) {
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
  // A race per GPU model: the fastest first within each, the models in the order of their names.
  std::stable_sort(finishers.begin(), finishers.end(), [](const auto& a, const auto& b) {
    const std::string& gpu_a = a.second.at("gpu");
    const std::string& gpu_b = b.second.at("gpu");
    return gpu_a != gpu_b ? gpu_a < gpu_b : a.first < b.first;
  });
  std::string board = csv_line({"rank", "student", "time_ms", "vs_solution", "gpu"});
  for (std::size_t i = 0, rank = 0; i < finishers.size(); ++i) {
    Record& r = finishers[i].second;
    rank = i > 0 && finishers[i - 1].second["gpu"] == r["gpu"] ? rank + 1 : 1;
    board += csv_line({std::to_string(rank), r["student"], r["time_ms"], r["vs_solution"], r["gpu"]});
  }
  write_file(out / "leaderboard.csv", board);
  write_identical(out, members, stub, solution);
  write_platform_imports(out, members, rows, assignment.empty() ? exercise : assignment, points_possible);
}

// --- taking a run in -----------------------------------------------------------------------------------
// What a gradebook is made of, all kept together in earlier/TIME/.
const std::vector<std::string> kGradebookParts = {"gradebook.csv", "leaderboard.csv", "identical.csv", "class.tsv",
                                                  "assignment.txt", "points-possible.txt", "rows", "feedback", "files", "lms"};

// When @p file was last written, as 2026-11-28T10-00-00Z (a folder's name).
std::string written_at(const fs::path& file) {
  struct stat facts {};
  if (stat(file.c_str(), &facts) != 0) throw course::UsageError(file.string() + ": cannot be read");
  const std::time_t t = facts.st_mtime;
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H-%M-%SZ", std::gmtime(&t));
  return text;
}

// Takes in DIR/incoming/: the gradebook there was goes to earlier/, then the run's students' rows,
// feedback and files take their places (all of them for a full run; with @p only, those the run
// graded, the class list merged).
void commit_run(const fs::path& out, bool only) {
  const fs::path incoming = out / "incoming";
  if (!fs::exists(incoming / "class.tsv")) throw course::UsageError(incoming.string() + " holds no finished run to take in");
  if (fs::exists(out / "gradebook.csv")) {
    fs::path kept = out / "earlier" / written_at(out / "gradebook.csv");
    for (int n = 2; fs::exists(kept); ++n) kept = kept.parent_path() / (written_at(out / "gradebook.csv") + "-" + std::to_string(n));
    fs::create_directories(kept);
    for (const std::string& part : kGradebookParts)
      if (fs::exists(out / part)) fs::copy(out / part, kept / part, fs::copy_options::recursive);
    std::cerr << kProgram << ": the gradebook there was is kept in " << kept.string() << "\n";
  }
  const std::vector<Member> graded = read_class(incoming / "class.tsv");
  if (!only) {
    for (const char* part : {"rows", "feedback", "files"}) {
      fs::remove_all(out / part);
      fs::create_directories(incoming / part);
      fs::rename(incoming / part, out / part);
    }
    fs::rename(incoming / "class.tsv", out / "class.tsv");
  } else {
    for (const char* part : {"rows", "feedback", "files"}) fs::create_directories(out / part);
    for (const Member& m : graded)
      for (const auto& [part, extension] : {std::pair<const char*, const char*>{"rows", ".csv"}, {"feedback", ".txt"}, {"files", ".cu"}}) {
        const fs::path from = incoming / part / (m.student + extension), to = out / part / (m.student + extension);
        fs::remove(to);
        if (fs::exists(from)) fs::rename(from, to);
      }
    // The class list: the students graded now replace their old lines, and join it if they are new.
    std::map<std::string, std::string> lines;
    if (fs::exists(out / "class.tsv"))
      for (const std::string& line : course::content_lines_of(read_file(out / "class.tsv"))) lines[line.substr(0, line.find('\t'))] = line;
    for (const std::string& line : course::content_lines_of(read_file(incoming / "class.tsv"))) lines[line.substr(0, line.find('\t'))] = line;
    std::string text;
    for (const auto& [student, line] : lines) text += line + "\n";
    write_file(out / "class.tsv", text);
  }
  if (fs::exists(incoming / "assignment.txt")) fs::rename(incoming / "assignment.txt", out / "assignment.txt");
  fs::remove_all(incoming);
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
    cli.add_text("points-possible", "", "the assignment's points on the platform: the imports' grades out of them", "P");
    cli.add_flag("commit", "first take in the run in DIR/incoming/, keeping the gradebook there was in DIR/earlier/");
    cli.add_flag("only", "with --commit: the run graded some students (--only), not the class");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (!cli.given("out") || !cli.given("exercise")) throw course::UsageError("--out and --exercise are required");
    double points_possible = 0;
    if (cli.given("points-possible")) {
      points_possible = course::parse_number(cli.text("points-possible"), "--points-possible");
      if (!(points_possible > 0)) throw course::UsageError("--points-possible: '" + cli.text("points-possible") + "' is not a positive number");
    }
    if (cli.flag("only") && !cli.flag("commit")) throw course::UsageError("--only goes with --commit");
    if (cli.flag("commit")) commit_run(cli.text("out"), cli.flag("only"));
    write_gradebook(cli.text("out"), cli.text("exercise"), cli.text("stub"), cli.text("solution"), cli.text("assignment"),
                    points_possible);
    return course::kExitPass;
  });
}
