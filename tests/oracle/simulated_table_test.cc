// A table in a real directory with the simulator's row files (fuzz/simulator/row_file.h), read
// three ways: the row-file codec round trip; the oracle's own reader (fuzz/oracle), which must see
// exactly the live rows, and see injected wrong data as different rows; and the conflict checker's
// exact tier, which reads the same files through RowFileTableFiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "fuzz/oracle/reference_reader.h"
#include "fuzz/simulator/row_file.h"
#include "impl/conflict/checker.h"
#include "impl/conflict/dv_writer.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/log.h"
#include "impl/storage/storage.h"

namespace {

namespace fs = std::filesystem;
using rlc::delta::Action;
using rlc::simulator::RowFile;
using rlc::simulator::RowFileColumn;
using rlc::simulator::RowFileValue;

RowFile Rows(const std::vector<int64_t>& ids, const std::string& part = "a") {
  RowFile f;
  f.columns = {{"id", RowFileColumn::Type::kLong}, {"part", RowFileColumn::Type::kString}};
  for (int64_t id : ids) f.rows.push_back({id, part});
  return f;
}

std::string Row(int64_t id, const std::string& part = "a") {
  return R"({"id":)" + std::to_string(id) + R"(,"part":")" + part + R"("})";
}

TEST(RowFile, RoundTripsAndNamesTheBadLine) {
  RowFile f = Rows({1, 2});
  f.rows.push_back({std::nullopt, std::nullopt});
  const std::string bytes = rlc::simulator::EncodeRowFile(f);
  EXPECT_EQ(bytes,
            "rlc-rows "
            "1\n{\"columns\":[{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"part\",\"type\":"
            "\"string\"}]}\n"
            "[1,\"a\"]\n[2,\"a\"]\n[null,null]\n");
  rlc::Result<RowFile> back = rlc::simulator::DecodeRowFile(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, f);
  rlc::Result<RowFile> bad =
      rlc::simulator::DecodeRowFile(bytes.substr(0, bytes.size() - 12) + "[\"x\",\"a\"]\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 5"), std::string::npos) << bad.status().ToString();
  EXPECT_FALSE(rlc::simulator::DecodeRowFile("rlc-rows 2\n{}\n").ok());
  EXPECT_FALSE(
      rlc::simulator::DecodeRowFile(bytes.substr(0, bytes.size() - 1)).ok());  // no final newline
}

TEST(RowFile, EscapesStringsAndLongsAtTheEdges) {
  RowFile f = Rows({});
  f.rows.push_back({int64_t{-9223372036854775807 - 1},
                    std::string("quote \" backslash \\ newline \n tab \t bell \x07")});
  f.rows.push_back({int64_t{9223372036854775807}, std::string("")});
  const std::string bytes = rlc::simulator::EncodeRowFile(f);
  EXPECT_NE(bytes.find(R"("quote \" backslash \\ newline \n tab \t bell \u0007")"),
            std::string::npos)
      << bytes;
  rlc::Result<RowFile> back = rlc::simulator::DecodeRowFile(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, f);
}

