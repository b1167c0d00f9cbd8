// Whose doing a violation is (fuzz/explorer/explorer.h ClassifyHistory), on histories kept in
// tests/explorer/histories and tests/scenarios: a campaign must count Delta's own anomalies apart
// from counterexamples, and must not count a clean history at all. That a violation the cases
// cause is still a counterexample is checked by the mutant campaigns (every kernel mutant must be
// found by an oracle violation: rlc mutants, tests labelled mutants).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fuzz/explorer/explorer.h"
#include "fuzz/scenario/scenario.h"
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

TEST(ClassifyHistory, RowsDeltasRulesGiveWithoutTheOptimizesAreDeltasOwn) {
  rlc::scenario::Scenario s = Load(RLC_HISTORIES "/delta_without_optimizes.scenario");
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaWithoutOptimizes);
  // Without T3's OPTIMIZE, and every flag off, the history fails on its own.
  std::erase_if(s.txns, [](const rlc::scenario::TxnSpec& t) { return t.name == "T3"; });
  std::erase_if(s.steps, [](const rlc::scenario::Step& step) { return step.txn == "T3"; });
  for (rlc::scenario::TxnSpec& t : s.txns) t.flags = rlc::conflict::Flags{};
  EXPECT_EQ(Classify(s), ViolationOwner::kDeltaEveryFlagOff);
}

}  // namespace
