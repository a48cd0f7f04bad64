# Writes a new lesson from the template in common/templates/new-lesson: a CPU step, a naive GPU step,
# their tests, the lesson's driver and README, one exercise with its stub, solution and grading test,
# and a row in the README's table of lessons. Run by `./course new-lesson NN NAME`, which checks the
# arguments first:
#   cmake -DROOT=<course> -DNUMBER=06 -DNAME=scale-shift -P cmake/NewLesson.cmake
# Every file's text and path has @NN@ (the number), @SLUG@ (the name), @TITLE@ (the name as words) and
# @FILE@ (the name as a C++ identifier: the driver's files and namespace) replaced.
foreach(variable ROOT NUMBER NAME)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "NewLesson.cmake needs -D${variable}=...")
  endif()
endforeach()
set(NN ${NUMBER})
set(SLUG ${NAME})
string(REPLACE "-" "_" FILE ${NAME})
string(REPLACE "-" " " words ${NAME})
string(SUBSTRING "${words}" 0 1 first)
string(TOUPPER "${first}" first)
string(SUBSTRING "${words}" 1 -1 rest)
set(TITLE "${first}${rest}")

set(template ${ROOT}/common/templates/new-lesson)
file(GLOB_RECURSE files RELATIVE ${template} ${template}/*)
foreach(file IN LISTS files)
  string(CONFIGURE "${file}" target @ONLY)
  configure_file(${template}/${file} ${ROOT}/${target} @ONLY)
  message(STATUS "wrote ${target}")
endforeach()

# The README's table of lessons gets a row after its last one.
file(READ ${ROOT}/README.md readme)
string(REGEX MATCHALL "\n\\| \\[[0-9][0-9] [^\n]*" rows "${readme}")
if(rows)
  list(GET rows -1 last)
  set(row "\n| [${NN} ${words}](lessons/${NN}-${SLUG}/README.md) | the lesson's problem | CPU loop, naive GPU |")
  string(REPLACE "${last}" "${last}${row}" readme "${readme}")
  file(WRITE ${ROOT}/README.md "${readme}")
  message(STATUS "added lesson ${NN} to the table of lessons in README.md")
endif()
