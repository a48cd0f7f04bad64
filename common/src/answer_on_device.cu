// What course/answer.h does with device memory: copying an answer's spans out, and course::answer_hash
// over answers that are still on the device, so that a contestant can commit to its answers the moment
// its timed runs end, without copying them out first.
#include <cuda_runtime.h>

#include <algorithm>

#include "course/answer.h"
#include "course/buffers.h"
#include "course/check.h"

namespace course {

namespace {

// Adds span @p span's share of the hash to *sum: every thread a stride of 8-byte words, the last word
// zero-padded, then one atomic add per warp.
__global__ void hash_span(std::uint64_t key, std::uint64_t span, const unsigned char* data, std::size_t bytes,
                          unsigned long long* sum) {
  const std::size_t words = (bytes + 7) / 8;
  std::uint64_t mine = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < words;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    std::uint64_t value = 0;
    if (8 * i + 8 <= bytes && reinterpret_cast<std::uintptr_t>(data) % 8 == 0) {
      value = reinterpret_cast<const std::uint64_t*>(data)[i];
    } else {
      for (std::size_t b = 0; b < 8 && 8 * i + b < bytes; ++b) value |= std::uint64_t(data[8 * i + b]) << (8 * b);
    }
    mine += detail::hash_word(key, span, i, value);
  }
  for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xFFFFFFFFu, mine, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, static_cast<unsigned long long>(mine));
}

}  // namespace

AnswerBytes download_answer(const AnswerSpans& spans) {
  AnswerBytes answer;
  for (const DeviceBytes& span : spans) {
    answer.emplace_back(span.bytes);
    if (span.bytes > 0) CUDA_CHECK(cudaMemcpy(answer.back().data(), span.data, span.bytes, cudaMemcpyDeviceToHost));
  }
  return answer;
}

std::vector<std::uint64_t> answer_hashes_on_device(std::uint64_t key, const std::vector<AnswerSpans>& answers,
                                                   void* stream_handle) {
  const auto stream = static_cast<cudaStream_t>(stream_handle);
  std::vector<std::uint64_t> hashes(answers.size(), 0);
  if (answers.empty()) return hashes;
  // One sum per answer, all hashed before one wait, in a buffer kept from call to call (an allocation
  // and a free each time would wait on the device): a timed contestant adds little to the judge's clock.
  static DeviceBuffer<unsigned long long> kept;
  if (kept.size() < answers.size()) kept = DeviceBuffer<unsigned long long>(std::max<std::size_t>(answers.size(), 64), "hashes");
  unsigned long long* sums = kept.data();
  CUDA_CHECK(cudaMemsetAsync(sums, 0, answers.size() * sizeof *sums, stream));
  for (std::size_t a = 0; a < answers.size(); ++a)
    for (std::size_t j = 0; j < answers[a].size(); ++j) {
      const DeviceBytes& span = answers[a][j];
      hashes[a] += detail::hash_mix(key ^ span.bytes);
      if (span.bytes == 0) continue;
      const std::size_t words = (span.bytes + 7) / 8;
      const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((words + 255) / 256, 4096));
      hash_span<<<blocks, 256, 0, stream>>>(key, j, static_cast<const unsigned char*>(span.data), span.bytes, sums + a);
      CUDA_CHECK_LAUNCH();
    }
  std::vector<unsigned long long> totals(answers.size());
  CUDA_CHECK(cudaMemcpyAsync(totals.data(), sums, totals.size() * sizeof *sums, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  for (std::size_t a = 0; a < answers.size(); ++a) hashes[a] += totals[a];
  return hashes;
}

}  // namespace course
