// Lesson 04, step 14: every GPU of the machine, a band of tile rows each, and each round's pivot row
// broadcast to all of them.
//
// What changed: the matrix leaves one GPU. With rounds of W (64 or 128) the padded matrix has
// T = padded / W tile rows; GPU g of K updates tile rows g T / K to (g + 1) T / K - 1, its band. Round
// kb needs two things a GPU may not hold:
//   - tile column kb, for the rows it updates. That costs nothing: tile (bi, kb) of a band row lies in
//     the same band, so every GPU closes the column tiles of its own band itself (step 11's panels,
//     with the diagonal tile taken from the pivot row);
//   - tile row kb, the pivot row, as phases 1 and 2 leave it. That one must travel: the GPU whose band
//     holds it closes it (phase 1, then the row's panels) and one NCCL broadcast copies its W x padded
//     distances into the same place of every other GPU's matrix.
// Then every GPU runs phase 3 on its band. Step 12's look-ahead carries over: round kb + 1's pivot row
// needs only round kb's phase 3 on that tile row, so its owner updates that row first, on a second
// stream of higher priority, closes it there, and round kb + 1's broadcast starts while every GPU's
// phase 3 of round kb is still running. --in-turn instead waits for each round's broadcast before phase
// 3; --scaling times both schedules, the broadcasts alone, and the chain alone: each round's work on
// the next pivot row, which no number of GPUs shortens (see chain() below).
//
// Why it is faster: each GPU does 1/K of phase 3's n^3 add-mins.
//
// What it costs: T broadcasts, W x padded distances each (8 MB at n = 16384 in rounds of 128): the
// whole matrix leaves its owners once per run. In turn, every round waits for its broadcast; overlapped,
// only for the part of it that phase 3 does not cover. Neither the broadcast nor the owner's chain of
// phase 1 and the row's panels shrinks as GPUs are added, while each GPU's share of phase 3 does, so at
// small n they are what stops the scaling. And every GPU holds the whole matrix, so that the kernels it
// borrows from steps 08 to 11 index it as on one GPU (the band and one tile row would do, with kernels that read
// the pivot row from a buffer of its own); at the end, each band is copied to GPU 0, where the
// distances are left as every other step leaves them.
//
// The host side is lesson 05 step 13's: one process drives every GPU, the device set before each
// GPU's calls, one NCCL communicator per GPU (ncclCommInitAll), the broadcast's calls grouped (see
// broadcast() below). ncclCommInitAll makes the communicators of one process's GPUs, so the step runs
// on one machine; lesson 05's step 14 runs a process per GPU, which can reach past it.
//
// Launch: --gpus K (default: every GPU); rounds of --tile, or of 128 once a GPU's share of phase 3
// fills three waves of tiles of 128 (step 08's rule, applied to a band); steps 11 and 12's kernels.
// --threads and --blocks are ignored.
#include <cuda_runtime.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "course/buffers.h"
#include "course/gpus.h"
#include "course/step_program.h"
#include "course/text_table.h"
#include "course/timing.h"
#include "07_blocked_shared_tiles.cuh"
#include "09_register_phases.cuh"
#include "10_double_buffered_copies.cuh"
#include "11_min_plus_panels.cuh"
#include "14_gpus_broadcast_pivot_rows.h"
#include "floyd_warshall.h"

