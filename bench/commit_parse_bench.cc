// Commit-file parse throughput for a 100,000-action commit (adds with stats, 20% with DVs,
// and their removes), against two baselines in the same run: a newline scan (the floor any
// parser pays) and nlohmann::json parsing each line into a DOM (a common, slower choice).
#include <benchmark/benchmark.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "impl/delta/commit_parser.h"

namespace {

std::string MakeCommit(int actions) {
  std::mt19937_64 rng(7);
  std::string out =
      R"({"commitInfo":{"timestamp":1,"operation":"OPTIMIZE","operationParameters":{"predicate":"[]"},"readVersion":5,"isolationLevel":"SnapshotIsolation","isBlindAppend":false}})"
      "\n";
  for (int i = 1; i < actions; ++i) {
    const bool add = i % 2 == 0;
    std::string path = "part-" + std::to_string(100000 + i) + "-c3f0a6e2-9b1f-4b8e-9a49-5b9d1f1c2e7a.c000.snappy.parquet";
    std::string stats = R"({\"numRecords\":)" + std::to_string(rng() % 1000000) +
                        R"(,\"minValues\":{\"id\":)" + std::to_string(rng() % 1000) +
                        R"(,\"name\":\"alpha\",\"ts\":\"2024-01-01T00:00:00.000Z\"},\"maxValues\":{\"id\":)" +
                        std::to_string(1000 + rng() % 1000) +
                        R"(,\"name\":\"omega\",\"ts\":\"2024-12-31T00:00:00.000Z\"},\"nullCount\":{\"id\":0,\"name\":3,\"ts\":0},\"tightBounds\":true})";
    std::string dv;
    if (i % 5 == 0) {
      dv = R"(,"deletionVector":{"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^","offset":)" +
           std::to_string(1 + i) + R"(,"sizeInBytes":36,"cardinality":)" + std::to_string(1 + i % 40) + "}";
    }
    if (add) {
      out += R"({"add":{"path":")" + path + R"(","partitionValues":{"date":"2024-01-01"},"size":)" +
             std::to_string(rng() % 100000000) + R"(,"modificationTime":1700000000000,"dataChange":false,"stats":")" +
             stats + "\"" + dv + R"(,"tags":{"INSERTION_TIME":"1700000000000000"}}})" + "\n";
    } else {
      out += R"({"remove":{"path":")" + path +
             R"(","deletionTimestamp":1700000000000,"dataChange":false,"extendedFileMetadata":true,"partitionValues":{"date":"2024-01-01"},"size":)" +
             std::to_string(rng() % 100000000) + R"(,"stats":")" + stats + "\"" + dv + "}}\n";
    }
  }
  return out;
}

const std::string& Commit() {
  static const std::string commit = MakeCommit(100000);
  return commit;
}

void BM_CommitParseRlc(benchmark::State& state) {
  const std::string& commit = Commit();
  for (auto _ : state) {
    auto parsed = rlc::delta::ParseCommit(commit, 6, "bench.json");
    if (!parsed.ok()) state.SkipWithError(parsed.status().ToString().c_str());
    benchmark::DoNotOptimize(parsed);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(commit.size()));
}

void BM_CommitNewlineScanFloor(benchmark::State& state) {
  const std::string& commit = Commit();
  for (auto _ : state) {
    size_t lines = 0;
    const char* p = commit.data();
    const char* end = p + commit.size();
    while (p < end) {
      const void* nl = std::memchr(p, '\n', size_t(end - p));
      if (nl == nullptr) break;
      p = static_cast<const char*>(nl) + 1;
      ++lines;
    }
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(commit.size()));
}

void BM_CommitParseNlohmann(benchmark::State& state) {
  const std::string& commit = Commit();
  for (auto _ : state) {
    size_t start = 0, actions = 0;
    while (start < commit.size()) {
      size_t nl = commit.find('\n', start);
      auto doc = nlohmann::json::parse(commit.begin() + long(start), commit.begin() + long(nl));
      actions += doc.size();
      start = nl + 1;
    }
    benchmark::DoNotOptimize(actions);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(commit.size()));
}

BENCHMARK(BM_CommitParseRlc)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CommitNewlineScanFloor)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CommitParseNlohmann)->Unit(benchmark::kMillisecond);

}  // namespace
