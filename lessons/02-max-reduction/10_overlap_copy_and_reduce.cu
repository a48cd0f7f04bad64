// Lesson 02, step 10: the array starts in host memory. Copy and reduce at the same time.
//
// What changed: until now the array was already on the GPU. Here it starts in host memory, and the
// time that counts runs from the first byte copied to the answer. Copying it all and then reducing it
// puts the two one after the other. Instead the array travels in chunks (16 MB by default): chunk c is
// copied with cudaMemcpyAsync in stream c % 2 and reduced there by step 07's kernel, so while chunk c
// is reduced in one stream, chunk c + 1 is already crossing the bus in the other. Each chunk's
// maximum goes to its own slot; one last small kernel reduces the slots.
//
// From pinned (page-locked) host memory the copy engine reads the chunks directly. From ordinary
// (pageable) memory it cannot: the array is first copied, by the CPU, into a few pinned staging
// buffers taken in turn, and the CPU fills buffer b again only once the copy that last read it has
// finished (an event says so). The CPU's copy of chunk c + 1 then overlaps the bus transfer of chunk c.
//
// When it is faster: the bus moves tens of GB/s, the GPU's memory thousands, so copy-then-reduce is
// nearly all copy. From pinned memory there is little to hide: overlapped, what is left after the copy
// is the reduction of the last chunk, and the chunks' fixed costs take back about what that saves (the
// README's table). The gain is from a pageable source: there cudaMemcpy stages the array through the
// driver's own pinned buffer, one piece after another, while this program stages it with several CPU
// threads and overlaps that staging with the bus transfers and the reductions. The table does not
// separate the two changes.
//
// What it costs: pinned memory, which the operating system cannot page out (the whole array for a
// pinned source; for a pageable one the staging buffers, with events to say when each is free again,
// and CPU threads busy copying for the whole transfer); a fixed cost per chunk, a copy command and a
// launch, plus the last small kernel over the slots; and far more code than one copy and one launch.
//
// The chunk size: each chunk pays a fixed cost (a copy command, a launch, a few microseconds), and
// the reduction of the last chunk cannot overlap anything. Small chunks shorten that tail and multiply
// the fixed costs; large chunks do the opposite. The program sweeps the size and prints both.
//
// This program prints its own tables (where the time goes, the chunk sizes) and, with --results, a
// timeline of the overlap drawn from the event timestamps of one run.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <iostream>
#include <string>
#include <vector>

#include "03_gpu_global_atomics.cuh"
#include "06_warp_shuffle.cuh"
#include "07_persistent_vector_loads.cuh"
#include "course/buffers.h"
#include "course/check.h"
#include "course/cli.h"
#include "course/data.h"
#include "course/device.h"
#include "course/errors.h"
#include "course/launch.h"
#include "course/program.h"
#include "course/report.h"
#include "course/timing.h"
#include "max_reduction.h"
#include "max_reduction_device.cuh"

namespace {

using max_reduction::kLowest;

// Step 07's reduction of one chunk, folded into its slot with an atomic.
__global__ void chunk_max(const float* values, std::size_t n, float* slot) {
  const float best = max_reduction::block_max(max_reduction::thread_max_vectorized(values, n));
  if (threadIdx.x == 0) max_reduction::atomic_max_float(slot, best);
}

__global__ void fill_lowest(float* slots, int count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) slots[i] = kLowest;
}

// One block reduces the chunks' maxima.
__global__ void combine_slots(const float* slots, int count, float* result) {
  float best = kLowest;
  for (int i = threadIdx.x; i < count; i += blockDim.x) best = fmaxf(best, slots[i]);
  best = max_reduction::block_max(best);
  if (threadIdx.x == 0) *result = best;
}

// Event timestamps of one chunk: when its copy started and ended, when its reduction started and ended.
struct ChunkEvents {
  course::Event copy_start, copy_end, reduce_start, reduce_end;
};

