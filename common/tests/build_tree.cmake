cmake_policy(VERSION 3.20)  # run in cmake -P scripts, which set no policies of their own

# What the tests that configure and build a course of their own share (make_new_lesson.cmake,
# build_for_oldest_gpu.cmake include it), in cmake -P scripts given WORK, GENERATOR and, as the
# enclosing build has them, PREFIX_PATH and LAUNCHER.

# run(<what> <command>...): runs the command in WORK; if it fails, stops the test with <what>, the exit
# code and the lines of its output that name an error (the first 20; the last 40 lines when none does).
function(run what)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    string(REGEX MATCHALL "[^\n]*error[^\n]*" shown "${out}")
    if(shown)
      list(SUBLIST shown 0 20 shown)
    else()
      string(REGEX REPLACE "\n$" "" shown "${out}")
      string(REPLACE "\n" ";" shown "${shown}")
      list(LENGTH shown lines)
      if(lines GREATER 40)
        math(EXPR first "${lines} - 40")
        list(SUBLIST shown ${first} 40 shown)
      endif()
    endif()
    string(REPLACE ";" "\n" shown "${shown}")
    message(FATAL_ERROR "${what} failed (exit code ${code}):\n${shown}")
  endif()
  message(STATUS "${what}: done")
endfunction()

# configure_tree(<what> <source> <build> <cmake argument>...): configures <source> into <build> as the
# enclosing build is configured (its generator, a Release build, its prefix path and compiler launcher)
# with the arguments given.
function(configure_tree what source build)
  set(arguments -S ${source} -B ${build} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release ${ARGN})
  if(PREFIX_PATH)
    list(APPEND arguments "-DCMAKE_PREFIX_PATH=${PREFIX_PATH}")
  endif()
  if(LAUNCHER)
    list(APPEND arguments -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER})
  endif()
  run("configuring ${what}" ${CMAKE_COMMAND} ${arguments})
endfunction()

# configure_and_build(<what> <source> <build> <cmake argument>...): configure_tree, then builds
# everything.
function(configure_and_build what source build)
  configure_tree("${what}" ${source} ${build} ${ARGN})
  run("building ${what}" ${CMAKE_COMMAND} --build ${build})
endfunction()
