// The main of every lesson @NN@ step program: the step itself is kThisStep, defined in the step's file.
#include "@FILE@.h"

int main(int argc, char** argv) { return course::step_main<@FILE@::Lesson>(argc, argv, @FILE@::kThisStep); }
