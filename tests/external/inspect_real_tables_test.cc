// `rlc inspect --json` against the real tables in ../shared/delta-tables, for every version.
//
// The expected counts come from expected_live_rows.json, which derive_expected.py computes
// without rlc and cross-checks against the source repositories' asserted counts and the
// writers' .crc files. These tests run the rlc binary itself, as a user would.
//
// When the shared folder is absent they skip with a message, unless CI=true, where they fail
// (docs/decisions.md#external-tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_rlc.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using rlc::testing::RunResult;
using rlc::testing::RunRlc;
const auto& Quote = rlc::testing::ShellQuote;

const fs::path kTables = RLC_SHARED_TABLES_DIR;

// Skips (or, in CI, fails) when the shared tables are not there.
bool TablesMissing() {
  if (fs::is_directory(kTables)) return false;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string(ci) == "true") {
    ADD_FAILURE() << "CI=true but the shared tables are missing at " << kTables;
  } else {
    GTEST_LOG_(WARNING) << "skipping: no shared tables at " << kTables;
  }
  return true;
}

const json& Expected() {
  static const json expected = [] {
    std::ifstream in(RLC_EXPECTED_JSON);
    return json::parse(in);
  }();
  return expected;
}

class RealTable : public ::testing::TestWithParam<std::string> {};
class TestPrefixTable : public ::testing::TestWithParam<std::string> {};

// Every version of every table: live rows, files and deleted rows as expected.
TEST_P(RealTable, EveryVersionHasTheExpectedLiveRows) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  const std::string name = GetParam();
  const json& table = Expected().at(name);
  const std::string prefix = table.at("dvFilePrefix");
  for (const json& v : table.at("versions")) {
    const int64_t version = v.at("version");
    SCOPED_TRACE(name + " version " + std::to_string(version));
    std::string args = "inspect " + Quote((kTables / name).string()) + " --json --version " +
                       std::to_string(version);
    if (!prefix.empty()) args += " --dv-file-prefix " + Quote(prefix);
    RunResult r = RunRlc(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json got = json::parse(r.out);
    EXPECT_EQ(got.at("version"), version);
    EXPECT_EQ(got.at("liveRows"), v.at("liveRows"));
    EXPECT_EQ(got.at("numFiles"), v.at("numFiles"));
    EXPECT_EQ(got.at("deletedRows"), v.at("deletedRows"));
    int64_t live = 0;
    for (const json& f : got.at("files")) live += f.at("liveRows").get<int64_t>();
    EXPECT_EQ(live, v.at("liveRows"));
  }
}

// Every version's live rows read from the Parquet data files, DVs applied: as many as the
// expected count, none at a position the DV deletes, each file's physical rows its numRecords
// (rlc inspect fails otherwise). The rows' values are held against the writers' own expected
// rows in expected_rows_test.py.
TEST_P(RealTable, EveryVersionsLiveRowsAreReadFromTheDataFiles) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  const std::string name = GetParam();
  const json& table = Expected().at(name);
  const std::string prefix = table.at("dvFilePrefix");
  for (const json& v : table.at("versions")) {
    const int64_t version = v.at("version");
    SCOPED_TRACE(name + " version " + std::to_string(version));
    std::string args = "inspect " + Quote((kTables / name).string()) + " --rows --json --version " +
                       std::to_string(version);
    if (!prefix.empty()) args += " --dv-file-prefix " + Quote(prefix);
    RunResult r = RunRlc(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json got = json::parse(r.out);
    ASSERT_FALSE(got.at("columns").empty());
    size_t rows = 0;
    for (const json& f : got.at("files")) {
      const std::vector<uint64_t> deleted = f.at("deletedRowIndexes");
      EXPECT_EQ(f.at("rows").size(), f.at("liveRows").get<size_t>()) << f.at("path");
      for (const json& row : f.at("rows")) {
        EXPECT_EQ(std::count(deleted.begin(), deleted.end(), row.at("position").get<uint64_t>()), 0)
            << f.at("path");
        EXPECT_EQ(row.at("values").size(), got.at("columns").size());
      }
      rows += f.at("rows").size();
    }
    EXPECT_EQ(rows, v.at("liveRows").get<size_t>());
  }
}