TEST(RowFile, TimestampsDatesAndDoublesRoundTripAtTheirEdges) {
  using T = RowFileColumn::Type;
  RowFile f;
  f.columns = {{"t", T::kTimestamp}, {"d", T::kDate}, {"x", T::kDouble}};
  const double inf = std::numeric_limits<double>::infinity();
  f.rows.push_back({int64_t{-1}, int64_t{-719528}, -0.0});
  f.rows.push_back({int64_t{1710028800000000}, int64_t{19792}, inf});
  f.rows.push_back({std::nullopt, std::nullopt, std::numeric_limits<double>::quiet_NaN()});
  f.rows.push_back({int64_t{0}, int64_t{0}, 2.5e300});
  const std::string bytes = rlc::simulator::EncodeRowFile(f);
  EXPECT_NE(bytes.find("[-1,-719528,-0.0]\n"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("[1710028800000000,19792,\"Infinity\"]\n"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("[null,null,\"NaN\"]\n"), std::string::npos) << bytes;
  rlc::Result<RowFile> back = rlc::simulator::DecodeRowFile(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  ASSERT_EQ(back->rows.size(), 4u);
  EXPECT_TRUE(std::signbit(std::get<double>(*back->rows[0][2])));  // -0.0 stays negative
  EXPECT_TRUE(std::isnan(std::get<double>(*back->rows[2][2])));
  EXPECT_EQ(std::get<double>(*back->rows[3][2]), 2.5e300);
  EXPECT_EQ(back->rows[1][0], f.rows[1][0]);
  EXPECT_EQ(back->columns, f.columns);
  // A double column holding a string that is no number is named.
  EXPECT_FALSE(rlc::simulator::DecodeRowFile(bytes + "[0,0,\"one\"]\n").ok());
}

TEST(RowFile, EveryOtherPrimitiveTypeRoundTripsAsItsJson) {
  using T = RowFileColumn::Type;
  RowFile f;
  f.columns = {{"b", T::kBoolean},
               {"f", T::kFloat},
               {"dec", T::kDecimal},
               {"bin", T::kBinary},
               {"ntz", T::kTimestampNtz}};
  f.rows.push_back(
      {int64_t{1}, static_cast<double>(1.1F), int64_t{-5}, std::string("\x80\x00", 2), int64_t{7}});
  f.rows.push_back({int64_t{0}, std::numeric_limits<double>::quiet_NaN(), std::nullopt,
                    std::string(), std::nullopt});
  const std::string bytes = rlc::simulator::EncodeRowFile(f);
  EXPECT_NE(bytes.find("[true,1.100000023841858,-5,\"8000\",7]\n"), std::string::npos) << bytes;
  EXPECT_NE(bytes.find("\"type\":\"decimal(10,2)\""), std::string::npos) << bytes;
  rlc::Result<RowFile> back = rlc::simulator::DecodeRowFile(bytes);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->rows[0], f.rows[0]);
  EXPECT_EQ(back->columns, f.columns);
  // A boolean is true or false, a binary pairs of hexadecimal digits: anything else is named.
  EXPECT_FALSE(rlc::simulator::DecodeRowFile(bytes + "[1,0.0,1,\"\",1]\n").ok());
  EXPECT_FALSE(rlc::simulator::DecodeRowFile(bytes + "[true,0.0,1,\"abc\",1]\n").ok());
}

// The checker reads no decimal and no binary, as rlc's Parquet reader reads neither: a predicate
// on one is unanswerable (its conflict stays), one on another column is answered.
// As rlc's Parquet reader, which reads no rows of a table with a column it cannot read: the
// checker gets no row of a row file with a decimal or binary column, and the error names both.
TEST(RowFile, TheCheckerReadsNoRowsOfAFileWithADecimalOrABinary) {
  using T = RowFileColumn::Type;
  for (const T unread : {T::kDecimal, T::kBinary}) {
    RowFile f;
    f.columns = {{"id", T::kLong}, {"x", unread}};
    f.rows.push_back({int64_t{1}, unread == T::kDecimal ? RowFileValue{int64_t{1250}}
                                                        : RowFileValue{std::string("a")}});
    rlc::storage::InMemoryStorage storage;
    ASSERT_TRUE(storage.PutIfAbsent("/t/f.rows", rlc::simulator::EncodeRowFile(f)).ok());
    const rlc::simulator::RowFileTableFiles files(storage, "/t");
    int rows = 0;
    const rlc::Status scanned = files.ScanRows("f.rows", [&](uint64_t, const auto&) {
      ++rows;
      return true;
    });
    EXPECT_EQ(scanned.code(), rlc::StatusCode::kUnsupported);
    EXPECT_NE(scanned.message().find("f.rows: column x"), std::string::npos) << scanned.ToString();
    EXPECT_EQ(rows, 0);
  }
  RowFile plain;  // without one, the rows are read
  plain.columns = {{"id", T::kLong}};
  plain.rows.push_back({int64_t{7}});
  rlc::storage::InMemoryStorage storage;
  ASSERT_TRUE(storage.PutIfAbsent("/t/g.rows", rlc::simulator::EncodeRowFile(plain)).ok());
  const rlc::simulator::RowFileTableFiles files(storage, "/t");
  int rows = 0;
  ASSERT_TRUE(files
                  .ScanRows("g.rows",
                            [&](uint64_t, const rlc::predicate::RowLookup& row) {
                              ++rows;
                              EXPECT_EQ(row({"id"}), rlc::predicate::Literal::Long(7));
                              return true;
                            })
                  .ok());
  EXPECT_EQ(rows, 1);
}

TEST(RowFile, AZoneLessTimestampPartitionIsOneInstantOnlyInTheWritersZone) {
  const RowFileColumn part{"part", RowFileColumn::Type::kTimestamp};
  const rlc::delta::StringMap values = {{"part", std::string("2024-03-09 21:00:00")}};
  // The checker knows no writer's zone: no one value, so the rows stay unread.
  const rlc::Result<rlc::simulator::RowFileValue> checker =
      rlc::simulator::LoggedPartitionValue(part, values, "f.rows");
  ASSERT_FALSE(checker.ok());
  EXPECT_NE(checker.status().message().find("f.rows"), std::string::npos);
  // An engine in the writers' session (UTC-08:00) reads 2024-03-10T05:00:00Z.
  const rlc::Result<rlc::simulator::RowFileValue> engine =
      rlc::simulator::LoggedPartitionValue(part, values, "f.rows", -8 * 60);
  ASSERT_TRUE(engine.ok()) << engine.status().ToString();
  EXPECT_EQ(std::get<int64_t>(**engine), int64_t{1710046800000000});
  // With a Z every reader reads one instant.
  const rlc::Result<rlc::simulator::RowFileValue> zoned = rlc::simulator::LoggedPartitionValue(
      part, {{"part", std::string("2024-03-10 05:00:00Z")}}, "f.rows");
  ASSERT_TRUE(zoned.ok()) << zoned.status().ToString();
  EXPECT_EQ(std::get<int64_t>(**zoned), int64_t{1710046800000000});
}

// A directory table: f1.rows (ids 0..4) and f2.rows (ids 10..12); version 1 deletes f1's rows 1
// and 3 by a DV file.
struct DirectoryTable : ::testing::Test {
  void SetUp() override {
    root = fs::temp_directory_path() /
           ("rlc-sim-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    storage = rlc::storage::NewLocalStorage();
    writer =
        std::make_unique<rlc::conflict::StorageDvWriter>(*storage, root.string(), root.string(), 5);
    metadata.id = "t";
    metadata.schema_string =
        R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
        R"({"name":"part","type":"string","nullable":true,"metadata":{}}]})";
    metadata.configuration = {{"delta.enableDeletionVectors", "true"},
                              {"delta.isolationLevel", "WriteSerializable"}};
    protocol.min_reader_version = 3;
    protocol.min_writer_version = 7;
    protocol.reader_features = std::vector<std::string>{"deletionVectors"};
    protocol.writer_features = std::vector<std::string>{"deletionVectors"};
    f1 = WriteRows("f1.rows", Rows({0, 1, 2, 3, 4}), 0, 4);
    f2 = WriteRows("f2.rows", Rows({10, 11, 12}), 10, 12);
    Commit({protocol, metadata, f1, f2});
    f1_dv = f1;
    f1_dv.deletion_vector = *writer->Write(rlc::dv::RowBitmap{1, 3});
    rlc::delta::RemoveFile r;
    r.path = "f1.rows";
    Commit({r, f1_dv});
  }
  void TearDown() override { fs::remove_all(root); }

  rlc::delta::AddFile WriteRows(const std::string& path, const RowFile& rows, int64_t min,
                                int64_t max) {
    EXPECT_TRUE(
        storage->PutIfAbsent(root.string() + "/" + path, rlc::simulator::EncodeRowFile(rows)).ok());
    rlc::delta::AddFile a;
    a.path = path;
    a.size_bytes = 100;
    a.stats = R"({"numRecords":)" + std::to_string(rows.rows.size()) + R"(,"minValues":{"id":)" +
              std::to_string(min) + R"(},"maxValues":{"id":)" + std::to_string(max) + "}}";
    return a;
  }
  void Commit(const std::vector<Action>& actions) {
    ASSERT_TRUE(storage
                    ->PutIfAbsent(rlc::delta::LogDir(root.string()) + "/" +
                                      rlc::delta::CommitFileName(next++),
                                  rlc::delta::WriteCommitFile(actions))
                    .ok());
  }
  std::vector<std::string> OracleRows() {
    const rlc::oracle::ReferenceResult r = rlc::oracle::ReadReferenceSnapshot(root.string(), -1);
    EXPECT_TRUE(r.snapshot.has_value()) << r.error;
    return r.snapshot ? rlc::oracle::LiveRows(*r.snapshot) : std::vector<std::string>{};
  }

  fs::path root;
  std::unique_ptr<rlc::storage::Storage> storage;
  std::unique_ptr<rlc::conflict::StorageDvWriter> writer;  // DV files into the table root
  rlc::delta::Metadata metadata;
  rlc::delta::Protocol protocol;
  rlc::delta::AddFile f1, f2, f1_dv;
  int64_t next = 0;
};

TEST_F(DirectoryTable, OracleSeesExactlyTheLiveRows) {
  EXPECT_EQ(OracleRows(),
            (std::vector<std::string>{Row(0), Row(10), Row(11), Row(12), Row(2), Row(4)}));
}

TEST_F(DirectoryTable, OracleSeesInjectedWrongData) {
  const std::vector<std::string> before = OracleRows();
  // A DV that lost a bit (row 3 comes back) ...
  rlc::delta::AddFile lost_bit = f1;
  lost_bit.deletion_vector = *writer->Write(rlc::dv::RowBitmap{1});
  rlc::delta::RemoveFile r;
  r.path = "f1.rows";
  r.deletion_vector = f1_dv.deletion_vector;
  Commit({r, lost_bit});
  std::vector<std::string> after = OracleRows();
  EXPECT_NE(after, before);
  EXPECT_EQ(std::count(after.begin(), after.end(), Row(3)), 1);
  // ... and a duplicated add (the same rows again under another path) show up as rows.
  const rlc::delta::AddFile copy = WriteRows("f2-copy.rows", Rows({10, 11, 12}), 10, 12);
  Commit({copy});
  after = OracleRows();
  EXPECT_EQ(std::count(after.begin(), after.end(), Row(11)), 2);
}

TEST_F(DirectoryTable, ExactTierReadsTheRowFiles) {
  // A winner appends w1.rows (ids 0 and 20, row 1 deleted by its DV): its statistics (0..20) admit
  // the loser's `id > 10`, its live rows do not.
  rlc::delta::AddFile w1 = WriteRows("w1.rows", Rows({0, 20}), 0, 20);
  w1.deletion_vector = *writer->Write(rlc::dv::RowBitmap{1});
  rlc::delta::CommitInfo info;
  info.operation = "WRITE";
  info.is_blind_append = false;
  Commit({info, w1});
  rlc::conflict::PendingTransaction loser;
  loser.read_version = 1;
  loser.read_predicates = {"id > 10"};
  loser.read_files = {"f2.rows"};
  rlc::delta::RemoveFile r;
  r.path = "f2.rows";
  loser.actions = {info, r};
  ASSERT_TRUE(loser.flags.Set("conflictDetection.dataSkipping.enabled", "true").ok());
  const rlc::simulator::RowFileTableFiles files(*storage, root.string());
  rlc::conflict::CheckEnvironment env;
  env.files = &files;
  rlc::Result<rlc::conflict::Verdict> stats_only =
      rlc::conflict::CheckConflictsAgainstLog(*storage, root.string(), loser, env);
  ASSERT_TRUE(stats_only.ok()) << stats_only.status().ToString();
  EXPECT_FALSE(stats_only->commits());
  ASSERT_TRUE(loser.flags.Set("conflictDetection.dataSkipping.valueExact.enabled", "true").ok());
  rlc::Result<rlc::conflict::Verdict> exact =
      rlc::conflict::CheckConflictsAgainstLog(*storage, root.string(), loser, env);
  ASSERT_TRUE(exact.ok()) << exact.status().ToString();
  EXPECT_TRUE(exact->commits()) << rlc::conflict::Describe(*exact->abort);
}

}  // namespace
