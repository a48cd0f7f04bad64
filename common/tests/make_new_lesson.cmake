# The set-up of the new-lesson tests (CTest fixture "new_lesson"): copies the course into WORK/course,
# writes lesson 99 there with `./course new-lesson 99 scale-shift`, and configures and builds that
# lesson alone (COURSE_LESSONS=99) as the enclosing build is configured. The tests that need it then
# run the new lesson's own tests and its ladder in WORK/course/build.
# Usage: cmake -DROOT=... -DWORK=... -DGENERATOR=... -DARCHITECTURES=... [-DPREFIX_PATH=...]
#              [-DLAUNCHER=...] -P make_new_lesson.cmake
set(copy ${WORK}/course)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${copy})
foreach(part CMakeLists.txt CMakePresets.json README.md course cmake common docs lessons exercises solutions)
  file(COPY ${ROOT}/${part} DESTINATION ${copy})
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${copy} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit code ${code}):\n${out}")
  endif()
  message(STATUS "${what}: done")
endfunction()

run("./course new-lesson 99 scale-shift" ${copy}/course new-lesson 99 scale-shift)
set(arguments -S ${copy} -B ${copy}/build -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCOURSE_LESSONS=99
              -DCMAKE_CUDA_ARCHITECTURES=${ARCHITECTURES})
if(PREFIX_PATH)
  list(APPEND arguments "-DCMAKE_PREFIX_PATH=${PREFIX_PATH}")
endif()
if(LAUNCHER)
  list(APPEND arguments -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run("configuring the copy" ${CMAKE_COMMAND} ${arguments})
run("building lesson 99" ${CMAKE_COMMAND} --build ${copy}/build)
