// The engine simulator end to end: serial histories leave the table the model says; concurrent
// transactions go through the checker and, with their flags, reconcile to the serial result;
// the oracle's own reader sees what the simulator's impl-based read sees.
#include "fuzz/simulator/engine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "fuzz/oracle/reference_reader.h"
#include "fuzz/simulator/checkpoint_check.h"
#include "impl/delta/snapshot.h"
#include "impl/parquet/checkpoint_writer.h"

namespace {

namespace fs = std::filesystem;
namespace model = rlc::model;
namespace conflict = rlc::conflict;
using rlc::simulator::Simulator;
using rlc::simulator::Transaction;

model::LogicalTable StartingTable() {
  model::LogicalTable t = model::MakeTable();
  t.properties.isolation_level = model::IsolationLevel::kWriteSerializable;
  for (int64_t id = 1; id <= 8; ++id) t.Insert({id, std::string("v") + std::to_string(id)});
  return t;
}

model::Predicate IdIs(int64_t id) {
  return model::Predicate::Compare("id", model::Predicate::Op::kEq, id);
}

conflict::Flags FlagsOf(std::vector<std::string> names) {
  conflict::Flags f;
  for (const std::string& n : names) EXPECT_TRUE(f.Set(n, "true").ok()) << n;
  return f;
}

struct SimulatedTable : ::testing::Test {
  void SetUp() override {
    root = fs::temp_directory_path() /
           ("rlc-engine-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    storage = rlc::storage::NewLocalStorage();
    sim = std::make_unique<Simulator>(*storage, root.string(), StartingTable(),
                                      rlc::simulator::TableOptions{});
    ASSERT_TRUE(sim->Create(2).ok());
  }
  void TearDown() override { fs::remove_all(root); }

  Transaction Prepare(const model::Operation& op, int64_t read_version,
                      std::vector<std::string> flags = {}) {
    rlc::Result<Transaction> t = sim->Prepare(op, read_version, FlagsOf(std::move(flags)));
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? *t : Transaction{};
  }
  rlc::simulator::CommitOutcome Commit(Transaction t) {
    rlc::Result<rlc::simulator::CommitOutcome> c = sim->Commit(t);
    EXPECT_TRUE(c.ok()) << c.status().ToString();
    return c.ok() ? *c : rlc::simulator::CommitOutcome{};
  }
  std::vector<std::vector<model::Value>> Contents() {
    rlc::Result<int64_t> latest = sim->LatestVersion();
    rlc::Result<model::LogicalTable> t = sim->Read(*latest);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? t->SortedContents() : std::vector<std::vector<model::Value>>{};
  }
  // The oracle's own reader must see exactly the rows (identities included) the simulator's
  // impl-based read sees.
  void ExpectOracleAgrees() {
    const rlc::oracle::ReferenceResult r = rlc::oracle::ReadReferenceSnapshot(root.string(), -1);
    ASSERT_TRUE(r.snapshot.has_value()) << r.error;
    rlc::Result<model::LogicalTable> t = sim->Read(*sim->LatestVersion());
    ASSERT_TRUE(t.ok());
    std::vector<std::string> expected;
    for (const auto& [id, row] : t->rows) {
      nlohmann::json j = nlohmann::json::object();
      j["_rid"] = id;
      j["id"] = std::get<int64_t>(row.values[0]);
      j["value"] = std::get<std::string>(row.values[1]);
      expected.push_back(j.dump());
    }
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(rlc::oracle::LiveRows(*r.snapshot), expected);
  }

  fs::path root;
  std::unique_ptr<rlc::storage::Storage> storage;
  std::unique_ptr<Simulator> sim;
};

TEST_F(SimulatedTable, SerialHistoryLeavesTheModelsRows) {
  model::LogicalTable expected = StartingTable();
  const std::vector<model::Operation> history = {
      model::BlindInsert{{{int64_t{9}, std::string("v9")}, {int64_t{10}, std::string("v10")}}},
      model::Delete{IdIs(3)},
      model::Update{IdIs(5), {{"value", std::string("changed")}}},
      model::Optimize{},
      model::Delete{model::Predicate::Compare("id", model::Predicate::Op::kGt, int64_t{8})},
      model::InsertSelect{IdIs(1), {{"id", int64_t{11}}}},
  };
  for (const model::Operation& op : history) {
    SCOPED_TRACE(model::Describe(op));
    const rlc::simulator::CommitOutcome c = Commit(Prepare(op, *sim->LatestVersion()));
    ASSERT_TRUE(c.committed);
    expected = model::Apply(expected, op).after;
    EXPECT_EQ(Contents(), expected.SortedContents());
  }
  ExpectOracleAgrees();
}

TEST_F(SimulatedTable, DisjointDeletesOfOneFileReconcileWithCase2) {
  const Transaction a = Prepare(model::Delete{IdIs(1)}, 0, {"rowLevelConcurrency.enabled"});
  const Transaction b = Prepare(model::Delete{IdIs(2)}, 0, {"rowLevelConcurrency.enabled"});
  ASSERT_TRUE(Commit(a).committed);
  const rlc::simulator::CommitOutcome second = Commit(b);
  ASSERT_TRUE(second.committed) << (second.abort ? conflict::Describe(*second.abort) : "");
  ASSERT_EQ(second.events.size(), 1u);
  EXPECT_EQ(second.events[0].name, "delta.rowLevelConcurrency.deletionVectorsMerged");
  model::LogicalTable expected =
      model::Apply(model::Apply(StartingTable(), model::Delete{IdIs(1)}).after,
                   model::Delete{IdIs(2)})
          .after;
  EXPECT_EQ(Contents(), expected.SortedContents());
  ExpectOracleAgrees();
}

TEST_F(SimulatedTable, WithoutTheFlagTheSecondDeleteAborts) {
  const Transaction a = Prepare(model::Delete{IdIs(1)}, 0);
  const Transaction b = Prepare(model::Delete{IdIs(2)}, 0);
  ASSERT_TRUE(Commit(a).committed);
  const rlc::simulator::CommitOutcome second = Commit(b);
  EXPECT_FALSE(second.committed);
  ASSERT_TRUE(second.abort.has_value());
}

TEST_F(SimulatedTable, OptimizeLosingToADeleteReconcilesForward) {
  const Transaction optimize =
      Prepare(model::Optimize{}, 0, {"optimize.conflictReconciliation.enabled"});
  ASSERT_TRUE(Commit(Prepare(model::Delete{IdIs(6)}, 0)).committed);
  const rlc::simulator::CommitOutcome c = Commit(optimize);
  ASSERT_TRUE(c.committed) << (c.abort ? conflict::Describe(*c.abort) : "");
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(c.events[0].name, "delta.optimize.conflictReconciliation.remapped");
  EXPECT_EQ(Contents(),
            model::Apply(StartingTable(), model::Delete{IdIs(6)}).after.SortedContents());
  ExpectOracleAgrees();
}

TEST_F(SimulatedTable, DeleteLosingToAnOptimizeReconcilesInReverse) {
  const Transaction del =
      Prepare(model::Delete{IdIs(6)}, 0, {"optimize.conflictReconciliation.reverse.enabled"});
  ASSERT_TRUE(
      Commit(Prepare(model::Optimize{}, 0, {"optimize.conflictReconciliation.reverse.enabled"}))
          .committed);
  const rlc::simulator::CommitOutcome c = Commit(del);
  ASSERT_TRUE(c.committed) << (c.abort ? conflict::Describe(*c.abort) : "");
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(c.events[0].name, "delta.optimize.conflictReconciliation.reverseRemapped");
  EXPECT_EQ(Contents(),
            model::Apply(StartingTable(), model::Delete{IdIs(6)}).after.SortedContents());
  ExpectOracleAgrees();
}

TEST_F(SimulatedTable, ZorderLeavesTheTombstonesUntaggedSoTheDeleteAborts) {
  const Transaction del =
      Prepare(model::Delete{IdIs(6)}, 0, {"optimize.conflictReconciliation.reverse.enabled"});
  ASSERT_TRUE(Commit(Prepare(model::Optimize{{"value"}}, 0,
                             {"optimize.conflictReconciliation.reverse.enabled"}))
                  .committed);
  EXPECT_FALSE(Commit(del).committed);
}

// Storage whose reads of one file return other bytes than were written: a commit that does not
// parse back to what its writer wrote.
class AlteringStorage final : public rlc::storage::Storage {
 public:
  AlteringStorage(std::string altered_path, std::string from, std::string to)
      : altered_path_(std::move(altered_path)), from_(std::move(from)), to_(std::move(to)) {}
  rlc::Result<std::string> ReadFile(const std::string& path) const override {
    rlc::Result<std::string> bytes = inner_.ReadFile(path);
    if (!bytes.ok() || path != altered_path_) return bytes;
    std::string text = *bytes;
    const size_t at = text.find(from_);
    if (at != std::string::npos) text.replace(at, from_.size(), to_);
    return text;
  }
  rlc::Result<std::string> ReadRange(const std::string& path, uint64_t offset,
                                     uint64_t size) const override {
    return inner_.ReadRange(path, offset, size);
  }
  rlc::Result<uint64_t> FileSize(const std::string& path) const override {
    return inner_.FileSize(path);
  }
  rlc::Result<std::vector<std::string>> List(const std::string& dir) const override {
    return inner_.List(dir);
  }
  rlc::Status PutIfAbsent(const std::string& path, std::string_view bytes) override {
    return inner_.PutIfAbsent(path, bytes);
  }
  rlc::Status Replace(const std::string& path, std::string_view bytes) override {
    return inner_.Replace(path, bytes);
  }

