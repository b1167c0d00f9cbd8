// The catalogue against what it names: every mutant belongs to exactly one row (or to the
// checker's own) and is planted at a site, every site names a catalogued mutant, ids and flag keys
// are unique, and the Flags helpers generated from it switch exactly the row they say. (The
// obligations and the scenario folder are held against it in proofs/ and tests/explorer/.)
#include "impl/conflict/case_catalogue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "impl/base/mutants.h"

namespace rlc::conflict {
namespace {

TEST(CaseCatalogue, EveryMutantBelongsToExactlyOneRow) {
  std::map<std::string_view, int> owners;
  for (const MutantEntry& m : AllMutants()) {
    ++owners[m.name];
    EXPECT_FALSE(m.what.empty()) << m.name;
    EXPECT_LE(m.name.size(), mutants::kMaxNameLength) << m.name;
    ASSERT_NE(FindMutant(m.name), nullptr) << m.name;
    EXPECT_EQ(FindMutant(m.name)->what, m.what) << m.name;
  }
  for (const auto& [name, count] : owners)
    EXPECT_EQ(count, 1) << "mutant " << name << " must belong to exactly one row";
  EXPECT_EQ(FindMutant("no-such-mutant"), nullptr);
}

// The mutants' sites against the list: every RLC_MUTANT("name") in the sources names a catalogued
// mutant, and every catalogued mutant has a site, so a row cannot list a bug nothing plants and a
// site cannot plant one no campaign selects.
TEST(CaseCatalogue, EveryMutantHasASiteAndEverySiteACatalogueRow) {
  const std::regex site(R"re(RLC_MUTANT\(\s*"([^"]+)"\s*\))re");
  std::map<std::string, int> sites;
  for (const char* folder : {"impl", "fuzz", "model", "cli"}) {
    const std::filesystem::path root = std::filesystem::path(RLC_SOURCE_DIR) / folder;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".h" && ext != ".cc")) continue;
      const std::string file = entry.path().filename().string();
      if (file == "mutants.h" || file.ends_with("_test.cc")) continue;  // the macro, and tests
      std::ifstream in(entry.path());
      const std::string text((std::istreambuf_iterator<char>(in)), {});
      for (std::sregex_iterator it(text.begin(), text.end(), site), end; it != end; ++it) {
        ++sites[(*it)[1]];
        EXPECT_NE(FindMutant((*it)[1].str()), nullptr)
            << entry.path() << " plants '" << (*it)[1] << "', which no catalogue row lists";
      }
    }
  }
  for (const MutantEntry& m : AllMutants())
    EXPECT_GT(sites[std::string(m.name)], 0) << "mutant " << m.name << " has no RLC_MUTANT site";
}

TEST(CaseCatalogue, IdsFlagsAndSwitchesAreUnique) {
  std::set<std::string_view> ids, flags, prefixes;
  std::set<CaseId> switches;
  for (const CaseEntry& c : kCases) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_TRUE(flags.insert(c.flag).second) << c.flag;
    EXPECT_TRUE(prefixes.insert(c.scenario_prefix).second) << c.scenario_prefix;
    EXPECT_TRUE(switches.insert(c.case_id).second) << c.id;
    // A row's CaseId is its position: the bit Flags::Subset and the explorer draw by.
    EXPECT_EQ(static_cast<size_t>(c.case_id), static_cast<size_t>(&c - kCases)) << c.id;
    EXPECT_FALSE(c.title.empty());
    EXPECT_FALSE(c.proofs.empty()) << "case " << c.id << " has no proof obligations";
    EXPECT_FALSE(c.mutants.empty()) << "case " << c.id << " has no mutant";
  }
}

TEST(CaseCatalogue, EachRowSwitchesItsOwnFlag) {
  const Flags every = Flags::Every();
  EXPECT_TRUE(every.EveryOn());
  EXPECT_FALSE(Flags{}.AnyOn());
  for (size_t i = 0; i < std::size(kCases); ++i) {
    const CaseEntry& row = kCases[i];
    const Flags one = Flags::Subset(uint64_t{1} << i);
    for (const CaseEntry& other : kCases)
      EXPECT_EQ(one.On(other.case_id), &other == &row) << row.id << " " << other.id;
    EXPECT_TRUE(one.AnyOn());
    EXPECT_FALSE(one.EveryOn());

    Flags parsed;
    ASSERT_TRUE(parsed.Set(std::string(kFlagPrefix) + std::string(row.flag), "true").ok())
        << row.flag;
    EXPECT_TRUE(parsed.On(row.case_id));
    Flags by_short_name;
    ASSERT_TRUE(by_short_name.Set(row.flag, "true").ok()) << row.flag;
    EXPECT_TRUE(by_short_name.On(row.case_id));
    const std::vector<std::string> assignments = one.ToAssignments();
    EXPECT_NE(std::find(assignments.begin(), assignments.end(),
                        "spark.databricks.delta." + std::string(row.flag) + "=true"),
              assignments.end());
  }
  EXPECT_TRUE(Flags::Subset((uint64_t{1} << std::size(kCases)) - 1).EveryOn());
}

// The checker runs the rewriting cases in the catalogue's order, which keeps Delta's phase order
// for the three it knows: Case 2, then 4a, then 4b (a case appended later runs after them).
TEST(CaseCatalogue, RewritingCasesRunInThePhaseOrder) {
  std::vector<std::string_view> rewriting;
  for (const CaseEntry& c : kCases) {
    if (c.rewrite != nullptr) rewriting.push_back(c.id);
  }
  const std::vector<std::string_view> phase_order = {"2", "4a", "4b"};
  auto at = rewriting.begin();
  for (std::string_view id : phase_order) {
    at = std::find(at, rewriting.end(), id);
    ASSERT_NE(at, rewriting.end())
        << "case " << id << " missing from the rewriting cases, or out of order";
  }
  for (const CaseEntry& c : kCases) {  // the file checks' cases (3, 1) rewrite nothing
    if (c.id == "3" || c.id == "1" || c.id == "1-exact") {
      EXPECT_EQ(c.rewrite, nullptr) << c.id;
    }
  }
}

TEST(CaseCatalogue, AssignmentsRoundTrip) {
  Flags f = Flags::Subset(0b101010);
  f.value_exact_max_bytes = 77;
  Flags again;
  for (const std::string& a : f.ToAssignments()) ASSERT_TRUE(again.SetFromAssignment(a).ok()) << a;
  for (const CaseEntry& c : kCases) EXPECT_EQ(again.On(c.case_id), f.On(c.case_id)) << c.id;
  EXPECT_EQ(again.value_exact_max_bytes, 77);
}

}  // namespace
}  // namespace rlc::conflict
