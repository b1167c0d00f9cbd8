// Case 1's statistics tier: a 100,000-add winner against a DELETE loser with three read
// predicates, as a ratio to the baseline check (every flag off) of the same commits.
//
// Configuration: an unpartitioned WriteSerializable table; the winner is a WRITE that is not a
// blind append (100,000 adds with statistics as in commit_fixture.h, 20% with DVs); the loser read
// `id > 5000`, `id < 0` and `name = 'zzz'`, which no add's statistics admit. The baseline aborts
// on the first add (an unpartitioned table keeps every candidate); the statistics tier must read
// every add's statistics and evaluate three predicates on them, and the loser then commits. Both
// start from the winner's JSON bytes.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "bench/commit_fixture.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/checker.h"
#include "impl/conflict/partition_filter.h"
#include "impl/delta/commit_parser.h"
#include "impl/delta/stats.h"

namespace {

namespace conflict = rlc::conflict;
namespace delta = rlc::delta;

const std::string& Winner() {
  static const std::string winner =
      rlc::bench::MakeFileActionsCommit(100001, {.operation = "WRITE",
                                                 .isolation_level = "WriteSerializable",
                                                 .data_change = true,
                                                 .partitions = 0,
                                                 .adds_only = true});
  return winner;
}

conflict::ReadTable Table() { return rlc::bench::BenchReadTable(/*partitioned=*/false); }

conflict::PendingTransaction Loser(bool data_skipping) {
  conflict::PendingTransaction t;
  t.read_version = 5;
  t.read_predicates = {"id > 5000", "id < 0", "name = 'zzz'"};
  t.read_files = {"loser-read.parquet"};
  delta::CommitInfo info;
  info.operation = "DELETE";
  info.is_blind_append = false;
  t.actions.push_back(info);
  delta::RemoveFile r;
  r.path = "loser-read.parquet";
  t.actions.push_back(r);
  t.flags.SetCase(rlc::conflict::CaseId::kDataSkipping, data_skipping);
  return t;
}

void Run(benchmark::State& state, bool data_skipping) {
  const std::vector<conflict::WinningCommit> winners = {
      {6, Winner(), "_delta_log/00000000000000000006.json"}};
  const conflict::PendingTransaction loser = Loser(data_skipping);
  const conflict::ReadTable table = Table();
  for (auto _ : state) {
    rlc::Result<conflict::Verdict> verdict = conflict::CheckConflicts(loser, table, winners);
    if (!verdict.ok()) {
      state.SkipWithError(verdict.status().ToString().c_str());
      break;
    }
    // The statistics tier must skip every add; the baseline must abort on the first.
    if (verdict->commits() != data_skipping) {
      state.SkipWithError("unexpected verdict: the benchmark no longer measures what it says");
      break;
    }
    benchmark::DoNotOptimize(verdict);
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * 100000);
}

void BM_DataSkippingStatsTier100kAdds(benchmark::State& state) { Run(state, true); }
void BM_BaselineCheck100kAdds(benchmark::State& state) { Run(state, false); }

BENCHMARK(BM_DataSkippingStatsTier100kAdds)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BaselineCheck100kAdds)->Unit(benchmark::kMillisecond);

// Milliseconds one check of the 100,000-add winner takes (the verdict checked as in Run).
double TimedCheck(const conflict::PendingTransaction& loser, const conflict::ReadTable& table,
                  const std::vector<conflict::WinningCommit>& winners, bool* as_expected) {
  const auto start = std::chrono::steady_clock::now();
  rlc::Result<conflict::Verdict> verdict = conflict::CheckConflicts(loser, table, winners);
  const auto end = std::chrono::steady_clock::now();
  *as_expected =
      verdict.ok() && verdict->commits() == loser.flags.On(conflict::CaseId::kDataSkipping);
  return std::chrono::duration<double, std::milli>(end - start).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

// The same two checks, one after the other in each iteration (in turn first), and the ratio taken
// per pair: on a machine whose speed drifts over seconds, the two checks of a pair see the same
// machine, where two benchmarks run a second apart may not. Counters: the median ratio and the
// median of each check's time (ms); the iteration time is the pair's.
void BM_StatsTierOverBaselinePaired(benchmark::State& state) {
  const std::vector<conflict::WinningCommit> winners = {
      {6, Winner(), "_delta_log/00000000000000000006.json"}};
  const conflict::PendingTransaction tier_loser = Loser(true), baseline_loser = Loser(false);
  const conflict::ReadTable table = Table();
  std::vector<double> ratios, tier_ms, baseline_ms;
  bool tier_first = false;
  for (auto _ : state) {
    bool tier_ok = false, baseline_ok = false;
    double tier = 0, baseline = 0;
    if ((tier_first = !tier_first)) tier = TimedCheck(tier_loser, table, winners, &tier_ok);
    baseline = TimedCheck(baseline_loser, table, winners, &baseline_ok);
    if (!tier_first) tier = TimedCheck(tier_loser, table, winners, &tier_ok);
    if (!tier_ok || !baseline_ok) {
      state.SkipWithError("unexpected verdict: the benchmark no longer measures what it says");
      break;
    }
    ratios.push_back(tier / baseline);
    tier_ms.push_back(tier);
    baseline_ms.push_back(baseline);
  }
  state.counters["ratio"] = Median(ratios);
  state.counters["tier_ms"] = Median(tier_ms);
  state.counters["baseline_ms"] = Median(baseline_ms);
}

BENCHMARK(BM_StatsTierOverBaselinePaired)->Unit(benchmark::kMillisecond)->Iterations(30);

// The tier's two parts alone, over the same 100,000 adds (parsed once, outside the timing): the
// reader of each add's statistics (delta::StatsReader, the predicates' columns only) and the
// evaluation of the three predicates on what it read.
const std::vector<delta::Action>& WinnerActions() {
  static const auto* actions = new std::vector<delta::Action>(
      std::move(delta::ParseCommit(Winner(), 6, "winner").value().actions));
  return *actions;
}

conflict::ReadPredicateMatcher LoserReads() {
  return conflict::ReadPredicateMatcher(Loser(true).read_predicates, Table().metadata);
}

void BM_StatsReader100kAdds(benchmark::State& state) {
  const conflict::ReadPredicateMatcher matcher = LoserReads();
  delta::StatsView view;
  for (auto _ : state) {
    delta::StatsReader reader(matcher.stats_columns());  // as the check: one per winner
    for (const delta::Action& action : WinnerActions()) {
      if (const auto* add = std::get_if<delta::AddFile>(&action))
        benchmark::DoNotOptimize(reader.Read(*add->stats, &view));
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * 100000);
}

void BM_StatsEvaluation100kAdds(benchmark::State& state) {
  const conflict::ReadPredicateMatcher matcher = LoserReads();
  std::vector<delta::StatsView> views;  // views into the actions' statistics
  for (const delta::Action& action : WinnerActions()) {
    if (const auto* add = std::get_if<delta::AddFile>(&action)) {
      views.emplace_back();
      if (!delta::ParseStatsOf(*add->stats, matcher.stats_columns(), &views.back()).ok()) {
        state.SkipWithError("the fixture's statistics do not parse");
        return;
      }
    }
  }
  std::vector<bool> answers;
  for (auto _ : state) {
    for (const delta::StatsView& view : views) {
      matcher.MayMatchFilePerRead(view, {}, &answers);
      benchmark::DoNotOptimize(answers);
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * 100000);
}

BENCHMARK(BM_StatsReader100kAdds)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_StatsEvaluation100kAdds)->Unit(benchmark::kMillisecond);

}  // namespace
