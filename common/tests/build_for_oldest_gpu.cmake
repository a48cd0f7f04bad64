# The test "tools: the whole course compiles for the oldest GPU it supports": configures the course in
# WORK for compute capability 7.5 (Turing, such as the T4 of hosted notebooks), as PTX only
# (75-virtual), which a newer GPU's driver compiles when it loads it. So no kernel, and no code path for
# GPUs before Hopper, may use what 7.5 lacks without a fallback.
# What differs for 7.5 is the device code alone: the host code is the enclosing build's, compiled and
# linked there. So with Ninja, only the CUDA sources are compiled, each to PTX (nvcc -ptx: the device
# side, no host compiler) in place of its object file, and nothing is linked; and without NVVM's
# optimizer (-Xcicc -O0), which takes most of the time and decides how fast the PTX runs, not whether
# the code compiles for 7.5: the front end and the code generation for compute_75 run all the same,
# over every function, the ones an optimizer would drop included. With another generator everything is
# built.
# Usage: cmake -DROOT=... -DWORK=... -DGENERATOR=... [-DPREFIX_PATH=...] [-DLAUNCHER=...]
#              -P build_for_oldest_gpu.cmake
include(${CMAKE_CURRENT_LIST_DIR}/build_tree.cmake)
file(MAKE_DIRECTORY ${WORK})
if(NOT GENERATOR STREQUAL "Ninja")
  configure_and_build("the course for compute capability 7.5" ${ROOT} ${WORK} -DCMAKE_CUDA_ARCHITECTURES=75-virtual)
  return()
endif()
configure_tree("the course for compute capability 7.5, device code only" ${ROOT} ${WORK}
               -DCMAKE_CUDA_ARCHITECTURES=75-virtual "-DCMAKE_CUDA_FLAGS_RELEASE=-DNDEBUG -ptx -Xcicc -O0")
execute_process(COMMAND ${CMAKE_COMMAND} -E env ninja -C ${WORK} -t targets all
                OUTPUT_VARIABLE targets RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "ninja cannot list the targets of ${WORK}")
endif()
string(REGEX MATCHALL "[^\n]*\\.cu\\.o:" objects "${targets}")
list(TRANSFORM objects REPLACE ":$" "")
list(LENGTH objects count)
if(count LESS 50)
  message(FATAL_ERROR "found only ${count} CUDA sources to compile in ${WORK}")
endif()
run("compiling the device code of ${count} CUDA sources for compute capability 7.5" ninja -C ${WORK} ${objects})
# Each "object" is PTX for compute_75: the proof that nvcc compiled the device side only, for 7.5.
list(GET objects 0 first)
file(STRINGS ${WORK}/${first} target_line REGEX "^\\.target ")
if(NOT target_line MATCHES "sm_75")
  message(FATAL_ERROR "${first} is not PTX for compute capability 7.5 (its .target line: '${target_line}')")
endif()
