// The main of every lesson 02 step program: the step itself is kThisStep, defined in the step's file.
#include "max_reduction.h"

int main(int argc, char** argv) { return max_reduction::step_main(argc, argv, max_reduction::kThisStep); }
