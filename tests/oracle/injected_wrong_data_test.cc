// The oracle reports wrong data injected at the log level into a table the simulator wrote: a
// dropped DV bit, a composition-tag offset shifted by one, a duplicated add, a resurrected row.
// Each is caught through the oracle's own reader: by the per-commit invariants (check c), by the
// rows a reader sees (the final rows no serial order explains, check a, or a version's rows), or
// both. The clean table passes both. Each runs on row files and on Parquet data files; on Parquet,
// a data file rewritten with one value changed is wrong rows too (the oracle reads the file's own
// bytes through its own Parquet reader).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fuzz/oracle/final_rows.h"
#include "fuzz/oracle/invariants.h"
#include "fuzz/simulator/engine.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/z85.h"

namespace {

namespace fs = std::filesystem;
namespace model = rlc::model;
using nlohmann::json;

model::LogicalTable StartingTable() {
  model::LogicalTable t = model::MakeTable();
  t.properties.isolation_level = model::IsolationLevel::kWriteSerializable;
  for (int64_t id = 1; id <= 8; ++id) t.Insert({id, std::string("v") + std::to_string(id)});
  return t;
}

std::string CommitPath(const fs::path& root, int64_t v) {
  char name[32];
  std::snprintf(name, sizeof(name), "%020lld.json", static_cast<long long>(v));
  return (root / "_delta_log" / name).string();
}

std::vector<json> ReadCommit(const fs::path& root, int64_t v) {
  std::ifstream in(CommitPath(root, v));
  std::vector<json> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(json::parse(line));
  return lines;
}

void WriteCommit(const fs::path& root, int64_t v, const std::vector<json>& lines) {
  const std::string path = CommitPath(root, v);
  if (fs::exists(path)) fs::permissions(path, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream out(path, std::ios::trunc);
  for (const json& l : lines) out << l.dump() << "\n";
}

json InlineDv(const std::vector<uint64_t>& rows) {
  const std::string bytes = rlc::dv::EncodeBitmap(rlc::dv::RowBitmap::FromSorted(rows));
  return {{"storageType", "i"},
          {"pathOrInlineDv", rlc::dv::Z85Encode(bytes)},
          {"sizeInBytes", bytes.size()},
          {"cardinality", rows.size()}};
}

// Version 1 deletes ids 2 and 3 (positions 1 and 2 of the first file) by DV; version 2 compacts
// both files into one output with recorded composition.
struct Table : ::testing::TestWithParam<rlc::simulator::DataFileFormat> {
  void SetUp() override {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '-');
    root = fs::temp_directory_path() / ("rlc-inject-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(root);
    storage = rlc::storage::NewLocalStorage();
    rlc::simulator::TableOptions options;
    options.data_files = GetParam();
    rlc::simulator::Simulator sim(*storage, root.string(), StartingTable(), options);
    ASSERT_TRUE(sim.Create(2).ok());
    rlc::conflict::Flags capture;
    capture.SetCase(rlc::conflict::CaseId::kOptimizeReconcile, true);
    const std::vector<model::Operation> ops = {
        model::Delete{model::Predicate::Or(
            {model::Predicate::Compare("id", model::Predicate::Op::kEq, int64_t{2}),
             model::Predicate::Compare("id", model::Predicate::Op::kEq, int64_t{3})})},
        model::Optimize{}};
    history.initial = StartingTable();
    for (const model::Operation& op : ops) {
      const int64_t v = *sim.LatestVersion();
      rlc::Result<rlc::simulator::Transaction> t = sim.Prepare(op, v, capture);
      ASSERT_TRUE(t.ok());
      ASSERT_TRUE(sim.Commit(*t)->committed);
      history.commits.push_back({"T" + std::to_string(history.commits.size() + 1), v, op});
    }
  }
  void TearDown() override { fs::remove_all(root); }

  std::vector<std::string> Rules() {
    std::string error;
    std::vector<std::string> rules;
    for (const auto& f : rlc::oracle::CheckLogInvariants(root.string(), &error)) {
      rules.push_back("v" + std::to_string(f.version) + " " + f.rule);
    }
    EXPECT_TRUE(error.empty()) << error;
    return rules;
  }
  model::OracleVerdict FinalRows() {
    const rlc::oracle::FinalRowsReport r = rlc::oracle::CheckFinalRowsOfTable(
        root.string(), history, model::IsolationLevel::kWriteSerializable);
    EXPECT_TRUE(r.error.empty()) << r.error;
    return r.result.verdict;
  }

  fs::path root;
  std::unique_ptr<rlc::storage::Storage> storage;
  model::CommittedHistory history;
};

TEST_P(Table, CleanTablePassesBothChecks) {
  EXPECT_EQ(Rules(), std::vector<std::string>{});
  EXPECT_EQ(FinalRows(), model::OracleVerdict::kValid);
  // The OPTIMIZE's tombstones are tagged (the tags check had something to check).
  bool tagged = false;
  for (const json& l : ReadCommit(root, 2))
    tagged = tagged || (l.contains("remove") && l["remove"].contains("tags"));
  EXPECT_TRUE(tagged);
}

TEST_P(Table, DroppedDvBitIsWrongRows) {
  // Version 1's DV loses position 2: id 3, deleted by the history, is live in the log.
  std::vector<json> v1 = ReadCommit(root, 1);
  json dropped = InlineDv({1});
  for (json& l : v1) {
    if (l.contains("add") && l["add"].contains("deletionVector"))
      l["add"]["deletionVector"] = dropped;
  }
  WriteCommit(root, 1, v1);
  // The OPTIMIZE's tombstone names the DV it read, which is no longer the one in the log.
  std::vector<json> v2 = ReadCommit(root, 2);
  for (json& l : v2) {
    if (l.contains("remove") && l["remove"].contains("deletionVector"))
      l["remove"]["deletionVector"] = dropped;
  }
  WriteCommit(root, 2, v2);
  // A reader at version 1 sees id 3, which the history deleted ...
  const rlc::oracle::ReferenceResult at1 = rlc::oracle::ReadReferenceSnapshot(root.string(), 1);
  ASSERT_TRUE(at1.snapshot.has_value()) << at1.error;
  const std::vector<std::string> rows = rlc::oracle::LiveRows(*at1.snapshot);
  EXPECT_EQ(std::count(rows.begin(), rows.end(), R"({"_rid":3,"id":3,"value":"v3"})"), 1);
  // ... and the compaction, which read the true DV, neither tiles nor conserves what the log says.
  EXPECT_EQ(Rules(),
            (std::vector<std::string>{"v2 tags-tile-output", "v2 no-data-change-conserves"}));
}

TEST_P(Table, ShiftedTagOffsetBreaksTheTiling) {
  std::vector<json> v2 = ReadCommit(root, 2);
  for (json& l : v2) {
    if (!l.contains("remove") || !l["remove"].contains("tags")) continue;
    json info = json::parse(l["remove"]["tags"]["compactionInfo"].get<std::string>());
    if (info[0]["rowOffsetInTarget"] == 0) continue;
    info[0]["rowOffsetInTarget"] = info[0]["rowOffsetInTarget"].get<int64_t>() + 1;
    l["remove"]["tags"]["compactionInfo"] = info.dump();
  }
  WriteCommit(root, 2, v2);
  EXPECT_EQ(Rules(), std::vector<std::string>{"v2 tags-tile-output"});
}

TEST_P(Table, DuplicatedAddIsReported) {
  std::vector<json> v2 = ReadCommit(root, 2);
  for (const json& l : std::vector<json>(v2)) {
    if (l.contains("add")) v2.push_back(l);
  }
  WriteCommit(root, 2, v2);
  EXPECT_EQ(Rules(), std::vector<std::string>{"v2 one-active-version"});
}

TEST_P(Table, ResurrectedRowIsReportedTwice) {
  // A commit appended after the history brings a deleted row of the output back (DV shrinks).
  std::vector<json> v2 = ReadCommit(root, 2);
  json output;
  for (const json& l : v2) {
    if (l.contains("add")) output = l["add"];
  }
  // First delete two of the output's rows (as a writer would), then drop one of them again.
  json remove = {{"remove", {{"path", output["path"]}, {"dataChange", true}}}};
  json with_dv = output;
  with_dv["deletionVector"] = InlineDv({0, 1});
  with_dv["dataChange"] = true;
  WriteCommit(root, 3, {remove, {{"add", with_dv}}});
  json remove_dv = {
      {"remove",
       {{"path", output["path"]}, {"dataChange", true}, {"deletionVector", InlineDv({0, 1})}}}};
  json shrunk = output;
  shrunk["deletionVector"] = InlineDv({0});
  shrunk["dataChange"] = true;
  WriteCommit(root, 4, {remove_dv, {{"add", shrunk}}});
  EXPECT_EQ(Rules(), std::vector<std::string>{"v4 dv-never-shrinks"});
  EXPECT_EQ(FinalRows(),
            model::OracleVerdict::kInvalid);  // no transaction of the history deleted a row there
}

struct ParquetTable : Table {};

TEST_P(ParquetTable, FileRewrittenWithAnotherValueIsWrongRows) {
  json output;
  for (const json& l : ReadCommit(root, 2)) {
    if (l.contains("add")) output = l["add"];
  }
  ASSERT_TRUE(output.is_object());
  const std::string path = (root / output["path"].get<std::string>()).string();
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const std::vector<rlc::simulator::RowFileColumn> columns = {
      {"_rid", rlc::simulator::RowFileColumn::Type::kLong},
      {"id", rlc::simulator::RowFileColumn::Type::kLong},
      {"value", rlc::simulator::RowFileColumn::Type::kString}};
  rlc::Result<rlc::simulator::RowFile> file =
      rlc::simulator::DecodeDataFile(path, bytes, columns, {}, {});
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_FALSE(file->rows.empty());
  file->rows.back()[2] = std::string("not what was written");
  rlc::Result<std::string> changed =
      rlc::simulator::EncodeDataFile(*file, rlc::simulator::DataFileFormat::kParquet, {});
  ASSERT_TRUE(changed.ok());
  fs::permissions(path, fs::perms::owner_write, fs::perm_options::add);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << *changed;
  EXPECT_EQ(FinalRows(), model::OracleVerdict::kInvalid);
  // The file is the OPTIMIZE's output: its rows no longer are its sources' live rows.
  EXPECT_EQ(Rules(), std::vector<std::string>{"v2 no-data-change-conserves"});
}

INSTANTIATE_TEST_SUITE_P(DataFiles, Table,
                         ::testing::Values(rlc::simulator::DataFileFormat::kRowFile,
                                           rlc::simulator::DataFileFormat::kParquet),
                         [](const auto& info) {
                           return info.param == rlc::simulator::DataFileFormat::kParquet
                                      ? std::string("Parquet")
                                      : std::string("RowFiles");
                         });
INSTANTIATE_TEST_SUITE_P(DataFiles, ParquetTable,
                         ::testing::Values(rlc::simulator::DataFileFormat::kParquet));

}  // namespace
