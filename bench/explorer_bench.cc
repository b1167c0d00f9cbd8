// Explorer throughput: whole 3-writer histories per second on one core (create the table, run the
// transactions through the simulator and the checker, then the oracle), against the cost of
// creating the starting table alone, in the same run. Tables live in memory, as in the explorer,
// with row files, and (for comparison) with the Parquet data files directory tables hold.
//
// The histories are the explorer's own (seed 1, index = iteration), drawn before timing.
#include <benchmark/benchmark.h>

#include "fuzz/explorer/explorer.h"
#include "fuzz/explorer/history_generator.h"
#include "fuzz/scenario/scenario_runner.h"
#include "fuzz/simulator/engine.h"
#include "impl/storage/storage.h"

namespace {

// The explorer's 3-writer histories; `plain`: less the classes the generator draws since the
// soundness work (reads beyond writes, rebases, writer quirks, a flaky store, rows the checker
// cannot read, protocol upgrades), the shape it drew before them: the checker's added cost on
// the same shape, against the same benchmark of an older tree.
std::vector<rlc::scenario::Scenario> Histories(int count, bool plain = false) {
  rlc::explorer::GeneratorOptions options;
  options.min_writers = options.max_writers = 3;
  const rc::Gen<rlc::scenario::Scenario> gen = rlc::explorer::GenHistory(options);
  std::vector<rlc::scenario::Scenario> out;
  for (int i = 0; i < count; ++i) {
    rlc::scenario::Scenario s =
        gen(rc::Random(static_cast<uint64_t>(i) + 1), rc::kNominalSize).value();
    if (plain) {
      s.table.rows_readable = true;
      s.table.checker_faults = 0;
      std::erase_if(s.steps, [](const rlc::scenario::Step& step) {
        return step.kind == rlc::scenario::Step::Kind::kRebase;
      });
      for (rlc::scenario::TxnSpec& t : s.txns) {
        t.extra_reads.clear();
        t.reads_whole_table = false;
        t.writer = {};
        if (t.operation && std::holds_alternative<rlc::model::ProtocolChange>(*t.operation)) {
          t.operation = rlc::model::MetadataChange{"team", "t1"};
        }
      }
    }
    out.push_back(std::move(s));
  }
  return out;
}

void RunHistories(
    benchmark::State& state, const std::vector<rlc::scenario::Scenario>& histories,
    rlc::simulator::DataFileFormat data_files = rlc::simulator::DataFileFormat::kRowFile) {
  const std::string dir = "/rlc-bench";  // in memory: the table's root path only
  rlc::scenario::RunOptions options;
  options.store = rlc::scenario::TableStore::kMemory;
  options.read_table_before = false;
  options.verify_own_commits = false;
  options.data_files = data_files;
  options.explain_declines = false;  // as the campaign runs its histories
  size_t i = 0;
  for (auto _ : state) {
    rlc::Result<rlc::scenario::ScenarioReport> r =
        rlc::scenario::RunScenario(histories[i++ % histories.size()], dir, options);
    // A history may break the oracle's rules by a liar's doing (the explorer files those apart
    // after classifying them); what is timed here is running it, which must not fail.
    if (!r.ok()) state.SkipWithError("a history could not be run");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_ThreeWriterHistory(benchmark::State& state) { RunHistories(state, Histories(256)); }
// The same histories with Parquet data files, as directory tables write them: what the explorer
// would pay for Parquet in memory.
void BM_ThreeWriterHistoryParquet(benchmark::State& state) {
  RunHistories(state, Histories(256), rlc::simulator::DataFileFormat::kParquet);
}
void BM_ThreeWriterPlainHistory(benchmark::State& state) {
  RunHistories(state, Histories(256, /*plain=*/true));
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
BENCHMARK(BM_ThreeWriterHistoryParquet)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ThreeWriterPlainHistory)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_StartingTableOnly)->Unit(benchmark::kMicrosecond);

}  // namespace
