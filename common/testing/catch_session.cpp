// Catch2's implementation and its session, compiled once for every test program's main.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "catch_session.h"

int course::run_catch_session(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
