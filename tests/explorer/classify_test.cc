// Whose doing a violation is (fuzz/explorer/explorer.h ClassifyHistory), on histories kept in
// tests/explorer/histories and tests/scenarios: a campaign must count Delta's own anomalies apart
// from counterexamples, and must not count a clean history at all. That a violation the cases
// cause is still a counterexample is checked by the mutant campaigns (every kernel mutant must be
// found by an oracle violation: rlc mutants, tests labelled mutants).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "fuzz/explorer/explorer.h"
#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"
#include "impl/base/mutants.h"
#include "impl/conflict/case_catalogue.h"

namespace {

using rlc::explorer::ViolationOwner;

rlc::scenario::Scenario Load(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  rlc::Result<rlc::scenario::Scenario> s = rlc::scenario::ParseScenario(text.str(), path);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return s.ok() ? *s : rlc::scenario::Scenario{};
}

ViolationOwner Classify(const rlc::scenario::Scenario& s) {
  rlc::Result<ViolationOwner> owner = rlc::explorer::ClassifyHistory(s);
  EXPECT_TRUE(owner.ok()) << owner.status().ToString();
  return owner.ok() ? *owner : ViolationOwner::kCases;
}

TEST(ClassifyHistory, ACleanHistoryIsNoViolation) {
  EXPECT_EQ(Classify(Load(RLC_SCENARIOS "/cases/case2_disjoint_deletes.scenario")),
            ViolationOwner::kNone);
}

TEST(ClassifyHistory, AnAnomalyWithEveryFlagOffIsDeltasOwn) {
  EXPECT_EQ(Classify(Load(RLC_HISTORIES "/delta_every_flag_off.scenario")),
            ViolationOwner::kDeltaEveryFlagOff);
}

TEST(ClassifyHistory, ALastCommitDeltasRulesDecidedIsDeltasOwn) {
  rlc::scenario::Scenario s = Load(RLC_HISTORIES "/delta_decided_last_commit.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaDecidedLastCommit);
  // With a flag on that changes nothing in T2's check, Delta's rules still decided its commit.
  rlc::scenario::TxnSpec* t2 = nullptr;
  for (rlc::scenario::TxnSpec& t : s.txns) {
    if (t.name == "T2") t2 = &t;
  }
  ASSERT_NE(t2, nullptr);
  t2->flags.SetCase(rlc::conflict::CaseId::kExcludeNoDataChange, true);
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaDecidedLastCommit);
}

// The last commit an OPTIMIZE made with its flags on differs from the one without them only by the
// composition tags its flag has it record: the same decision, Delta's.
TEST(ClassifyHistory, AnOptimizeThatDiffersOnlyByItsCaptureTagsIsDeltasDecision) {
  EXPECT_EQ(Classify(Load(RLC_HISTORIES "/delta_decided_optimize_past_a_moved_file.scenario")),
            ViolationOwner::kDeltaDecidedLastCommit);
}

// A table the oracle cannot read past a liar's own commit is no violation: the rows after it are
// unjudged (Summary::unreadable_past_a_liar), whichever later version the reader reads.
TEST(ClassifyHistory, ATableUnreadablePastALiarsCommitIsNoViolation) {
  const rlc::scenario::Scenario s = Load(RLC_HISTORIES "/unreadable_past_a_liars_dv.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kNone);
  rlc::Result<rlc::scenario::ScenarioReport> r = rlc::scenario::RunScenario(s, "/classify", {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(rlc::explorer::UnreadablePastALiar(*r)) << r->rows_check;
}

// The same where the file's path holds escapes: the reader names it decoded, once.
TEST(ClassifyHistory, ATableUnreadablePastALiarsCommitUnderAnEscapedPathIsNoViolation) {
  const rlc::scenario::Scenario s =
      Load(RLC_HISTORIES "/unreadable_past_a_liars_dv_escaped_path.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kNone);
  rlc::Result<rlc::scenario::ScenarioReport> r = rlc::scenario::RunScenario(s, "/classify", {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(rlc::explorer::UnreadablePastALiar(*r)) << r->rows_check;
}

// The same where the commit the oracle cannot read is one it judges by its rows: a liar's add
// whose numRecords its file contradicts.
TEST(ClassifyHistory, ACommitJudgedByItsRowsUnreadablePastALiarIsNoViolation) {
  const rlc::scenario::Scenario s =
      Load(RLC_HISTORIES "/unreadable_past_a_liars_row_count.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kNone);
  rlc::Result<rlc::scenario::ScenarioReport> r = rlc::scenario::RunScenario(s, "/classify", {});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(rlc::explorer::UnreadablePastALiar(*r)) << r->rows_check;
  EXPECT_FALSE(rlc::explorer::Inconclusive(*r)) << r->rows_check;
}

// A per-commit invariant broken at that last commit is Delta's too: a lying writer fooled the
// rules that decided it. Broken earlier, it would not be (MayBeDeltasOwn).
TEST(ClassifyHistory, AnInvariantBrokenByTheLastCommitDeltasRulesDecidedIsDeltasOwn) {
  const rlc::scenario::Scenario s = Load(RLC_HISTORIES "/delta_fooled_last_commit.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaDecidedLastCommit);
  // With every flag of T3 on, its commit has the same files and breaks the same invariants: its
  // flags only add the capture tags, so Delta's rules still decided it.
  rlc::scenario::Scenario flags_on = s;
  for (rlc::scenario::TxnSpec& t : flags_on.txns) {
    if (t.name == "T3") t.flags = rlc::conflict::Flags::Every();
  }
  EXPECT_EQ(Classify(flags_on), ViolationOwner::kDeltaDecidedLastCommit);
}

// The follower in the next three histories is a protocol change whose transaction read the
// append's rows. Since the check counts such a winner as one that may depend on a passed append
// (checker.cc MayDependOnRows), the loser aborts and the histories no longer fail with the flags
// on. The classifications are held on them with that rule taken out, in a build with the mutants.
class WithoutTableChangeFollowers : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!rlc::mutants::Compiled()) GTEST_SKIP() << "a build without the mutants";
    rlc::mutants::Select("table-change-does-not-follow-an-append");
  }
  void TearDown() override { rlc::mutants::Select(""); }
};

TEST(ClassifyHistory, AProtocolChangeThatReadAPassedAppendFollowsIt) {
  for (const char* name : {"/delta_without_optimizes.scenario", "/delta_once_read_later.scenario",
                           "/delta_once_winners_first_started_later.scenario"}) {
    EXPECT_EQ(Classify(Load(std::string(RLC_HISTORIES) + name)), ViolationOwner::kNone) << name;
  }
}

TEST_F(WithoutTableChangeFollowers, RowsDeltasRulesGiveWithoutTheOptimizesAreDeltasOwn) {
  rlc::scenario::Scenario s = Load(RLC_HISTORIES "/delta_without_optimizes.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaWithoutOptimizes);
  // Without T3's OPTIMIZE, and every flag off, the history fails on its own.
  std::erase_if(s.txns, [](const rlc::scenario::TxnSpec& t) { return t.name == "T3"; });
  std::erase_if(s.steps, [](const rlc::scenario::Step& step) { return step.txn == "T3"; });
  for (rlc::scenario::TxnSpec& t : s.txns) t.flags = rlc::conflict::Flags{};
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaEveryFlagOff);
}

TEST_F(WithoutTableChangeFollowers, RowsDeltasRulesGiveOnceTheLoserReadsLaterAreDeltasOwn) {
  rlc::scenario::Scenario s = Load(RLC_HISTORIES "/delta_once_read_later.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaOnceReadLater);
  // T5 started after T2, every flag off: the same history fails on its own.
  auto& steps = s.steps;
  const auto start = std::find_if(steps.begin(), steps.end(), [](const rlc::scenario::Step& x) {
    return x.kind == rlc::scenario::Step::Kind::kStart && x.txn == "T5";
  });
  ASSERT_NE(start, steps.end());
  const rlc::scenario::Step t5 = *start;
  steps.erase(start);
  const auto t2 = std::find_if(steps.begin(), steps.end(), [](const rlc::scenario::Step& x) {
    return x.kind == rlc::scenario::Step::Kind::kCommit && x.txn == "T2";
  });
  ASSERT_NE(t2, steps.end());
  steps.insert(t2 + 1, t5);
  for (rlc::scenario::TxnSpec& t : s.txns) t.flags = rlc::conflict::Flags{};
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaEveryFlagOff);
}

TEST(ClassifyHistory, RowsDeltasRulesGiveOnceTheWinnersCommitFirstAreDeltasOwn) {
  rlc::scenario::Scenario s = Load(RLC_HISTORIES "/delta_once_winners_first.scenario");
  // Since the check stopped taking a follower's commitInfo.readVersion on its word, T2 (which
  // committed after the append) counts as one that may have read it, and T3 aborts: the history
  // no longer fails with the flags on (AWinnerThatStartedAfterTheLoserMayRunFirstToo holds the
  // classification on a history that still does).
  EXPECT_EQ(Classify(s), ViolationOwner::kNone);
  // T2 committing before T3 starts, every flag off: the same history fails on its own.
  auto& steps = s.steps;
  const auto commit = std::find_if(steps.begin(), steps.end(), [](const rlc::scenario::Step& x) {
    return x.kind == rlc::scenario::Step::Kind::kCommit && x.txn == "T2";
  });
  ASSERT_NE(commit, steps.end());
  const rlc::scenario::Step t2 = *commit;
  steps.erase(commit);
  const auto t3 = std::find_if(steps.begin(), steps.end(), [](const rlc::scenario::Step& x) {
    return x.kind == rlc::scenario::Step::Kind::kStart && x.txn == "T3";
  });
  ASSERT_NE(t3, steps.end());
  steps.insert(t3, t2);
  for (rlc::scenario::TxnSpec& t : s.txns) t.flags = rlc::conflict::Flags{};
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaEveryFlagOff);
}

TEST_F(WithoutTableChangeFollowers, AWinnerThatStartedAfterTheLoserMayRunFirstToo) {
  // T3 started after T1 (no commit between): it starts and commits before T1 starts.
  EXPECT_EQ(Classify(Load(RLC_HISTORIES "/delta_once_winners_first_started_later.scenario")),
            ViolationOwner::kDeltaOnceWinnersFirst);
}

TEST(ClassifyHistory, A1bReAddNamesItsWinner) {
  // 1b's added-files arm left T3's re-add out of T1's check; its event names T3. T3 committed
  // after T5's append and so now counts as a follower that may have read it (its readVersion is
  // not taken on its word): T1 aborts, and the anomaly Delta's rules give is gone with the flags
  // on.
  rlc::scenario::Scenario s = Load(RLC_HISTORIES "/delta_once_winners_first_re_add.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kNone);
}

TEST(ClassifyHistory, AWrongReconcileIsNotDeltasOwnOnceTheLoserReadsLater) {
  // With the guard removed, the MERGE commits past the INSERT; read after it (or with the INSERT
  // committing before it starts), the MERGE meets row 6 twice and fails, so the rows differ and
  // the violation stays the cases'.
  if (!rlc::mutants::Compiled()) GTEST_SKIP() << "a build without the mutants";
  rlc::mutants::Select("case1-skips-for-merge");
  EXPECT_EQ(Classify(Load(RLC_SCENARIOS "/cases/case1_merge_duplicate_key_exact_tier.scenario")),
            ViolationOwner::kCases);
  rlc::mutants::Select("");
}

// A MERGE that a case carries past a DELETE, after passing a blind append of a key its source
// names three times in a partition its condition rules out: the append is judged again once the
// DELETE followed it, and the MERGE's scan counts matches in every partition, so it aborts. With
// that judging pruned by partition (the tree before it was fixed, as the mutant), it commits the
// rows the model forbids, a violation with every flag off does not give: the cases'.
TEST(ClassifyHistory, AMergePastAFollowedAppendCountsItsMatchesInEveryPartition) {
  EXPECT_EQ(
      Classify(Load(RLC_SCENARIOS "/cases/case1b_merge_scan_of_a_passed_blind_append.scenario")),
      ViolationOwner::kNone);
}

TEST(ClassifyHistory, AMergePastAFollowedAppendPrunedByPartitionIsTheCases) {
  if (!rlc::mutants::Compiled()) GTEST_SKIP() << "a build without the mutants";
  rlc::mutants::Select("merge-scan-pruned-by-partition");
  EXPECT_EQ(
      Classify(Load(RLC_SCENARIOS "/cases/case1b_merge_scan_of_a_passed_blind_append.scenario")),
      ViolationOwner::kCases);
  rlc::mutants::Select("");
}

// The explorer's "carrier leads" plot: a DML some case reconciled carries the loser, then a
// witness appends (claiming a blind append) and a follower may depend on it. With the guards of
// WriteSerializable's blind appends the loser aborts; without one, it commits rows Delta's rules
// alone give when it starts after the carrier: Delta's anomaly, reached by a case carrying the
// loser, which the guards promise never happens (Summary::case_reached_anomalies; the mutant
// table counts such a history found when the tree runs it clean).
TEST(ClassifyHistory, ALeadingDmlCarrierMeetsTheGuards) {
  for (const char* name :
       {"/cases/table_change_follows_a_passed_append_after_a_dml_carrier.scenario",
        "/cases/blind_append_claim_with_a_re_add_after_a_dml_carrier.scenario"}) {
    EXPECT_EQ(Classify(Load(std::string(RLC_SCENARIOS) + name)), ViolationOwner::kNone) << name;
  }
}

TEST(ClassifyHistory, WithoutAGuardALeadingDmlCarrierReachesDeltasOwnAnomaly) {
  if (!rlc::mutants::Compiled()) GTEST_SKIP() << "a build without the mutants";
  const std::pair<const char*, const char*> cases[] = {
      {"table-change-does-not-follow-an-append",
       "/cases/table_change_follows_a_passed_append_after_a_dml_carrier.scenario"},
      {"blind-append-claim-with-re-add-passes",
       "/cases/blind_append_claim_with_a_re_add_after_a_dml_carrier.scenario"}};
  for (const auto& [mutant, name] : cases) {
    rlc::mutants::Select(mutant);
    const ViolationOwner owner = Classify(Load(std::string(RLC_SCENARIOS) + name));
    rlc::mutants::Select("");
    EXPECT_TRUE(owner == ViolationOwner::kDeltaOnceReadLater ||
                owner == ViolationOwner::kDeltaOnceWinnersFirst)
        << name << ": " << static_cast<int>(owner);
  }
}

}  // namespace
