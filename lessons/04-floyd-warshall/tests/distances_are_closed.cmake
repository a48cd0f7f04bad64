# Reads and writes graphs through files: the distances of a graph, written with --output, are a valid
# graph themselves, and shortest paths over them change nothing (every distance is already shortest).
# So running the step again with --input on its own output must give back the same file, byte for byte.
# Usage: cmake -DPROGRAM=... -DWORK=<folder> -P distances_are_closed.cmake
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${PROGRAM}" --n 77 --seed 5 --reps 1 --output "${WORK}/first.bin" RESULT_VARIABLE first
                OUTPUT_QUIET)
if(NOT first EQUAL 0)
  message(FATAL_ERROR "first run failed with exit code ${first}")
endif()
execute_process(COMMAND "${PROGRAM}" --input "${WORK}/first.bin" --reps 1 --output "${WORK}/second.bin"
                RESULT_VARIABLE second OUTPUT_VARIABLE report)
if(NOT second EQUAL 0)
  message(FATAL_ERROR "the run on the written distances failed with exit code ${second}:\n${report}")
endif()
file(SHA256 "${WORK}/first.bin" first_hash)
file(SHA256 "${WORK}/second.bin" second_hash)
if(NOT first_hash STREQUAL second_hash)
  message(FATAL_ERROR "the distances of the distances differ from the distances")
endif()
file(SIZE "${WORK}/first.bin" bytes)
math(EXPR expected "16 + 77 * 77 * 4")
if(NOT bytes EQUAL expected)
  message(FATAL_ERROR "the output file has ${bytes} bytes, expected ${expected} (header + 77 x 77 int32)")
endif()