// Everything one end-to-end run needs, made once, outside the timed region.
struct Pipeline {
  std::size_t n = 0, chunk = 0;  // floats in all, floats per chunk
  int chunks = 0;
  int threads = 512, blocks = 0;
  std::vector<course::Stream> streams;
  std::vector<course::Event> done;  // each stream's end of a run
  std::vector<ChunkEvents> events;
  course::Event start, ready;
  course::DeviceBuffer<float> device_array, slots, result;
  std::vector<std::unique_ptr<course::PinnedBuffer<float>>> staging;  // for pageable sources

  Pipeline(std::size_t n_, std::size_t chunk_, int stream_count, int staging_count, const course::DeviceFacts& device)
      : n(n_), chunk(std::min(chunk_, n_)), chunks(static_cast<int>((n_ + chunk - 1) / chunk)),
        streams(static_cast<std::size_t>(stream_count)), done(static_cast<std::size_t>(stream_count)),
        events(static_cast<std::size_t>(chunks)),
        device_array(n_, "input array"), slots(static_cast<std::size_t>(chunks), "chunk maxima"), result(1, "result") {
    blocks = course::resident_blocks(reinterpret_cast<const void*>(chunk_max), threads, 0, device);
    for (int b = 0; b < staging_count; ++b) staging.push_back(std::make_unique<course::PinnedBuffer<float>>(chunk));
  }

  std::size_t first(int c) const { return static_cast<std::size_t>(c) * chunk; }
  std::size_t length(int c) const { return std::min(chunk, n - first(c)); }

  // Enqueues chunk c (already in pinned memory at `source`): its copy, then its reduction.
  void enqueue_chunk(int c, const float* source) {
    cudaStream_t s = streams[static_cast<std::size_t>(c) % streams.size()].get();
    float* target = device_array.data() + first(c);
    ChunkEvents& e = events[static_cast<std::size_t>(c)];
    e.copy_start.record(s);
    CUDA_CHECK(cudaMemcpyAsync(target, source, length(c) * sizeof(float), cudaMemcpyHostToDevice, s));
    e.copy_end.record(s);
    e.reduce_start.record(s);
    chunk_max<<<blocks, threads, 0, s>>>(target, length(c), slots.data() + c);
    CUDA_CHECK_LAUNCH();
    e.reduce_end.record(s);
  }

  // The first stream prepares the slots; the others wait for it, and it waits for them at the end.
  void begin() {
    result.poison(streams[0].get());
    start.record(streams[0].get());
    fill_lowest<<<1, 256, 0, streams[0].get()>>>(slots.data(), chunks);
    CUDA_CHECK_LAUNCH();
    ready.record(streams[0].get());
    for (std::size_t s = 1; s < streams.size(); ++s) CUDA_CHECK(cudaStreamWaitEvent(streams[s].get(), ready.get(), 0));
  }
  void finish() {
    for (std::size_t s = 1; s < streams.size(); ++s) {
      done[s].record(streams[s].get());
      CUDA_CHECK(cudaStreamWaitEvent(streams[0].get(), done[s].get(), 0));
    }
    combine_slots<<<1, 1024, 0, streams[0].get()>>>(slots.data(), chunks, result.data());
    CUDA_CHECK_LAUNCH();
    streams[0].synchronize();
  }

  // From pinned host memory: every chunk straight from the array.
  void run_from_pinned(const float* pinned) {
    begin();
    for (int c = 0; c < chunks; ++c) enqueue_chunk(c, pinned + first(c));
    finish();
  }

  // From pageable host memory: each chunk copied by the CPU into a pinned staging buffer first. Before
  // refilling buffer b, wait until the bus transfer that last read it has ended.
  void run_from_pageable(const float* pageable) {
    begin();
    for (int c = 0; c < chunks; ++c) {
      const std::size_t b = static_cast<std::size_t>(c) % staging.size();
      if (c >= static_cast<int>(staging.size()))
        CUDA_CHECK(cudaEventSynchronize(events[static_cast<std::size_t>(c) - staging.size()].copy_end.get()));
      course::copy_with_threads(staging[b]->data(), pageable + first(c), length(c) * sizeof(float));
      enqueue_chunk(c, staging[b]->data());
    }
    finish();
  }

