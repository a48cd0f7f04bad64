// Tests of the profile layer on stored Nsight Compute output (two real runs on an H100, kept in
// tests/data): reading the CSV, naming kernels, combining launches, and the counters' cells.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "course/errors.h"
#include "course/profile.h"

using Catch::Matchers::Contains;

namespace {
std::string sample(const std::string& name) {
  std::ifstream in(std::string(COURSE_TEST_DATA_DIR) + "/" + name);
  REQUIRE(in.good());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

double cell_number(const std::string& cell) { return std::stod(cell); }
}  // namespace

TEST_CASE("ncu's raw CSV is read past the program's own output, one launch per row") {
  const auto launches = course::parse_ncu_raw_csv(sample("ncu_raw_lesson05_02.csv"));
  REQUIRE(launches.size() == 3);  // the L2 flush, then the step's two kernels
  REQUIRE_THAT(launches[1].kernel, Contains("thread_per_row"));
  REQUIRE_THAT(launches[2].kernel, Contains("thread_per_column"));
  // Thousands separators are read: the flush kernel reads two L2 sizes, about 100 MB.
  REQUIRE(launches[0].metrics.at("dram__bytes_read.sum") > 5e7);
  REQUIRE(launches[1].metrics.count("gpu__time_duration.sum") == 1);
  REQUIRE(launches[1].metrics.count("Kernel Name") == 0);  // text columns are not metrics
}

TEST_CASE("the counters tell the coalesced kernel from the uncoalesced one") {
  const auto kernels =
      course::summarise_by_kernel(course::parse_ncu_raw_csv(sample("ncu_raw_lesson05_02.csv")), {"read_everything"});
  REQUIRE(kernels.size() == 2);
  REQUIRE(kernels[0].kernel == "thread_per_row");
  REQUIRE(kernels[1].kernel == "thread_per_column");
  // One thread per row: a warp's 32 loads fall in 32 different sectors. One thread per column: 4.
  REQUIRE(cell_number(course::counter_cell("sectors_per_load", kernels[0], 0)) > 16);
  REQUIRE(cell_number(course::counter_cell("sectors_per_load", kernels[1], 0)) < 5);
  REQUIRE(course::counter_cell("top_stall", kernels[0], 0).find(' ') != std::string::npos);
  REQUIRE(course::counter_cell("inst_per_element", kernels[0], 0) == "-");  // no element count given
  REQUIRE(cell_number(course::counter_cell("inst_per_element", kernels[0], 2048.0 * 2048.0)) > 0);
}

TEST_CASE("shared-memory counters read bank conflicts") {
  const auto kernels =
      course::summarise_by_kernel(course::parse_ncu_raw_csv(sample("ncu_raw_lesson02_03.csv")), {"read_everything"});
  REQUIRE(kernels.size() == 2);
  REQUIRE(kernels[1].kernel == "block_max_interleaved");
  REQUIRE(course::counter_cell("smem_ld_conflicts", kernels[1], 0) != "-");
  REQUIRE(cell_number(course::counter_cell("smem_ld_passes", kernels[1], 0)) >= 1.0);
  REQUIRE(course::counter_cell("smem_ld_conflicts", kernels[0], 0) == "0");  // set_to_lowest: no shared memory
}

TEST_CASE("launches of one kernel are combined: sums added, rates weighted by time, registers the largest") {
  std::vector<course::KernelLaunch> launches(3);
  launches[0] = {"void (anonymous namespace)::phase3<32>(int *, int)",
                 {{"gpu__time_duration.sum", 1000}, {"dram__bytes_read.sum", 10}, {"sm__warps_active.avg.pct_of_peak_sustained_active", 50},
                  {"launch__registers_per_thread", 40}}};
  launches[1] = {"void (anonymous namespace)::phase3<32>(int *, int)",
                 {{"gpu__time_duration.sum", 3000}, {"dram__bytes_read.sum", 30}, {"sm__warps_active.avg.pct_of_peak_sustained_active", 90},
                  {"launch__registers_per_thread", 32}}};
  launches[2] = {"other(int)", {{"gpu__time_duration.sum", 5}}};
  const auto kernels = course::summarise_by_kernel(launches, {});
  REQUIRE(kernels.size() == 2);
  REQUIRE(kernels[0].kernel == "phase3<32>");
  REQUIRE(kernels[0].launches == 2);
  REQUIRE(kernels[0].metrics.at("gpu__time_duration.sum") == 4000);
  REQUIRE(kernels[0].metrics.at("dram__bytes_read.sum") == 40);
  REQUIRE(kernels[0].metrics.at("sm__warps_active.avg.pct_of_peak_sustained_active") == Approx(80));
  REQUIRE(kernels[0].metrics.at("launch__registers_per_thread") == 40);
  REQUIRE(course::counter_cell("time_us", kernels[0], 0) == "4.00");
}

TEST_CASE("kernel names are shortened to what a reader wrote") {
  REQUIRE(course::short_kernel_name("<unnamed>::thread_per_row(const float *, const float *, float *)") == "thread_per_row");
  REQUIRE(course::short_kernel_name("void <unnamed>::fused_rows<16>(const float *, float *)") == "fused_rows<16>");
  REQUIRE(course::short_kernel_name("void (anonymous namespace)::tile<(int)32>(int *)") == "tile<(int)32>");
  REQUIRE(course::short_kernel_name("void cub::DeviceReduceKernel<cub::policy_hub<float, unsigned long long, "
                                    "cuda::maximum<void>>::Policy1000, const float *>(T2, T5 *)") ==
          "DeviceReduceKernel<...>");
  REQUIRE(course::short_kernel_name("void floyd_warshall::min_plus_registers<floyd_warshall::PanelTiles>(int *, int, int)") ==
          "min_plus_registers<PanelTiles>");
  REQUIRE(course::short_kernel_name("void floyd_warshall::min_plus_registers<<unnamed>::RestTiles>(int *, int, int)") ==
          "min_plus_registers<RestTiles>");
  REQUIRE(course::short_kernel_name("plain") == "plain");
  REQUIRE(course::short_kernel_name("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma") ==
          "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n...");
}

TEST_CASE("metric lists, unknown counters, missing headers and permission errors") {
  const std::string list = course::ncu_metric_list({"sectors_per_load", "time_us", "top_stall"});
  REQUIRE_THAT(list, Contains("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") && Contains("regex:smsp__average_warps"));
  REQUIRE(list.find("gpu__time_duration.sum") == list.rfind("gpu__time_duration.sum"));  // listed once
  REQUIRE_THROWS_WITH(course::counter("bogus"), Contains("unknown counter 'bogus'") && Contains("sectors_per_load"));
  REQUIRE_THROWS_AS(course::parse_ncu_raw_csv("just the program's output\n"), course::UsageError);
  REQUIRE(course::ncu_permission_denied("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission"));
  REQUIRE_FALSE(course::ncu_permission_denied("==PROF== Disconnected from process 1"));
  for (const course::Counter& c : course::counters()) {
    REQUIRE_FALSE(c.meaning.empty());
    REQUIRE_FALSE(c.metrics.empty());
  }
}

TEST_CASE("a counters table is written as CSV with quoted kernels and cells, and as JSON lines") {
  const std::vector<std::string> keys{"time_us", "top_stall"};
  const std::vector<course::CounterRow> rows{
      {"03", "lesson02_03_gpu_global_atomics", "set_to_lowest", 1, {"2.30", "no_instruction 24"}},
      {"05", "lesson02_05_shared_sequential", "block_max<256, 4>", 2, {"785", "-"}}};
  std::ostringstream csv, json;
  course::write_counters_csv(csv, keys, rows);
  course::write_counters_json(json, keys, rows);
  REQUIRE(csv.str() ==
          "step,program,kernel,launches,time_us,top_stall\n"
          "03,lesson02_03_gpu_global_atomics,\"set_to_lowest\",1,\"2.30\",\"no_instruction 24\"\n"
          "05,lesson02_05_shared_sequential,\"block_max<256, 4>\",2,\"785\",\"-\"\n");
  REQUIRE(json.str() ==
          "[\n"
          "  {\"step\": \"03\", \"program\": \"lesson02_03_gpu_global_atomics\", \"kernel\": \"set_to_lowest\", "
          "\"launches\": 1, \"time_us\": \"2.30\", \"top_stall\": \"no_instruction 24\"},\n"
          "  {\"step\": \"05\", \"program\": \"lesson02_05_shared_sequential\", \"kernel\": \"block_max<256, 4>\", "
          "\"launches\": 2, \"time_us\": \"785\", \"top_stall\": \"-\"}\n"
          "]\n");
}

TEST_CASE("a profile at another size counts no elements, and other arguments keep the lesson's count") {
  CHECK(course::elements_with("--n 512", 134217728, "--type double") == 134217728);
  CHECK(course::elements_with("--n 512", 134217728, "") == 134217728);
  CHECK(course::elements_with("--n 512", 134217728, "--n 4096") == 0);
  CHECK(course::elements_with("--m 4096 --n 4096", 16777216, "--layout group --n 16384") == 0);
  CHECK(course::elements_with("--m 1024 --k 1024 --n 1024", 1073741824, "--k 4096") == 0);
}
