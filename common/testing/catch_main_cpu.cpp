// The Catch2 main of every CPU-only test program.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
