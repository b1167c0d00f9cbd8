// The baseline conflict check (every flag off) of a 100,000-action winner commit against a
// 10,000-action loser, end to end from the winner's JSON bytes, against parsing that winner only.
//
// Configuration, chosen so that the check must look at every winner action and still commits:
// a table partitioned by `part`, WriteSerializable. The loser is a DELETE in partition p0: it
// read `part = 'p0' AND id > 100`, listed 10,000 read files of p0, and commits 1 commitInfo,
// 5,000 removes of files it read and 4,999 rewritten adds. The winner is a MERGE (not a blind
// append, so all its adds count under WriteSerializable) in partitions p1..p50: 50,000 adds and
// 49,999 removes of other files, with statistics and 20% deletion vectors as in
// commit_parse_bench.cc. Every add is evaluated against the loser's predicate and excluded by
// its partition; every remove is looked up in the loser's read files and removes, and misses.
#include <benchmark/benchmark.h>

#include <string>

#include "bench/commit_fixture.h"
#include "impl/conflict/checker.h"
#include "impl/delta/commit_parser.h"

namespace {

namespace conflict = rlc::conflict;
namespace delta = rlc::delta;

const std::string& Winner() {
  static const std::string winner = rlc::bench::BenchWinner();
  return winner;
}

conflict::ReadTable Table() { return rlc::bench::BenchReadTable(/*partitioned=*/true); }

void BM_CheckerBaseline100kWinner(benchmark::State& state) {
  const std::vector<conflict::WinningCommit> winners = {
      {6, Winner(), "_delta_log/00000000000000000006.json"}};
  const conflict::PendingTransaction loser = rlc::bench::BenchLoser();
  const conflict::ReadTable table = Table();
  for (auto _ : state) {
    rlc::Result<conflict::Verdict> verdict = conflict::CheckConflicts(loser, table, winners);
    if (!verdict.ok()) {
      state.SkipWithError(verdict.status().ToString().c_str());
      break;
    }
    if (!verdict->commits()) {
      state.SkipWithError(("expected a commit: " + conflict::Describe(*verdict->abort)).c_str());
      break;
    }
    benchmark::DoNotOptimize(verdict);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(Winner().size()));
}

void BM_ParseWinnerOnly(benchmark::State& state) {
  const std::string& winner = Winner();
  for (auto _ : state) {
    auto parsed = delta::ParseCommit(winner, 6, "_delta_log/00000000000000000006.json");
    if (!parsed.ok()) state.SkipWithError(parsed.status().ToString().c_str());
    benchmark::DoNotOptimize(parsed);
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(winner.size()));
}

BENCHMARK(BM_CheckerBaseline100kWinner)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseWinnerOnly)->Unit(benchmark::kMillisecond);

}  // namespace
