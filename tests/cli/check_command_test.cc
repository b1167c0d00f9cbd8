// `rlc check` end to end: a table written to disk, a pending transaction file, the binary's exit
// code and output.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "impl/delta/commit_writer.h"
#include "impl/delta/log.h"
#include "impl/dv/descriptor.h"
#include "impl/dv/row_bitmap.h"
#include "impl/storage/storage.h"
#include "tests/support/run_rlc.h"

namespace {

namespace fs = std::filesystem;
using rlc::testing::RunRlc;
using rlc::testing::ShellQuote;

constexpr char kMetadata[] =
    R"({"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{"delta.isolationLevel":"WriteSerializable"}}})";
constexpr char kProtocol[] =
    R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],"writerFeatures":["deletionVectors"]}})";
constexpr char kAddF1[] =
    R"({"add":{"path":"f1","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":10}"}})";

class CheckCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("rlc-check-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    Commit(0, std::string(kProtocol) + "\n" + kMetadata + "\n" + kAddF1 + "\n");
  }
  void TearDown() override { fs::remove_all(root_); }

  void Commit(int64_t version, const std::string& text) {
    auto storage = rlc::storage::NewLocalStorage();
    ASSERT_TRUE(storage
                    ->PutIfAbsent(rlc::delta::LogDir(root_.string()) + "/" +
                                      rlc::delta::CommitFileName(version),
                                  text)
                    .ok());
  }
  std::string Txn(const std::string& json) {
    const fs::path file = root_.string() + "-txn.json";
    std::ofstream(file) << json;
    return file.string();
  }
  rlc::testing::RunResult Check(const std::string& txn_json, const std::string& extra = "") {
    return RunRlc("check " + ShellQuote(root_.string()) + " --txn " + ShellQuote(Txn(txn_json)) +
                  " " + extra);
  }

  fs::path root_;
};

constexpr char kDeleteF1[] =
    R"({"readVersion": 0, "readPredicates": ["id > 5"], "readFiles": ["f1"],
        "actions": [{"commitInfo": {"operation": "DELETE", "isBlindAppend": false}},
                    {"remove": {"path": "f1", "dataChange": true}}]})";

TEST_F(CheckCommand, NoWinnerCommitsWithExitZero) {
  rlc::testing::RunResult r = Check(kDeleteF1, "--json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json out = nlohmann::json::parse(r.out);
  EXPECT_EQ(out.at("verdict"), "commit");
  EXPECT_EQ(out.at("checkedThroughVersion"), 0);
  ASSERT_EQ(out.at("actions").size(), 2u);
  EXPECT_EQ(out.at("actions")[1].at("remove").at("path"), "f1");
}

TEST_F(CheckCommand, ConcurrentDeleteAbortsWithExitOne) {
  Commit(1, R"({"commitInfo":{"operation":"DELETE","isBlindAppend":false}})"
            "\n"
            R"({"remove":{"path":"f1","dataChange":true}})"
            "\n");
  rlc::testing::RunResult r = Check(kDeleteF1, "--json");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  nlohmann::json out = nlohmann::json::parse(r.out);
  EXPECT_EQ(out.at("verdict"), "abort");
  EXPECT_EQ(out.at("abort").at("exception"), "ConcurrentDeleteReadException");
  EXPECT_EQ(out.at("abort").at("winnerVersion"), 1);
  EXPECT_EQ(out.at("abort").at("winnerOperation"), "DELETE");
  EXPECT_EQ(out.at("abort").at("path"), "f1");
  rlc::testing::RunResult text = Check(kDeleteF1);
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_EQ(text.out.rfind("ABORT: ConcurrentDeleteReadException at version 1 (DELETE)", 0), 0u)
      << text.out;
}

// The abort as Delta's own checker raises it: its error class, SQL state and message, with the
// winner's commitInfo in the "Conflicting commit" block (the text Delta Spark 4.0 prints for a
// read file another writer deleted).
TEST_F(CheckCommand, AnAbortCarriesDeltasErrorClassAndConflictingCommit) {
  Commit(1, R"({"commitInfo":{"timestamp":7,"operation":"DELETE","isBlindAppend":false}})"
            "\n"
            R"({"remove":{"path":"f1","dataChange":true}})"
            "\n");
  rlc::testing::RunResult r = Check(kDeleteF1, "--json");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const nlohmann::json abort = nlohmann::json::parse(r.out).at("abort");
  EXPECT_EQ(abort.at("errorClass"), "DELTA_CONCURRENT_DELETE_READ");
  EXPECT_EQ(abort.at("sqlState"), "2D521");
  EXPECT_EQ(abort.at("conflictingCommit"),
            nlohmann::json::parse(
                R"({"version":1,"timestamp":7,"operation":"DELETE","isBlindAppend":false})"));
  EXPECT_EQ(abort.at("deltaMessage"),
            "[DELTA_CONCURRENT_DELETE_READ] ConcurrentDeleteReadException: This transaction "
            "attempted to read one or more files that were deleted (for example f1 in the root of "
            "the table) by a concurrent update. Please try the operation again.\n"
            "Conflicting commit: "
            R"({"version":1,"timestamp":7,"operation":"DELETE","isBlindAppend":false})"
            "\nRefer to https://docs.delta.io/latest/concurrency-control.html for more details.");
  rlc::testing::RunResult text = Check(kDeleteF1);
  EXPECT_NE(text.out.find("as Delta raises it:\n  [DELTA_CONCURRENT_DELETE_READ] "
                          "ConcurrentDeleteReadException: This transaction attempted"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("\n  Conflicting commit: {\"version\":1,"), std::string::npos)
      << text.out;
}

// An append by a writer that did not say whether it was blind gets Delta's advice to upgrade.
TEST_F(CheckCommand, AnAppendByAnOlderWriterGetsDeltasUpgradeAdvice) {
  Commit(
      1,
      R"({"add":{"path":"f2","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}})"
      "\n");
  rlc::testing::RunResult r = Check(kDeleteF1, "--json");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const nlohmann::json abort = nlohmann::json::parse(r.out).at("abort");
  EXPECT_EQ(abort.at("errorClass"), "DELTA_CONCURRENT_APPEND");
  EXPECT_TRUE(abort.at("conflictingCommit").is_null()) << "the winner wrote no commitInfo";
  EXPECT_EQ(abort.at("deltaMessage"),
            "[DELTA_CONCURRENT_APPEND] ConcurrentAppendException: Files were added to the root of "
            "the table by a concurrent update. Upgrading all your concurrent writers to use the "
            "latest Delta Lake may avoid this error. Please upgrade and then retry this operation "
            "again.\nRefer to https://docs.delta.io/latest/concurrency-control.html for more "
            "details.");
}

