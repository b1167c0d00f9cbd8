// DV decode + validate throughput against CRoaring's raw, unvalidated deserialize of the same
// bytes (the baseline), on DVs of 10 to 10 million deleted rows in three shapes:
//   sparse: random rows spread over 100x as many (array containers),
//   dense:  30% of the rows at random (bitset containers),
//   runs:   runs of 1,000 rows with gaps (run containers).
// Each benchmark rotates over kInputs independently drawn DVs so the branch predictor cannot
// learn one input (docs/toolchain.md#benchmark-method). run_benchmarks.sh prints the
// ratio ours / baseline per case.
#include <benchmark/benchmark.h>
#include <roaring/roaring.h>

#include <random>
#include <string>
#include <vector>

#include "impl/base/bytes.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/row_bitmap.h"

namespace {

constexpr int kInputs = 8;

enum Shape { kSparse = 0, kDense = 1, kRuns = 2 };

rlc::dv::RowBitmap MakeDv(Shape shape, uint64_t deleted, uint64_t seed) {
  std::mt19937_64 rng(seed);
  rlc::dv::RowBitmap b;
  if (shape == kRuns) {
    uint64_t row = rng() % 1000;
    while (b.Cardinality() < deleted) {
      uint64_t len = std::min<uint64_t>(1000, deleted - b.Cardinality());
      b.AddRange(row, row + len);
      row += len + 1 + rng() % 2000;
    }
  } else {
    const uint64_t span = shape == kSparse ? deleted * 100 : deleted * 10 / 3 + 1;
    std::vector<uint64_t> rows;
    rows.reserve(deleted * 11 / 10);
    while (rows.size() < deleted * 11 / 10 + 1) rows.push_back(rng() % span);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    rows.resize(std::min<size_t>(rows.size(), deleted));
    b = rlc::dv::RowBitmap::FromSorted(rows);
  }
  b.RunOptimize();
  return b;
}

const std::vector<std::string>& Inputs(Shape shape, uint64_t deleted) {
  static std::map<std::pair<int, uint64_t>, std::vector<std::string>> cache;
  auto& inputs = cache[{shape, deleted}];
  if (inputs.empty()) {
    for (int i = 0; i < kInputs; ++i)
      inputs.push_back(rlc::dv::EncodeBitmap(MakeDv(shape, deleted, 1000 + i)));
  }
  return inputs;
}

// The baseline: what a reader that trusts its input does: skip the 12-byte header, then per
// bucket read the key and let CRoaring deserialize, advancing by the size CRoaring reports.
uint64_t RawCRoaringDecode(const std::string& bytes) {
  const char* p = bytes.data() + 4;
  uint64_t buckets = rlc::LoadLe64(reinterpret_cast<const uint8_t*>(p));
  p += 8;
  uint64_t cardinality = 0;
  for (uint64_t b = 0; b < buckets; ++b) {
    p += 4;
    roaring_bitmap_t* r = roaring_bitmap_portable_deserialize(p);
    p += roaring_bitmap_portable_size_in_bytes(r);
    cardinality += roaring_bitmap_get_cardinality(r);
    roaring_bitmap_free(r);
  }
  return cardinality;
}

void SetLabels(benchmark::State& state, const std::vector<std::string>& inputs) {
  size_t bytes = 0;
  for (const auto& s : inputs) bytes += s.size();
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes / inputs.size()));
}

void BM_DvDecodeValidate(benchmark::State& state) {
  const auto& inputs = Inputs(Shape(state.range(0)), uint64_t(state.range(1)));
  size_t i = 0;
  for (auto _ : state) {
    auto decoded = rlc::dv::DecodeBitmap(inputs[i++ % inputs.size()]);
    if (!decoded.ok()) state.SkipWithError("decode failed");
    benchmark::DoNotOptimize(decoded);
  }
  SetLabels(state, inputs);
}

void BM_DvDecodeRawCRoaring(benchmark::State& state) {
  const auto& inputs = Inputs(Shape(state.range(0)), uint64_t(state.range(1)));
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(RawCRoaringDecode(inputs[i++ % inputs.size()]));
  SetLabels(state, inputs);
}

void Cases(benchmark::internal::Benchmark* b) {
  for (int shape : {kSparse, kDense, kRuns}) {
    for (int64_t deleted : {10, 1000, 100000, 1000000, 10000000}) b->Args({shape, deleted});
  }
  b->ArgNames({"shape", "deleted"})->Unit(benchmark::kMicrosecond);
}

BENCHMARK(BM_DvDecodeValidate)->Apply(Cases);
BENCHMARK(BM_DvDecodeRawCRoaring)->Apply(Cases);

}  // namespace
