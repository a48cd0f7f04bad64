// The main of every lesson 01 step program but step 03 (which shows its host side in full): the step
// itself is kThisStep, defined in the step's file.
#include "distance.h"

int main(int argc, char** argv) { return course::step_main<distance::Lesson>(argc, argv, distance::kThisStep); }