// Case 2 meets a file both writers deleted rows of, but the winner's DV file is not there: the
// case declines, says which DV and why, and the conflict stands as Delta's rules have it.
TEST_F(CheckCommand, ACaseThatDeclinesSaysWhyNamingTheUnreadableDv) {
  // Version 1 turns DVs on; the winner (version 2) deletes a row of f1 by a DV file that is not
  // there; the loser read version 1 and deleted row 7 of f1 by an inline DV.
  std::string dv_metadata = kMetadata;
  dv_metadata.replace(dv_metadata.find(R"("configuration":{)"), 17,
                      R"("configuration":{"delta.enableDeletionVectors":"true",)");
  Commit(1, dv_metadata + "\n");
  Commit(2, R"({"commitInfo":{"operation":"DELETE","isBlindAppend":false}})"
            "\n"
            R"({"remove":{"path":"f1","dataChange":true}})"
            "\n"
            R"({"add":{"path":"f1","partitionValues":{},"size":1,"modificationTime":1,)"
            R"("dataChange":true,"stats":"{\"numRecords\":10}","deletionVector":)"
            R"({"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^","offset":1,)"
            R"("sizeInBytes":36,"cardinality":1}}})"
            "\n");
  rlc::delta::AddFile loser_add;
  loser_add.path = "f1";
  loser_add.size_bytes = 1;
  loser_add.stats = R"({"numRecords":10})";
  loser_add.deletion_vector = rlc::dv::InlineDescriptor(rlc::dv::RowBitmap::FromSorted({7}));
  const std::string txn =
      R"({"readVersion": 1, "readPredicates": ["id = 7"], "readFiles": ["f1"], "actions": [)"
      R"({"commitInfo": {"operation": "DELETE", "isBlindAppend": false}},)"
      R"({"remove": {"path": "f1", "dataChange": true}},)" +
      rlc::delta::WriteActionLine(loser_add) + "]}";
  const std::string flag = " --flag spark.databricks.delta.rowLevelConcurrency.enabled=true";
  rlc::testing::RunResult r = Check(txn, "--json" + flag);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const nlohmann::json out = nlohmann::json::parse(r.out);
  ASSERT_EQ(out.at("declines").size(), 1u) << r.out;
  const nlohmann::json& d = out.at("declines")[0];
  EXPECT_EQ(d.at("case"), "2");
  EXPECT_EQ(d.at("winnerVersion"), 2);
  EXPECT_EQ(d.at("path"), "f1");
  const std::string reason = d.at("reason");
  EXPECT_EQ(reason.rfind("the winner's DV is unreadable: DV uab^-aqEH.-t@S}K{vb[*k^@1", 0), 0u)
      << reason;
  rlc::testing::RunResult text = Check(txn, flag);
  EXPECT_NE(text.out.find("case 2 declined (winner version 2) f1: the winner's DV is unreadable"),
            std::string::npos)
      << text.out;
}

