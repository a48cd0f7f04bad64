# The test "tools: the whole course compiles for the oldest GPU it supports": configures and builds
# every program and test of the course in WORK for compute capability 7.5 (Turing, such as the T4 of
# hosted notebooks), as PTX only (75-virtual), which a newer GPU's driver compiles when it loads it. So
# no kernel, and no code path for GPUs before Hopper, may use what 7.5 lacks without a fallback.
# Usage: cmake -DROOT=... -DWORK=... -DGENERATOR=... [-DPREFIX_PATH=...] [-DLAUNCHER=...]
#              -P build_for_oldest_gpu.cmake
set(arguments -S ${ROOT} -B ${WORK} -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=75-virtual)
if(PREFIX_PATH)
  list(APPEND arguments "-DCMAKE_PREFIX_PATH=${PREFIX_PATH}")
endif()
if(LAUNCHER)
  list(APPEND arguments -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_CUDA_COMPILER_LAUNCHER=${LAUNCHER})
endif()
foreach(step "configuring" "building")
  if(step STREQUAL "configuring")
    set(command ${CMAKE_COMMAND} ${arguments})
  else()
    set(command ${CMAKE_COMMAND} --build ${WORK})
  endif()
  execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT code EQUAL 0)
    string(REGEX MATCHALL "[^\n]*error[^\n]*" errors "${out}")
    list(SUBLIST errors 0 20 errors)
    string(REPLACE ";" "\n" errors "${errors}")
    message(FATAL_ERROR "${step} for compute capability 7.5 failed (exit code ${code}):\n${errors}")
  endif()
  message(STATUS "${step} for compute capability 7.5: done")
endforeach()
