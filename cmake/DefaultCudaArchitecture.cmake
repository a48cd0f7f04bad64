# Chooses CMAKE_CUDA_ARCHITECTURES when the user did not: the compute capability of every GPU that
# nvidia-smi reports (each once), or 90 (Hopper, the course's reference GPU) on a machine without one,
# so that every kernel still compiles for real hardware. Included before project() enables CUDA.
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
