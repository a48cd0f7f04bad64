// course_intake: the class as ./course grade-class grades it, read from what an instructor collected:
//
//   course_intake --submissions DIR --exercise NAME.cu --list FILE [--only "STUDENT..."]
//
// DIR may hold
//   - one folder per student (the folder's name is the student's): the exercise's file NAME.cu is found
//     at any depth, the one inside a copy of the course's exercises/ first, else the first by name;
//     a folder of Moodle's download in folders ("Jane Doe_4207_assignsubmission_file") gives the
//     student's name and participant number (two students of one name are listed as NAME-ID);
//   - the flat files of a learning platform's bulk download, grouped by student:
//       Canvas  doejane_4207_81234_argmax.cu, doejane_late_4207_81240_argmax-1.cu
//               (sortable name, "late", user id, file id, the file's own name; Canvas numbers a file sent
//               again under the same name: argmax-1.cu)
//       Moodle  Jane Doe_4207_assignsubmission_file_argmax.cu
//     The file graded is the latest of NAME.cu and the copies the platforms and browsers name
//     (NAME-N.cu, NAME (N).cu, NAME(N).cu: the largest N), whatever the case of its letters
//     (Argmax.cu); in a folder too. A note says when the name graded is not the exercise's own.
// A symbolic link is never followed: a student's folder, or the file to grade, that is one is refused
// with a one-line reason (it could point at the solution, or at another student's file).
// Written to FILE, one line per student sorted by name, tab-separated:
//   student  id  platform  late  status  file  shown  note
// status is "found" (file: the absolute path of the file to grade; shown: its name as the student
// knows it), "missing" (none), "refused" (a symbolic link) or "odd name" (a name that holds a tab, a
// newline or a ';'); the note says what else was there ("also found: ...", "2 files sent: ..."), or
// why it was refused. --only (names separated by tabs, so that "Jane Doe" is one) keeps the students
// named and refuses a name that is not in the class. Files of the download that belong to no known form are
// named, one line each, and left out. Exit code: 0, or 2 with one line.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/errors.h"
#include "course/program.h"
#include "course/submission_names.h"

namespace fs = std::filesystem;

namespace {

const char* const kProgram = "course_intake";

// One student of the class, as found.
struct Student {
  std::string name;
  std::string id;        // the platform's number for the student, "" without one
  std::string platform;  // "canvas", "moodle" or ""
  bool late = false;
  fs::path folder;                 // the student's folder (folder form)
  bool folder_is_link = false;     // the folder is a symbolic link
  std::vector<fs::path> files;     // the student's files (flat form)
  std::vector<std::string> shown;  // each file's own name (flat form), as the student sent it
};

// A name that cannot go into the list (or through CMake's lists, or a gradebook row) as it is.
bool odd(const std::string& text) { return text.find_first_of("\t\n\r;") != std::string::npos; }

std::string joined(const std::vector<std::string>& parts, const std::string& between) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : between) + part;
  return text;
}

// A student's folder: its name, or Moodle's "Full Name_ID_assignsubmission_TYPE".
Student student_of_folder(const fs::path& folder) {
  Student s;
  s.folder = folder;
  s.name = folder.filename().string();
  if (const auto moodle = course::parse_moodle_folder(s.name)) {
    s.name = moodle->first;
    s.id = moodle->second;
    s.platform = "moodle";
  }
  return s;
}

// One line of the list: the fields, tab-separated.
struct Row {
  std::string status, file, shown, note;
};

