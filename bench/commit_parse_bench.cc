// Commit-file parse throughput for a 100,000-action commit (adds with stats, 20% with DVs,
// and their removes), against two baselines in the same run: a newline scan (the floor any
// parser pays) and nlohmann::json parsing each line into a DOM (a common, slower choice).
#include <benchmark/benchmark.h>

#include <cstring>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/commit_fixture.h"
#include "impl/delta/commit_parser.h"

namespace {

const std::string& Commit() {
  static const std::string commit = rlc::bench::MakeFileActionsCommit(100000, {});
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
