// Times exercise 01-B (nearest neighbours) at 4096 x 4096 x 4096 int32 and prints one course
// measurement; built against your code (exercise01_nearest_neighbour_bench) and against the solution.
#include "exercise_support.h"
#include "nearest_neighbour.h"

int main(int argc, char** argv) {
  return exercise01::bench_main<std::int32_t>(
      argc, argv, "nearest neighbours, fused into the tiled kernel",
      [](const exercise01::Problem<std::int32_t>& p, const course::TimingOptions& timing, course::TimingStats& time) {
        course::DeviceBuffer<std::int32_t> a(p.a.size(), "matrix A"), b(p.b.size(), "matrix B"),
            distance(p.m, "distances");
        course::DeviceBuffer<std::uint32_t> index(p.m, "indices");
        course::DeviceBuffer<unsigned char> scratch(exercise01::nearest_neighbour_scratch_bytes(p.m, p.k), "scratch");
        a.upload(p.a);
        b.upload(p.b);
        course::Stream stream;
        time = course::time_gpu(
            [&](cudaStream_t s) {
              exercise01::nearest_neighbours(a.data(), b.data(), index.data(), distance.data(), p.m, p.k, p.n,
                                             scratch.data(), s);
            },
            timing, stream.get(), [&](cudaStream_t s) {
              index.poison(s);
              distance.poison(s);
            });
        return exercise01::compare_nearest(exercise01::Nearest{index.to_host(), distance.to_host()},
                                           exercise01::nearest_reference(p));
      });
}
