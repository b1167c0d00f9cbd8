// The one JUnit writer: counts, escaping, the failure element, and times as plain decimals.
#include "cli/junit.h"

#include <gtest/gtest.h>

namespace rlc::cli {
namespace {

TEST(Junit, CountsEscapesAndMarksFailures) {
  const std::string xml = JunitXml(
      "rlc <suite>",
      {{"proof", "case2.merged", 0.5, true, "", "", "proved"},
       {"scenario", "a&b.scenario", 0.000076, false, "finding", "expected \"x\" <got y>", ""}},
      1.25);
  EXPECT_NE(
      xml.find("<testsuite name=\"rlc &lt;suite&gt;\" tests=\"2\" failures=\"1\" skipped=\"0\" "
               "time=\"1.250000\">"),
      std::string::npos)
      << xml;
  EXPECT_NE(xml.find("name=\"a&amp;b.scenario\" time=\"0.000076\">"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"finding\">expected &quot;x&quot; &lt;got y&gt;</failure>"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<system-out>proved</system-out>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("e-05"), std::string::npos) << xml;
  EXPECT_EQ(xml.rfind("</testsuite>\n"), xml.size() - 13);
}

TEST(Junit, NoTimeAttributeWhenTheSuiteTimeIsUnknown) {
  const std::string xml = JunitXml("rlc verify", {});
  EXPECT_NE(xml.find("<testsuite name=\"rlc verify\" tests=\"0\" failures=\"0\" skipped=\"0\">"),
            std::string::npos)
      << xml;
}

// A case that did not run is skipped, neither passed nor failed.
TEST(Junit, ACaseNotRunIsSkippedNotFailed) {
  JunitCase not_run{"proof", "remap.preserves_order", 0, false, "", "", ""};
  not_run.skipped = true;
  not_run.skipped_message = "not run: the budget ran out";
  const std::string xml = JunitXml("rlc verify", {not_run});
  EXPECT_NE(xml.find("tests=\"1\" failures=\"0\" skipped=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<skipped message=\"not run: the budget ran out\"/>"), std::string::npos)
      << xml;
  EXPECT_EQ(xml.find("<failure"), std::string::npos) << xml;
}

}  // namespace
}  // namespace rlc::cli
