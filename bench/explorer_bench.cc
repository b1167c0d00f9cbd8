// Explorer throughput: whole 3-writer histories per second on one core (create the table, run the
// transactions through the simulator and the checker, then the oracle), against the cost of
// creating the starting table alone, in the same run. Tables live in memory, as in the explorer.
//
// The histories are the explorer's own (seed 1, index = iteration), drawn before timing.
#include <benchmark/benchmark.h>

#include "fuzz/explorer/explorer.h"
#include "fuzz/explorer/history_generator.h"
#include "fuzz/scenario/scenario_runner.h"
#include "fuzz/simulator/engine.h"
#include "impl/storage/storage.h"

namespace {

std::vector<rlc::scenario::Scenario> Histories(int count) {
  rlc::explorer::GeneratorOptions options;
  options.min_writers = options.max_writers = 3;
  const rc::Gen<rlc::scenario::Scenario> gen = rlc::explorer::GenHistory(options);
  std::vector<rlc::scenario::Scenario> out;
  for (int i = 0; i < count; ++i) out.push_back(gen(rc::Random(static_cast<uint64_t>(i) + 1), rc::kNominalSize).value());
  return out;
}

void BM_ThreeWriterHistory(benchmark::State& state) {
  const std::vector<rlc::scenario::Scenario> histories = Histories(256);
  const std::string dir = "/rlc-bench";  // in memory: the table's root path only
  size_t i = 0;
  for (auto _ : state) {
    rlc::Result<rlc::scenario::ScenarioReport> r =
        rlc::scenario::RunScenario(histories[i++ % histories.size()], dir, {rlc::scenario::TableStore::kMemory, false, false});
    if (!r.ok() || rlc::explorer::OracleViolation(*r)) state.SkipWithError("a history failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

// The baseline: only the starting table of the same histories.
void BM_StartingTableOnly(benchmark::State& state) {
  const std::vector<rlc::scenario::Scenario> histories = Histories(256);
  const std::string dir = "/rlc-bench";
  size_t i = 0;
  for (auto _ : state) {
    const rlc::scenario::Scenario& s = histories[i++ % histories.size()];
    rlc::storage::InMemoryStorage storage;
    rlc::simulator::TableOptions options;
    options.statistics = s.table.statistics;
    rlc::simulator::Simulator sim(storage, dir, s.StartingTable(), options);
    if (!sim.Create(s.table.files).ok()) state.SkipWithError("cannot create the table");
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(BM_ThreeWriterHistory)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StartingTableOnly)->Unit(benchmark::kMicrosecond);

}  // namespace
