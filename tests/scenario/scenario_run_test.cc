// Running scenarios: a wrong expectation is reported with its line and what happened instead;
// a missed reconcile fails a scenario unless the file expects it; `rlc scenario`'s exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"
#include "tests/support/run_rlc.h"

namespace rlc::scenario {
namespace {

namespace fs = std::filesystem;

constexpr char kRace[] = R"(table files 2 isolation WriteSerializable
rows (1, 'v1'), (2, 'v2'), (3, 'v3'), (4, 'v4')
txn A DELETE WHERE id = 1
txn B DELETE WHERE id = 2
flags A FLAGS
flags B FLAGS
A starts
B starts
B commits
A commits
)";

std::string Race(const std::string& flags, const std::string& expectations) {
  std::string s = kRace;
  for (size_t at; (at = s.find("FLAGS")) != std::string::npos;) s.replace(at, 5, flags);
  return s + expectations;
}

ScenarioReport RunText(const std::string& text) {
  Result<Scenario> s = ParseScenario(text, "t.scenario");
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  const std::string dir =
      (fs::temp_directory_path() / ("rlc-scenario-run-" + std::to_string(::getpid()))).string();
  Result<ScenarioReport> r = RunScenario(*s, dir);
  fs::remove_all(dir);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : ScenarioReport{};
}

TEST(ScenarioRun, ExpectationsThatHoldPass) {
  const ScenarioReport r = RunText(Race(
      "all", "expect A commits\nexpect row-count 2\nexpect dv-cardinalities 0 2\nexpect dv 3:\n"));
  EXPECT_TRUE(r.passed()) << RenderReport(r, true);
  EXPECT_EQ(r.rows_check, "holds");
  EXPECT_EQ(r.txns[0].events,
            (std::vector<std::string>{"delta.rowLevelConcurrency.deletionVectorsMerged"}));
}

// An abort says why the cases declined: both DELETEs remove row 1, so Case 2 cannot unite the
// DVs; the report names the case, the winner's version, the file and the reason. A campaign's
// fast run (explain_declines off) keeps no such lines.
TEST(ScenarioRun, AnAbortSaysWhyTheCasesDeclined) {
  std::string text = Race("all", "expect A aborts\n");
  text.replace(text.find("txn B DELETE WHERE id = 2"), 25, "txn B DELETE WHERE id = 1");
  const ScenarioReport r = RunText(text);
  EXPECT_TRUE(r.passed()) << RenderReport(r, true);
  const std::string reason =
      ": a row is deleted by both writers, or a DV brings back a deleted row";
  const std::vector<std::string>& declines = r.txns[0].declines;
  EXPECT_TRUE(std::any_of(declines.begin(), declines.end(), [&](const std::string& d) {
    return d.rfind("case 2 against version 1, file ", 0) == 0 && d.size() > reason.size() &&
           d.compare(d.size() - reason.size(), reason.size(), reason) == 0;
  })) << RenderReport(r, true);
  EXPECT_NE(RenderReport(r, true).find("  | A aborts with Concurrent"), std::string::npos)
      << RenderReport(r, true);
  EXPECT_NE(RenderReport(r, true).find("\n  |     declined: case 2 against version 1, file "),
            std::string::npos)
      << RenderReport(r, true);

  Result<Scenario> s = ParseScenario(text, "t.scenario");
  ASSERT_TRUE(s.ok());
  RunOptions fast;
  fast.store = TableStore::kMemory;
  fast.explain_declines = false;
  Result<ScenarioReport> quiet = RunScenario(*s, "/declines", fast);
  ASSERT_TRUE(quiet.ok()) << quiet.status().ToString();
  EXPECT_EQ(quiet->txns[0].abort, r.txns[0].abort);  // the same decision, unexplained
  EXPECT_TRUE(quiet->txns[0].declines.empty());
}

TEST(ScenarioRun, AWrongExpectationIsReportedWithItsLine) {
  const ScenarioReport r =
      RunText(Race("all", "expect A aborts\nexpect row-count 3\nexpect dv 3: 1\n"));
  EXPECT_FALSE(r.passed());
  EXPECT_TRUE(r.oracle_holds());
  ASSERT_EQ(r.mismatches.size(), 3u) << RenderReport(r, true);
  EXPECT_EQ(r.mismatches[0].line, 11);
  EXPECT_EQ(r.mismatches[0].actual, "commits at version 2");
  EXPECT_EQ(r.mismatches[1].actual, "2 rows");
  EXPECT_EQ(r.mismatches[2].actual, "dv 3: (none)");
  const std::string text = RenderReport(r, false);
  EXPECT_NE(text.find("FAIL t.scenario"), std::string::npos) << text;
  EXPECT_NE(text.find("t.scenario:11: expected: expect A aborts"), std::string::npos) << text;
}

TEST(ScenarioRun, AMissedReconcileFailsUnlessExpected) {
  // Without the flags the loser aborts; with them on but the OPTIMIZE capturing nothing, the
  // documented matrix says OPTIMIZE and DELETE cannot conflict: a missed reconcile.
  const std::string text = R"(table files 2 isolation WriteSerializable
rows (1, 'v1'), (2, 'v2'), (3, 'v3'), (4, 'v4')
txn A DELETE WHERE id = 1
txn B OPTIMIZE
flags A all
flags B all
optimize B capture off
A starts
B starts
B commits
A commits
)";
  const ScenarioReport missed = RunText(text);
  EXPECT_EQ(missed.missed_reconciles, 1);
  EXPECT_FALSE(missed.passed());
  ASSERT_EQ(missed.contract.size(), 1u);
  EXPECT_EQ(missed.contract[0].verdict, oracle::ContractVerdict::kMissedReconcile);
  EXPECT_TRUE(RunText(text + "expect missed-reconcile\n").passed());
  // Expecting one where none happens is a mismatch.
  EXPECT_FALSE(RunText(Race("all", "expect missed-reconcile\n")).passed());
}

