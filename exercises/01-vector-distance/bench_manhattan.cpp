// Times exercise 01-A (Manhattan distances) at 4096 x 4096 x 4096 and prints one course measurement;
// built against your code (exercise01_manhattan_bench) and against the solution.
#include "exercise_support.h"
#include "manhattan.h"

int main(int argc, char** argv) {
  return exercise01::bench_main<float>(
      argc, argv, "Manhattan distances, shared-memory tiles",
      [](const exercise01::Problem<float>& p, const course::TimingOptions& timing, course::TimingStats& time) {
        course::DeviceBuffer<float> a(p.a.size(), "matrix A"), b(p.b.size(), "matrix B"), c(p.m * p.k, "matrix C");
        a.upload(p.a);
        b.upload(p.b);
        course::Stream stream;
        time = course::time_gpu(
            [&](cudaStream_t s) { exercise01::manhattan_distances(a.data(), b.data(), c.data(), p.m, p.k, p.n, s); },
            timing, stream.get(), [&](cudaStream_t s) { c.poison(s); });
        const course::Verdict v =
            distance::check(p, c.to_host(), exercise01::manhattan_reference(p), distance::Form::Direct);
        return v.pass ? std::string() : v.describe(p.k);
      });
}
