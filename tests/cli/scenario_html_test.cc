// The HTML rendering of a history: lanes per writer, the row diff, the drawn cycle, mismatches.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli/scenario_html.h"

namespace rlc::cli {
namespace {

// Two DELETEs of different rows of one file, A with every flag, B committing first.
constexpr char kTwoDeletes[] = R"(table files 2 isolation WriteSerializable
rows (1, 'v1'), (2, 'v2'), (3, 'v3'), (4, 'v4')
txn A DELETE WHERE id = 1
txn B DELETE WHERE id = 2
flags A all
A starts
B starts
B commits
A commits
expect A aborts
)";

// The history run in a scratch folder, removed afterwards.
Result<scenario::ScenarioReport> RunInScratch(const scenario::Scenario& s) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / ("rlc-report-" + std::to_string(::getpid())))
          .string();
  Result<scenario::ScenarioReport> r = scenario::RunScenario(s, dir);
  std::filesystem::remove_all(dir);
  return r;
}

TEST(ScenarioHtml, RowDiffListsEachSideOnce) {
  const std::vector<std::vector<model::Value>> expected = {{int64_t{1}, std::string("a")},
                                                           {int64_t{2}, std::string("b")}};
  const std::vector<std::vector<model::Value>> actual = {{int64_t{1}, std::string("a")},
                                                         {int64_t{3}, std::string("c")},
                                                         {int64_t{3}, std::string("c")}};
  EXPECT_EQ(RowDiff(expected, actual),
            (std::vector<std::string>{"- (2, 'b')", "+ (3, 'c')", "+ (3, 'c')"}));
  EXPECT_TRUE(RowDiff(expected, expected).empty());
}

TEST(ScenarioHtml, CycleIsDrawnWithDot) {
  const std::string cycle =
      "Let:\n  T1 = DELETE WHERE id = 1 (read version 0, commit version 1)\n"
      "  T2 = UPDATE SET value = 'u' WHERE id >= 1 (read version 0, commit version 2)\n"
      "Then:\n  - T1 < T2, because T1 committed at version 1, before T2 committed at version 2\n"
      "However:\n  - T2 < T1, because T1 deleted row 1, which T2 had read at version 0: a "
      "contradiction.\n";
  const std::string svg = DrawCycleSvg(cycle);
  ASSERT_FALSE(svg.empty()) << "graphviz's dot is installed by scripts/install-deps.sh";
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("T1"), std::string::npos);
  EXPECT_NE(svg.find("T2"), std::string::npos);
  EXPECT_TRUE(DrawCycleSvg("no edges here").empty());
}