// The file to grade in a student's folder: NAME.cu (or a numbered copy of it, the latest) under a copy
// of exercises/ first, else the first folder by path; the note names the others. Symbolic links are
// neither followed nor graded.
Row choose_in_folder(const Student& s, const std::string& exercise) {
  if (s.folder_is_link) return {"refused", "", "", "the student's folder is a symbolic link, which grading does not follow"};
  struct Found {
    std::string path;  // relative to the student's folder
    long number;       // its copy number
    bool link;
  };
  std::vector<Found> found;
  for (auto it = fs::recursive_directory_iterator(s.folder, fs::directory_options::skip_permission_denied);
       it != fs::recursive_directory_iterator(); ++it) {
    const long number = course::copy_number(it->path().filename().string(), exercise);
    if (number < 0 || it->is_directory()) continue;
    const bool link = it->is_symlink();
    if (link || it->is_regular_file()) found.push_back({it->path().lexically_relative(s.folder).string(), number, link});
  }
  if (found.empty()) return {"missing", "", "", "no " + exercise + " in the folder"};
  auto in_exercises = [](const Found& f) {
    return f.path.rfind("exercises/", 0) == 0 || f.path.find("/exercises/") != std::string::npos;
  };
  auto folder_of = [](const Found& f) { return fs::path(f.path).parent_path().string(); };
  // The folder: exercises/ first, else the first by path; in it, the latest copy.
  std::sort(found.begin(), found.end(), [&](const Found& a, const Found& b) {
    if (in_exercises(a) != in_exercises(b)) return in_exercises(a);
    if (folder_of(a) != folder_of(b)) return folder_of(a) < folder_of(b);
    return a.number > b.number;
  });
  const Found chosen = found.front();
  found.erase(found.begin());
  if (chosen.link)
    return {"refused", "", "", chosen.path + " is a symbolic link, which grading does not follow: send the file itself"};
  Row row{"found", (s.folder / chosen.path).string(), chosen.path, ""};
  std::vector<std::string> others;
  for (const Found& f : found) others.push_back(f.path);
  std::sort(others.begin(), others.end());
  if (!others.empty()) row.note = "also found: " + joined(others, ", ");
  if (fs::path(chosen.path).filename() != exercise)
    row.note = "graded " + fs::path(chosen.path).filename().string() + " as " + exercise + (row.note.empty() ? "" : "; " + row.note);
  if (odd(row.file)) return {"odd name", "", "", exercise + " is in a folder whose name holds a tab, a newline or ';'"};
  return row;
}

// The file to grade among a student's files of a flat download: the latest of NAME.cu (0) and
// Canvas's renamed copies NAME-N.cu (N).
Row choose_among_files(const Student& s, const std::string& exercise) {
  long latest = -1;
  std::size_t chosen = 0;
  for (std::size_t i = 0; i < s.files.size(); ++i) {
    const long number = course::copy_number(s.shown[i], exercise);
    if (number > latest) {
      latest = number;
      chosen = i;
    }
  }
  std::vector<std::string> names = s.shown;
  std::sort(names.begin(), names.end());
  const std::string sent = std::to_string(names.size()) + (names.size() == 1 ? " file" : " files") + " sent: " +
                           joined(names, ", ");
  if (latest < 0) return {"missing", "", "", "no " + exercise + " among the " + sent};
  if (fs::is_symlink(s.files[chosen]))
    return {"refused", "", "", s.shown[chosen] + " is a symbolic link, which grading does not follow: send the file itself"};
  Row row{"found", s.files[chosen].string(), s.shown[chosen], ""};
  if (names.size() > 1) row.note = "graded " + s.shown[chosen] + " of the " + sent;
  if (odd(row.file)) return {"odd name", "", "", "the file's name holds a tab, a newline or ';'"};
  return row;
}