namespace gpus_floyd_warshall {

using floyd_warshall::at_width;
using floyd_warshall::LaunchPlan;
using floyd_warshall::MicroTileBlock;

// The tiles a launch of the min-plus kernel (08_blocked_register_tiles.cuh) updates, for a band whose
// tile rows start at `first` (blockIdx.y counts the band's rows).

// Phase 2 on the column: the band's tiles (bi, kb), but the diagonal tile. Grid 1 x band rows.
struct BandColumnTiles {
  int first;
  __device__ bool pick(int kb, int& bi, int& bj) const {
    bi = first + static_cast<int>(blockIdx.y), bj = kb;
    return bi != kb;
  }
};

// Phase 3 on the band: tiles outside row and column kb, and outside tile row `ahead` (the next pivot
// row when this GPU updates it on the look-ahead stream; -1 for none). Grid T x band rows.
struct BandPhase3Tiles {
  int first, ahead;
  __device__ bool pick(int kb, int& bi, int& bj) const {
    bi = first + static_cast<int>(blockIdx.y), bj = static_cast<int>(blockIdx.x);
    return bi != kb && bj != kb && bi != ahead;
  }
};

// Phase 3 on one tile row, the next pivot row: its tiles outside column kb. Grid T x 1.
struct RowPhase3Tiles {
  int row;
  __device__ bool pick(int kb, int& bi, int& bj) const {
    bi = row, bj = static_cast<int>(blockIdx.x);
    return bj != kb;
  }
};

// One launch of the min-plus kernel (two stages, as from step 10) at the round's width.
template <class Tiles>
void min_plus(int width, dim3 grid, std::int32_t* d, int padded, int kb, Tiles tiles, cudaStream_t stream) {
  at_width(width, [&](auto w) {
    floyd_warshall::min_plus_registers<Tiles, 2, w()>
        <<<grid, MicroTileBlock<w()>::kThreads, 0, stream>>>(d, padded, kb, tiles);
    CUDA_CHECK_LAUNCH();
  });
}

// The rounds' width: --tile's, or step 08's rule (round_width) on one GPU's share of phase 3.
int width_for(std::size_t n, std::size_t gpus, const course::DeviceFacts& device, const LaunchPlan& requested) {
  if (requested.tile != 0) return requested.tile;
  const std::size_t tiles = (n + floyd_warshall::kRegisterTile - 1) / floyd_warshall::kRegisterTile;
  const std::size_t wave = 512 / MicroTileBlock<floyd_warshall::kRegisterTile>::kThreads *
                           static_cast<std::size_t>(device.multiprocessors);  // tiles of 128 at once
  return tiles * tiles / gpus >= floyd_warshall::kWavesFor128 * wave ? floyd_warshall::kRegisterTile
                                                                     : floyd_warshall::kRegisterTile / 2;
}

// One GPU: the whole padded matrix (the graph, and the distances it works on), the band of tile rows
// it updates, and its two streams.
struct Band {
  int device = 0;
  int first = 0, rows = 0;  // tile rows first .. first + rows - 1
  cudaStream_t stream = nullptr, ahead = nullptr;
  cudaEvent_t forked = nullptr, received = nullptr;
  course::DeviceBuffer<std::int32_t> graph, work;

  Band(const std::vector<std::int32_t>& padded_graph, int device_, int first_, int rows_)
      : device(device_), first(first_), rows(rows_) {
    CUDA_CHECK(cudaSetDevice(device));  // everything below lives on this GPU
    int lowest = 0, highest = 0;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithPriority(&ahead, cudaStreamNonBlocking, highest));  // the critical path
    CUDA_CHECK(cudaEventCreateWithFlags(&forked, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&received, cudaEventDisableTiming));
    graph = course::DeviceBuffer<std::int32_t>(padded_graph.size(), "the padded graph");
    work = course::DeviceBuffer<std::int32_t>(padded_graph.size(), "the distances");
    graph.upload(padded_graph);
  }
  ~Band() {
    cudaSetDevice(device);  // the buffers, freed after this body, are this GPU's
    if (forked != nullptr) cudaEventDestroy(forked);
    if (received != nullptr) cudaEventDestroy(received);
    if (ahead != nullptr) cudaStreamDestroy(ahead);
    if (stream != nullptr) cudaStreamDestroy(stream);
  }
  Band(const Band&) = delete;
  Band& operator=(const Band&) = delete;

  bool holds(int tile_row) const { return tile_row >= first && tile_row < first + rows; }
};