// Tables whose DV files carry Delta's test-only name prefix: without --dv-file-prefix, a
// version with DVs must fail with a clear "DV file not found" naming the path it looked for.
TEST_P(TestPrefixTable, TestOnlyDvNamesAreReportedAsNotFound) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  const std::string name = GetParam();
  const json& table = Expected().at(name);
  ASSERT_EQ(table.at("dvFilePrefix"), "test%dv%prefix-");
  for (const json& v : table.at("versions")) {
    const int64_t version = v.at("version");
    SCOPED_TRACE(name + " version " + std::to_string(version));
    RunResult r = RunRlc("inspect " + Quote((kTables / name).string()) + " --json --version " +
                         std::to_string(version));
    if (v.at("filesWithDv") == 0) {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      continue;
    }
    EXPECT_EQ(r.exit_code, 2);
    // With --json the refusal is also one error object on stdout (docs/json-output.md#errors).
    const json error = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(error.is_object() && error.contains("error")) << r.out;
    EXPECT_EQ(error["error"]["command"], "inspect");
    EXPECT_EQ(error["error"]["exitCode"], 2);
    EXPECT_NE(error["error"]["message"].get<std::string>().find("DV file not found: "),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find("DV file not found: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("/deletion_vector_"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("version " + std::to_string(version)), std::string::npos) << r.err;
  }
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  return std::regex_replace(info.param, std::regex("[^A-Za-z0-9]"), "_");
}

// The special-character table has its own tests below: its log is a template.
INSTANTIATE_TEST_SUITE_P(
    DeltaTables, RealTable,
    ::testing::Values("delta-kernel-rs__cdf-table-with-dv", "delta-kernel-rs__with-short-dv",
                      "delta-rs__cdf-table-with-cdc-and-dvs", "delta-rs__table-with-dv-small",
                      "delta-rs__table_with_deletion_logs", "delta__basic-dv-no-checkpoint",
                      "delta__basic-dv-with-checkpoint", "delta__dat-v0.0.3__deletion_vectors",
                      "delta__dv-partitioned-with-checkpoint", "delta__dv-with-columnmapping",
                      "delta__log-replay-dv-key-cases", "delta__partitioned-table-with-dv-large",
                      "delta__table-with-dv-large", "delta__table-with-dv-small"),
    TestName);

INSTANTIATE_TEST_SUITE_P(DeltaTables, TestPrefixTable,
                         ::testing::Values("delta__partitioned-table-with-dv-large",
                                           "delta__table-with-dv-large",
                                           "delta__table-with-dv-small"),
                         TestName);

// The expected file covers exactly the tables in the shared folder.
TEST(RealTables, ExpectedFileCoversEveryTable) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  size_t tables = 0;
  for (const auto& entry : fs::directory_iterator(kTables)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name[0] == '_') continue;
    ++tables;
    EXPECT_TRUE(Expected().contains(name)) << name;
  }
  EXPECT_EQ(tables, 15u);
  EXPECT_EQ(Expected().size(), tables);
}

// The inline DV written with a Rust crate's '#' padding tail decodes to row 3 (version 5).
TEST(RealTables, InlineDvWithPaddingExtensionDecodesToRowThree) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  RunResult r =
      RunRlc("inspect " + Quote((kTables / "delta-kernel-rs__cdf-table-with-dv").string()) +
             " --json --rows --version 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json got = json::parse(r.out);
  ASSERT_EQ(got.at("files").size(), 1u);
  EXPECT_EQ(got.at("files")[0].at("deletedRowIndexes"), json::array({3}));
  EXPECT_EQ(got.at("files")[0].at("deletionVector").at("storageType"), "i");
}

