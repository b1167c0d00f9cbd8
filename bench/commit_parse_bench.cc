// Commit-file parse throughput for a 100,000-action commit (adds with stats, 20% with DVs,
// and their removes), against three baselines in the same run: a newline scan (the floor any
// parser pays), simdjson's On-Demand API extracting the same fields rlc types (each line
// iterated, every field of add, remove and their DVs read as a view or a number, nothing
// copied or kept: what the JSON itself costs; aim: rlc at most 1.5x; the same through On Demand's
// document stream, the stricter floor), and nlohmann::json parsing each line into a DOM (a
// common, slower choice).
#include <benchmark/benchmark.h>
#include <simdjson.h>

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

namespace od = simdjson::ondemand;

// Every field of an object, read by type: strings and keys as views, numbers and booleans as
// values, nested objects (partitionValues, tags, deletionVector) field by field. Returns a sum
// of what it read so that nothing can be skipped.
uint64_t ExtractObject(od::object object) {
  uint64_t sum = 0;
  for (auto field : object) {
    std::string_view key = field.unescaped_key().value();
    sum += key.size();
    od::value value = field.value().value();
    switch (value.type().value()) {
      case od::json_type::string:
        sum += value.get_string().value().size();
        break;
      case od::json_type::number:
        sum += static_cast<uint64_t>(value.get_int64().value());
        break;
      case od::json_type::boolean:
        sum += value.get_bool().value() ? 1 : 0;
        break;
      case od::json_type::object:
        sum += ExtractObject(value.get_object().value());
        break;
      case od::json_type::null:
        break;
      default:  // commitInfo's operationParameters and such: skipped, as rlc keeps them raw
        break;
    }
  }
  return sum;
}

void BM_CommitOnDemandExtractFloor(benchmark::State& state) {
  const std::string& commit = Commit();
  const simdjson::padded_string padded(commit);
  od::parser parser;
  for (auto _ : state) {
    uint64_t sum = 0;
    size_t start = 0;
    while (start < commit.size()) {
      const size_t nl = commit.find('\n', start);
      od::document doc = parser
                             .iterate(padded.data() + start, nl - start,
                                      padded.size() - start + simdjson::SIMDJSON_PADDING)
                             .value();
      for (auto action : doc.get_object().value()) {
        sum += action.unescaped_key().value().size();
        sum += ExtractObject(action.value().get_object().value());
      }
      start = nl + 1;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(commit.size()));
}

// The same extraction through On Demand's document stream (one first stage per 1 MiB batch of
// lines, as rlc's parser reads most lines; threaded off, as rlc has it): the stricter floor.
void BM_CommitOnDemandStreamExtractFloor(benchmark::State& state) {
  const std::string& commit = Commit();
  const simdjson::padded_string padded(commit);
  od::parser parser;
  parser.threaded = false;
  for (auto _ : state) {
    uint64_t sum = 0;
    od::document_stream stream =
        parser.iterate_many(padded.data(), padded.size(), size_t{1} << 20).value();
    for (auto doc : stream) {
      for (auto action : doc.get_object().value()) {
        sum += action.unescaped_key().value().size();
        sum += ExtractObject(action.value().get_object().value());
      }
    }
    benchmark::DoNotOptimize(sum);
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
BENCHMARK(BM_CommitOnDemandExtractFloor)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CommitOnDemandStreamExtractFloor)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CommitParseNlohmann)->Unit(benchmark::kMillisecond);

}  // namespace