// The GPUs at work: a band each, and (on more than one) an NCCL communicator each.
class Gpus {
 public:
  Gpus(const std::vector<std::int32_t>& graph, std::size_t n, const std::vector<int>& devices,
       const LaunchPlan& requested, bool in_turn)
      : n_(n), in_turn_(in_turn) {
    const std::size_t k = devices.size();
    if (k > 1 && !course::built_with_nccl())
      throw course::NotSupportedError("this build has no NCCL (see the CMake output): run it with --gpus 1");
    width_ = width_for(n, k, course::query_device(devices[0]), requested);
    padded_ = floyd_warshall::padded_size(n, static_cast<std::size_t>(width_));
    tiles_ = static_cast<int>(padded_ / static_cast<std::size_t>(width_));
    if (static_cast<std::size_t>(tiles_) < k)
      throw course::UsageError("--gpus " + std::to_string(k) + ": n = " + std::to_string(n) + " makes " +
                               std::to_string(tiles_) + (tiles_ == 1 ? " tile row" : " tile rows") + " of " +
                               std::to_string(width_) + ", fewer than the GPUs (each needs at least one)");
    // The graph padded once, on the host: the padding vertices have no edges, so they change no distance.
    std::vector<std::int32_t> padded_graph(padded_ * padded_, floyd_warshall::kNoEdge);
    for (std::size_t i = 0; i < n; ++i)
      std::copy(graph.begin() + static_cast<long>(i * n), graph.begin() + static_cast<long>((i + 1) * n),
                padded_graph.begin() + static_cast<long>(i * padded_));
    for (std::size_t g = 0; g < k; ++g) {
      const int first = static_cast<int>(tiles_ * g / k), last = static_cast<int>(tiles_ * (g + 1) / k);
      bands_.push_back(std::make_unique<Band>(padded_graph, devices[g], first, last - first));
      streams_.push_back(bands_.back()->stream);
      devices_.push_back(devices[g]);
    }
#ifdef COURSE_HAVE_NCCL
    comms_ = std::make_unique<course::Communicators>(devices);
#endif
    CUDA_CHECK(cudaSetDevice(devices[0]));
    distances_ = course::DeviceBuffer<std::int32_t>(n * n, "the distances on GPU 0");
  }
  Gpus(const Gpus&) = delete;
  Gpus& operator=(const Gpus&) = delete;

  void set_in_turn(bool in_turn) { in_turn_ = in_turn; }

  // One run: every GPU starts from the graph, T rounds, then the bands go to GPU 0.
  void run() {
    const int padded = static_cast<int>(padded_);
    for (const auto& b : bands_) {
      CUDA_CHECK(cudaSetDevice(b->device));
      CUDA_CHECK(cudaMemcpyAsync(b->work.data(), b->graph.data(), b->graph.bytes(), cudaMemcpyDeviceToDevice,
                                 b->stream));
    }
    close_pivot_row(0, owner(0), owner(0).stream);
    broadcast(0, false);
    for (int kb = 0; kb < tiles_; ++kb) {
      const int next = kb + 1;
      const bool look_ahead = !in_turn_ && next < tiles_;
      for (const auto& b : bands_) {
        CUDA_CHECK(cudaSetDevice(b->device));
        std::int32_t* d = b->work.data();
        min_plus(width_, dim3(1, b->rows), d, padded, kb, BandColumnTiles{b->first}, b->stream);
        const bool row_ahead = look_ahead && b->holds(next);
        if (look_ahead) {  // fork: the look-ahead stream starts once this GPU's column of round kb is closed
          CUDA_CHECK(cudaEventRecord(b->forked, b->stream));
          CUDA_CHECK(cudaStreamWaitEvent(b->ahead, b->forked, 0));
        }
        if (row_ahead) {  // the next pivot row first: round kb's phase 3 on it, then its phases 1 and 2
          min_plus(width_, dim3(tiles_, 1), d, padded, kb, RowPhase3Tiles{next}, b->ahead);
          close_pivot_row(next, *b, b->ahead);
        }
        min_plus(width_, dim3(tiles_, b->rows), d, padded, kb, BandPhase3Tiles{b->first, row_ahead ? next : -1},
                 b->stream);
      }
      if (next == tiles_) break;
      if (look_ahead) {
        broadcast(next, true);
        for (const auto& b : bands_) {  // join: round kb + 1 needs its pivot row on every GPU
          CUDA_CHECK(cudaSetDevice(b->device));
          CUDA_CHECK(cudaEventRecord(b->received, b->ahead));
          CUDA_CHECK(cudaStreamWaitEvent(b->stream, b->received, 0));
        }
      } else {
        Band& o = owner(next);
        CUDA_CHECK(cudaSetDevice(o.device));
        close_pivot_row(next, o, o.stream);
        broadcast(next, false);
      }
    }
    gather();
  }

