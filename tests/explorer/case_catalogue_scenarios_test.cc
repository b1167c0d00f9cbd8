// The catalogue against the scenario folder: each case has scenarios under its prefix in
// tests/scenarios/cases, and where the case reports an event of its own, one of them expects it,
// so that a row cannot name scenarios that do not exist or an event no scenario shows.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "impl/conflict/case_catalogue.h"

namespace rlc {
namespace {

TEST(CaseCatalogue, EveryCaseHasScenariosThatExpectItsEvent) {
  const std::filesystem::path folder = std::filesystem::path(RLC_SCENARIOS) / "cases";
  ASSERT_TRUE(std::filesystem::is_directory(folder)) << folder;
  for (const conflict::CaseEntry& c : conflict::kCases) {
    int files = 0;
    bool expects_event = false;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind(c.scenario_prefix, 0) != 0 || entry.path().extension() != ".scenario")
        continue;
      ++files;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      std::istringstream lines(text.str());
      for (std::string line; std::getline(lines, line);) {
        if (line.rfind("expect ", 0) == 0 && !c.event.empty() &&
            line.find(" event " + std::string(c.event)) != std::string::npos) {
          expects_event = true;
        }
      }
    }
    EXPECT_GT(files, 0) << "case " << c.id << ": no scenario named " << c.scenario_prefix << "*";
    if (!c.event.empty()) {
      EXPECT_TRUE(expects_event) << "case " << c.id << ": no scenario under " << c.scenario_prefix
                                 << "* expects its event " << c.event;
    }
  }
}

}  // namespace
}  // namespace rlc
