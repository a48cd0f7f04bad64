// course_handout: writes a student's copy of the course (./course handout), and records in it the
// solutions' times on this machine's GPU, for ./course grade in the copy.
//
// It knows the course's layout:
//   - the course's files are those git knows (tracked, or new and not ignored) when the source is a git
//     checkout, else every file but the build folders (build*/), results/, grades/ and .git;
//   - the instructor's files stay out: solutions/, the course's own CI (.ci/), docs/instructor-guide.md;
//   - with --lessons, so do the other lessons' lessons/NN-*, exercises/NN-* and docs/results/lessonNN-*;
//   - in the copy's README.md, what `<!-- instructor -->` ... `<!-- /instructor -->` encloses (lines of
//     their own, invisible on GitHub) is dropped; with --lessons, so is what `<!-- every lesson -->` ...
//     `<!-- /every lesson -->` encloses (what holds for the whole course only, such as the timings of
//     every lesson), and the row of each lesson left out of the lessons table, found by its link
//     (`](lessons/NN-`);
//   - the course's tools for writing new lessons (the command new-lesson is the instructor's):
//     docs/adding-a-lesson.md, common/templates/new-lesson/ and cmake/NewLesson.cmake.
// Recording is a second call, --record-times COPY, once the solutions' benchmarks are built: each runs
// with --csv from this program's folder into exercises/NN-*/NAME.solution-time.csv of the copy.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/delimited_text.h"
#include "course/errors.h"
#include "course/process.h"
#include "course/program.h"

namespace fs = std::filesystem;

namespace {

const char* const kProgram = "course_handout";
const char* const kInstructorStart = "<!-- instructor -->";
const char* const kInstructorEnd = "<!-- /instructor -->";
const char* const kEveryLessonStart = "<!-- every lesson -->";
const char* const kEveryLessonEnd = "<!-- /every lesson -->";

void note(const std::string& text) { std::cerr << kProgram << ": " << text << "\n"; }

// The number of a numbered folder or file ("02" for "02-max-reduction", and for "lesson02-ladder.csv"
// after @p prefix "lesson"); "" when @p name is not one.
std::string number_of(const std::string& name, const std::string& prefix = "") {
  if (name.compare(0, prefix.size(), prefix) != 0) return "";
  std::size_t end = prefix.size();
  while (end < name.size() && std::isdigit(static_cast<unsigned char>(name[end]))) ++end;
  if (end == prefix.size() || end >= name.size() || name[end] != '-') return "";
  return name.substr(prefix.size(), end - prefix.size());
}

std::vector<std::string> components(const std::string& relative) {
  std::vector<std::string> parts;
  for (const fs::path& part : fs::path(relative)) parts.push_back(part.string());
  return parts;
}

// Whether a file of the course (its path relative to the course's root) belongs in a student's copy
// that holds the lessons @p kept (empty: every lesson).
bool belongs_in_copy(const std::string& relative, const std::set<std::string>& kept) {
  const std::vector<std::string> parts = components(relative);
  if (parts.empty()) return false;
  const std::string& top = parts[0];
  const bool in_folder = parts.size() > 1;
  // Build outputs and what the course's commands write, never the course's own files.
  if (in_folder && (top.rfind("build", 0) == 0 || top == "results" || top == "grades" || top == ".git"))
    return false;
  // The instructor's.
  if (in_folder && (top == "solutions" || top == ".ci")) return false;
  if (relative == "docs/instructor-guide.md") return false;
  if (relative == "docs/adding-a-lesson.md" || relative == "cmake/NewLesson.cmake") return false;
  if (parts.size() > 2 && top == "common" && parts[1] == "templates" && parts[2] == "new-lesson") return false;
  if (kept.empty()) return true;
  std::string number;
  if ((top == "lessons" || top == "exercises") && in_folder) number = number_of(parts[1]);
  if (top == "docs" && parts.size() > 2 && parts[1] == "results") number = number_of(parts[2], "lesson");
  return number.empty() || kept.count(number) > 0;
}

// The course's files, relative to @p root: those git knows when @p root is in a git checkout and git
// knows any (a folder git ignores is treated as no checkout), else every file found.
std::vector<std::string> files_of_course(const fs::path& root) {
  std::vector<std::string> files;
  const std::string git = "git -C " + course::shell_quote(root.string());
  const course::CommandOutcome inside = course::run_command(git + " rev-parse --is-inside-work-tree");
  if (inside.exit_code == 0 && course::first_line(inside.out) == "true") {
    const course::CommandOutcome listed = course::run_command(git + " ls-files -z --cached --others --exclude-standard");
    if (listed.exit_code != 0)
      throw course::UsageError("git cannot list the files of " + root.string() + ": " + course::first_line(listed.err));
    std::istringstream names(listed.out);
    std::string name;
    while (std::getline(names, name, '\0')) {
      // Tracked but deleted files are listed too; submodules are folders.
      const fs::file_status status = fs::symlink_status(root / name);
      if (fs::is_regular_file(status) || fs::is_symlink(status)) files.push_back(name);
    }
    if (!files.empty()) return files;
  }
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string relative = fs::relative(it->path(), root).string();
    if (it->is_directory() && !it->is_symlink()) {
      // Nothing under a folder that no file of the copy can come from.
      if (!belongs_in_copy(relative + "/any", {})) it.disable_recursion_pending();
      continue;
    }
    files.push_back(relative);
  }
  return files;
}

