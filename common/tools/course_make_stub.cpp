// course_make_stub: an exercise's stub is its solution with the answers taken out. The solution file
// is the one source; this tool writes the stub from it, or checks that the stub in the repository is
// exactly what it would write (a test does, for every exercise, so the two cannot drift apart).
// With --all ROOT it writes the stub of every solution of the course in ROOT that has answers marked
// (solutions/NN-name/X.cu to exercises/NN-name/X.cu), naming each file it wrote: ./course make-stubs.
//
// In a solution file:
//   // >>> solution          starts the lines that only the solution has (the answer to a TODO)
//   // <<<                   ends them
//   // stub: <text>          a line that only the stub has: in the stub it becomes <text>, at the
//                            same indentation (a placeholder such as `return a;`, or a line of the
//                            stub's header comment such as `// ... YOUR CODE GOES HERE.`)
// Every other line is the same in both.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "course/cli.h"
#include "course/delimited_text.h"
#include "course/errors.h"
#include "course/process.h"
#include "course/program.h"

namespace {

std::string trimmed(const std::string& line) {
  const auto first = line.find_first_not_of(" \t");
  return first == std::string::npos ? "" : line.substr(first);
}

std::string stub_of(const std::string& solution, const std::string& name) {
  std::ostringstream out;
  bool in_answer = false;
  int line_number = 0, opened_at = 0;
  for (const std::string& line : course::lines_of(solution)) {
    ++line_number;
    const std::string text = trimmed(line);
    if (text == "// >>> solution") {
      if (in_answer) throw course::UsageError(name + ":" + std::to_string(line_number) + ": '>>> solution' inside another");
      in_answer = true;
      opened_at = line_number;
      continue;
    }
    if (text == "// <<<") {
      if (!in_answer) throw course::UsageError(name + ":" + std::to_string(line_number) + ": '<<<' without '>>> solution'");
      in_answer = false;
      continue;
    }
    if (in_answer) continue;
    if (text.rfind("// stub:", 0) == 0) {
      const std::string indent = line.substr(0, line.size() - text.size());
      std::string code = text.substr(8);
      if (!code.empty() && code[0] == ' ') code = code.substr(1);
      out << (code.empty() ? "" : indent + code) << "\n";
      continue;
    }
    out << line << "\n";
  }
  if (in_answer) throw course::UsageError(name + ":" + std::to_string(opened_at) + ": '>>> solution' never closed");
  return out.str();
}

void write_stub(const std::string& stub, const std::string& path) {
  std::ofstream out(path);
  if (!(out << stub)) throw course::UsageError(path + ": cannot be written");
}

// A free name for a copy of @p path: path.bak, else path.bak.2, path.bak.3, ...
std::string backup_name(const std::string& path) {
  std::string name = path + ".bak";
  for (int k = 2; std::filesystem::exists(name); ++k) name = path + ".bak." + std::to_string(k);
  return name;
}

// Writes the stub of every solution under ROOT/solutions that has answers marked; says which. A stub
// that differs from what its solution makes may hold a student's or an instructor's work: unless
// @p force, nothing is written and the first such stub is named; with @p force each is copied aside
// (STUB.bak) before it is written.
void write_every_stub(const std::string& root, bool force) {
  namespace fs = std::filesystem;
  const fs::path solutions = fs::path(root) / "solutions";
  if (!fs::is_directory(solutions))
    throw course::UsageError(root + " has no solutions/ folder: this is already a student's copy");
  std::vector<fs::path> files;
  for (const fs::directory_entry& lesson : fs::directory_iterator(solutions))
    if (lesson.is_directory())
      for (const fs::directory_entry& file : fs::directory_iterator(lesson.path()))
        if (file.path().extension() == ".cu") files.push_back(file.path());
  std::sort(files.begin(), files.end());
  struct Stub {
    std::string relative, path, text;
    bool exists, edited;
  };
  std::vector<Stub> stubs;
  std::vector<std::string> edited;
  for (const fs::path& file : files) {
    const std::string solution = course::read_text_file(file.string());
    if (solution.find("// >>> solution") == std::string::npos) continue;  // nothing to take out
    Stub stub;
    stub.relative = "exercises/" + (file.parent_path().filename() / file.filename()).string();
    stub.path = (fs::path(root) / stub.relative).string();
    stub.text = stub_of(solution, file.string());
    stub.exists = fs::exists(stub.path);
    stub.edited = stub.exists && course::read_text_file(stub.path) != stub.text;
    if (stub.edited) edited.push_back(stub.relative);
    stubs.push_back(stub);
  }
  if (!edited.empty() && !force)
    throw course::UsageError(edited.front() + (edited.size() > 1 ? " and " + std::to_string(edited.size() - 1) + " more" : "") +
                             " differ from the stubs their solutions make: nothing was written (./course make-stubs --force "
                             "writes them, keeping each edited file as FILE.bak)");
  for (const Stub& stub : stubs) {
    if (stub.exists && !stub.edited) continue;  // already what would be written
    if (stub.edited) {
      const std::string backup = backup_name(stub.path);
      fs::copy_file(stub.path, backup);
      std::cerr << "course_make_stub: kept the edited " << stub.relative << " as " << fs::path(backup).filename().string() << "\n";
    }
    write_stub(stub.text, stub.path);
    std::cerr << "course_make_stub: wrote " << stub.relative << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  return course::run_program("course_make_stub", [&] {
    course::CommandLine cli("course_make_stub", "Writes an exercise's stub from its solution, or checks it.");
    cli.add_text("solution", "", "the solution file (the one source)", "FILE");
    cli.add_text("stub", "", "the stub file to write or check", "FILE");
    cli.add_flag("check", "only check that the stub is what would be written (exit 1 if not)");
    cli.add_text("all", "", "write every stub of the course in DIR from its solution", "DIR");
    cli.add_flag("force", "with --all: also overwrite stubs that differ from their solutions' (each kept as FILE.bak)");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    if (cli.given("all")) {
      if (cli.given("solution") || cli.given("stub") || cli.flag("check"))
        throw course::UsageError("--all takes no --solution, --stub or --check");
      write_every_stub(cli.text("all"), cli.flag("force"));
      return course::kExitPass;
    }
    if (cli.flag("force")) throw course::UsageError("--force goes with --all");
    if (!cli.given("solution") || !cli.given("stub")) throw course::UsageError("--solution and --stub are required");
    const std::string solution = course::read_text_file(cli.text("solution"));
    if (solution.empty()) throw course::UsageError(cli.text("solution") + ": cannot be read");
    const std::string stub = stub_of(solution, cli.text("solution"));
    if (cli.flag("check")) {
      const std::string current = course::read_text_file(cli.text("stub"));
      if (current == stub) return course::kExitPass;
      const auto want = course::lines_of(stub), have = course::lines_of(current);
      std::size_t line = 0;
      while (line < want.size() && line < have.size() && want[line] == have[line]) ++line;
      std::cerr << cli.text("stub") << ":" << line + 1 << ": differs from the stub its solution makes (expected: '"
                << (line < want.size() ? want[line] : "<end of file>") << "'); run ./course make-stubs\n";
      return course::kExitFail;
    }
    write_stub(stub, cli.text("stub"));
    return course::kExitPass;
  });
}