TEST(ScenarioRun, TheContractIsNotJudgedWithoutEveryFlag) {
  const ScenarioReport r = RunText(Race("none", "expect A aborts ConcurrentAppendException\n"));
  EXPECT_TRUE(r.passed()) << RenderReport(r, true);
  ASSERT_EQ(r.contract.size(), 1u);
  EXPECT_EQ(r.contract[0].verdict, oracle::ContractVerdict::kNotJudged);
}

void Write(const fs::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(ScenarioCommand, ExitCodes) {
  const fs::path dir =
      fs::temp_directory_path() / ("rlc-scenario-cli-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "ok");
  Write(dir / "ok" / "pass.scenario", Race("all", "expect A commits\n"));
  Write(dir / "fail.scenario", Race("all", "expect A aborts\n"));
  Write(dir / "malformed.scenario", "table files 1\nfrobnicate\n");
  using rlc::testing::RunRlc;
  using rlc::testing::ShellQuote;
  const auto pass = RunRlc("scenario " + ShellQuote((dir / "ok").string()));
  EXPECT_EQ(pass.exit_code, 0) << pass.out << pass.err;
  EXPECT_NE(pass.out.find("1 passed, 0 failed"), std::string::npos) << pass.out;
  const auto fail = RunRlc("scenario " + ShellQuote((dir / "fail.scenario").string()) + " --json");
  EXPECT_EQ(fail.exit_code, 1) << fail.out << fail.err;
  EXPECT_NE(fail.out.find("\"failed\":1"), std::string::npos) << fail.out;
  EXPECT_NE(fail.out.find("\"actual\":\"commits at version 2\""), std::string::npos) << fail.out;
  const auto malformed = RunRlc("scenario " + ShellQuote(dir.string()));
  EXPECT_EQ(malformed.exit_code, 2) << malformed.out << malformed.err;
  EXPECT_NE(malformed.err.find("malformed.scenario:2: unknown statement 'frobnicate'"),
            std::string::npos)
      << malformed.err;
  const auto missing = RunRlc("scenario " + ShellQuote((dir / "nope.scenario").string()));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no such file or folder"), std::string::npos) << missing.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace rlc::scenario