 private:
  rlc::storage::InMemoryStorage inner_;
  std::string altered_path_, from_, to_;
};

// Snapshots apply the simulator's own commits from the actions it wrote; with verify_own_commits
// a commit whose bytes parse to anything else is refused, naming the commit file.
TEST(OwnCommits, ACommitThatDoesNotParseBackIsRefusedWhenVerified) {
  for (const bool verify : {false, true}) {
    const std::string root = "/own-commits";
    AlteringStorage storage(root + "/_delta_log/00000000000000000001.json", "\"dataChange\":true",
                            "\"dataChange\":false");
    rlc::simulator::TableOptions options;
    options.verify_own_commits = verify;
    Simulator sim(storage, root, StartingTable(), options);
    ASSERT_TRUE(sim.Create(2).ok());
    rlc::Result<Transaction> insert =
        sim.Prepare(model::BlindInsert{{{int64_t{9}, std::string("x")}}}, 0, {});
    ASSERT_TRUE(insert.ok()) << insert.status().ToString();
    rlc::Result<rlc::simulator::CommitOutcome> c = sim.Commit(*insert);
    ASSERT_TRUE(c.ok() && c->committed);
    const rlc::Result<model::LogicalTable> read = sim.Read(1);
    if (!verify) {
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      EXPECT_EQ(read->rows.size(), 9u);
      continue;
    }
    ASSERT_FALSE(read.ok());
    // The simulator's own fault, not a log an engine refuses: kInvalidArgument, not kCorrupt.
    EXPECT_EQ(read.status().code(), rlc::StatusCode::kInvalidArgument);
    EXPECT_NE(read.status().message().find("00000000000000000001.json"), std::string::npos)
        << read.status().ToString();
  }
}

}  // namespace

namespace {

// Checkpoints every 2 commits, in memory: a simulator that reads the log afresh starts from the
// newest one and sees what the writer saw; a checkpoint that holds another version's state is
// found by the checkpoint check, naming that version.
TEST(Checkpoints, AFreshReaderStartsFromThemAndAWrongOneIsFound) {
  rlc::storage::InMemoryStorage storage;
  rlc::simulator::TableOptions options;
  options.checkpoint_interval = 2;
  options.data_files = rlc::simulator::DataFileFormat::kParquet;
  Simulator writer(storage, "/t", StartingTable(), options);
  ASSERT_TRUE(writer.Create(2).ok());
  for (int64_t id = 1; id <= 4; ++id) {
    rlc::Result<Transaction> t =
        writer.Prepare(model::Delete{IdIs(id)}, *writer.LatestVersion(), conflict::Flags{});
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE(writer.Commit(*t)->committed);
  }
  EXPECT_TRUE(storage.FileSize("/t/_delta_log/00000000000000000002.checkpoint.parquet").ok());
  EXPECT_TRUE(storage.FileSize("/t/_delta_log/00000000000000000004.checkpoint.parquet").ok());
  rlc::Result<int64_t> checked = rlc::simulator::CheckCheckpointReplay(storage, "/t");
  ASSERT_TRUE(checked.ok()) << checked.status().ToString();
  EXPECT_EQ(*checked, 2);

  // A fresh reader at version 4 (through the checkpoint): id 4 is gone (deleting it again
  // changes no row: on this WriteSerializable table, a commit of its commitInfo alone), id 5 is
  // there.
  Simulator reader(storage, "/t", StartingTable(), options);
  rlc::Result<Transaction> gone = reader.Prepare(model::Delete{IdIs(4)}, 4, conflict::Flags{});
  ASSERT_TRUE(gone.ok()) << gone.status().ToString();
  EXPECT_TRUE(gone->effect.writes.empty());
  ASSERT_EQ(gone->pending.actions.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<rlc::delta::CommitInfo>(gone->pending.actions[0]));
  rlc::Result<Transaction> there = reader.Prepare(model::Delete{IdIs(5)}, 4, conflict::Flags{});
  ASSERT_TRUE(there.ok());
  EXPECT_FALSE(there->commits_nothing);

  // Version 4's checkpoint replaced by version 3's state under version 4's name.
  rlc::Result<rlc::delta::Snapshot> at3 = rlc::delta::ReplayLog(storage, "/t", 3);
  ASSERT_TRUE(at3.ok());
  rlc::Result<rlc::parquet::CheckpointFile> wrong = rlc::parquet::EncodeCheckpoint(*at3);
  ASSERT_TRUE(wrong.ok());
  ASSERT_TRUE(
      storage.Replace("/t/_delta_log/00000000000000000004.checkpoint.parquet", wrong->bytes).ok());
  rlc::Result<int64_t> found = rlc::simulator::CheckCheckpointReplay(storage, "/t");
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().code(), rlc::StatusCode::kCorrupt);
  EXPECT_NE(found.status().message().find("version 4"), std::string::npos)
      << found.status().ToString();
  // A fresh reader now believes the checkpoint: id 4 is live to it (it reads no JSON before 4).
  Simulator misled(storage, "/t", StartingTable(), options);
  rlc::Result<Transaction> misread = misled.Prepare(model::Delete{IdIs(4)}, 4, conflict::Flags{});
  ASSERT_TRUE(misread.ok());
  EXPECT_FALSE(misread->commits_nothing);
}

}  // namespace