  // Every round's broadcast and nothing else: what the rounds spend in NCCL.
  void broadcasts() {
    for (int kb = 0; kb < tiles_; ++kb) broadcast(kb, false);
  }

  // The chain and nothing else: what each round must finish before the next round's phase 3 may start,
  // one after another on the next pivot row's owner. Round kb + 1's pivot row needs round kb's column
  // on its tile (the owner's column launch), round kb's phase 3 on that tile row, its own phases 1
  // and 2, and its broadcast. Phase 3 on the rest of the band runs beside this chain in the overlapped
  // schedule, so however many GPUs share phase 3, a run takes at least the chain's time.
  void chain() {
    const int padded = static_cast<int>(padded_);
    Band& first_owner = owner(0);
    CUDA_CHECK(cudaSetDevice(first_owner.device));
    close_pivot_row(0, first_owner, first_owner.stream);
    broadcast(0, false);
    for (int kb = 0; kb + 1 < tiles_; ++kb) {
      Band& o = owner(kb + 1);
      CUDA_CHECK(cudaSetDevice(o.device));
      min_plus(width_, dim3(1, o.rows), o.work.data(), padded, kb, BandColumnTiles{o.first}, o.stream);
      min_plus(width_, dim3(tiles_, 1), o.work.data(), padded, kb, RowPhase3Tiles{kb + 1}, o.stream);
      close_pivot_row(kb + 1, o, o.stream);
      broadcast(kb + 1, false);
    }
  }

  course::TimingStats time(const std::function<void()>& work, const course::TimingOptions& options) {
    return course::time_gpus(work, options, devices_, streams_, [this] {
      CUDA_CHECK(cudaSetDevice(devices_[0]));
      distances_.poison(streams_[0]);  // the answer spoilt (-1) before each run
    });
  }

  // The distances as GPU 0 holds them (after the work in every stream is done).
  std::vector<std::int32_t> distances() {
    for (const auto& b : bands_) {
      CUDA_CHECK(cudaSetDevice(b->device));
      CUDA_CHECK(cudaStreamSynchronize(b->stream));
    }
    CUDA_CHECK(cudaSetDevice(devices_[0]));
    return distances_.to_host();
  }

  std::string describe() const {
    const std::size_t k = bands_.size();
    return std::to_string(k) + (k == 1 ? " GPU, " : " GPUs, ") + std::to_string(tiles_) + " rounds of " +
           std::to_string(width_) + ", " + std::to_string(bands_[0]->rows) + " tile rows on GPU 0" +
           (k == 1 ? "" : in_turn_ ? ", each pivot row broadcast in turn" : ", each pivot row broadcast ahead");
  }

  std::size_t size() const { return bands_.size(); }
  int width() const { return width_; }

 private:
  Band& owner(int tile_row) {
    for (const auto& b : bands_)
      if (b->holds(tile_row)) return *b;
    throw std::logic_error("no GPU holds tile row " + std::to_string(tile_row));
  }

  // Phases 1 and 2 of round kb on the pivot row, on the GPU that holds it: the diagonal tile, then the
  // row's other tiles (step 11's panels, the row's half of the grid). The device is already set.
  void close_pivot_row(int kb, Band& b, cudaStream_t stream) {
    const int padded = static_cast<int>(padded_);
    at_width(width_, [&](auto w) { floyd_warshall::launch_phase1<w()>(b.work.data(), padded, kb, stream); });
    if (tiles_ > 1) min_plus(width_, dim3(tiles_ - 1, 1), b.work.data(), padded, kb, floyd_warshall::PanelTiles{}, stream);
  }