// --rows lists every deleted row once, ascending, below numRecords (the cdc table holds the
// only Roaring run container among the real tables).
TEST(RealTables, RowsListMatchesDeletedCounts) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  for (const char* name : {"delta-rs__cdf-table-with-cdc-and-dvs",
                           "delta__basic-dv-with-checkpoint", "delta-kernel-rs__with-short-dv"}) {
    SCOPED_TRACE(name);
    RunResult r = RunRlc("inspect " + Quote((kTables / name).string()) + " --json --rows");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json got = json::parse(r.out);
    for (const json& f : got.at("files")) {
      const json& rows = f.at("deletedRowIndexes");
      EXPECT_EQ(rows.size(), f.at("deletedRows").get<size_t>());
      for (size_t i = 1; i < rows.size(); ++i) EXPECT_LT(rows[i - 1], rows[i]);
      if (!rows.empty()) {
        EXPECT_LT(rows.back().get<int64_t>(), f.at("numRecords").get<int64_t>());
      }
    }
  }
}

// The special-character table's log is a template: as Delta's own test does, copy it to a temp
// folder named by `prefix` and put that folder's absolute path in. Empty on failure.
fs::path SubstitutedSpecialCharCopy(const std::string& prefix) {
  const fs::path copy = fs::temp_directory_path() / (prefix + std::to_string(::getpid()));
  fs::remove_all(copy);
  fs::copy(kTables / "delta__table-with-dv-special-char", copy, fs::copy_options::recursive);
  const fs::path commit = copy / "_delta_log" / "00000000000000000000.json";
  std::ifstream in(commit);
  std::stringstream ss;
  ss << in.rdbuf();
  in.close();
  std::string text = ss.str();
  const std::string marker = "{{FOLDER_WITH_SPECIAL_CHAR}}";
  if (text.find(marker) == std::string::npos) return {};
  text.replace(text.find(marker), marker.size(), (copy / "folder&with%25special%20char").string());
  fs::permissions(commit, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(commit, std::ios::trunc) << text;
  return copy;
}

// Read after the substitution, the URL-escaped 'p' path must resolve.
TEST(SpecialChar, TemplatedPathResolvesAfterSubstitution) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  const fs::path copy = SubstitutedSpecialCharCopy("rlc-special-char-");
  ASSERT_FALSE(copy.empty());
  RunResult r = RunRlc("inspect " + Quote(copy.string()) + " --json --rows");
  fs::remove_all(copy);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json got = json::parse(r.out);
  EXPECT_EQ(got.at("liveRows"), 5);
  EXPECT_EQ(got.at("files")[0].at("deletedRowIndexes"), json::array({0, 2, 4, 6, 8}));
}

// Unsubstituted, the template is not an absolute path: a clear error, exit 2.
TEST(SpecialChar, UnsubstitutedTemplateIsAClearError) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  RunResult r = RunRlc("inspect " +
                       Quote((kTables / "delta__table-with-dv-special-char").string()) + " --json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("{{FOLDER_WITH_SPECIAL_CHAR}}"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is not absolute"), std::string::npos) << r.err;
}

// ---- rlc audit ----------------------------------------------------------------------------------

json Audit(const fs::path& table, const std::string& prefix, int expected_exit) {
  std::string args = "audit " + Quote(table.string()) + " --json";
  if (!prefix.empty()) args += " --dv-file-prefix " + Quote(prefix);
  RunResult r = RunRlc(args);
  EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
  return r.exit_code == 2 ? json::object() : json::parse(r.out);
}

class AuditedTable : public ::testing::TestWithParam<std::string> {};

// Every table but the two below is clean under every rule.
TEST_P(AuditedTable, IsClean) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  const std::string name = GetParam();
  const json got = Audit(kTables / name, Expected().at(name).at("dvFilePrefix"), 0);
  EXPECT_EQ(got.at("findings"), json::array());
  EXPECT_GE(got.at("versionsChecked").get<int64_t>(), 1);
  EXPECT_GE(got.at("dvsChecked").get<int64_t>(), 1);
}

