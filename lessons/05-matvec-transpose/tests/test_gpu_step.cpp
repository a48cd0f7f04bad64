// Tests of one GPU step of lesson 05, built once per step (lesson05_NN_..._test): C must match the
// double-precision reference within the lesson's tolerance on awkward shapes and several seeds.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "course/device.h"
#include "course/test_sizes.h"
#include "course/verify.h"
#include "matvec.h"

using matvec::kThisStep;

namespace {

void require_step_matches(const matvec::Problem& p, const matvec::LaunchPlan& requested = {}) {
  const std::vector<double> expected = matvec::reference(p);
  const std::vector<float> got = matvec::run_gpu_once(kThisStep, p, requested);
  const course::Verdict v = course::compare_close(got.data(), expected.data(), p.columns, matvec::tolerance(p, expected));
  INFO("step " << kThisStep.number << ", A " << p.rows << " x " << p.columns << ", threads " << requested.threads
               << ", blocks " << requested.blocks << ", rows " << requested.rows_at_a_time
               << (requested.scalar_loads ? ", 4-byte loads" : "") << (requested.shared_vector ? "" : ", v from global")
               << ", layout " << static_cast<int>(requested.layout) << (requested.no_bulk_copy ? ", no bulk copy" : "")
               << ", rows ahead " << requested.rows_ahead << ", prefetch " << requested.prefetch_request
               << ", block threads " << requested.block_threads << ", warp e32 " << requested.warp_e32 << ": "
               << v.describe());
  REQUIRE(v.pass);
}

// Whether this step takes `layout`: steps without --layout ignore it; step 07 holds rows in a warp or
// a block only, steps 08 and 09 also in a group of blocks or a cluster, steps 10 and 11 also in the
// wide layout (each refuses the others).
bool takes_layout(matvec::RowLayout layout) {
  if (!(kThisStep.options & matvec::kLayoutOption)) return true;
  if (layout == matvec::RowLayout::kGroup || layout == matvec::RowLayout::kCluster)
    return kThisStep.options & matvec::kGroupLayoutsOption;
  if (layout == matvec::RowLayout::kWide) return kThisStep.options & matvec::kWideLayoutOption;
  return true;
}

}  // namespace

TEST_CASE("matches the reference on awkward shapes and several seeds") {
  const std::vector<std::pair<std::size_t, std::size_t>> shapes{
      {1, 1}, {1, 1000}, {1000, 1}, {33, 1000}, {1000, 33}, {31, 2}, {2, 31}, {999, 1001}, {257, 4099}};
  for (auto [m, n] : shapes)
    for (auto seed : course::test_seeds()) require_step_matches(matvec::make_problem(m, n, seed));
}

TEST_CASE("matches the reference on shapes that are not multiples of 4") {
  for (std::size_t n : {5, 6, 7, 1023, 16383}) require_step_matches(matvec::make_problem(129, n, n));
}

TEST_CASE("matches the reference at the default size") {
  require_step_matches(matvec::make_problem(matvec::kDefaultRows, matvec::kDefaultColumns, 7));
}

TEST_CASE("matches the reference on tall and wide matrices") {
  require_step_matches(matvec::make_problem(100000, 40, 8));
  require_step_matches(matvec::make_problem(40, 20000, 9));  // wider than a block of step 07 holds: a group
  require_step_matches(matvec::make_problem(3, 70001, 11));
  require_step_matches(matvec::make_problem(97, 150001, 12));
  require_step_matches(matvec::make_problem(1025, 16400, 14));  // groups of 3 blocks, the third of 16 columns
}

