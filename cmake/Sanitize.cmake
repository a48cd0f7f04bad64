# Runs PROGRAM with ARGUMENTS ("|"-separated) under compute-sanitizer's TOOL (memcheck, racecheck or
# synccheck) and fails on any error the tool reports. Where it cannot run (no compute-sanitizer, or no
# GPU: the program exits with 77), it prints "sanitizer check skipped: <why>", which CTest reports as a
# skip (the test's SKIP_REGULAR_EXPRESSION), never as a pass.
# Usage: cmake -DSANITIZER=<path or empty> -DTOOL=memcheck -DPROGRAM=... -DARGUMENTS=a|b -P Sanitize.cmake
if(NOT SANITIZER OR NOT EXISTS "${SANITIZER}")
  message("sanitizer check skipped: compute-sanitizer was not found when the course was configured")
  return()
endif()
string(REPLACE "|" ";" arguments "${ARGUMENTS}")
# --error-exitcode tells the tool's findings apart from the program's own exit codes (77: no GPU).
execute_process(COMMAND "${SANITIZER}" --tool ${TOOL} --error-exitcode 99 "${PROGRAM}" ${arguments}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(code EQUAL 77)
  message("sanitizer check skipped: ${PROGRAM} found no GPU")
  return()
endif()
if(NOT code EQUAL 0)
  message(FATAL_ERROR "compute-sanitizer --tool ${TOOL} exited with ${code} (99: it found errors)\n${out}\n${err}")
endif()
message(STATUS "${TOOL}: clean")