namespace {

// The adds of one commit file: path -> partitionValues, as the log holds them.
std::map<std::string, nlohmann::json> AddsOf(const fs::path& commit) {
  std::map<std::string, nlohmann::json> adds;
  std::ifstream in(commit);
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json action = nlohmann::json::parse(line);
    if (action.contains("add"))
      adds[action["add"]["path"].get<std::string>()] = action["add"]["partitionValues"];
  }
  return adds;
}

// A table partitioned by (part long, part2 string): one directory level per column in schema
// order, both values logged by column (a NULL as null, its directory Hive's default), an UPDATE
// of part2 writes the new image under its new leaf, and the oracle's reader reads the rows back.
TEST(TwoPartitionColumns, FilesNestOneLevelPerColumnAndLogEveryValue) {
  const fs::path root =
      fs::temp_directory_path() / ("rlc-engine-two-" + std::to_string(::getpid()));
  fs::remove_all(root);
  model::LogicalTable table =
      model::MakeTable({model::ColumnType::kLong, model::ColumnType::kString}, std::nullopt);
  table.Insert({int64_t{1}, std::string("v1"), int64_t{0}, std::string("a")});
  table.Insert({int64_t{2}, std::string("v2"), int64_t{0}, std::string("b")});
  table.Insert({int64_t{3}, std::string("v3"), int64_t{1}, model::Value{}});
  std::unique_ptr<rlc::storage::Storage> storage = rlc::storage::NewLocalStorage();
  Simulator sim(*storage, root.string(), table, rlc::simulator::TableOptions{});
  ASSERT_TRUE(sim.Create(1).ok());
  const std::map<std::string, nlohmann::json> created =
      AddsOf(root / "_delta_log" / "00000000000000000000.json");
  std::map<std::string, std::string> leaves;  // directory -> logged partitionValues
  for (const auto& [path, values] : created)
    leaves[path.substr(0, path.rfind('/') + 1)] = values.dump();
  EXPECT_EQ(leaves,
            (std::map<std::string, std::string>{
                {"part=0/part2=a/", R"({"part":"0","part2":"a"})"},
                {"part=0/part2=b/", R"({"part":"0","part2":"b"})"},
                {"part=1/part2=__HIVE_DEFAULT_PARTITION__/", R"({"part":"1","part2":null})"},
            }));
  const model::Operation move =
      model::Update{IdIs(1), {{"part2", std::string("b")}, {"value", std::string("moved")}}};
  rlc::Result<Transaction> t = sim.Prepare(move, 0, conflict::Flags{});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  rlc::Result<rlc::simulator::CommitOutcome> c = sim.Commit(*t);
  ASSERT_TRUE(c.ok() && c->committed);
  const std::map<std::string, nlohmann::json> moved =
      AddsOf(root / "_delta_log" / "00000000000000000001.json");
  ASSERT_EQ(moved.size(), 1u);
  EXPECT_EQ(moved.begin()->first.rfind("part=0/part2=b/", 0), 0u) << moved.begin()->first;
  const model::LogicalTable expected = model::Apply(table, move).after;
  rlc::Result<model::LogicalTable> read = sim.Read(1);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(read->SortedContents(), expected.SortedContents());
  const rlc::oracle::ReferenceResult r = rlc::oracle::ReadReferenceSnapshot(root.string(), -1);
  ASSERT_TRUE(r.snapshot.has_value()) << r.error;
  const std::vector<std::string> rows = rlc::oracle::LiveRows(*r.snapshot);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(std::count_if(rows.begin(), rows.end(),
                          [](const std::string& row) {
                            return row.find("\"moved\"") != std::string::npos &&
                                   row.find("\"part2\":\"b\"") != std::string::npos;
                          }),
            1)
      << nlohmann::json(rows).dump();
  fs::remove_all(root);
}

}  // namespace
