# Chooses CMAKE_CUDA_ARCHITECTURES when the user did not: the compute capability of the first GPU that
# nvidia-smi reports, or 90 (Hopper, the course's reference GPU) on a machine without one, so that every
# kernel still compiles for real hardware. Included before project() enables CUDA.
if(DEFINED CMAKE_CUDA_ARCHITECTURES OR DEFINED ENV{CUDAARCHS})
  return()
endif()

set(_course_arch 90)
find_program(_course_nvidia_smi nvidia-smi)
if(_course_nvidia_smi)
  execute_process(
    COMMAND ${_course_nvidia_smi} --query-gpu=compute_cap --format=csv,noheader
    OUTPUT_VARIABLE _course_caps
    RESULT_VARIABLE _course_smi_result
    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(_course_smi_result EQUAL 0 AND _course_caps MATCHES "^([0-9]+)\\.([0-9]+)")
    set(_course_arch "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    message(STATUS "CUDA architecture: ${_course_arch} (from the GPU in this machine)")
  endif()
endif()
if(_course_arch STREQUAL "90" AND NOT _course_caps)
  message(STATUS "CUDA architecture: 90 (no GPU found; set CMAKE_CUDA_ARCHITECTURES to change)")
endif()
set(CMAKE_CUDA_ARCHITECTURES ${_course_arch} CACHE STRING "GPU architectures to compile for")
unset(_course_arch)
unset(_course_caps)