TEST_CASE("matches the reference on rows that steps 10 and 11's wide layout splits 1 to 16 columns per thread") {
  // On a GPU of about 132 SMs the wide layout (asked for by name up to 65536 columns, where a group of
  // blocks would hold the row) gives each thread 2 columns of a row of 70001 (and takes groups of 8 rows, the
  // last one short), 8 of 300007 and 16 of 600011: copies of 4 bytes, as these rows do not start on
  // 16-byte boundaries. Rows of a multiple of 4 columns are copied 16 bytes at a time: 1 column per
  // thread of 40000 (groups of 16 rows, the last one of a single row), 2 of 70000; or, on GPUs with a
  // bulk copy engine, a row's slice at a time: 8 of 300008 (groups of 2 rows, the last one short), 16
  // of 600012.
  matvec::LaunchPlan wide;
  if (takes_layout(matvec::RowLayout::kWide)) wide.layout = matvec::RowLayout::kWide;  // else: by N
  require_step_matches(matvec::make_problem(1100, 70001, 15), wide);
  require_step_matches(matvec::make_problem(37, 300007, 16));
  require_step_matches(matvec::make_problem(37, 600011, 17));
  require_step_matches(matvec::make_problem(2049, 40000, 18), wide);
  require_step_matches(matvec::make_problem(1100, 70000, 19), wide);
  require_step_matches(matvec::make_problem(37, 600012, 20));
  require_step_matches(matvec::make_problem(37, 300008, 22));
}

TEST_CASE("matches the reference on every row length steps 07 to 11 treat differently") {
  // Steps 07 to 10 give a row to a warp up to 1024 columns, to a block of 512 threads up to 8192
  // (E = 4, 8, 16 elements per thread), of 1024 up to 16384; beyond, step 07 runs two passes, and
  // steps 08 to 11 give a row to a group of 2 to 8 blocks up to 65536 (8192 columns per block); beyond
  // that steps 08 and 09 run two passes and steps 10 and 11 give each block a slice of every row.
  for (std::size_t n : {32, 33, 1024, 1025, 3000, 8192, 8193, 16384, 16385, 32769, 65536, 65537})
    require_step_matches(matvec::make_problem(300, n, n));
  for (std::size_t n : {131072, 131073}) require_step_matches(matvec::make_problem(37, n, n));
}

TEST_CASE("matches the reference on a few long rows") {
  // Steps 05 and 06 cut rows into pieces where there are too few to give every warp one (5 rows of
  // 100,000 columns: 97 pieces a row in step 05, 24 per group of 4 rows in step 06); steps 07 to 09
  // run step 06's two passes on such rows, and steps 10 and 11 fall back to them where the grid's threads
  // would hold more than 16 columns each, as with 4 blocks of 512 threads here.
  matvec::LaunchPlan few_blocks;
  few_blocks.blocks = 4;
  for (std::size_t n : {100001, 100000}) {
    require_step_matches(matvec::make_problem(5, n, n));
    require_step_matches(matvec::make_problem(5, n, n + 1), few_blocks);
  }
  require_step_matches(matvec::make_problem(1, 2000000, 21));
}

TEST_CASE("every layout of steps 07 to 11 matches the reference on every row length it holds") {
  // --layout: a warp holds up to 1024 columns, a block 16384, a group or a cluster of blocks 65536,
  // the wide layout any. 517 rows leave short last groups; 40001 columns make a group of 5 blocks,
  // 65536 one of 8.
  const std::pair<matvec::RowLayout, std::size_t> layouts[] = {{matvec::RowLayout::kWarp, 1024},
                                                               {matvec::RowLayout::kBlock, 16384},
                                                               {matvec::RowLayout::kGroup, 65536},
                                                               {matvec::RowLayout::kCluster, 65536},
                                                               {matvec::RowLayout::kWide, 200000}};
  for (auto [layout, most] : layouts)
    for (std::size_t n : {1, 31, 1000, 1024, 4099, 16384, 40001, 65536, 100001}) {
      if (n > most || !takes_layout(layout)) continue;
      matvec::LaunchPlan requested;
      requested.layout = layout;
      require_step_matches(matvec::make_problem(n > 16384 ? 61 : 517, n, n + 3), requested);
    }
}