INSTANTIATE_TEST_SUITE_P(
    DeltaTables, AuditedTable,
    ::testing::Values("delta-kernel-rs__with-short-dv", "delta-rs__table-with-dv-small",
                      "delta-rs__table_with_deletion_logs", "delta__basic-dv-no-checkpoint",
                      "delta__basic-dv-with-checkpoint", "delta__dat-v0.0.3__deletion_vectors",
                      "delta__dv-partitioned-with-checkpoint", "delta__dv-with-columnmapping",
                      "delta__log-replay-dv-key-cases", "delta__partitioned-table-with-dv-large",
                      "delta__table-with-dv-large", "delta__table-with-dv-small"),
    TestName);

// The Databricks table: the eight OPTIMIZE commits' tag groups are verified, and the eight
// dataChange=false commits conserve live rows. A run that verifies no tag group is a failure.
TEST(Audit, DatabricksCompositionTagsTileTheirOutputs) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  const json got = Audit(kTables / "delta-rs__cdf-table-with-cdc-and-dvs", "", 0);
  EXPECT_EQ(got.at("findings"), json::array());
  EXPECT_EQ(got.at("tagGroupsChecked"), 8);
  EXPECT_EQ(got.at("tagGroupsTiled"), 8);
  EXPECT_EQ(got.at("noDataChangeCommits"), 8);
  EXPECT_EQ(got.at("noDataChangeCommitsUncounted"), 0);
}

// delta-kernel-rs's CDF test table rewrites one file's DV so that deleted rows come back (its
// versions 2 and 4-6 replace DVs {0,1,4,5} -> {0,5} -> {3} -> none, by design, to exercise change
// data for restored rows). That is a real property of the table, and exactly what the audit says.
TEST(Audit, KernelCdfTableRevivesRowsByDesign) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  const json got = Audit(kTables / "delta-kernel-rs__cdf-table-with-dv", "", 1);
  std::vector<int64_t> versions;
  for (const json& f : got.at("findings")) {
    EXPECT_EQ(f.at("rule"), "dv-never-shrinks");
    EXPECT_EQ(f.at("path"), "part-00000-fae5310a-a37d-4e51-827b-c3d5516560ca-c000.snappy.parquet");
    versions.push_back(f.at("version"));
  }
  EXPECT_EQ(versions, (std::vector<int64_t>{2, 4, 5, 6}));
}

// The special-character table, substituted as above, is clean; unsubstituted it is unreadable.
TEST(Audit, SpecialCharTableAfterSubstitution) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  const fs::path source = kTables / "delta__table-with-dv-special-char";
  Audit(source, "", 2);
  const fs::path copy = SubstitutedSpecialCharCopy("rlc-audit-special-char-");
  ASSERT_FALSE(copy.empty());
  const json got = Audit(copy, "", 0);
  fs::remove_all(copy);
  EXPECT_EQ(got.at("findings"), json::array());
}

// Versions past the latest, and folders without a log, are exit 2 with the reason.
TEST(RealTables, BadArgumentsExitTwo) {
  if (TablesMissing()) GTEST_SKIP() << "shared tables missing";
  RunResult past = RunRlc("inspect " + Quote((kTables / "delta__basic-dv-no-checkpoint").string()) +
                          " --version 9");
  EXPECT_EQ(past.exit_code, 2);
  EXPECT_NE(past.err.find("version 9 does not exist (latest is 1)"), std::string::npos) << past.err;
  RunResult no_log = RunRlc("inspect " + Quote(kTables.string()));
  EXPECT_EQ(no_log.exit_code, 2);
  EXPECT_NE(no_log.err.find("_delta_log"), std::string::npos) << no_log.err;
}

}  // namespace
