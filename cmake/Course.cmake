# The course's CMake vocabulary. Every lesson, exercise and test is declared with these functions, so
# names stay predictable: the file lessons/02-max-reduction/06_warp_shuffle.cu becomes the program
# build/bin/lesson02_06_warp_shuffle, its tests are named "lesson02.06_warp_shuffle: ...", and the
# runner finds it in build/bin/course_manifest.tsv.

set(COURSE_MANIFEST_LINES "" CACHE INTERNAL "")
set_property(GLOBAL PROPERTY COURSE_MANIFEST "")

# course_add_numbered_folders()
# Adds every folder NN-name of the current source folder that has a CMakeLists.txt, in order of NN,
# leaving out the lessons that COURSE_LESSONS does not name (lessons/ and exercises/ share this
# numbering: NN is the lesson).
function(course_add_numbered_folders)
  file(GLOB folders RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/[0-9][0-9]-*)
  list(SORT folders)
  foreach(folder IN LISTS folders)
    string(SUBSTRING ${folder} 0 2 number)
    if(COURSE_LESSONS AND NOT number IN_LIST COURSE_LESSONS)
      continue()
    endif()
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${folder}/CMakeLists.txt)
      add_subdirectory(${folder})
    endif()
  endforeach()
endfunction()

# course_discover_tests(<target> PREFIX <text> LABELS <label>... [WILL_FAIL])
# Registers every Catch2 test case of <target> as its own CTest test named "<PREFIX><case>", with the
# labels given. Exit code 77 means "skipped" (a GPU test on a machine without a GPU). WILL_FAIL turns
# the expectation around: the test passes only if the program fails (used for exercise stubs).
function(course_discover_tests target)
  cmake_parse_arguments(T "WILL_FAIL" "PREFIX" "LABELS" ${ARGN})
  # --warn NoTests: a test whose name picks out no test case fails instead of passing with nothing run
  # (CTest cuts a name at each ';', so a test case named with one would otherwise leave such a test).
  catch_discover_tests(${target} TEST_PREFIX "${T_PREFIX}" TEST_LIST ${target}_TESTS EXTRA_ARGS --warn NoTests)
  # Tests run side by side (ctest -j), and CPU references use OpenMP: waiting threads should sleep,
  # not spin, or the parallel loops of several tests starve each other.
  set(properties "LABELS \"${T_LABELS}\" SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT OMP_WAIT_POLICY=PASSIVE")
  if(T_WILL_FAIL)
    string(APPEND properties " WILL_FAIL TRUE")
  endif()
  # Catch's own PROPERTIES option flattens lists (LABELS a;b), so the properties are set here instead,
  # on the list of tests that discovery leaves in <target>_TESTS.
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_properties.cmake")
  file(WRITE "${include_file}"
    "if(${target}_TESTS)\n"
    "  set_tests_properties(\${${target}_TESTS} PROPERTIES ${properties})\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
  # Its cases' names, read from its sources now, before it is built, so that `./course test -R ...`
  # can build only the programs whose tests it runs (course_catch_tests.tsv, beside the manifest).
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  string(REPLACE ";" " " labels "${T_LABELS}")
  set(entry "${target}\t${T_PREFIX}\t${labels}")
  foreach(source IN LISTS sources)
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR ${source_dir})
    if(path MATCHES "\\.(cpp|cu)$" AND EXISTS "${path}")
      file(STRINGS "${path}" lines REGEX "TEST_CASE\\(\"")
      foreach(line IN LISTS lines)
        if(line MATCHES "TEST_CASE\\(\"([^\"]*)\"")
          string(APPEND entry "\t${CMAKE_MATCH_1}")
        endif()
      endforeach()
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY COURSE_CATCH_TESTS "${entry}")
endfunction()

# Appends one line to the manifest the runner reads: lesson, table, target, arguments (tab-separated).
# The programs of each lesson's ladder are also noted for the targets course_ladder_programs (every
# lesson's) and course_ladder_programs_NN (lesson NN's).
function(_course_manifest lesson table target args)
  string(REPLACE ";" " " args "${args}")
  set_property(GLOBAL APPEND PROPERTY COURSE_MANIFEST "${lesson}\t${table}\t${target}\t${args}")
  if(table STREQUAL "ladder")
    set_property(GLOBAL APPEND PROPERTY COURSE_LADDER_PROGRAMS ${target})
    set_property(GLOBAL APPEND PROPERTY COURSE_LADDER_LESSONS ${lesson})
    set_property(GLOBAL APPEND PROPERTY COURSE_LADDER_PROGRAMS_${lesson} ${target})
  endif()
endfunction()

# course_add_lesson(<number> <title> SMALL <arguments>...)
#   e.g. course_add_lesson(02 "Max reduction" SMALL --n 1000003)
# SMALL gives the arguments of a small run of every step, for checks that slow kernels down a
# hundredfold: the compute-sanitizer tests (_course_sanitize) and the compute-sanitizer runs of
# ./course grade-class, which find them in the manifest (a "small" line; the exercises' benchmarks
# take the same size options as the steps).
function(course_add_lesson number title)
  cmake_parse_arguments(L "" "" "SMALL" ${ARGN})
  _course_manifest(${number} "lesson" "-" "${title}")
  if(L_SMALL)
    _course_manifest(${number} "small" "-" "${L_SMALL}")
  endif()
  set_property(GLOBAL PROPERTY COURSE_SMALL_${number} "${L_SMALL}")
endfunction()

# course_add_lesson_library(<target> <sources>...)
# The library of what a lesson's steps share (its driver, its device building blocks): the lesson's
# folder as an include directory, course::common, and OpenMP for the CPU reference where available.
function(course_add_lesson_library target)
  add_library(${target} STATIC ${ARGN})
  target_include_directories(${target} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC course::common)
  if(OpenMP_CXX_FOUND)
    target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
  endif()
endfunction()