  // Tile row kb, from the GPU that holds it to the same place on every other GPU: one call per GPU,
  // grouped, on each GPU's look-ahead stream or its main one. One thread makes all K calls, and a
  // collective call may block until every rank has joined: without the group, the call for the first
  // GPU could wait for the others', which this thread would never reach. Between ncclGroupStart and
  // ncclGroupEnd NCCL treats the K calls as one call to many GPUs, enqueued by ncclGroupEnd.
  //
  // On the look-ahead stream, a receiver's copy of tile row kb is overwritten while its phase 3 of
  // round kb - 1 still runs on the main stream. That is safe: the receiver holds no tile of row kb in
  // its band, so that phase 3 writes none of it (it writes only its band's tile rows), and reads none
  // of it (it reads tile row kb - 1 and its band's tiles of column kb - 1). Nothing else reads the
  // row before round kb, whose first kernel waits for the `received` event recorded after the
  // broadcast.
  void broadcast(int kb, bool on_ahead) {
#ifdef COURSE_HAVE_NCCL
    if (comms_->empty()) return;  // one GPU: nothing to send
    const std::size_t offset = static_cast<std::size_t>(kb) * width_ * padded_, count = width_ * padded_;
    int root = 0;
    while (!bands_[root]->holds(kb)) ++root;
    NCCL_CHECK(ncclGroupStart());
    for (std::size_t g = 0; g < bands_.size(); ++g) {
      std::int32_t* row = bands_[g]->work.data() + offset;
      NCCL_CHECK(ncclBroadcast(row, row, count, ncclInt32, root, (*comms_)[g],
                               on_ahead ? bands_[g]->ahead : bands_[g]->stream));
    }
    NCCL_CHECK(ncclGroupEnd());
#else
    (void)kb, (void)on_ahead;
#endif
  }

  // Each band's rows, less the padding, into GPU 0's n x n distances (peer copies for the other GPUs).
  void gather() {
    const std::size_t row_bytes = n_ * sizeof(std::int32_t);
    for (const auto& b : bands_) {
      const std::size_t begin = static_cast<std::size_t>(b->first) * width_;
      const std::size_t end = std::min(n_, static_cast<std::size_t>(b->first + b->rows) * width_);
      if (begin >= end) continue;  // a band of padding only
      CUDA_CHECK(cudaSetDevice(b->device));
      CUDA_CHECK(cudaMemcpy2DAsync(distances_.data() + begin * n_, row_bytes, b->work.data() + begin * padded_,
                                   padded_ * sizeof(std::int32_t), row_bytes, end - begin, cudaMemcpyDefault,
                                   b->stream));
    }
  }

  std::size_t n_ = 0, padded_ = 0;
  int width_ = 0, tiles_ = 0;
  bool in_turn_ = false;
  std::vector<std::unique_ptr<Band>> bands_;
  std::vector<cudaStream_t> streams_;
  std::vector<int> devices_;
  course::DeviceBuffer<std::int32_t> distances_;  // on GPU 0
#ifdef COURSE_HAVE_NCCL
  std::unique_ptr<course::Communicators> comms_;  // destroyed before the GPUs' bands
#endif
};

std::vector<std::int32_t> run_on_gpus(const std::vector<std::int32_t>& graph, std::size_t n, int gpus, int tile,
                                      bool in_turn) {
  LaunchPlan requested;
  requested.tile = tile;
  Gpus machine(graph, n, course::gpus_for(gpus), requested, in_turn);
  machine.time([&] { machine.run(); }, course::TimingOptions{0, 1, false});
  return machine.distances();
}

