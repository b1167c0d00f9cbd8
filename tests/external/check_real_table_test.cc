// `rlc check` on a real Parquet table: a copy of
// ../shared/delta-tables/delta__basic-dv-no-checkpoint (Spark 3.4 / Delta 2.4; ids 0..4 and 5..9 in
// two files, ids 0 and 1 deleted by a DV) with one more commit, a winner that rewrote rows into a
// new data file whose statistics are loose (a copy of the first file's bytes, ids 0..4, logged with
// bounds 0..100). The loser, a DELETE of id = 7, read the table at version 1. The statistics tier
// cannot rule the winner's file out (7 lies in 0..100) and keeps the conflict; the exact tier reads
// the file's rows, finds no 7, and commits. A winner's file whose bytes are not Parquet keeps the
// conflict (doubt aborts).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_rlc.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using rlc::testing::RunResult;
using rlc::testing::RunRlc;
using rlc::testing::ShellQuote;

const fs::path kSource = fs::path(RLC_SHARED_TABLES_DIR) / "delta__basic-dv-no-checkpoint";
constexpr char kFirstFile[] = "part-00000-a489737f-d477-4d9a-8b4a-bd6a6536df5b-c000.snappy.parquet";
constexpr char kSecondFile[] =
    "part-00001-1c9b5e60-ab86-4017-9ec9-a6fe4150cdd5-c000.snappy.parquet";
constexpr char kWinnerFile[] = "winner-rewrite.snappy.parquet";

constexpr char kWinnerCommit[] =
    R"({"commitInfo":{"timestamp":1700000000000,"operation":"MERGE","isBlindAppend":false}}
{"add":{"path":"winner-rewrite.snappy.parquet","partitionValues":{},"size":500,"modificationTime":1700000000000,"dataChange":true,"stats":"{\"numRecords\":5,\"minValues\":{\"id\":0},\"maxValues\":{\"id\":100},\"nullCount\":{\"id\":0},\"tightBounds\":false}"}}
)";

// DELETE WHERE id = 7: it read the second file (ids 5..9) and rewrote it without row 7.
const std::string kLoser = std::string(R"({"readVersion": 1,
  "readPredicates": ["id = 7"], "readFiles": [")") +
                           kSecondFile + R"("],
  "actions": [{"commitInfo": {"operation": "DELETE", "isBlindAppend": false}},
              {"remove": {"path": ")" +
                           kSecondFile + R"(", "dataChange": true}},
              {"add": {"path": "loser-rewrite.snappy.parquet", "partitionValues": {}, "size": 480,
                       "modificationTime": 1700000000001, "dataChange": true,
                       "stats": "{\"numRecords\":4,\"minValues\":{\"id\":5},\"maxValues\":{\"id\":9},\"nullCount\":{\"id\":0}}"}}]})";

constexpr char kStatisticsTier[] =
    "spark.databricks.delta.conflictDetection.dataSkipping.enabled=true";
constexpr char kExactTier[] =
    "spark.databricks.delta.conflictDetection.dataSkipping.valueExact.enabled=true";

class CheckRealTable : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::is_directory(kSource)) {
      const char* ci = std::getenv("CI");
      if (ci != nullptr && std::string(ci) == "true") FAIL() << "shared table missing: " << kSource;
      GTEST_SKIP() << "shared table missing: " << kSource;
    }
    root_ = fs::temp_directory_path() /
            ("rlc-check-real-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::copy(kSource, root_, fs::copy_options::recursive);
    fs::copy_file(root_ / kFirstFile, root_ / kWinnerFile);
    std::ofstream(root_ / "_delta_log" / "00000000000000000002.json") << kWinnerCommit;
    std::ofstream(root_.string() + "-txn.json") << kLoser;
  }
  void TearDown() override {
    if (!root_.empty()) {
      fs::remove_all(root_);
      fs::remove(root_.string() + "-txn.json");
    }
  }
  RunResult Check(const std::string& flags) {
    return RunRlc("check " + ShellQuote(root_.string()) + " --txn " +
                  ShellQuote(root_.string() + "-txn.json") + " --json " + flags);
  }

  fs::path root_;
};

TEST_F(CheckRealTable, TheStatisticsTierKeepsTheConflict) {
  const RunResult r = Check(std::string("--flag ") + kStatisticsTier);
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  const json out = json::parse(r.out);
  EXPECT_EQ(out.at("abort").at("exception"), "ConcurrentAppendException");
  EXPECT_EQ(out.at("abort").at("path"), kWinnerFile);
}

TEST_F(CheckRealTable, TheExactTierReadsTheParquetRowsAndCommits) {
  const RunResult r = Check(std::string("--flag ") + kStatisticsTier + " --flag " + kExactTier);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const json out = json::parse(r.out);
  EXPECT_EQ(out.at("verdict"), "commit");
  EXPECT_EQ(out.at("checkedThroughVersion"), 2);
  bool skipped = false;
  for (const json& e : out.at("events"))
    skipped = skipped || e.at("name") == "delta.conflictDetection.dataSkipping.filesSkipped";
  EXPECT_TRUE(skipped) << r.out;
}

TEST_F(CheckRealTable, AWinnerFileThatIsNotParquetKeepsTheConflict) {
  std::ofstream(root_ / kWinnerFile, std::ios::trunc) << "PAR1 not a parquet file";
  const RunResult r = Check(std::string("--flag ") + kStatisticsTier + " --flag " + kExactTier);
  ASSERT_EQ(r.exit_code, 1) << r.err << r.out;
  EXPECT_EQ(json::parse(r.out).at("abort").at("exception"), "ConcurrentAppendException");
}

}  // namespace