TEST(ScenarioHtml, LanesDiffAndMismatchesAppear) {
  Result<scenario::Scenario> s = scenario::ParseScenario(kTwoDeletes, "t.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  Result<scenario::ScenarioReport> r = RunInScratch(*s);
  ASSERT_TRUE(r.ok());
  // The oracle holds here; pretend it found other rows, to see the diff rendered.
  scenario::ScenarioReport wrong = *r;
  wrong.rows_check = "wrong data: no serial order the level allows explains the rows";
  wrong.serial_rows = {{int64_t{3}, std::string("v3")}};
  const std::string html = RenderScenarioHtml(*s, wrong, "t.scenario", "rlc replay t.scenario");
  EXPECT_NE(html.find("<table class=\"timeline\">"), std::string::npos);
  EXPECT_NE(html.find("<th>A<br><small>DELETE WHERE id = 1"), std::string::npos) << html;
  EXPECT_NE(html.find("starts: reads version 0"), std::string::npos);
  EXPECT_NE(html.find("commits at version 2; delta.rowLevelConcurrency.deletionVectorsMerged"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("+ (4, 'v4')"), std::string::npos) << html;
  EXPECT_NE(
      html.find("line 10: expected <code>expect A aborts</code>, actual commits at version 2"),
      std::string::npos)
      << html;
  EXPECT_NE(html.find("rlc replay t.scenario"), std::string::npos);
  // The table before the history, and what each commit wrote after its rebase (A's merged DV).
  EXPECT_NE(html.find("<h3>Table before</h3><p class=\"before\">(1, 'v1'), (2, 'v2'), (3, 'v3'), "
                      "(4, 'v4')</p>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("with a DV of 2 row(s) at positions 0, 1"), std::string::npos) << html;
  EXPECT_NE(html.find("Table after: (3, 'v3'), (4, 'v4')"), std::string::npos) << html;
}

// report.md's form of the same history: lanes as a Markdown table, the diff, the mismatches, the
// replay command; a cycle found twice is shown once.
TEST(ScenarioMarkdown, LanesDiffMismatchesAndEachCycleOnce) {
  Result<scenario::Scenario> s = scenario::ParseScenario(kTwoDeletes, "t.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  Result<scenario::ScenarioReport> r = RunInScratch(*s);
  ASSERT_TRUE(r.ok());
  scenario::ScenarioReport wrong = *r;
  wrong.rows_check = "wrong data: no serial order the level allows explains the rows";
  wrong.serial_rows = {{int64_t{3}, std::string("v3")}};
  wrong.cycles = {"Let:\n  A = T1\n  B = T2\nThen:\n  A < B, because ...",
                  "Let:\n  A = T1\n  B = T2\nThen:\n  A < B, because ..."};
  const std::string md = RenderScenarioMarkdown(*s, wrong, "t.scenario", "rlc replay t.scenario");
  EXPECT_NE(md.find("replay: `rlc replay t.scenario`"), std::string::npos) << md;
  EXPECT_NE(md.find("| step | A: DELETE WHERE id = 1<br>flags: "), std::string::npos) << md;
  EXPECT_NE(md.find("\n| 1 | starts: reads version 0 |  |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("**commits at version 2; delta.rowLevelConcurrency.deletionVectorsMerged**"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("```diff\n"), std::string::npos) << md;
  EXPECT_NE(md.find("\n+ (4, 'v4')\n"), std::string::npos) << md;
  EXPECT_NE(md.find("- line 10: expected `expect A aborts`, actual commits at version 2"),
            std::string::npos)
      << md;
  size_t cycles = 0;
  for (size_t at = md.find("Forbidden dependency cycle"); at != std::string::npos;
       at = md.find("Forbidden dependency cycle", at + 1))
    ++cycles;
  EXPECT_EQ(cycles, 1u) << md;
}

// An abort's lane carries the message Delta's own checker raises, with its error class.
TEST(ScenarioHtml, AnAbortShowsDeltasErrorClassAndMessage) {
  Result<scenario::Scenario> s =
      scenario::ParseScenario(R"(table files 1 isolation WriteSerializable
rows (1, 'v1'), (2, 'v2')
txn A DELETE WHERE id = 1
txn B DELETE WHERE id = 2
A starts
B starts
B commits
A commits
expect A aborts ConcurrentAppendException
)",
                              "a.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  Result<scenario::ScenarioReport> r = RunInScratch(*s);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->passed()) << scenario::RenderReport(*r, false);
  const std::string html = RenderScenarioHtml(*s, *r, "a.scenario", "rlc replay a.scenario");
  EXPECT_NE(html.find("as Delta raises it (DELTA_CONCURRENT_APPEND)"), std::string::npos) << html;
  EXPECT_NE(html.find("[DELTA_CONCURRENT_APPEND] ConcurrentAppendException: Files were added to "
                      "the root of the table by a concurrent update. Please try the operation "
                      "again."),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("Conflicting commit: {&quot;version&quot;:1,"), std::string::npos) << html;
}

// The text report shows the table before, and with --verbose each commit's actions.
TEST(ScenarioText, TableBeforeAndActions) {
  Result<scenario::Scenario> s =
      scenario::ParseScenario(R"(table files 1 isolation WriteSerializable
rows (1, 'v1'), (2, 'v2')
txn A DELETE WHERE id = 1
A starts
A commits
)",
                              "u.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  Result<scenario::ScenarioReport> r = RunInScratch(*s);
  ASSERT_TRUE(r.ok());
  const std::string text = scenario::RenderReport(*r, /*verbose=*/true);
  EXPECT_NE(text.find("table before: (1, 'v1'), (2, 'v2')"), std::string::npos) << text;
  EXPECT_NE(text.find("  | A commits at version 1\n  |     commitInfo\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("with a DV of 1 row(s) at position 0"), std::string::npos) << text;
}

}  // namespace
}  // namespace rlc::cli
