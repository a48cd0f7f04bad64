// Step 02 is a whole program with its own main(), so that its host side reads as one page. Its tests
// need only its kernels and kThisStep: this file compiles the page with its main renamed, and the test
// program's main (Catch's) stays the only one.
#define main lesson03_step02_program_main
#include "02_gpu_hillis_steele.cu"
#undef main
