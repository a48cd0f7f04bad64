/// @file submission_names.h
/// @brief How `./course grade-class` reads the names of what an instructor collected (course_intake):
/// the flat files of a Canvas or Moodle bulk download, Moodle's folders, and the copies of the
/// exercise's file that the platforms and browsers number. The names come from students and their
/// platforms, so each reader takes any bytes (a fuzz test gives them) and says "not this form" rather
/// than guess.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace course {

/// One file of a bulk download, as its name tells.
struct DownloadName {
  std::string student;   ///< Canvas's sortable name ("doejane") or Moodle's full name ("Jane Doe")
  std::string id;        ///< the platform's number for the student
  std::string platform;  ///< "canvas" or "moodle"
  bool late = false;     ///< Canvas marked it late
  std::string own_name;  ///< the file's name as the student sent it ("argmax-1.cu")
};

/// The student and the file's own name of a download's file:
///   Canvas  doejane_4207_81234_argmax.cu, doejane_late_4207_81240_argmax-1.cu
///   Moodle  Jane Doe_4207_assignsubmission_file_argmax.cu
/// Nothing for a name of another form.
std::optional<DownloadName> parse_download_name(const std::string& file_name);

/// The student's name and participant number of a folder of Moodle's download in folders
/// ("Jane Doe_4207_assignsubmission_file", with or without a last '_'); nothing for another name.
std::optional<std::pair<std::string, std::string>> parse_moodle_folder(const std::string& folder_name);

/// How @p name stands to the exercise's file name @p exercise: 0 for the name itself (its letters in
/// any case), N for a copy the platforms or a browser numbered N ("argmax-2.cu", Canvas's; "argmax
/// (1).cu" and "argmax(1).cu", a browser's; N of at most 6 digits), -1 for any other name.
long copy_number(const std::string& name, const std::string& exercise);

}  // namespace course
