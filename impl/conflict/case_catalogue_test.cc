// The catalogue against what it names: every mutant it lists exists and every mutant belongs to
// exactly one row (or to the checker's own), ids and flag keys are unique, and the Flags helpers
// generated from it switch exactly the row they say. (The obligations and the scenario folder
// are held against it in proofs/ and tests/explorer/.)
#include "impl/conflict/case_catalogue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "impl/base/mutants.h"

namespace rlc::conflict {
namespace {

TEST(CaseCatalogue, EveryMutantBelongsToExactlyOneRow) {
  std::map<std::string, int> owners;
  for (const CaseEntry& c : kCases) {
    for (std::string_view m : c.mutants) {
      EXPECT_TRUE(mutants::MutantByName(m).has_value())
          << "case " << c.id << " names no mutant '" << m << "'";
      ++owners[std::string(m)];
    }
  }
  for (std::string_view m : kCheckerMutants) {
    EXPECT_TRUE(mutants::MutantByName(m).has_value()) << m;
    ++owners[std::string(m)];
  }
  for (const mutants::MutantInfo& m : mutants::AllMutants()) {
    EXPECT_EQ(owners[m.name], 1) << "mutant " << m.name << " must belong to exactly one row";
  }
  EXPECT_EQ(owners.size(), mutants::AllMutants().size());
}

TEST(CaseCatalogue, IdsFlagsAndSwitchesAreUnique) {
  std::set<std::string_view> ids, flags, prefixes;
  std::vector<bool Flags::*> members;
  for (const CaseEntry& c : kCases) {
    EXPECT_TRUE(ids.insert(c.id).second) << c.id;
    EXPECT_TRUE(flags.insert(c.flag).second) << c.flag;
    EXPECT_TRUE(prefixes.insert(c.scenario_prefix).second) << c.scenario_prefix;
    EXPECT_EQ(std::count(members.begin(), members.end(), c.member), 0) << c.id;
    members.push_back(c.member);
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
      EXPECT_EQ(one.*other.member, &other == &row) << row.id << " " << other.id;
    EXPECT_TRUE(one.AnyOn());
    EXPECT_FALSE(one.EveryOn());

    Flags parsed;
    ASSERT_TRUE(parsed.Set(std::string(kFlagPrefix) + std::string(row.flag), "true").ok())
        << row.flag;
    EXPECT_TRUE(parsed.*row.member);
    Flags by_short_name;
    ASSERT_TRUE(by_short_name.Set(row.flag, "true").ok()) << row.flag;
    EXPECT_TRUE(by_short_name.*row.member);
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
  for (const CaseEntry& c : kCases) EXPECT_EQ(again.*c.member, f.*c.member) << c.id;
  EXPECT_EQ(again.value_exact_max_bytes, 77);
}

}  // namespace
}  // namespace rlc::conflict
