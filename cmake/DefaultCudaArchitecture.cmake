# Chooses CMAKE_CUDA_ARCHITECTURES when the user did not: the compute capability of every GPU that
# nvidia-smi reports (each once; 7.5 for one older than the course supports), or 90 (Hopper, the
# course's reference GPU) on a machine without one, so that every kernel still compiles for real
# hardware. Included before project() enables CUDA.
# To build for other GPUs, name them: CUDAARCHS="80;86;90" ./course build, or
# cmake -DCMAKE_CUDA_ARCHITECTURES="80;86;90" (docs/course-guide.md lists the common ones).
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()

set(_course_archs "")
find_program(_course_nvidia_smi nvidia-smi)
if(_course_nvidia_smi)
  execute_process(
    COMMAND ${_course_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
    OUTPUT_VARIABLE _course_caps
    RESULT_VARIABLE _course_smi_result
    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_course_smi_result EQUAL 0)
    string(REPLACE "\n" ";" _course_caps "${_course_caps}")
    foreach(_course_cap IN LISTS _course_caps)
      if(_course_cap MATCHES "^ *([0-9]+)\\.([0-9]+)")
        list(APPEND _course_archs "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES _course_archs)
    # GPUs older than compute capability 7.5 are beyond the course (and CUDA 13): their GPU steps and
    # tests report SKIP, saying so, while everything is built for the oldest GPU the course supports.
    foreach(_course_arch IN LISTS _course_archs)
      if(_course_arch LESS 75)
        list(REMOVE_ITEM _course_archs ${_course_arch})
        string(REGEX REPLACE "([0-9])$" ".\\1" _course_shown ${_course_arch})
        message(STATUS "This machine's GPU of compute capability ${_course_shown} is older than the course supports (7.5 and newer): its GPU steps will report SKIP")
        set(_course_too_old TRUE)
      endif()
    endforeach()
    if(_course_too_old AND NOT _course_archs)
      set(_course_archs 75)
    endif()
  endif()
endif()
if(_course_archs)
  message(STATUS "CUDA architectures: ${_course_archs} (the GPUs in this machine)")
else()
  set(_course_archs 90)
  message(STATUS "CUDA architecture: 90 (no GPU found; set CUDAARCHS or CMAKE_CUDA_ARCHITECTURES to change)")
endif()
set(CMAKE_CUDA_ARCHITECTURES "${_course_archs}" CACHE STRING "GPU architectures to compile for")
unset(_course_archs)
unset(_course_caps)
unset(_course_too_old)