void write_list(const fs::path& submissions, const std::string& exercise, const fs::path& list_file,
                const std::string& only) {
  if (!fs::is_directory(submissions)) throw course::UsageError(submissions.string() + ": no such folder");
  const fs::path root = fs::canonical(submissions);
  // Students by the key they are listed under; files of a download gathered by name and id.
  std::map<std::string, Student> students;
  std::map<std::pair<std::string, std::string>, Student> downloaded;
  std::vector<Student> folders;
  std::vector<std::string> unknown;
  for (const fs::directory_entry& entry : fs::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name[0] == '.') continue;
    if (entry.is_directory()) {
      Student s = student_of_folder(entry.path());
      s.folder_is_link = entry.is_symlink();
      folders.push_back(s);
    } else if (entry.is_regular_file()) {
      const auto parsed = course::parse_download_name(name);
      if (!parsed) {
        unknown.push_back(name);
        continue;
      }
      Student s;
      s.name = parsed->student;
      s.id = parsed->id;
      s.platform = parsed->platform;
      s.late = parsed->late;
      const std::string own_name = parsed->own_name;
      Student& gathered = downloaded[{s.name, s.id}];
      if (gathered.name.empty()) gathered = s;
      gathered.late = gathered.late || s.late;
      gathered.files.push_back(entry.path());
      gathered.shown.push_back(own_name);
    }
  }
  // Two students of one name (Moodle's folders of two participants, a download's two ids) are listed
  // as NAME-ID.
  std::map<std::string, int> per_name;
  for (const Student& s : folders) ++per_name[s.name];
  for (Student& s : folders) {
    const std::string listed = per_name[s.name] > 1 && !s.id.empty() ? s.name + "-" + s.id : s.name;
    if (students.count(listed))
      throw course::UsageError("two folders of " + submissions.string() + " are the student '" + listed + "'");
    s.name = listed;
    students[listed] = s;
  }
  per_name.clear();
  for (const auto& [key, s] : downloaded) ++per_name[key.first];
  for (auto& [key, s] : downloaded) {
    const std::string listed = per_name[key.first] > 1 ? s.name + "-" + s.id : s.name;
    if (students.count(listed))
      throw course::UsageError("the student '" + listed + "' has both a folder and files in " + submissions.string());
    s.name = listed;
    students[listed] = s;
  }
  for (const std::string& name : unknown)
    std::cerr << kProgram << ": left out, not one student's file of a known download (Canvas, Moodle): " << name << "\n";
  if (students.empty()) throw course::UsageError(submissions.string() + " holds no student's folder and no file of a known download");

  std::set<std::string> kept;
  std::istringstream names(only);
  for (std::string name; std::getline(names, name, '\t');) {
    if (name.empty()) continue;
    if (!students.count(name)) throw course::UsageError("--only: no student '" + name + "' in " + submissions.string());
    kept.insert(name);
  }
  std::ofstream out(list_file);
  for (const auto& [key, s] : students) {
    if (!kept.empty() && !kept.count(key)) continue;
    Row row;
    if (odd(key)) {
      row = {"odd name", "", "", "the student's name holds a tab, a newline or ';': rename the folder"};
    } else {
      row = s.folder.empty() ? choose_among_files(s, exercise) : choose_in_folder(s, exercise);
    }
    const std::string safe_key = odd(key) ? std::regex_replace(key, std::regex("[\t\n\r;]"), "_") : key;
    out << safe_key << '\t' << s.id << '\t' << s.platform << '\t' << (s.late ? "late" : "") << '\t' << row.status << '\t'
        << row.file << '\t' << row.shown << '\t' << row.note << '\n';
  }
  if (!out) throw course::UsageError(list_file.string() + ": cannot be written");
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program(kProgram, [&] {
    course::CommandLine cli(kProgram, "Lists the class to grade from a folder of submissions: one folder per student, "
                                      "or a learning platform's bulk download.");
    cli.add_text("submissions", "", "the folder of submissions", "DIR");
    cli.add_text("exercise", "", "the exercise's file, e.g. argmax.cu", "NAME.cu");
    cli.add_text("list", "", "where the list goes", "FILE");
    cli.add_text("only", "", "only these students, separated by tabs (a name may hold spaces)", "STUDENT...");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (!cli.given("submissions") || !cli.given("exercise") || !cli.given("list"))
      throw course::UsageError("--submissions, --exercise and --list are required");
    write_list(cli.text("submissions"), cli.text("exercise"), cli.text("list"), cli.text("only"));
    return course::kExitPass;
  });
}
