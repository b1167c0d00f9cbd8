// Campaigns run their histories with simulator snapshots that apply the simulator's own commits
// from the actions it wrote, without reading them back (fuzz/simulator/engine.h). That is sound
// only if every commit a generated history writes parses back to exactly those actions. This
// runs the explorer's own histories with the round trip verified, and requires the same outcome
// as the unverified run: the same transactions commit, the same rows remain, the same judgement.
#include <gtest/gtest.h>

#include "fuzz/explorer/explorer.h"
#include "fuzz/explorer/history_generator.h"
#include "fuzz/scenario/scenario_runner.h"

namespace {

using rlc::scenario::RunOptions;
using rlc::scenario::ScenarioReport;
using rlc::scenario::TableStore;

TEST(OwnCommits, GeneratedHistoriesParseBackToWhatTheSimulatorWrote) {
  const rc::Gen<rlc::scenario::Scenario> gen =
      rlc::explorer::GenHistory(rlc::explorer::GeneratorOptions{});
  constexpr int kHistories = 3000;
  int committed_transactions = 0;
  for (int i = 0; i < kHistories; ++i) {
    const rlc::scenario::Scenario history =
        gen(rc::Random(static_cast<uint64_t>(i) + 7), rc::kNominalSize).value();
    RunOptions options;
    options.store = TableStore::kMemory;
    options.read_table_before = false;
    options.verify_own_commits = true;
    const rlc::Result<ScenarioReport> verified =
        rlc::scenario::RunScenario(history, "/own-commits", options);
    ASSERT_TRUE(verified.ok()) << "history " << i << ": " << verified.status().ToString();
    options.verify_own_commits = false;
    const rlc::Result<ScenarioReport> fast =
        rlc::scenario::RunScenario(history, "/own-commits", options);
    ASSERT_TRUE(fast.ok()) << "history " << i << ": " << fast.status().ToString();
    ASSERT_EQ(verified->txns.size(), fast->txns.size());
    for (size_t t = 0; t < fast->txns.size(); ++t) {
      EXPECT_EQ(verified->txns[t].committed, fast->txns[t].committed)
          << "history " << i << ", transaction " << t;
      committed_transactions += fast->txns[t].committed ? 1 : 0;
    }
    EXPECT_EQ(verified->final_rows, fast->final_rows) << "history " << i;
    EXPECT_EQ(verified->timeline, fast->timeline) << "history " << i;
    EXPECT_EQ(rlc::explorer::OracleViolation(*verified), rlc::explorer::OracleViolation(*fast))
        << "history " << i;
  }
  // The sweep must have written commits to verify, not only aborted or skipped transactions.
  EXPECT_GT(committed_transactions, kHistories);
}

}  // namespace
