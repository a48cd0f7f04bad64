// The Catch2 main of every CPU-only test program.
#include "catch_session.h"

int main(int argc, char* argv[]) { return course::run_catch_session(argc, argv); }
