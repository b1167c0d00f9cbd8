// `rlc check` on a table partitioned by a `timestamp` column: the exact tier reads a winner's
// rows with the same reading of its partition value as the statistics tier
// (impl/predicate/partition_value.h). A value written without a zone (as Spark writes it, in its
// session zone) is a range of 36 hours to both; no single value, so no row of the file can be
// judged and the loser keeps Delta's conflict. The exact tier once read it as UTC, and a DELETE
// loser committed past a winner's row its predicate selects in any session zone west of UTC-4.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "impl/delta/log.h"
#include "impl/parquet/parquet_writer.h"
#include "impl/storage/storage.h"
#include "tests/support/run_rlc.h"

namespace {

namespace fs = std::filesystem;
using rlc::predicate::Literal;
using rlc::testing::RunRlc;
using rlc::testing::ShellQuote;

constexpr char kMetadata[] =
    R"({"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},{\"name\":\"ts\",\"type\":\"timestamp\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["ts"],"configuration":{"delta.isolationLevel":"WriteSerializable"}}})";
constexpr char kProtocol[] =
    R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],"writerFeatures":["deletionVectors"]}})";
constexpr char kAddF1[] =
    R"({"add":{"path":"f1.parquet","partitionValues":{"ts":"2024-01-01T00:00:00Z"},"size":1,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":1,\"minValues\":{\"id\":1},\"maxValues\":{\"id\":1},\"nullCount\":{\"id\":0}}"}})";

// DELETE WHERE ts >= '2024-01-31 12:00:00' (UTC) OR id = 1: it read f1 and removes it.
constexpr char kDeleteLoser[] =
    R"({"readVersion": 0, "readPredicates": ["ts >= TIMESTAMP '2024-01-31 12:00:00Z' OR id = 1"],
        "readFiles": ["f1.parquet"],
        "actions": [{"commitInfo": {"operation": "DELETE", "isBlindAppend": false}},
                    {"remove": {"path": "f1.parquet", "dataChange": true}}]})";

class CheckPartitionValues : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("rlc-check-pv-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    Put(rlc::delta::LogDir(root_.string()) + "/" + rlc::delta::CommitFileName(0),
        std::string(kProtocol) + "\n" + kMetadata + "\n" + kAddF1 + "\n");
    DataFile("f1.parquet", 1);
    Put(root_.string() + "-txn.json", kDeleteLoser);
  }
  void TearDown() override {
    fs::remove_all(root_);
    fs::remove(root_.string() + "-txn.json");
  }

  void Put(const std::string& path, const std::string& bytes) {
    ASSERT_TRUE(rlc::storage::NewLocalStorage()->PutIfAbsent(path, bytes).ok()) << path;
  }
  // A data file of one row; its partition value is its add's.
  void DataFile(const std::string& name, int64_t id) {
    rlc::Result<std::string> bytes = rlc::parquet::WriteParquetRows(
        {{"id", rlc::parquet::WrittenColumn::Type::kLong}}, {{Literal::Long(id)}});
    ASSERT_TRUE(bytes.ok());
    Put(root_.string() + "/" + name, *bytes);
  }
  // The winner: an INSERT ... SELECT (not blind, so WriteSerializable judges its adds) of id 7
  // into partition ts = `value`.
  void InsertWinner(const std::string& value) {
    DataFile("w.parquet", 7);
    Put(rlc::delta::LogDir(root_.string()) + "/" + rlc::delta::CommitFileName(1),
        R"({"commitInfo":{"operation":"WRITE","readVersion":0,"isBlindAppend":false}})"
        "\n"
        R"({"add":{"path":"w.parquet","partitionValues":{"ts":")" +
            value +
            R"("},"size":1,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":1,\"minValues\":{\"id\":7},\"maxValues\":{\"id\":7},\"nullCount\":{\"id\":0}}"}})"
            "\n");
  }
  nlohmann::json Check(const std::string& flags) {
    const std::string txn = root_.string() + "-txn.json";
    rlc::testing::RunResult r = RunRlc("check " + ShellQuote(root_.string()) + " --txn " +
                                       ShellQuote(txn) + " --json " + flags);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
    return nlohmann::json::parse(r.out);
  }

  fs::path root_;
};

constexpr char kStatisticsTier[] = "--flag conflictDetection.dataSkipping.enabled=true";
constexpr char kExactTier[] =
    "--flag conflictDetection.dataSkipping.enabled=true "
    "--flag conflictDetection.dataSkipping.valueExact.enabled=true";

// With a zone the value is one instant: the exact tier reads the row (id 7 at 10:00 UTC), which
// the DELETE's predicate does not select, and the loser commits.
TEST_F(CheckPartitionValues, AZonedValueIsReadAsOneInstantAndTheExactTierReconciles) {
  InsertWinner("2024-01-31T10:00:00Z");
  EXPECT_EQ(Check(kExactTier).at("verdict"), "commit");
}

// 10:00 without a zone is 15:00 UTC in a session at UTC-5, which the DELETE selects: no tier may
// say the row is not selected.
TEST_F(CheckPartitionValues, AZoneLessValueKeepsTheConflictInEveryTier) {
  InsertWinner("2024-01-31 10:00:00");
  for (const char* flags : {"", kStatisticsTier, kExactTier}) {
    const nlohmann::json out = Check(flags);
    ASSERT_EQ(out.at("verdict"), "abort") << flags << "\n" << out.dump(2);
    EXPECT_EQ(out.at("abort").at("exception"), "ConcurrentAppendException") << flags;
  }
}

// A winner's add that gives the partition key twice has no one partition value: a reader that
// keeps the last key (Delta Spark's) reads the file into 2024-02-01, the statistics tier once
// took the first (2024-01-01, a partition the DELETE's predicate rules out) and the row reader the
// last. The commit is refused, whatever the flags, naming the field.
TEST_F(CheckPartitionValues, AKeyGivenTwiceIsRefusedNotReadTwoWays) {
  DataFile("w.parquet", 7);
  Put(rlc::delta::LogDir(root_.string()) + "/" + rlc::delta::CommitFileName(1),
      R"({"commitInfo":{"operation":"WRITE","readVersion":0,"isBlindAppend":false}})"
      "\n"
      R"({"add":{"path":"w.parquet","partitionValues":{"ts":"2024-01-01T00:00:00Z","ts":"2024-02-01T00:00:00Z"},"size":1,"modificationTime":1,"dataChange":true}})"
      "\n");
  const std::string txn = root_.string() + "-txn.json";
  for (const char* flags : {"", kStatisticsTier, kExactTier}) {
    rlc::testing::RunResult r = RunRlc("check " + ShellQuote(root_.string()) + " --txn " +
                                       ShellQuote(txn) + " --json " + flags);
    EXPECT_EQ(r.exit_code, 2) << flags << "\n" << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("add.partitionValues.ts"), std::string::npos) << flags << "\n"
                                                                                 << r.out << r.err;
  }
}

}  // namespace