# course_add_exercise_support(LESSON <nn> LESSON_LIBRARY <target>)
# exercise<nn>_support: the exercise folder's headers, the lesson's library (the exercises build on
# the lesson) and course::common, for every stub, solution, grader and benchmark of the lesson.
function(course_add_exercise_support)
  cmake_parse_arguments(X "" "LESSON;LESSON_LIBRARY" "" ${ARGN})
  add_library(exercise${X_LESSON}_support INTERFACE)
  target_include_directories(exercise${X_LESSON}_support INTERFACE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(exercise${X_LESSON}_support INTERFACE course::common ${X_LESSON_LIBRARY})
endfunction()

# Where compute-sanitizer is (the CUDA Toolkit's own copy first); an empty result makes the
# sanitizer tests report themselves as skipped.
find_program(COURSE_COMPUTE_SANITIZER compute-sanitizer
             HINTS ${CUDAToolkit_BIN_DIR} ${CUDAToolkit_BIN_DIR}/../compute-sanitizer)

# _course_sanitize(<nn> <target> STEP|REPORT|GRADER [<arguments>...])
# Three tests of one GPU program under compute-sanitizer (memcheck, racecheck, synccheck), named
# "lesson<nn>.<program>.<tool>: ..." ("grading.<nn>.<name>.solution.<tool>: ..." for a grader), labels
# sanitizer, gpu, lesson<nn>. A step runs once on the
# lesson's small size (course_add_lesson's SMALL); a report program runs on its own arguments and the small size; a grader runs every case
# but those of the default (large) size. CPU steps are not sanitized.
function(_course_sanitize lesson target kind)
  if(NOT COURSE_BUILD_TESTS OR target MATCHES "_cpu_")
    return()
  endif()
  string(REGEX REPLACE "^lesson[0-9]+_" "" short ${target})
  set(prefix "lesson${lesson}.${short}")
  set(arguments ${ARGN})
  if(kind STREQUAL "STEP")
    set(arguments --reps 1 --warmup 0 --copy-bandwidth 1 --read-bandwidth 1 ${ARGN})
  endif()
  if(NOT kind STREQUAL "GRADER")
    get_property(small GLOBAL PROPERTY COURSE_SMALL_${lesson})
    list(PREPEND arguments ${small})
  else()
    set(arguments "~*default size*")
    string(REGEX REPLACE "^solution[0-9]+_(.*)_grade$" "\\1" name ${target})
    set(prefix "grading.${lesson}.${name}.solution")
  endif()
  string(REPLACE ";" "|" arguments "${arguments}")
  foreach(tool memcheck racecheck synccheck)
    set(name "${prefix}.${tool}: compute-sanitizer finds no error")
    add_test(NAME "${name}"
             COMMAND ${CMAKE_COMMAND} -DSANITIZER=${COURSE_COMPUTE_SANITIZER} -DTOOL=${tool}
                     -DPROGRAM=$<TARGET_FILE:${target}> "-DARGUMENTS=${arguments}"
                     -P ${PROJECT_SOURCE_DIR}/cmake/Sanitize.cmake)
    set_tests_properties("${name}" PROPERTIES LABELS "sanitizer;gpu;lesson${lesson}" TIMEOUT 600
                         SKIP_REGULAR_EXPRESSION "sanitizer check skipped:")
  endforeach()
endfunction()

# _course_lesson_objects(<variable> <nn> <source>... LIBRARIES <target>...)
# Sets <variable> to an object library of the sources that every step of lesson <nn> shares, the
# lesson's main and its step tests: they name the step only through `kThisStep`, which the step's own
# object defines, so they are compiled once per lesson (lesson<nn>_<first source's name>_objects) and
# linked into each step's program, not compiled again for every step.
function(_course_lesson_objects variable lesson)
  cmake_parse_arguments(O "" "" "LIBRARIES" ${ARGN})
  list(GET O_UNPARSED_ARGUMENTS 0 first)
  get_filename_component(stem ${first} NAME_WE)
  set(name lesson${lesson}_${stem}_objects)
  if(NOT TARGET ${name})
    add_library(${name} OBJECT ${O_UNPARSED_ARGUMENTS})
    target_link_libraries(${name} PRIVATE ${O_LIBRARIES})
  endif()
  set(${variable} ${name} PARENT_SCOPE)
endfunction()

# course_add_step(LESSON <nn> SOURCE <NN_name.cu|.cpp> MAIN <main source> [LIBRARIES ...]
#                 [TEST_SOURCES ...] [TEST_LABELS ...] [TABLE <title>] [RUN_ARGS ...])
# course_add_step(LESSON <nn> SOURCE <NN_name.cu> STANDALONE [LIBRARIES ...] [RUN_ARGS ...] [NO_LADDER]
#                 [SANITIZE_ARGS ...])
# Builds one step of a lesson:
#   lesson<nn>_<NN_name>_kernels  an object library with the step's own code (what the tests link)
#   lesson<nn>_<NN_name>          the step program (the kernels plus the lesson's shared main)
#   lesson<nn>_<NN_name>_test     its tests, when TEST_SOURCES are given (labels: lesson<nn> + TEST_LABELS)
# and lists the program in the runner's ladder for the lesson. A STANDALONE step is a whole program
# in its own file, with its own main (the lesson's page of host code): it is built from SOURCE alone.
# When it has tests (TEST_SOURCES), the file is compiled once with its main renamed (Catch's main
# stays the only one in the tests), so they run the page's own kernels through the lesson's test
# interface, and the program is that object with a main that calls the page's. NO_LADDER leaves the
# step out of the ladder (a step on several GPUs, whose table is its own report); SANITIZE_ARGS go to
# its compute-sanitizer runs.
function(course_add_step)
  cmake_parse_arguments(S "STANDALONE;NO_LADDER" "LESSON;SOURCE;MAIN" "LIBRARIES;TEST_SOURCES;TEST_LABELS;RUN_ARGS;SANITIZE_ARGS"
                        ${ARGN})
  get_filename_component(stem ${S_SOURCE} NAME_WE)
  set(target lesson${S_LESSON}_${stem})
  if(S_STANDALONE AND NOT S_TEST_SOURCES)
    add_executable(${target} ${S_SOURCE})
    target_link_libraries(${target} PRIVATE ${S_LIBRARIES})
    if(NOT S_NO_LADDER)
      _course_manifest(${S_LESSON} "ladder" ${target} "${S_RUN_ARGS}")
    endif()
    _course_sanitize(${S_LESSON} ${target} STEP ${S_SANITIZE_ARGS})
    return()
  elseif(S_STANDALONE)
    # The page is compiled once, with its main renamed, for the program and its tests alike: the
    # program's own main only calls the page's.
    get_filename_component(page ${S_SOURCE} ABSOLUTE)
    get_filename_component(extension ${S_SOURCE} LAST_EXT)
    set(without_main ${CMAKE_CURRENT_BINARY_DIR}/${stem}_without_main${extension})
    file(CONFIGURE OUTPUT ${without_main} CONTENT
         "// Generated: ${S_SOURCE} with its main renamed, for its program and its tests.\n#define main ${target}_program_main\n#include \"${page}\"\n#undef main\n")
    add_library(${target}_kernels OBJECT ${without_main})
    target_include_directories(${target}_kernels PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(${target}_kernels PUBLIC ${S_LIBRARIES})
    set(calling_main ${CMAKE_CURRENT_BINARY_DIR}/${stem}_main.cpp)
    file(CONFIGURE OUTPUT ${calling_main} CONTENT
         "// Generated: the main of ${target}, which runs ${S_SOURCE}'s own.\nint ${target}_program_main(int argc, char** argv);\nint main(int argc, char** argv) { return ${target}_program_main(argc, argv); }\n")
    add_executable(${target} ${calling_main})
    target_link_libraries(${target} PRIVATE ${target}_kernels)
    if(NOT S_NO_LADDER)
      _course_manifest(${S_LESSON} "ladder" ${target} "${S_RUN_ARGS}")
    endif()
    _course_sanitize(${S_LESSON} ${target} STEP ${S_SANITIZE_ARGS})
  else()
    add_library(${target}_kernels OBJECT ${S_SOURCE})
    target_link_libraries(${target}_kernels PUBLIC ${S_LIBRARIES})
    if(stem MATCHES "openmp" AND OpenMP_CXX_FOUND)  # a CPU step on every core
      target_link_libraries(${target}_kernels PUBLIC OpenMP::OpenMP_CXX)
    endif()
    _course_lesson_objects(main_objects ${S_LESSON} ${S_MAIN} LIBRARIES ${S_LIBRARIES})
    add_executable(${target} $<TARGET_OBJECTS:${main_objects}>)
    target_link_libraries(${target} PRIVATE ${target}_kernels)
    if(NOT S_NO_LADDER)
      _course_manifest(${S_LESSON} "ladder" ${target} "${S_RUN_ARGS}")
    endif()
    _course_sanitize(${S_LESSON} ${target} STEP ${S_SANITIZE_ARGS})
  endif()
  if(COURSE_BUILD_TESTS AND S_TEST_SOURCES)
    if("gpu" IN_LIST S_TEST_LABELS)
      set(main course_catch_main_gpu)
    else()
      set(main course_catch_main_cpu)
    endif()
    _course_lesson_objects(test_objects ${S_LESSON} ${S_TEST_SOURCES} LIBRARIES ${S_LIBRARIES} ${main})
    add_executable(${target}_test $<TARGET_OBJECTS:${test_objects}>)
    target_link_libraries(${target}_test PRIVATE ${target}_kernels ${main})
    course_discover_tests(${target}_test PREFIX "lesson${S_LESSON}.${stem}: "
                          LABELS lesson${S_LESSON} ${S_TEST_LABELS})
  endif()
endfunction()

# course_add_gpus_step(LESSON <nn> SOURCE <NN_name.cu> LIBRARIES ... TEST_SOURCES ... ON_EACH <text>
#                      TWO_GPU_ARGS <size option>... [REPORT_ARGS <option>...]
#                      [CASES "<what>|<arguments>|<message>"...])
# A step that runs on every GPU of the machine (--gpus K, --scaling), a STANDALONE page linked with
# NCCL (course_nccl): out of the one-GPU ladder, its table the runner's report of --scaling (with
# REPORT_ARGS, the size of that table); its tests
# (label gpu), compute-sanitizer on one GPU (--gpus 1), its usage tests (the defaults, --gpus 0,
# --scaling with --gpus, and CASES), and "<step>: PASSes on 2 GPUs, <ON_EACH> on each (skipped with
# fewer)", which runs common/tests/test_two_gpus.sh with TWO_GPU_ARGS.
function(course_add_gpus_step)
  cmake_parse_arguments(G "" "LESSON;SOURCE;ON_EACH" "LIBRARIES;TEST_SOURCES;TWO_GPU_ARGS;REPORT_ARGS;CASES" ${ARGN})
  get_filename_component(stem ${G_SOURCE} NAME_WE)
  set(target lesson${G_LESSON}_${stem})
  course_add_step(LESSON ${G_LESSON} SOURCE ${G_SOURCE} STANDALONE NO_LADDER LIBRARIES ${G_LIBRARIES} course_nccl
                  TEST_SOURCES ${G_TEST_SOURCES} TEST_LABELS gpu SANITIZE_ARGS --gpus 1)
  course_add_report(LESSON ${G_LESSON} TARGET ${target} ARGS --scaling ${G_REPORT_ARGS} NO_SANITIZE)
  if(NOT COURSE_BUILD_TESTS)
    return()
  endif()
  course_add_usage_tests(LESSON ${G_LESSON} PROGRAMS ${target})
  course_add_usage_tests(LESSON ${G_LESSON} PROGRAMS ${target} NO_DEFAULTS CASES
    "--gpus 0|--gpus 0|--gpus: 0 is out of range [1, 4096]"
    "--scaling with --gpus|--scaling --gpus 2|--scaling runs every number of GPUs: leave out --gpus"
    ${G_CASES})
  set(name "lesson${G_LESSON}.${stem}: PASSes on 2 GPUs, ${G_ON_EACH} on each (skipped with fewer)")
  add_test(NAME "${name}"
           COMMAND bash ${PROJECT_SOURCE_DIR}/common/tests/run_with_gpus.sh 2
                   bash ${PROJECT_SOURCE_DIR}/common/tests/test_two_gpus.sh $<TARGET_FILE:${target}> ${G_TWO_GPU_ARGS})
  set_tests_properties("${name}" PROPERTIES LABELS "gpu;lesson${G_LESSON}" SKIP_RETURN_CODE 77)
endfunction()

# course_add_steps(LESSON <nn> LIBRARIES <target>... STEPS <NN_name.cpp|.cu>...)
# A lesson's usual steps, in ladder order: each is its file plus the lesson's main (step_main.cpp),
# tested by tests/test_cpu_step.cpp (a .cpp step, label cpu) or tests/test_gpu_step.cpp (a .cu step,
# label gpu). A step whose name holds "cublas" is also linked with cuBLAS.
function(course_add_steps)
  cmake_parse_arguments(S "" "LESSON" "LIBRARIES;STEPS" ${ARGN})
  foreach(step IN LISTS S_STEPS)
    set(libraries ${S_LIBRARIES})
    if(step MATCHES "cublas")
      list(APPEND libraries CUDA::cublas)
    endif()
    set(side cpu)
    if(step MATCHES "\\.cu$")
      set(side gpu)
    endif()
    course_add_step(LESSON ${S_LESSON} SOURCE ${step} MAIN step_main.cpp LIBRARIES ${libraries}
                    TEST_SOURCES tests/test_${side}_step.cpp TEST_LABELS ${side})
  endforeach()
endfunction()

# course_add_ladder_run(LESSON <nn> TABLE <title> STEPS <target>... ARGS ...)
# Asks the runner for one more table: the given step programs run again with extra arguments
# (for instance the fastest steps at a larger size).
function(course_add_ladder_run)
  cmake_parse_arguments(R "" "LESSON;TABLE" "STEPS;ARGS" ${ARGN})
  foreach(step IN LISTS R_STEPS)
    _course_manifest(${R_LESSON} "${R_TABLE}" ${step} "${R_ARGS}")
  endforeach()
endfunction()

# course_add_sweep(LESSON <nn> TABLE <title> STEPS <target>[<=<row label>]... ROWS "<label>|<arguments>"...
#                  [ARGS <arguments>...] [STUDY <csv file>] [LABEL <heading of the row labels>])
# Asks the runner for a sweep table: every step run with ARGS plus each row's arguments, one row per
# argument set, each step's median time in a column, the fastest step of the row, and the original
# study's figures (a CSV file: a header line, then one line per row label, times in ms) beside them.
# A step written <target><=<label> runs only up to that row (a CPU step too slow for the largest sizes).
function(course_add_sweep)
  cmake_parse_arguments(W "" "LESSON;TABLE;STUDY;LABEL" "STEPS;ROWS;ARGS" ${ARGN})
  if(NOT DEFINED W_LABEL OR W_LABEL STREQUAL "")  # "n" is a heading, not a false value
    set(W_LABEL size)
  endif()
  set(study "")
  if(W_STUDY)
    get_filename_component(study ${W_STUDY} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  string(REPLACE ";" " " args "${W_ARGS}")
  _course_manifest(${W_LESSON} "sweep" "-" "${W_TABLE}|${W_LABEL}|${study}|${args}")
  foreach(step IN LISTS W_STEPS)
    _course_manifest(${W_LESSON} "sweep-step" "${step}" "${W_TABLE}")
  endforeach()
  foreach(row IN LISTS W_ROWS)
    _course_manifest(${W_LESSON} "sweep-row" "-" "${W_TABLE}|${row}")
  endforeach()
endfunction()

# course_add_profile(LESSON <nn> ARGS <arguments>... ELEMENTS <count> COUNTERS <key>... [SKIP <target>...])
# What `./course profile <nn>` shows: every GPU step of the ladder run under Nsight Compute with ARGS
# (a size that profiles in seconds), the counters named (see `course_profile --counters`), ELEMENTS
# the problem's element count at that size (for the per-element counters). SKIP leaves out steps too
# slow to replay (they can still be profiled alone, by step number).
function(course_add_profile)
  cmake_parse_arguments(P "" "LESSON;ELEMENTS" "ARGS;COUNTERS;SKIP" ${ARGN})
  string(REPLACE ";" " " args "${P_ARGS}")
  string(REPLACE ";" " " counters "${P_COUNTERS}")
  string(REPLACE ";" " " skip "${P_SKIP}")
  _course_manifest(${P_LESSON} "profile" "-" "${args}|${P_ELEMENTS}|${counters}|${skip}")
endfunction()

# course_add_report(LESSON <nn> TARGET <target> [ARGS ...] [RESULTS])
# A program of the lesson that prints its own table (a launch-configuration sweep, transfer costs);
# the runner runs it after the ladder and shows its output as it is. With RESULTS the runner also
# passes `--results <folder>`, where the program may write files of its own (a chart).
function(course_add_report)
  cmake_parse_arguments(R "RESULTS;NO_SANITIZE" "LESSON;TARGET" "ARGS" ${ARGN})
  if(R_RESULTS)
    _course_manifest(${R_LESSON} "report+results" ${R_TARGET} "${R_ARGS}")
  else()
    _course_manifest(${R_LESSON} "report" ${R_TARGET} "${R_ARGS}")
  endif()
  if(NOT R_NO_SANITIZE)
    _course_sanitize(${R_LESSON} ${R_TARGET} REPORT ${R_ARGS})
  endif()
endfunction()

# course_add_exercise(LESSON <nn> NAME <name> SOURCE <file> GRADER <test source> PROBLEM <class>
#                     [LIBRARIES ...])
# One exercise: exercises/<lesson>/<file> is the stub a student fills in, solutions/<lesson>/<file> the
# completed version, and PROBLEM the class in the lesson's exercise_support.h that states its problem
# for the exercise harness (course/exercise.h). Builds
#   exercise<nn>_<name>_grade / solution<nn>_<name>_grade  the grading test against each
#   exercise<nn>_<name>_bench / solution<nn>_<name>_bench  a timed run of each, for the performance report
#                                                          (the harness's benchmark main, written here)
#   exercise<nn>_<name>_contestant / solution<nn>_<name>_contestant
#                                                          each as ./course grade-class runs a student's
#                                                          code: answering the judge (course/contestant.h)
#   exercise<nn>_<name>_judge                              the grading test as grade-class's judge
#                                                          (course/judge.h): linked with no answer at all
# Without the solution (a student's copy made by ./course handout) only the student's side is built,
# and its grading test is "grading.<nn>.<name>: ...".
# Tests: "grading.<nn>.<name>.solution: ..." must pass; with COURSE_CHECK_STUBS,
# "grading.<nn>.<name>.stub-must-fail: ..." passes only while the stub still fails its grading test;
# "grading.<nn>.<name>.judge: ..." the judge passes the solution's contestant and fails the stub's, and
# trusts the solution's time.
function(course_add_exercise)
  cmake_parse_arguments(E "" "LESSON;NAME;SOURCE;GRADER;PROBLEM" "LIBRARIES" ${ARGN})
  if(NOT E_PROBLEM)
    message(FATAL_ERROR "course_add_exercise(${E_LESSON} ${E_NAME}): PROBLEM <class> is missing (see course/exercise.h)")
  endif()
  file(GLOB lesson_dir RELATIVE ${PROJECT_SOURCE_DIR}/exercises ${PROJECT_SOURCE_DIR}/exercises/${E_LESSON}-*)
  set(solution_file ${PROJECT_SOURCE_DIR}/solutions/${lesson_dir}/${E_SOURCE})
  set(exercise_file ${PROJECT_SOURCE_DIR}/exercises/${lesson_dir}/${E_SOURCE})
  # The mains written here: the benchmark's, the contestant's and the judge's, each the harness's for
  # this exercise's problem.
  foreach(kind IN ITEMS bench contestant judge)
    set(main_of_${kind} ${CMAKE_CURRENT_BINARY_DIR}/${kind}_${E_NAME}.cpp)
  endforeach()
  file(CONFIGURE OUTPUT ${main_of_bench} CONTENT
       "// Written by course_add_exercise: the benchmark of exercise ${E_LESSON} ${E_NAME} (course/exercise.h).\n#include \"exercise_support.h\"\n\nint main(int argc, char** argv) { return course::exercise_bench_main<${E_PROBLEM}>(argc, argv); }\n")
  file(CONFIGURE OUTPUT ${main_of_contestant} CONTENT
       "// Written by course_add_exercise: the contestant of exercise ${E_LESSON} ${E_NAME} (course/contestant.h).\n#include \"course/contestant.h\"\n#include \"exercise_support.h\"\n\nint main(int argc, char** argv) { return course::contestant::contestant_main<${E_PROBLEM}>(argc, argv); }\n")
  file(CONFIGURE OUTPUT ${main_of_judge} CONTENT
       "// Written by course_add_exercise: the judge of exercise ${E_LESSON} ${E_NAME} (course/judge.h).\n#include \"course/judge.h\"\n#include \"exercise_support.h\"\n\nint main(int argc, char** argv) { return course::judge::judge_main<${E_PROBLEM}>(argc, argv); }\n")
  # The instructor's hidden test cases (solutions/<lesson>/grade_<name>_hidden.cpp, tagged [hidden]): in
  # the grading test of the solution (which must pass them) and of the stub (which must fail them), never
  # in a student's copy, which has no solutions/.
  set(hidden_grader ${PROJECT_SOURCE_DIR}/solutions/${lesson_dir}/grade_${E_NAME}_hidden.cpp)
  # Grading a class (./course grade-class): the judge once for the class, and each student's file built
  # into a contestant; of the solution nothing.
  if(COURSE_SUBMISSIONS AND COURSE_SUBMISSION_EXERCISE STREQUAL "${E_LESSON}_${E_NAME}")
    _course_add_submissions(${E_LESSON} ${E_NAME} ${E_GRADER} ${main_of_contestant} ${main_of_judge} ${exercise_file}
                            "${E_LIBRARIES}")
    return()
  endif()
  # A student's copy of the course (./course handout) has no solutions: only the student's side is
  # built, and its grading test is the student's to pass.
  set(sides exercise)
  if(solution_file AND EXISTS ${solution_file})
    list(APPEND sides solution)
  endif()
  set(graders ${E_GRADER})
  if(EXISTS ${hidden_grader})
    list(APPEND graders ${hidden_grader})
  endif()
  if(EXISTS ${PROJECT_SOURCE_DIR}/solutions/${lesson_dir})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/solutions/${lesson_dir})
  endif()
  foreach(side IN LISTS sides)
    if(side STREQUAL "exercise")
      set(source ${exercise_file})
    else()
      set(source ${solution_file})
    endif()
    set(base ${side}${E_LESSON}_${E_NAME})
    add_library(${base}_impl OBJECT ${source})
    target_link_libraries(${base}_impl PUBLIC ${E_LIBRARIES})
    add_executable(${base}_bench ${main_of_bench})
    target_link_libraries(${base}_bench PRIVATE ${base}_impl)
    if(COURSE_BUILD_TESTS)
      add_executable(${base}_grade ${graders})
      target_link_libraries(${base}_grade PRIVATE ${base}_impl course_catch_main_gpu)
      add_executable(${base}_contestant ${main_of_contestant})
      target_link_libraries(${base}_contestant PRIVATE ${base}_impl)
    endif()
  endforeach()
  if(NOT solution_file OR NOT EXISTS ${solution_file})
    if(COURSE_BUILD_TESTS)
      course_discover_tests(exercise${E_LESSON}_${E_NAME}_grade PREFIX "grading.${E_LESSON}.${E_NAME}: "
                            LABELS grading gpu lesson${E_LESSON})
    endif()
    return()
  endif()
  # The stub is the solution with its answers taken out (course_make_stub): a test checks that the
  # stub in the repository is exactly that, so the two cannot drift apart.
  file(READ ${solution_file} solution_text)
  if(BUILD_TESTING AND solution_text MATCHES "// >>> solution")
    set(name "grading.${E_LESSON}.${E_NAME}.stub: the stub is the solution with its answers taken out")
    add_test(NAME "${name}" COMMAND course_make_stub --check --solution ${solution_file}
             --stub ${PROJECT_SOURCE_DIR}/exercises/${lesson_dir}/${E_SOURCE})
    set_tests_properties("${name}" PROPERTIES LABELS "cpu;grading;lesson${E_LESSON}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${solution_file})
  if(COURSE_BUILD_TESTS)
    course_discover_tests(solution${E_LESSON}_${E_NAME}_grade PREFIX "grading.${E_LESSON}.${E_NAME}.solution: "
                          LABELS grading gpu lesson${E_LESSON})
    _course_sanitize(${E_LESSON} solution${E_LESSON}_${E_NAME}_grade GRADER)
    # The check ./course grade and grade-class run on a submission that passes every case must find
    # nothing in the solution, or every student would lose points for it.
    get_property(small GLOBAL PROPERTY COURSE_SMALL_${E_LESSON})
    set(name "grading.${E_LESSON}.${E_NAME}.solution: the graders' compute-sanitizer check finds nothing")
    add_test(NAME "${name}" COMMAND bash ${PROJECT_SOURCE_DIR}/common/tools/sanitize_submission.sh
             "${COURSE_COMPUTE_SANITIZER}" $<TARGET_FILE:solution${E_LESSON}_${E_NAME}_bench> ${solution_file} ${small})
    set_tests_properties("${name}" PROPERTIES LABELS "sanitizer;gpu;grading;lesson${E_LESSON}" TIMEOUT 600
                         SKIP_RETURN_CODE 77)
    if(COURSE_CHECK_STUBS)
      course_discover_tests(exercise${E_LESSON}_${E_NAME}_grade
                            PREFIX "grading.${E_LESSON}.${E_NAME}.stub-must-fail: "
                            LABELS stubcheck gpu lesson${E_LESSON} WILL_FAIL)
    endif()
    # The judge: the same cases, every answer from a contestant process. The solution's must pass them
    # all (every input drawn afresh), the stub's must not, and the solution's time, on the lesson's
    # small size, must be trusted.
    set(judge exercise${E_LESSON}_${E_NAME}_judge)
    add_executable(${judge} ${graders} ${main_of_judge})
    target_link_libraries(${judge} PRIVATE ${E_LIBRARIES} course_judge)
    target_compile_definitions(${judge} PRIVATE COURSE_JUDGE=1)
    set(prefix "grading.${E_LESSON}.${E_NAME}.judge")
    set(contestant $<TARGET_FILE:solution${E_LESSON}_${E_NAME}_contestant>)
    add_test(NAME "${prefix}: the solution's contestant passes every case, each input drawn afresh"
             COMMAND ${judge} --contestant ${contestant} --time-limit 600)
    add_test(NAME "${prefix}: the stub's contestant fails"
             COMMAND ${judge} --contestant $<TARGET_FILE:exercise${E_LESSON}_${E_NAME}_contestant> --time-limit 600)
    add_test(NAME "${prefix}: the solution's time on the small size is trusted"
             COMMAND ${judge} --time --runs 5 --contestant ${contestant} --time-limit 600 -- ${small})
    set_tests_properties("${prefix}: the solution's contestant passes every case, each input drawn afresh"
                         "${prefix}: the stub's contestant fails" "${prefix}: the solution's time on the small size is trusted"
                         PROPERTIES LABELS "grading;gpu;lesson${E_LESSON}" SKIP_RETURN_CODE 77 TIMEOUT 900)
    set_tests_properties("${prefix}: the stub's contestant fails" PROPERTIES WILL_FAIL ON)
  endif()
endfunction()

# The targets of ./course grade-class, in the class's build tree (a copy of the course without
# solutions/, configured with COURSE_SUBMISSIONS): once for the class,
#   <exercise>_judge    the grading test (with the instructor's hidden cases of COURSE_HIDDEN_TESTS,
#                       where given) as the judge (course/judge.h): it lists the cases, runs them, times
#                       and checks the compute-sanitizer run, and is linked with no submission at all;
# and for the student numbered K in that list,
#   submission_K_impl   the student's file alone, as a shared library (bin/students/K/libsubmission.so)
#                       that exports only the exercise's contract, the functions the contestant calls
#                       (<exercise>_contract.map, from the stub's symbols); whatever else the file
#                       defines (a main, a definition of the course's own functions) stays inside it.
#                       Compiled through COURSE_SUBMISSION_LAUNCHER (common/tools/compile_submission.sh:
#                       confined, time-, memory- and output-limited).
#   submission_K_contestant  the contestant (course/contestant.h) linked to it, written to
#                       bin/students/K/<exercise>_contestant.
function(_course_add_submissions lesson name grader contestant_main judge_main stub libraries)
  set(base exercise${lesson}_${name})
  set(graders ${grader})
  if(COURSE_HIDDEN_TESTS)
    if(NOT EXISTS ${COURSE_HIDDEN_TESTS})
      message(FATAL_ERROR "COURSE_HIDDEN_TESTS: ${COURSE_HIDDEN_TESTS} does not exist")
    endif()
    list(APPEND graders ${COURSE_HIDDEN_TESTS})
  endif()
  add_executable(${base}_judge ${graders} ${judge_main})
  target_link_libraries(${base}_judge PRIVATE ${libraries} course_judge)
  target_compile_definitions(${base}_judge PRIVATE COURSE_JUDGE=1)
  add_library(${base}_stub_impl OBJECT ${stub})
  target_link_libraries(${base}_stub_impl PUBLIC ${libraries})
  add_library(${base}_contestant_objects OBJECT ${contestant_main})
  target_link_libraries(${base}_contestant_objects PUBLIC ${libraries})
  # The contract: what the stub defines that the contestant calls.
  set(contract ${CMAKE_CURRENT_BINARY_DIR}/${base}_contract.map)
  add_custom_command(OUTPUT ${contract}
    COMMAND bash ${PROJECT_SOURCE_DIR}/common/tools/contract_symbols.sh ${contract}
            "$<TARGET_OBJECTS:${base}_stub_impl>" -- "$<TARGET_OBJECTS:${base}_contestant_objects>"
    DEPENDS ${PROJECT_SOURCE_DIR}/common/tools/contract_symbols.sh ${base}_stub_impl ${base}_contestant_objects
            "$<TARGET_OBJECTS:${base}_stub_impl>" "$<TARGET_OBJECTS:${base}_contestant_objects>"
    COMMENT "The contract of exercise ${lesson} ${name}: the symbols a submission exports"
    COMMAND_EXPAND_LISTS VERBATIM)
  add_custom_target(${base}_contract DEPENDS ${contract})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${COURSE_SUBMISSIONS})
  file(STRINGS ${COURSE_SUBMISSIONS} entries)
  foreach(entry IN LISTS entries)
    if(NOT entry MATCHES "^([0-9]+)\t(.+)$")
      message(FATAL_ERROR "${COURSE_SUBMISSIONS}: '${entry}' is not 'number<TAB>file'")
    endif()
    set(k ${CMAKE_MATCH_1})
    set(file ${CMAKE_MATCH_2})
    set(folder ${CMAKE_BINARY_DIR}/bin/students/${k})
    add_library(submission_${k}_impl SHARED "${file}")
    target_link_libraries(submission_${k}_impl PRIVATE ${libraries})
    target_link_options(submission_${k}_impl PRIVATE "LINKER:--version-script=${contract}" "LINKER:--no-undefined")
    add_dependencies(submission_${k}_impl ${base}_contract)
    set_target_properties(submission_${k}_impl PROPERTIES OUTPUT_NAME submission LIBRARY_OUTPUT_DIRECTORY ${folder}
                          LINK_DEPENDS ${contract} CUDA_RUNTIME_LIBRARY Shared POSITION_INDEPENDENT_CODE ON)
    if(COURSE_SUBMISSION_LAUNCHER)
      set_target_properties(submission_${k}_impl PROPERTIES CUDA_COMPILER_LAUNCHER "${COURSE_SUBMISSION_LAUNCHER};${k}"
                            CXX_COMPILER_LAUNCHER "${COURSE_SUBMISSION_LAUNCHER};${k}")
    endif()
    add_executable(submission_${k}_contestant $<TARGET_OBJECTS:${base}_contestant_objects>)
    target_link_libraries(submission_${k}_contestant PRIVATE submission_${k}_impl ${libraries})
    set_target_properties(submission_${k}_contestant PROPERTIES OUTPUT_NAME ${base}_contestant RUNTIME_OUTPUT_DIRECTORY ${folder})
  endforeach()
endfunction()

# Writes build/bin/course_manifest.tsv, the runner's list of lessons, steps and reports, in the order
# they were declared; and declares course_ladder_programs, the target that builds only what the
# runner's default run needs (every step of every lesson's ladder, the runner, the device facts), so
# that a first `./course run` does not wait for the other tables' programs and the tests, and
# course_ladder_programs_NN, the same for lesson NN alone (`./course run --lesson NN`).
function(course_write_manifest)
  get_property(lines GLOBAL PROPERTY COURSE_MANIFEST)
  set(text "# lesson\ttable\ttarget\targuments (written by CMake; read by course_runner)\n")
  foreach(line IN LISTS lines)
    string(APPEND text "${line}\n")
  endforeach()
  file(WRITE ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/course_manifest.tsv "${text}")
  get_property(catch_tests GLOBAL PROPERTY COURSE_CATCH_TESTS)
  set(text "# target\tname prefix\tlabels\tcase...: the Catch2 test programs and their cases (read by ./course test)\n")
  foreach(line IN LISTS catch_tests)
    string(APPEND text "${line}\n")
  endforeach()
  file(WRITE ${CMAKE_BINARY_DIR}/course_catch_tests.tsv "${text}")
  get_property(ladder_programs GLOBAL PROPERTY COURSE_LADDER_PROGRAMS)
  add_custom_target(course_ladder_programs)
  add_dependencies(course_ladder_programs course_runner course_device_info ${ladder_programs})
  get_property(lessons GLOBAL PROPERTY COURSE_LADDER_LESSONS)
  list(REMOVE_DUPLICATES lessons)
  foreach(lesson IN LISTS lessons)
    get_property(ladder_programs GLOBAL PROPERTY COURSE_LADDER_PROGRAMS_${lesson})
    add_custom_target(course_ladder_programs_${lesson})
    add_dependencies(course_ladder_programs_${lesson} course_runner course_device_info ${ladder_programs})
  endforeach()
endfunction()

# course_add_cpu_threads_sweep(LESSON <nn> [SUFFIX <text>])
# The runner's table that measures the OpenMP step's two ideas apart, titled "step 02 on every core
# and on one thread" + SUFFIX (the size): step 01, then step 02 on every core and on one thread
# (--cpu-threads 1), where its vector instructions are left alone.
function(course_add_cpu_threads_sweep)
  cmake_parse_arguments(S "" "LESSON;SUFFIX" "" ${ARGN})
  course_add_sweep(LESSON ${S_LESSON} TABLE "step 02 on every core and on one thread${S_SUFFIX}" LABEL "step 02 on"
    STEPS "lesson${S_LESSON}_01_cpu_sequential<=every core" lesson${S_LESSON}_02_cpu_openmp
    ROWS "every core|" "one thread|--cpu-threads 1")
endfunction()

# course_add_cpu_threads_tests(LESSON <nn> SEQUENTIAL <target> OPENMP <target> [ARGS <arguments>...])
# --cpu-threads belongs to the OpenMP step alone: on one thread (with ARGS, a small size) it must say
# so in its report and PASS; a negative count is refused; the sequential step does not know the option.
function(course_add_cpu_threads_tests)
  cmake_parse_arguments(T "" "LESSON;SEQUENTIAL;OPENMP" "ARGS" ${ARGN})
  string(REGEX REPLACE "^lesson[0-9]+_" "" short ${T_OPENMP})
  set(name "lesson${T_LESSON}.${short}: --cpu-threads 1 runs it on one thread")
  add_test(NAME "${name}" COMMAND ${T_OPENMP} ${T_ARGS} --cpu-threads 1)
  set_tests_properties("${name}" PROPERTIES LABELS "cpu;lesson${T_LESSON}"
                       PASS_REGULAR_EXPRESSION "CPU, 1 thread\\].*check +PASS")
  course_add_usage_tests(LESSON ${T_LESSON} PROGRAMS ${T_OPENMP} NO_DEFAULTS
    CASES "a negative thread count|--cpu-threads -1|out of range")
  course_add_usage_tests(LESSON ${T_LESSON} PROGRAMS ${T_SEQUENTIAL} NO_DEFAULTS
    CASES "--cpu-threads on a step without it|--cpu-threads 2|unknown option --cpu-threads")
endfunction()

# course_add_refusal_test(NAME <test name> COMMAND <program> [<argument>...] MESSAGE <text>
#                         LABELS <label>... [FIXTURES <fixture>...] [EXIT_CODE <code>] [PASS_MEANS_SKIP])
# The course's one check for a refused command: it must exit with code 2 (or EXIT_CODE), print exactly
# one line on standard error, containing MESSAGE, and nothing on standard output
# (cmake/ExpectUsageError.cmake). FIXTURES names the CTest fixtures that make its files
# (FIXTURES_REQUIRED). PASS_MEANS_SKIP: a run that passes (the machine has what is missing elsewhere,
# a GPU) is reported as skipped.
function(course_add_refusal_test)
  cmake_parse_arguments(R "PASS_MEANS_SKIP" "NAME;MESSAGE;EXIT_CODE" "COMMAND;LABELS;FIXTURES" ${ARGN})
  list(POP_FRONT R_COMMAND program)
  string(REPLACE ";" "|" arguments "${R_COMMAND}")
  if(NOT R_EXIT_CODE)
    set(R_EXIT_CODE 2)
  endif()
  add_test(NAME "${R_NAME}"
           COMMAND ${CMAKE_COMMAND} "-DPROGRAM=${program}" "-DARGUMENTS=${arguments}" "-DMESSAGE=${R_MESSAGE}"
                   -DEXIT_CODE=${R_EXIT_CODE} -DPASS_MEANS_SKIP=${R_PASS_MEANS_SKIP}
                   -P ${PROJECT_SOURCE_DIR}/cmake/ExpectUsageError.cmake)
  set_tests_properties("${R_NAME}" PROPERTIES LABELS "${R_LABELS}")
  if(R_PASS_MEANS_SKIP)
    set_tests_properties("${R_NAME}" PROPERTIES SKIP_REGULAR_EXPRESSION "^skipped: ")
  endif()
  if(R_FIXTURES)
    set_tests_properties("${R_NAME}" PROPERTIES FIXTURES_REQUIRED "${R_FIXTURES}")
  endif()
endfunction()

# course_add_test_files(LESSON <nn>)
# The set-up of a lesson's file tests, the CTest fixture lesson<nn>_files: the lesson's
# tests/make_test_files.sh writes good and broken files with lesson<nn>_make_input into the folder
# test_files/ of the lesson's build folder (common/testing/test_files.sh). Sets `files` to that folder.
function(course_add_test_files)
  cmake_parse_arguments(F "" "LESSON" "" ${ARGN})
  set(files ${CMAKE_CURRENT_BINARY_DIR}/test_files)
  set(name "lesson${F_LESSON}.files: make_input writes the test files, each of the size its layout gives")
  add_test(NAME "${name}" COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/make_test_files.sh
                                  $<TARGET_FILE:lesson${F_LESSON}_make_input> ${files})
  set_tests_properties("${name}" PROPERTIES LABELS "cpu;lesson${F_LESSON}" FIXTURES_SETUP lesson${F_LESSON}_files)
  set(files ${files} PARENT_SCOPE)
endfunction()

# course_add_file_test(NAME <test name> COMMAND <program> [<argument>...] [EXPECT <regex>]
#                      LABELS <label>... FIXTURES <fixture>... [SETS_UP <fixture>...])
# One check of a lesson's files: the command must exit with 0, or, with EXPECT, print something that
# matches the regular expression (its exit code then goes unread, so the regex names the verdict).
# FIXTURES names the fixtures that make the files it reads; SETS_UP the fixtures whose files it writes
# (a step's --output, read by later checks). A test labelled gpu is skipped on exit code 77 (no GPU).
function(course_add_file_test)
  cmake_parse_arguments(F "" "NAME;EXPECT" "COMMAND;LABELS;FIXTURES;SETS_UP" ${ARGN})
  add_test(NAME "${F_NAME}" COMMAND ${F_COMMAND})
  set_tests_properties("${F_NAME}" PROPERTIES LABELS "${F_LABELS}" FIXTURES_REQUIRED "${F_FIXTURES}")
  if(F_EXPECT)
    set_tests_properties("${F_NAME}" PROPERTIES PASS_REGULAR_EXPRESSION "${F_EXPECT}")
  endif()
  if(F_SETS_UP)
    set_tests_properties("${F_NAME}" PROPERTIES FIXTURES_SETUP "${F_SETS_UP}")
  endif()
  if("gpu" IN_LIST F_LABELS)
    set_tests_properties("${F_NAME}" PROPERTIES SKIP_RETURN_CODE 77)
  endif()
endfunction()

# course_add_refusal_tests(NAME <prefix> COMMAND <program> [<argument>...] LABELS <label>...
#                          CASES "<what>|<arguments>|<message>"...)
# One course_add_refusal_test per case, named "<prefix><what>": the command with the case's arguments
# (separated by spaces, quotes as in a shell) must be refused in one line containing the message.
function(course_add_refusal_tests)
  cmake_parse_arguments(R "" "NAME" "COMMAND;LABELS;CASES" ${ARGN})
  foreach(case IN LISTS R_CASES)
    string(REPLACE "|" ";" parts "${case}")
    list(GET parts 0 what)
    list(GET parts 1 arguments)
    list(GET parts 2 message)
    separate_arguments(arguments UNIX_COMMAND "${arguments}")
    course_add_refusal_test(NAME "${R_NAME}${what}" COMMAND ${R_COMMAND} ${arguments} MESSAGE "${message}"
                            LABELS ${R_LABELS})
  endforeach()
endfunction()

# course_add_usage_tests(LESSON <nn> PROGRAMS <target>... [CASES "<what>|<arguments>|<message>"...]
#                        [NO_DEFAULTS])
# For each program: bad sizes, unknown options, missing and malformed files (and the lesson's own
# CASES: arguments separated by spaces, the message the one line must contain) must each produce
# exactly one line on standard error and exit code 2 (course_add_refusal_test).
# NO_DEFAULTS tries only the CASES given.
function(course_add_usage_tests)
  cmake_parse_arguments(U "NO_DEFAULTS" "LESSON" "PROGRAMS;CASES" ${ARGN})
  set(cases "")
  if(NOT U_NO_DEFAULTS)
    set(cases
      "zero size|--n 0|is too small"
      "negative size|--n -5|is not a positive whole number"
      "size that is not a number|--n lots|is not a positive whole number"
      "size beyond the format|--n 2^40|is too large"
      "unknown option|--frobnicate|unknown option --frobnicate"
      "option without its value|--n|needs a value"
      "missing input file|--input does-not-exist.bin|cannot open for reading"
      "input that is not a course file|--input \"${PROJECT_SOURCE_DIR}/README.md\"|not a course binary file"
      "size and input together|--n 10 --input x.bin|cannot be combined"
      "input that is a folder|--input \"${PROJECT_SOURCE_DIR}\"|is a folder, not a course binary file"
      "output into a folder that does not exist|--output no-such-folder/out.bin|the folder no-such-folder does not exist"
      "negative repetitions|--reps -1|out of range"
      "option given twice|--n 1000 --n 2000|--n is given twice")
  endif()
  list(APPEND cases ${U_CASES})
  foreach(program IN LISTS U_PROGRAMS)
    string(REGEX REPLACE "^lesson[0-9]+_" "" short ${program})
    course_add_refusal_tests(NAME "lesson${U_LESSON}.${short}: rejects " COMMAND $<TARGET_FILE:${program}>
                             LABELS cpu lesson${U_LESSON} usage CASES ${cases})
  endforeach()
endfunction()