// --scaling: the same graph on 1, 2, 4, ... GPUs (as many as the machine has), each in turn and
// overlapped, with the broadcasts (on more than one GPU) and the chain also timed alone. The first
// answer is checked as --check says, and every other must equal it exactly.
int print_scaling(const floyd_warshall::Input& in, const floyd_warshall::Request& request) {
  const std::vector<int> every_gpu = course::gpus_for(0);
  course::TextTable table({"GPUs", "round", "in turn ms", "overlapped ms", "speed-up", "efficiency", "broadcasts ms",
                           "broadcast share", "chain ms", "chain share", "check"});
  std::vector<std::int32_t> first;
  std::string first_check;
  double one_gpu_ms = 0;
  bool all_pass = true;
  for (std::size_t k = 1; k <= every_gpu.size(); k *= 2) {
    Gpus machine(in.graph, in.n, std::vector<int>(every_gpu.begin(), every_gpu.begin() + static_cast<long>(k)),
                 request.requested, true);
    const double in_turn_ms = machine.time([&] { machine.run(); }, request.common.timing).median_ms;
    std::vector<std::int32_t> got = machine.distances();
    machine.set_in_turn(false);
    const double ms = machine.time([&] { machine.run(); }, request.common.timing).median_ms;
    const std::vector<std::int32_t> overlapped = machine.distances();
    bool pass = overlapped == got;
    if (k == 1) {
      const course::Verdict v = floyd_warshall::check_distances(in.graph, in.n, got, request.check);
      pass = pass && v.pass;
      first_check = v.describe(in.n);
      first = std::move(got);
      one_gpu_ms = ms;
    } else {
      pass = pass && got == first;
    }
    all_pass = all_pass && pass;
    const double broadcast_ms = k > 1 ? machine.time([&] { machine.broadcasts(); }, request.common.timing).median_ms : 0;
    const double chain_ms = machine.time([&] { machine.chain(); }, request.common.timing).median_ms;
    const double speedup = one_gpu_ms / ms;
    table.add_row({std::to_string(k), std::to_string(machine.width()), course::format_significant(in_turn_ms, 4),
                   course::format_significant(ms, 4), course::format_significant(speedup, 3) + "x",
                   course::format_significant(100 * speedup / static_cast<double>(k), 3) + "%",
                   k > 1 ? course::format_significant(broadcast_ms, 3) : "-",
                   k > 1 ? course::format_significant(100 * broadcast_ms / ms, 3) + "%" : "-",
                   course::format_significant(chain_ms, 3), course::format_significant(100 * chain_ms / ms, 3) + "%",
                   pass ? "PASS" : "FAIL"});
  }
  std::cout << "Lesson 04, step 14: Floyd-Warshall, n = " << in.n << ", on 1 to " << every_gpu.size()
            << " GPUs, a band of tile rows on each GPU; " << course::query_device(every_gpu[0]).name << ", medians of "
            << request.common.timing.reps << " runs\n\n";
  table.print(std::cout);
  std::cout << "\nspeed-up and efficiency of the overlapped schedule against 1 GPU; the broadcasts of every round "
               "timed alone, and the chain (each round's work on the next pivot row: its column tile, its phase 3, "
               "its phases 1 and 2 and its broadcast, one after another) timed alone, each as a share of the "
               "overlapped time. 1 GPU checked: "
            << first_check << "; every other answer equal to it\n";
  return all_pass ? course::kExitPass : course::kExitFail;
}

}  // namespace gpus_floyd_warshall

// The step's rung: its options are the lesson's, with --tile, --gpus, --scaling and --in-turn; this
// page runs it (the plan and launch of a one-GPU step are not used).
const floyd_warshall::Step floyd_warshall::kThisStep = {
    "14", "every GPU, a band of rows each, the pivot row broadcast", "gpu", nullptr, nullptr, nullptr,
    floyd_warshall::kDefaultVertices, 2049, false, true, true};

int main(int argc, char** argv) {
  // The course's step skeleton reads the options (and says SKIP without a GPU); this page does the rest.
  return course::step_main<floyd_warshall::Lesson>(argc, argv, floyd_warshall::kThisStep,
                                                   [](floyd_warshall::Request& request) {
    const floyd_warshall::Input in = floyd_warshall::load_input(request);  // --input, or a seeded graph
    request.graph.vertices = in.n;
    if (request.scaling) return gpus_floyd_warshall::print_scaling(in, request);
    course::Measurement m = floyd_warshall::Lesson::describe(floyd_warshall::kThisStep, request);
    gpus_floyd_warshall::Gpus machine(in.graph, in.n, course::gpus_for(request.gpus), request.requested,
                                      request.in_turn);
    m.time = machine.time([&] { machine.run(); }, request.common.timing);
    return floyd_warshall::report_gpu(m, in, machine.distances(), request, static_cast<int>(machine.size()),
                                      machine.describe());
  });
}
