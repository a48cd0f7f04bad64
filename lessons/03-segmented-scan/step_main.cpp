// The main of lesson 03's step programs from step 04 on (step 03 has its own, to show the host side):
// the step itself is kThisStep, defined in the step's file.
#include "segmented_scan.h"

int main(int argc, char** argv) { return course::step_main<segscan::Lesson>(argc, argv, segscan::kThisStep); }
