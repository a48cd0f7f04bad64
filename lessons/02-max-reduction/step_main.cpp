// The main of every lesson 02 step program: the step itself is kThisStep, defined in the step's file.
#include "max_reduction.h"

int main(int argc, char** argv) { return course::step_main<max_reduction::Lesson>(argc, argv, max_reduction::kThisStep); }