// The marked parts of a README: lines of their own, invisible on GitHub, around lines a copy may drop.
struct MarkedPart {
  const char* start;
  const char* end;
};
const MarkedPart kInstructorPart{kInstructorStart, kInstructorEnd};
const MarkedPart kEveryLessonPart{kEveryLessonStart, kEveryLessonEnd};

// @p text without the instructor's parts and, when @p kept names lessons, without what holds for every
// lesson only (the parts marked so) and the other lessons' rows of the lessons table. @p name is for
// error messages.
std::string readme_for_students(const std::string& text, const std::set<std::string>& kept, const std::string& name) {
  std::ostringstream out;
  int line_number = 0, opened_at = 0;
  const MarkedPart* open = nullptr;
  for (const std::string& line : course::lines_of(text)) {
    ++line_number;
    const std::string where = name + ":" + std::to_string(line_number) + ": ";
    const auto first = line.find_first_not_of(" \t");
    const std::string trimmed = first == std::string::npos ? "" : line.substr(first, line.find_last_not_of(" \t") - first + 1);
    bool marker = false;
    for (const MarkedPart* part : {&kInstructorPart, &kEveryLessonPart}) {
      if (trimmed == part->start) {
        if (open) throw course::UsageError(where + part->start + " inside " + open->start);
        open = part;
        opened_at = line_number;
        marker = true;
      } else if (trimmed == part->end) {
        if (!open) throw course::UsageError(where + part->end + " without " + part->start);
        if (open != part)
          throw course::UsageError(where + part->end + " where " + open->start + " (line " +
                                   std::to_string(opened_at) + ") is open");
        open = nullptr;
        marker = true;
      }
    }
    if (marker) continue;
    if (open == &kInstructorPart || (open == &kEveryLessonPart && !kept.empty())) continue;
    const std::string link = "](lessons/";
    const auto at = line.find(link);
    if (!kept.empty() && trimmed.rfind("|", 0) == 0 && at != std::string::npos) {
      const std::string number = number_of(line.substr(at + link.size()));
      if (!number.empty() && !kept.count(number)) continue;
    }
    out << line << "\n";
  }
  if (open) throw course::UsageError(name + ":" + std::to_string(opened_at) + ": " + open->start + " never closed");
  return out.str();
}

std::set<std::string> lessons_named(const std::string& list, const fs::path& root) {
  std::set<std::string> numbers;
  std::string text = list;
  std::replace(text.begin(), text.end(), ',', ' ');
  std::istringstream words(text);
  std::string number;
  while (words >> number) {
    bool found = false;
    if (fs::is_directory(root / "lessons"))
      for (const fs::directory_entry& e : fs::directory_iterator(root / "lessons"))
        found = found || (e.is_directory() && number_of(e.path().filename().string()) == number);
    if (!found) throw course::UsageError("no lesson '" + number + "' (look in lessons/)");
    numbers.insert(number);
  }
  return numbers;
}