  float answer() const {
    float got = NAN;
    result.download(&got, 1);
    return got;
  }
};

// One way of getting the answer end to end: how to run it (it ends synchronized) and, where it
// computes one, how to read its answer back.
struct Way {
  std::string name;
  std::function<void()> run;
  std::function<float()> answer;
};

// Median wall-clock times of the ways, measured in turn (way 1, way 2, ..., way 1, ...) so that a drift
// of the machine during the run touches them all alike; one untimed run of each first.
std::vector<double> interleaved_medians(int reps, const std::vector<Way>& ways) {
  for (const Way& w : ways) w.run();
  std::vector<std::vector<double>> samples(ways.size());
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < ways.size(); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      ways[i].run();
      samples[i].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
  std::vector<double> medians;
  for (auto& s : samples) medians.push_back(course::TimingStats::from_samples(s).median_ms);
  return medians;
}

// The overlap of one run as an SVG timeline: per stream, a row of copies and a row of reductions.
void write_timeline(std::ostream& out, const std::string& title, Pipeline& p) {
  double last = 0;
  for (ChunkEvents& e : p.events) last = std::max<double>(last, e.reduce_end.elapsed_ms_since(p.start));
  const double left = 150, width = 900, row = 22, top = 50;
  const int rows = 2 * static_cast<int>(p.streams.size());
  const double height = top + row * rows + 40;
  auto x = [&](double ms) { return left + (width - left - 20) * ms / last; };
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">" << title << "</text>\n"
      << "<text x=\"10\" y=\"36\" fill=\"#555\">event timestamps of one run; copies in blue, reductions in orange</text>\n";
  for (int r = 0; r < rows; ++r) {
    const int stream = r / 2;
    out << "<text x=\"" << left - 8 << "\" y=\"" << top + row * r + 15 << "\" text-anchor=\"end\">stream " << stream
        << (r % 2 == 0 ? " copy" : " reduce") << "</text>\n";
  }
  for (int c = 0; c < p.chunks; ++c) {
    ChunkEvents& e = p.events[static_cast<std::size_t>(c)];
    const int stream = c % static_cast<int>(p.streams.size());
    const double spans[2][2] = {{e.copy_start.elapsed_ms_since(p.start), e.copy_end.elapsed_ms_since(p.start)},
                                {e.reduce_start.elapsed_ms_since(p.start), e.reduce_end.elapsed_ms_since(p.start)}};
    for (int kind = 0; kind < 2; ++kind) {
      const double y = top + row * (2 * stream + kind) + 3;
      out << "<rect x=\"" << x(spans[kind][0]) << "\" y=\"" << y << "\" width=\""
          << std::max(1.0, x(spans[kind][1]) - x(spans[kind][0])) << "\" height=\"" << row - 6 << "\" fill=\""
          << (kind == 0 ? "#3b7dd8" : "#e0a030") << "\" stroke=\"white\" stroke-width=\"0.5\"/>\n";
    }
  }
  for (int tick = 0; tick <= 4; ++tick) {
    const double ms = last * tick / 4;
    out << "<text x=\"" << x(ms) << "\" y=\"" << height - 14 << "\" text-anchor=\"middle\" fill=\"#555\">"
        << course::format_significant(ms, 3) << " ms</text>\n";
  }
  out << "</svg>\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::string program = course::program_name(argv[0]);
  return course::run_program(program.c_str(), [&] {
    course::CommandLine cli(program, "Lesson 02, step 10: the maximum of an array that starts in host memory, copy "
                                     "and reduction overlapped in chunks.");
    cli.add_size("n", max_reduction::kDefaultCount, "number of floats", 1, 4294967295ull);
    cli.add_integer("seed", 1, "seed of the input data generator", 0, 1LL << 62);
    cli.add_integer("reps", 15, "timed repetitions (the median is reported)", 1, 1000);
    cli.add_size("chunk-mb", 16, "megabytes per chunk (2^20 bytes)", 1, 4096);
    cli.add_integer("streams", 2, "streams the chunks take in turn", 1, 16);
    cli.add_integer("staging", 3, "pinned staging buffers for a pageable source", 1, 16);
    cli.add_text("results", "", "write the timeline (lesson02-timeline.svg) into this folder", "DIR");
    if (!cli.parse(argc, argv)) return course::kExitPass;
    const course::DeviceFacts device = course::query_device();
    const std::size_t n = cli.size("n");
    const int reps = static_cast<int>(cli.integer("reps"));
    const std::size_t bytes = n * sizeof(float);
    const std::size_t chunk = (cli.size("chunk-mb") << 20) / sizeof(float);
    const int streams = static_cast<int>(cli.integer("streams")), staging = static_cast<int>(cli.integer("staging"));

    const std::vector<float> pageable =
        course::uniform_floats(n, -1.0f, 1.0f, static_cast<std::uint64_t>(cli.integer("seed")));
    course::PinnedBuffer<float> pinned(n);
    std::memcpy(pinned.data(), pageable.data(), bytes);
    const float expected = max_reduction::reference_max(pageable.data(), n);
    bool all_pass = true;
    auto check = [&](float got) -> std::string {
      all_pass = all_pass && got == expected;
      return got == expected ? "PASS" : "FAIL";
    };

    // The baselines: each copy alone, the reduction alone, and copy-then-reduce; then the overlapped
    // ways, at several chunk sizes. All are timed the same way, in turn.
    Pipeline whole(n, n, 1, 1, device);  // one chunk: nothing overlaps
    course::Stream& s0 = whole.streams[0];
    auto reduce_on_gpu = [&] {
      whole.begin();
      chunk_max<<<whole.blocks, whole.threads, 0, s0.get()>>>(whole.device_array.data(), n, whole.slots.data());
      CUDA_CHECK_LAUNCH();
      whole.finish();
    };
    // A copy from pageable memory may return before its last transfer has landed: wait for the device.
    auto copy_pageable = [&] {
      CUDA_CHECK(cudaMemcpy(whole.device_array.data(), pageable.data(), bytes, cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaDeviceSynchronize());
    };
    auto whole_answer = [&] { return whole.answer(); };
    std::vector<Way> ways{
        {"copy alone, pageable memory", copy_pageable, {}},
        {"copy alone, pinned memory",
         [&] {
           CUDA_CHECK(cudaMemcpyAsync(whole.device_array.data(), pinned.data(), bytes, cudaMemcpyHostToDevice, s0.get()));
           s0.synchronize();
         },
         {}},
        {"reduction alone (data on the GPU)", reduce_on_gpu, whole_answer},
        {"pageable copy, then reduction", [&] { copy_pageable(); reduce_on_gpu(); }, whole_answer},
        {"pinned copy, then reduction", [&] { whole.run_from_pinned(pinned.data()); }, whole_answer}};
    const std::vector<std::size_t> chunk_mbs{1, 4, 16, 64};
    std::vector<std::unique_ptr<Pipeline>> by_size;
    std::size_t chosen = 0;  // the pipeline of --chunk-mb among them
    for (std::size_t mb : chunk_mbs) {
      const std::size_t floats = (mb << 20) / sizeof(float);
      if (mb == cli.size("chunk-mb")) chosen = by_size.size();
      by_size.push_back(std::make_unique<Pipeline>(n, floats, streams, mb == cli.size("chunk-mb") ? staging : 1, device));
    }
    if (std::find(chunk_mbs.begin(), chunk_mbs.end(), cli.size("chunk-mb")) == chunk_mbs.end()) {
      chosen = by_size.size();
      by_size.push_back(std::make_unique<Pipeline>(n, chunk, streams, staging, device));
    }
    Pipeline& overlapped = *by_size[chosen];
    const std::size_t first_overlapped = ways.size();
    for (auto& p : by_size) {
      Pipeline* q = p.get();
      ways.push_back({"overlapped, from pinned memory", [&pinned, q] { q->run_from_pinned(pinned.data()); },
                      [q] { return q->answer(); }});
    }
    ways.push_back({"overlapped, from pageable memory", [&] { overlapped.run_from_pageable(pageable.data()); },
                    [&] { return overlapped.answer(); }});
    // Each way's answer is read right after its own run, so no other way has overwritten it.
    std::vector<std::string> verdicts(ways.size(), "-");
    std::vector<Way> checked = ways;
    for (std::size_t i = 0; i < checked.size(); ++i)
      if (checked[i].answer) {
        auto run = checked[i].run;
        auto answer = checked[i].answer;
        checked[i].run = [&verdicts, &check, i, run, answer] {
          run();
          verdicts[i] = check(answer());
        };
      }
    const std::vector<double> ms = interleaved_medians(reps, checked);
    const double pinned_copy = ms[1];

    course::TextTable table({"way", "time ms", "GB/s", "vs pinned copy alone", "check"});
    auto row = [&](std::size_t i) {
      table.add_row({ways[i].name, course::format_significant(ms[i], 4),
                     course::format_significant(bytes / (ms[i] * 1e-3) / 1e9, 4),
                     course::format_significant(ms[i] / pinned_copy, 3) + "x", verdicts[i]});
    };
    for (std::size_t i = 0; i < first_overlapped; ++i) row(i);
    row(first_overlapped + chosen);
    row(ways.size() - 1);
    std::cout << "Lesson 02, step 10: the array starts in host memory. n=" << n << " ("
              << course::format_significant(bytes / 1e6, 4) << " MB), " << cli.size("chunk-mb") << " MB chunks on "
              << streams << " streams, " << staging << " staging buffers; " << device.name
              << ", wall-clock medians of " << reps << " runs, the ways taken in turn\n\n";
    table.print(std::cout);

    course::TextTable sizes({"chunk MB", "chunks", "time ms", "vs pinned copy alone", "check"});
    for (std::size_t k = 0; k < by_size.size(); ++k) {
      const std::size_t i = first_overlapped + k;
      sizes.add_row({std::to_string(by_size[k]->chunk * sizeof(float) >> 20), std::to_string(by_size[k]->chunks),
                     course::format_significant(ms[i], 4), course::format_significant(ms[i] / pinned_copy, 3) + "x",
                     verdicts[i]});
    }
    std::cout << "\nChunk size, overlapped from pinned memory:\n\n";
    sizes.print(std::cout);
    const double pinned_overlap = ms[first_overlapped + chosen], pageable_overlap = ms.back(), pageable_then = ms[3];

    if (cli.given("results")) {
      overlapped.run_from_pinned(pinned.data());
      const std::string path = cli.text("results") + "/lesson02-timeline.svg";
      std::ofstream svg(path);
      if (!svg) throw course::UsageError(path + ": cannot be written");
      write_timeline(svg, "Lesson 02, step 10: copy and reduction overlapped, from pinned memory (" +
                              std::to_string(overlapped.chunks) + " chunks)", overlapped);
      std::cout << "\ntimeline written to " << path << "\n";
    }
    std::cout << "\nend to end from pinned memory: " << course::format_significant(pinned_overlap / pinned_copy, 3)
              << "x the copy alone; from pageable memory: "
              << course::format_significant(pageable_then / pageable_overlap, 3)
              << "x faster than a pageable copy followed by the reduction; " << (all_pass ? "every run PASS" : "FAIL")
              << "\n";
    return all_pass ? course::kExitPass : course::kExitFail;
  });
}
