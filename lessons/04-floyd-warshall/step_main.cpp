// The main of lesson 04's step programs except step 03 (which has its own, to show the host side): the
// step itself is kThisStep, defined in the step's file.
#include "floyd_warshall.h"

int main(int argc, char** argv) {
  return course::step_main<floyd_warshall::Lesson>(argc, argv, floyd_warshall::kThisStep);
}
