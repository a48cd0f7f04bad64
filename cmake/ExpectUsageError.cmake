# Runs PROGRAM with ARGUMENTS ("|"-separated) and checks that it rejects them the course's way: exit
# code 2, exactly one line on standard error, containing MESSAGE, and nothing on standard output.
# Usage: cmake -DPROGRAM=... -DARGUMENTS=a|b -DMESSAGE=... -P ExpectUsageError.cmake
string(REPLACE "|" ";" arguments "${ARGUMENTS}")
execute_process(COMMAND ${PROGRAM} ${arguments}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX REPLACE "\n$" "" err_trimmed "${err}")
string(FIND "${err_trimmed}" "\n" newline)
if(NOT code EQUAL 2)
  message(FATAL_ERROR "expected exit code 2, got ${code}\nstderr: ${err}\nstdout: ${out}")
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
