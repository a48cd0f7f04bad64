// The fuzz test's driver where clang's libFuzzer is not at hand: a seeded mutator. It runs every input
// of the corpus as it is, then RUNS inputs each made from one of them (or a recent mutant) by one to
// four mutations: a bit flipped, a byte set to a value at an edge (0, 1, 0x7F, 0x80, 0xFF), bytes
// inserted, dropped or repeated, a splice with another input, and 8 bytes overwritten with a length at
// an edge (0, 1, the input's size and near it, 2^32, 2^40, 2^64 - 1), where a reader of counts and
// lengths breaks if it breaks at all. The same seed makes the same inputs.
//   fuzz_mutated [--runs N] [--seed S] [--max-len L] CORPUS-FILE-OR-FOLDER...
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {
using Bytes = std::vector<std::uint8_t>;

Bytes read_all(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

void mutate(Bytes& b, const std::vector<Bytes>& pool, std::mt19937_64& rng, std::size_t max_len) {
  auto pick = [&](std::size_t n) { return n == 0 ? std::size_t(0) : static_cast<std::size_t>(rng() % n); };
  static const std::uint8_t edges[] = {0, 1, 0x7F, 0x80, 0xFF};
  switch (rng() % 7) {
    case 0:
      if (!b.empty()) b[pick(b.size())] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      break;
    case 1:
      if (!b.empty()) b[pick(b.size())] = edges[rng() % 5];
      break;
    case 2: {
      const std::size_t at = pick(b.size() + 1), n = 1 + pick(16);
      for (std::size_t i = 0; i < n; ++i) b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng()));
      break;
    }
    case 3:
      if (!b.empty()) {
        const std::size_t at = pick(b.size()), n = 1 + pick(std::min<std::size_t>(16, b.size() - at));
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(std::min(at + n, b.size())));
      }
      break;
    case 4:
      if (!b.empty()) {
        const std::size_t at = pick(b.size()), n = 1 + pick(std::min<std::size_t>(64, b.size() - at));
        const Bytes piece(b.begin() + static_cast<std::ptrdiff_t>(at), b.begin() + static_cast<std::ptrdiff_t>(std::min(at + n, b.size())));
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(pick(b.size() + 1)), piece.begin(), piece.end());
      }
      break;
    case 5: {
      const Bytes& other = pool[pick(pool.size())];
      const std::size_t keep = pick(b.size() + 1), from = pick(other.size() + 1);
      b.resize(keep);
      b.insert(b.end(), other.begin() + static_cast<std::ptrdiff_t>(from), other.end());
      break;
    }
    default: {
      if (b.size() < 8) break;
      const std::uint64_t lengths[] = {0, 1, b.size(), b.size() - 1, b.size() + 1, std::uint64_t(1) << 32,
                                       std::uint64_t(1) << 40, ~std::uint64_t(0), b.size() / 4, 16};
      const std::uint64_t v = lengths[rng() % 10];
      std::memcpy(b.data() + pick(b.size() - 7), &v, 8);
    }
  }
  if (b.size() > max_len) b.resize(max_len);
}
}  // namespace

int main(int argc, char** argv) {
  long runs = 100000;
  std::uint64_t seed = 1;
  std::size_t max_len = 4096;
  std::vector<Bytes> corpus;
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if ((word == "--runs" || word == "--seed" || word == "--max-len") && i + 1 < argc) {
      const unsigned long long value = std::strtoull(argv[++i], nullptr, 10);
      if (word == "--runs") runs = static_cast<long>(value);
      if (word == "--seed") seed = value;
      if (word == "--max-len") max_len = static_cast<std::size_t>(value);
    } else if (std::filesystem::is_directory(word)) {
      for (const auto& entry : std::filesystem::directory_iterator(word))
        if (entry.is_regular_file()) corpus.push_back(read_all(entry.path()));
    } else if (std::filesystem::is_regular_file(word)) {
      corpus.push_back(read_all(word));
    } else {
      std::fprintf(stderr, "fuzz_mutated: '%s' is neither an option nor a corpus file or folder\n", word.c_str());
      return 2;
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "fuzz_mutated: no corpus\n");
    return 2;
  }
  for (const Bytes& input : corpus) LLVMFuzzerTestOneInput(input.data(), input.size());
  std::mt19937_64 rng(seed);
  std::vector<Bytes> pool = corpus;
  for (long run = 0; run < runs; ++run) {
    Bytes b = pool[static_cast<std::size_t>(rng() % pool.size())];
    for (int m = 0, count = 1 + static_cast<int>(rng() % 4); m < count; ++m) mutate(b, pool, rng, max_len);
    LLVMFuzzerTestOneInput(b.data(), b.size());
    // Some mutants breed: the pool drifts from the corpus, as coverage-guided fuzzing's does.
    if (rng() % 64 == 0) {
      if (pool.size() < 4 * corpus.size() + 64) pool.push_back(std::move(b));
      else pool[corpus.size() + static_cast<std::size_t>(rng() % (pool.size() - corpus.size()))] = std::move(b);
    }
  }
  std::printf("fuzz_mutated: %zu corpus inputs and %ld mutants (seed %llu): no crash, every property held\n", corpus.size(),
              runs, static_cast<unsigned long long>(seed));
  return 0;
}
