// The main of every lesson 04 step program: the step itself is kThisStep, defined in the step's file.
#include "floyd_warshall.h"

int main(int argc, char** argv) { return floyd_warshall::step_main(argc, argv, floyd_warshall::kThisStep); }