void write_copy(const fs::path& source, const fs::path& target, const std::string& lesson_list) {
  if (!fs::is_directory(source)) throw course::UsageError(source.string() + " is not a folder");
  if (!fs::is_directory(source / "solutions"))
    throw course::UsageError("this is already a student's copy: it has no solutions to leave out");
  if (fs::exists(target) && !(fs::is_directory(target) && fs::is_empty(target)))
    throw course::UsageError(target.string() + " exists and is not empty");
  const std::set<std::string> kept = lessons_named(lesson_list, source);

  // The README is read first, so that a fault in its markers stops the copy before it starts.
  const fs::path readme = source / "README.md";
  const bool has_readme = fs::exists(readme);
  const std::string students_readme =
      has_readme ? readme_for_students(course::read_text_file(readme.string()), kept, "README.md") : "";
  // Listed before the target is made, so a target inside the source (new or empty) adds nothing.
  const std::vector<std::string> files = files_of_course(source);
  fs::create_directories(target);
  for (const std::string& relative : files) {
    if (!belongs_in_copy(relative, kept)) continue;
    const fs::path from = source / relative, to = target / relative;
    fs::create_directories(to.parent_path());
    if (fs::is_symlink(from))
      fs::copy_symlink(from, to);
    else
      fs::copy_file(from, to);  // with its permissions: ./course stays executable
  }
  if (has_readme && fs::exists(target / "README.md")) {
    std::ofstream out(target / "README.md");
    if (!(out << students_readme)) throw course::UsageError((target / "README.md").string() + ": cannot be written");
  }
}

void record_times(const fs::path& copy) {
  if (!fs::is_directory(copy / "exercises")) throw course::UsageError(copy.string() + " has no exercises/ folder");
  const std::string bin = course::directory_of_this_program();
  if (course::run_command(course::shell_quote(bin + "/course_device_info") + " >/dev/null").exit_code != 0) {
    note("no CUDA device: the copy holds no solution times, so ./course grade there will not compare speeds");
    return;
  }
  std::vector<fs::path> stubs;
  for (const fs::directory_entry& lesson : fs::directory_iterator(copy / "exercises")) {
    if (!lesson.is_directory() || number_of(lesson.path().filename().string()).empty()) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(lesson.path()))
      if (file.path().extension() == ".cu") stubs.push_back(file.path());
  }
  std::sort(stubs.begin(), stubs.end());
  int recorded = 0;
  for (const fs::path& stub : stubs) {
    const std::string number = number_of(stub.parent_path().filename().string());
    const std::string program = bin + "/solution" + number + "_" + stub.stem().string() + "_bench";
    if (!fs::exists(program)) continue;
    const course::CommandOutcome o = course::run_command(course::shell_quote(program) + " --csv");
    if (o.exit_code != 0) continue;  // e.g. a GPU that lacks what the solution needs: no time to compare
    const fs::path time = stub.parent_path() / (stub.stem().string() + ".solution-time.csv");
    std::ofstream out(time);
    if (!(out << o.out)) throw course::UsageError(time.string() + ": cannot be written");
    ++recorded;
  }
  note("recorded the solutions' times of " + std::to_string(recorded) + " exercises on this GPU");
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program(kProgram, [&] {
    course::CommandLine cli(kProgram, "Writes a student's copy of the course, or records the solutions' times in one.");
    cli.add_text("source", "", "the course to copy (it has solutions/)", "DIR");
    cli.add_text("target", "", "where the copy goes: a new or empty folder", "DIR");
    cli.add_text("lessons", "", "only these lessons, e.g. \"02 04\" (default: every lesson)", "NN...");
    cli.add_text("record-times", "", "time each solution of the copy in DIR on this GPU, with the benchmarks "
                 "beside this program", "DIR");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    // A folder's value that starts with '-' is an option given where the folder was meant (as
    // `./course handout --help` once passed it on): refused, never made a folder.
    for (const char* option : {"source", "target", "record-times"}) {
      const std::string folder = cli.given(option) ? cli.text(option) : "";
      if (!folder.empty() && folder[0] == '-')
        throw course::UsageError("--" + std::string(option) + ": '" + folder + "' is an option, not a folder (a folder " +
                                 "of that name is ./" + folder + ")");
    }
    if (cli.given("record-times")) {
      if (cli.given("source") || cli.given("target") || cli.given("lessons"))
        throw course::UsageError("--record-times takes no --source, --target or --lessons");
      record_times(cli.text("record-times"));
      return course::kExitPass;
    }
    if (!cli.given("source") || !cli.given("target")) throw course::UsageError("--source and --target are required");
    write_copy(cli.text("source"), cli.text("target"), cli.given("lessons") ? cli.text("lessons") : "");
    return course::kExitPass;
  });
}
