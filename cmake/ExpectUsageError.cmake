# Runs PROGRAM with ARGUMENTS ("|"-separated) and checks that it stops the course's way: exit code 2
# (or EXIT_CODE), exactly one line on standard error, containing MESSAGE, and nothing on standard
# output. With PASS_MEANS_SKIP, a run that passes (exit code 0: this machine has what the check is
# about, a GPU say) prints "skipped: ..." for the test's SKIP_REGULAR_EXPRESSION.
# Usage: cmake -DPROGRAM=... -DARGUMENTS=a|b -DMESSAGE=... [-DEXIT_CODE=77] [-DPASS_MEANS_SKIP=ON]
#              -P ExpectUsageError.cmake
if(NOT DEFINED EXIT_CODE)
  set(EXIT_CODE 2)
endif()
string(REPLACE "|" ";" arguments "${ARGUMENTS}")
execute_process(COMMAND ${PROGRAM} ${arguments}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX REPLACE "\n$" "" err_trimmed "${err}")
string(FIND "${err_trimmed}" "\n" newline)
if(PASS_MEANS_SKIP AND code EQUAL 0)
  message("skipped: ${PROGRAM} ran to the end on this machine")
  return()
endif()
if(NOT code EQUAL EXIT_CODE)
  message(FATAL_ERROR "expected exit code ${EXIT_CODE}, got ${code}\nstderr: ${err}\nstdout: ${out}")
endif()
if(NOT newline EQUAL -1)
  message(FATAL_ERROR "expected one line on stderr, got:\n${err}")
endif()
string(FIND "${err}" "${MESSAGE}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "expected stderr to contain '${MESSAGE}', got:\n${err}")
endif()
if(NOT out STREQUAL "")
  message(FATAL_ERROR "expected nothing on stdout, got:\n${out}")
endif()
message(STATUS "rejected as expected: ${err_trimmed}")