TEST_CASE("steps 09 to 11's group and wide layouts match the reference with every thread copying its own values") {
  // --no-bulk-copy: rows of a multiple of 4 columns, which the bulk copy engine would copy (40000 and
  // 65536 in a group of blocks; 300008 and 600012 in the wide layout, 8 and 16 columns per thread),
  // and one that it would not (40001).
  // The plan must pass the request on to every layout that could use the engine.
  const bool takes_it = kThisStep.options & matvec::kNoBulkCopyOption;
  for (auto layout : {matvec::RowLayout::kGroup, matvec::RowLayout::kCluster, matvec::RowLayout::kWide})
    for (std::size_t n : {40000, 40001, 65536, 300008, 600012}) {
      if ((layout != matvec::RowLayout::kWide && n > 65536) || !takes_layout(layout)) continue;
      matvec::LaunchPlan requested;
      requested.layout = layout;
      requested.no_bulk_copy = true;
      const std::size_t rows = n > 65536 ? 5 : 61;
      if (takes_it) {
        INFO("layout " << static_cast<int>(layout) << ", " << n << " columns");
        const course::DeviceFacts device = course::query_device();
        REQUIRE_FALSE(kThisStep.plan(rows, n, device, requested).bulk_copies);
        if (layout == matvec::RowLayout::kWide) {  // without the request the wide layout may use the engine
          matvec::LaunchPlan allowed = requested;
          allowed.no_bulk_copy = false;
          REQUIRE(kThisStep.plan(rows, n, device, allowed).bulk_copies);
        }
      }
      require_step_matches(matvec::make_problem(rows, n, n + 5), requested);
    }
}

TEST_CASE("steps 09 to 11's group layout matches the reference posting one row ahead") {
  // --rows-ahead 1: groups of 5 and 8 blocks (40001 and 65536 columns), copied by the bulk copy engine
  // or by every thread, launched cooperatively and as clusters; more rows than groups, so that every
  // block goes round its stages several times. The plan must carry the request to the launch.
  const bool takes_it = kThisStep.options & matvec::kRowsAheadOption;
  for (auto layout : {matvec::RowLayout::kGroup, matvec::RowLayout::kCluster})
    for (std::size_t n : {40001, 65536})
      for (bool no_bulk_copy : {false, true}) {
        if (!takes_layout(layout)) continue;
        matvec::LaunchPlan requested;
        requested.layout = layout;
        requested.rows_ahead = 1;
        requested.no_bulk_copy = no_bulk_copy;
        if (takes_it) {
          INFO("layout " << static_cast<int>(layout) << ", " << n << " columns");
          REQUIRE(kThisStep.plan(301, n, course::query_device(), requested).rows_ahead == 1);
        }
        require_step_matches(matvec::make_problem(301, n, n + 7), requested);
      }
}

TEST_CASE("step 07's warp and block layouts match the reference with and without prefetching and with either block size") {
  // --prefetch on|off: the next row (or group of rows) in flight while one is worked on, or each
  // loaded only when it is needed, in warps (E = 1 to 32, 1024 columns with whole lines) and blocks
  // (E = 4 to 16); the step's own choice is on for warps, off for blocks. --block-threads: blocks of
  // 512 (up to 8192 columns) or 1024 at any row length of the block layout. 517 rows leave short last
  // groups. The plan must carry both requests to the launch.
  const bool takes_it = (kThisStep.options & matvec::kPrefetchOption) && (kThisStep.options & matvec::kBlockThreadsOption);
  for (std::size_t n : {31, 997, 1024, 1025, 4099, 8192, 8193, 16384})
    for (int threads : {0, 512, 1024})
      for (int prefetch : {-1, 0, 1}) {
        if (n <= 1024 && threads != 0) continue;  // warp layout
        if (n > 8192 && threads == 512) continue;   // too long for blocks of 512
        matvec::LaunchPlan requested;
        requested.prefetch_request = prefetch;
        requested.block_threads = threads;
        if (takes_it) {
          INFO(n << " columns, block threads " << threads << ", prefetch " << prefetch);
          const matvec::LaunchPlan p = kThisStep.plan(517, n, course::query_device(), requested);
          REQUIRE(p.prefetch == (prefetch == 0 ? n <= 1024 : prefetch > 0));
          if (threads != 0) REQUIRE(p.threads == threads);
        }
        require_step_matches(matvec::make_problem(517, n, n + 9), requested);
      }
}