TEST_F(CheckCommand, BlindAppendWinnerIsIgnoredUnderWriteSerializable) {
  Commit(
      1,
      R"({"commitInfo":{"operation":"WRITE","isBlindAppend":true}})"
      "\n"
      R"({"add":{"path":"f2","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}})"
      "\n");
  rlc::testing::RunResult r = Check(kDeleteF1);
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(r.out.rfind("COMMIT: checked winners through version 1", 0), 0u) << r.out;
}

TEST_F(CheckCommand, BadInputExitsTwoNamingWhere) {
  rlc::testing::RunResult bad_json = Check(R"({"readVersion": 0})");
  EXPECT_EQ(bad_json.exit_code, 2);
  EXPECT_NE(bad_json.err.find("'actions'"), std::string::npos) << bad_json.err;
  rlc::testing::RunResult bad_flag = Check(kDeleteF1, "--flag nope=true");
  EXPECT_EQ(bad_flag.exit_code, 2);
  EXPECT_NE(bad_flag.err.find("unknown flag 'nope'"), std::string::npos) << bad_flag.err;
  rlc::testing::RunResult future = Check(R"({"readVersion": 9, "actions": []})");
  EXPECT_EQ(future.exit_code, 2);
  EXPECT_NE(future.err.find("version 9 does not exist"), std::string::npos) << future.err;
  Commit(1, "{\"add\":{\"path\":1}}\n");
  rlc::testing::RunResult corrupt = Check(kDeleteF1);
  EXPECT_EQ(corrupt.exit_code, 2);
  EXPECT_NE(corrupt.err.find("00000000000000000001.json (version 1) line 1"), std::string::npos)
      << corrupt.err;
}

// A predicate the checker cannot evaluate would read everything (on doubt, conflict): the command
// refuses it and names it, rather than hiding the mistake behind an abort.
TEST_F(CheckCommand, AReadPredicateThatDoesNotBindExitsTwoNamingIt) {
  for (const std::string predicate : {"id === 5", "nosuch = 1"}) {
    rlc::testing::RunResult r =
        Check(R"({"readVersion": 0, "readPredicates": [")" + predicate + R"("], "actions": []})");
    EXPECT_EQ(r.exit_code, 2) << predicate;
    EXPECT_NE(r.err.find("readPredicates: read predicate '" + predicate + "'"), std::string::npos)
        << r.err;
  }
}

TEST_F(CheckCommand, FlagsOnTheCommandLineAreAccepted) {
  rlc::testing::RunResult r =
      Check(kDeleteF1, "--flag spark.databricks.delta.rowLevelConcurrency.enabled=true");
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(CheckCommand, DataSkippingPrunesAnAppendByItsStatistics) {
  // An INSERT ... SELECT winner (not blind) adds a file whose ids (0..4) cannot match id > 5.
  Commit(
      1,
      R"({"commitInfo":{"operation":"WRITE","isBlindAppend":false}})"
      "\n"
      R"({"add":{"path":"w1","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true,)"
      R"("stats":"{\"numRecords\":3,\"minValues\":{\"id\":0},\"maxValues\":{\"id\":4}}"}})"
      "\n");
  rlc::testing::RunResult off = Check(kDeleteF1, "--json");
  ASSERT_EQ(off.exit_code, 1) << off.err;
  EXPECT_EQ(nlohmann::json::parse(off.out).at("abort").at("exception"),
            "ConcurrentAppendException");
  rlc::testing::RunResult on =
      Check(kDeleteF1, "--json --flag conflictDetection.dataSkipping.enabled=true");
  ASSERT_EQ(on.exit_code, 0) << on.out << on.err;
  nlohmann::json out = nlohmann::json::parse(on.out);
  ASSERT_EQ(out.at("events").size(), 1u);
  EXPECT_EQ(out.at("events")[0].at("name"), "delta.conflictDetection.dataSkipping.filesSkipped");
  EXPECT_EQ(out.at("events")[0].at("data").at("skippedFiles"), "1");
}

TEST_F(CheckCommand, DeleteReadRefinementWithoutRowsKeepsTheConflict) {
  // A DELETE winner adds a DV to f1 (which the loser read); f1 is Parquet, its rows cannot be read
  // here and its statistics say nothing about id, so 1b cannot clear it: the conflict stands.
  Commit(1, R"({"commitInfo":{"operation":"DELETE","isBlindAppend":false}})"
            "\n"
            R"({"remove":{"path":"f1","dataChange":true}})"
            "\n");
  constexpr char kReader[] =
      R"({"readVersion": 0, "readPredicates": ["id > 5"], "readFiles": ["f1"],
          "actions": [{"commitInfo": {"operation": "WRITE", "isBlindAppend": false}},
                      {"add": {"path": "n1", "partitionValues": {}, "size": 1, "modificationTime": 1, "dataChange": true}}]})";
  rlc::testing::RunResult r =
      Check(kReader,
            "--json --flag conflictDetection.dataSkipping.enabled=true "
            "--flag conflictDetection.dataSkipping.valueExact.enabled=true");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out).at("abort").at("exception"),
            "ConcurrentDeleteReadException");
}

}  // namespace
