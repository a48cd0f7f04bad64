// The main of every lesson 05 step program: the step itself is kThisStep, defined in the step's file.
#include "matvec.h"

int main(int argc, char** argv) { return course::step_main<matvec::Lesson>(argc, argv, matvec::kThisStep); }
