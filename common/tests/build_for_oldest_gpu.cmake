# The test "tools: the whole course compiles for the oldest GPU it supports": configures and builds
# every program and test of the course in WORK for compute capability 7.5 (Turing, such as the T4 of
# hosted notebooks), as PTX only (75-virtual), which a newer GPU's driver compiles when it loads it. So
# no kernel, and no code path for GPUs before Hopper, may use what 7.5 lacks without a fallback.
# Usage: cmake -DROOT=... -DWORK=... -DGENERATOR=... [-DPREFIX_PATH=...] [-DLAUNCHER=...]
#              -P build_for_oldest_gpu.cmake
include(${CMAKE_CURRENT_LIST_DIR}/build_tree.cmake)
file(MAKE_DIRECTORY ${WORK})
configure_and_build("the course for compute capability 7.5" ${ROOT} ${WORK} -DCMAKE_CUDA_ARCHITECTURES=75-virtual)