TEST_CASE("step 07's warp layout matches the reference on rows of 17 to 32 values a lane read and held each way") {
  // --warp-e32: whole lines with v and C in shared memory (the step's way), from each row's first
  // element (1), and that with v and C in registers (2); 513 and 1024 columns are the ends of E = 32,
  // 997 and 1000 rows that start off and on 16-byte boundaries. With and without prefetching.
  const bool takes_it = kThisStep.options & matvec::kWarpE32Option;
  for (std::size_t n : {513, 997, 1000, 1024})
    for (int way : {0, 1, 2})
      for (int prefetch : {-1, 1}) {
        matvec::LaunchPlan requested;
        requested.warp_e32 = way;
        requested.prefetch_request = prefetch;
        if (takes_it) {
          INFO(n << " columns, way " << way);
          REQUIRE(kThisStep.plan(301, n, course::query_device(), requested).warp_e32 == way);
        }
        require_step_matches(matvec::make_problem(301, n, n + 11), requested);
      }
}

TEST_CASE("any launch configuration gives the same answer on a wide matrix") {
  // Steps 08 to 10 round the grid up to whole groups (of 5 blocks at 40000 columns), launched
  // cooperatively or as clusters (a group of one block takes every row); steps 10 and 11's wide layout takes
  // any grid that gives each thread at most 16 columns and fits on the GPU at once.
  const matvec::Problem p = matvec::make_problem(45, 40000, 13);
  for (auto layout : {matvec::RowLayout::kAuto, matvec::RowLayout::kCluster, matvec::RowLayout::kWide})
    for (int blocks : {0, 1, 7, 33}) {
      if ((layout == matvec::RowLayout::kWide && blocks == 1) || !takes_layout(layout)) continue;  // 79 columns a thread
      matvec::LaunchPlan requested;
      requested.layout = layout;
      requested.blocks = blocks;
      require_step_matches(p, requested);
    }
}

TEST_CASE("any launch configuration gives the same answer") {
  const matvec::Problem p = matvec::make_problem(517, 771, 10);
  for (int threads : {32, 96, 1024})
    for (int blocks : {0, 1, 7}) {
      matvec::LaunchPlan requested;
      requested.threads = threads;
      requested.blocks = blocks;
      require_step_matches(p, requested);
    }
}

TEST_CASE("a warp per whole row (--whole-rows) where rows are few gives the same answer") {
  // Step 05 cuts rows into pieces where there are at most 16 per SM; --whole-rows keeps them whole.
  // The other steps ignore it and must still be right. 3 and 37 rows are few on any GPU.
  matvec::LaunchPlan requested;
  requested.whole_rows = true;
  for (auto [m, n] : std::vector<std::pair<std::size_t, std::size_t>>{{3, 300001}, {37, 40001}, {1, 5}})
    require_step_matches(matvec::make_problem(m, n, 16), requested);
}

TEST_CASE("the options that switch a step's ideas off give the same answer") {
  // Step 04 takes --no-shared-vector (with --blocks for its parts), step 06 --rows and --scalar-loads;
  // the other steps' plans ignore them, and must still be right. 771 is odd (4-byte loads only), 772 a
  // multiple of 4 (16-byte loads unless asked not to); 517 rows leave a short last group of 4.
  for (std::size_t n : {771, 772}) {
    const matvec::Problem p = matvec::make_problem(517, n, 14);
    for (int rows : {1, 4})
      for (bool scalar : {false, true})
        for (bool shared : {false, true})
          for (int blocks : {0, 1}) {
            matvec::LaunchPlan requested;
            requested.rows_at_a_time = rows;
            requested.scalar_loads = scalar;
            requested.shared_vector = shared;
            requested.blocks = blocks;
            require_step_matches(p, requested);
          }
  }
}
