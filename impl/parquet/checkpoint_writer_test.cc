// Checkpoints rlc writes, read back by rlc's own checkpoint replay (ArrowActionReader): every
// action of the state survives (DVs, null partition values, tags, app transactions, domains), the
// replay through the checkpoint equals the JSON replay (but for dataChange, which a checkpoint's
// adds carry false, as Delta writes them), also when the JSON before it is gone, and
// _last_checkpoint names the latest checkpoint only. The Parquet data-file writer's rows read
// back at their positions across row groups; its bad input is refused by name.
#include <gtest/gtest.h>

#include <map>

#include "impl/delta/checkpoint.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/log.h"
#include "impl/parquet/checkpoint_actions.h"
#include "impl/parquet/checkpoint_writer.h"
#include "impl/parquet/parquet_rows.h"
#include "impl/parquet/parquet_writer.h"

namespace rlc::parquet {
namespace {

using delta::Action;
using predicate::Literal;

constexpr char kRoot[] = "/t";

delta::AddFile Add(const std::string& path, std::optional<std::string> part) {
  delta::AddFile add;
  add.path = path;
  add.partition_values = {{"part", std::move(part)}};
  add.size_bytes = 100;
  add.modification_time_ms = 7;
  add.stats = R"({"numRecords":4})";
  return add;
}

// The live files as state: dataChange is no part of it (a checkpoint writes every add false).
std::map<std::string, delta::AddFile> AsState(const delta::FileTable& files) {
  std::map<std::string, delta::AddFile> state(files.begin(), files.end());
  for (auto& [path, add] : state) add.data_change = false;
  return state;
}

// Every add a checkpoint wrote came back with dataChange false, as Delta writes them.
bool NoneChangesData(const delta::FileTable& files) {
  for (const auto& [path, add] : files) {
    if (add.data_change) return false;
  }
  return true;
}

std::vector<Action> Version0() {
  delta::Protocol protocol;
  protocol.min_reader_version = 3;
  protocol.min_writer_version = 7;
  protocol.reader_features = std::vector<std::string>{"deletionVectors"};
  protocol.writer_features = std::vector<std::string>{"deletionVectors", "domainMetadata"};
  delta::Metadata metadata;
  metadata.id = "table-id";
  metadata.schema_string =
      R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
      R"({"name":"part","type":"string","nullable":true,"metadata":{}}]})";
  metadata.partition_columns = {"part"};
  metadata.configuration = {{"delta.enableDeletionVectors", "true"}};
  metadata.created_time_ms = 1;
  delta::AddFile tagged = Add("part=a/f1.parquet", "a");
  tagged.tags = delta::StringMap{{"INSERTION_TIME", "1"}, {"empty", std::nullopt}};
  dv::DvDescriptor dv;
  dv.storage_type = 'u';
  dv.path_or_inline_dv = "ab^-aqEH.-t@S}K{vb[*k^";
  dv.offset = 1;
  dv.size_bytes = 34;
  dv.cardinality = 2;
  delta::AddFile with_dv = Add("part=__HIVE_DEFAULT_PARTITION__/f2.parquet", std::nullopt);
  with_dv.deletion_vector = dv;
  with_dv.base_row_id = 10;
  with_dv.default_row_commit_version = 0;
  delta::Txn txn{"app", 3, 5, {}};
  delta::DomainMetadata domain{"delta.rowTracking", R"({"rowIdHighWaterMark":9})", false, {}};
  return {protocol, metadata, tagged, with_dv, txn, domain};
}

void Commit(storage::Storage& s, int64_t version, const std::vector<Action>& actions) {
  ASSERT_TRUE(s.PutIfAbsent(delta::LogDir(kRoot) + "/" + delta::CommitFileName(version),
                            delta::WriteCommitFile(actions))
                  .ok());
}

TEST(CheckpointWriter, ReplayThroughTheCheckpointEqualsTheJsonReplay) {
  storage::InMemoryStorage s;
  Commit(s, 0, Version0());
  Commit(s, 1, {Add("part=b/f3.parquet", "b")});
  Result<delta::Snapshot> at1 = delta::ReplayLog(s, kRoot, 1);
  ASSERT_TRUE(at1.ok()) << at1.status().ToString();
  Result<std::string> name = WriteCheckpoint(s, kRoot, *at1);
  ASSERT_TRUE(name.ok()) << name.status().ToString();
  EXPECT_EQ(*name, "00000000000000000001.checkpoint.parquet");
  delta::RemoveFile remove;
  remove.path = "part=a/f1.parquet";
  Commit(s, 2, {remove, Add("part=b/f4.parquet", "b")});
  const ArrowActionReader reader;
  for (int64_t v : {1, 2}) {
    Result<delta::Snapshot> json = delta::ReplayLog(s, kRoot, v);
    Result<delta::Snapshot> through = delta::ReplayLogWithCheckpoints(s, kRoot, v, reader);
    ASSERT_TRUE(through.ok()) << through.status().ToString();
    EXPECT_EQ(through->version, v);
    EXPECT_EQ(through->protocol, json->protocol);
    EXPECT_EQ(through->metadata, json->metadata);
    EXPECT_EQ(AsState(through->files), AsState(json->files)) << "version " << v;
    if (v == 1) {  // the checkpoint's own version
      EXPECT_TRUE(NoneChangesData(through->files));
    }
    EXPECT_EQ(through->app_transactions, json->app_transactions);
    EXPECT_EQ(through->domains, json->domains);
  }
  // The JSON before the checkpoint gone: the checkpoint alone stands for it.
  storage::InMemoryStorage vacuumed;
  for (const std::string& f :
       {std::string("00000000000000000001.checkpoint.parquet"), delta::CommitFileName(2)}) {
    const std::string path = delta::LogDir(kRoot) + "/" + f;
    ASSERT_TRUE(vacuumed.PutIfAbsent(path, *s.ReadFile(path)).ok());
  }
  Result<delta::Snapshot> latest = delta::ReplayLogWithCheckpoints(vacuumed, kRoot, {}, reader);
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(AsState(latest->files), AsState(delta::ReplayLog(s, kRoot, 2)->files));
}

TEST(CheckpointWriter, LastCheckpointNamesTheLatestOnly) {
  storage::InMemoryStorage s;
  Commit(s, 0, Version0());
  Commit(s, 1, {Add("part=b/f3.parquet", "b")});
  const std::string hint = delta::LogDir(kRoot) + "/_last_checkpoint";
  ASSERT_TRUE(WriteCheckpoint(s, kRoot, *delta::ReplayLog(s, kRoot, 1)).ok());
  EXPECT_EQ(*s.ReadFile(hint),
            R"({"version":1,"size":7,"sizeInBytes":)" +
                std::to_string(*s.FileSize(delta::LogDir(kRoot) +
                                           "/00000000000000000001.checkpoint.parquet")) +
                R"(,"numOfAddFiles":3})");
  // An older checkpoint written late leaves the hint alone; writing one twice is no error.
  ASSERT_TRUE(WriteCheckpoint(s, kRoot, *delta::ReplayLog(s, kRoot, 0)).ok());
  EXPECT_EQ(s.ReadFile(hint)->rfind(R"({"version":1,)", 0), 0u);
  ASSERT_TRUE(WriteCheckpoint(s, kRoot, *delta::ReplayLog(s, kRoot, 1)).ok());
}

TEST(CheckpointWriter, AV2CheckpointTableGetsAClassicNamedV2Checkpoint) {
  storage::InMemoryStorage s;
  std::vector<Action> v0 = Version0();
  auto& protocol = std::get<delta::Protocol>(v0[0]);
  protocol.reader_features->push_back("v2Checkpoint");
  protocol.writer_features->push_back("v2Checkpoint");
  Commit(s, 0, v0);
  Result<delta::Snapshot> at0 = delta::ReplayLog(s, kRoot, 0);
  ASSERT_TRUE(at0.ok());
  Result<CheckpointFile> file = EncodeCheckpoint(*at0);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  Result<std::vector<std::string>> lines =
      ArrowActionReader().ActionLines("cp.parquet", file->bytes);
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  int metadata = 0;
  for (const std::string& line : *lines) {
    if (line.rfind(R"({"checkpointMetadata":{"version":0)", 0) == 0) ++metadata;
  }
  EXPECT_EQ(metadata, 1);
  EXPECT_EQ(file->actions, static_cast<int64_t>(lines->size()));
  ASSERT_TRUE(WriteCheckpoint(s, kRoot, *at0).ok());
  Result<delta::Snapshot> through =
      delta::ReplayLogWithCheckpoints(s, kRoot, 0, ArrowActionReader());
  ASSERT_TRUE(through.ok()) << through.status().ToString();
  EXPECT_EQ(AsState(through->files), AsState(at0->files));
  EXPECT_TRUE(NoneChangesData(through->files));
  EXPECT_EQ(through->protocol, at0->protocol);
}

// The log with a v2Checkpoint table's protocol (when `v2`), and a second commit: three adds at
// version 1.
void TwoCommits(storage::Storage& s, bool v2) {
  std::vector<Action> v0 = Version0();
  if (v2) {
    auto& protocol = std::get<delta::Protocol>(v0[0]);
    protocol.reader_features->push_back("v2Checkpoint");
    protocol.writer_features->push_back("v2Checkpoint");
  }
  Commit(s, 0, v0);
  Commit(s, 1, {Add("part=b/f3.parquet", "b")});
}

// The one checkpoint the log lists, read back, stands for the JSON replay of version 1.
void ExpectOneCheckpointLikeTheJson(const storage::Storage& s, delta::Checkpoint::Kind kind,
                                    size_t files) {
  Result<std::vector<delta::Checkpoint>> listed = delta::ListCheckpoints(s, kRoot);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->front().kind, kind);
  EXPECT_EQ(listed->front().files.size(), files);
  Result<delta::Snapshot> through =
      delta::ReplayLogWithCheckpoints(s, kRoot, 1, ArrowActionReader());
  ASSERT_TRUE(through.ok()) << through.status().ToString();
  const Result<delta::Snapshot> json = delta::ReplayLog(s, kRoot, 1);
  EXPECT_EQ(AsState(through->files), AsState(json->files));
  EXPECT_EQ(through->protocol, json->protocol);
  EXPECT_EQ(through->metadata, json->metadata);
  EXPECT_EQ(through->app_transactions, json->app_transactions);
  EXPECT_EQ(through->domains, json->domains);
}

TEST(CheckpointWriter, AMultiPartCheckpointDealsTheAddsOutOverItsParts) {
  storage::InMemoryStorage s;
  TwoCommits(s, /*v2=*/false);
  const CheckpointLayout layout{CheckpointLayout::Kind::kMultiPart, 3, ""};
  Result<std::string> name = WriteCheckpoint(s, kRoot, *delta::ReplayLog(s, kRoot, 1), layout);
  ASSERT_TRUE(name.ok()) << name.status().ToString();
  EXPECT_EQ(*name, "00000000000000000001.checkpoint.0000000001.0000000003.parquet");
  ExpectOneCheckpointLikeTheJson(s, delta::Checkpoint::Kind::kMultiPart, 3);
  // Each part holds its run of the three adds; the table's actions are in the first.
  const ArrowActionReader reader;
  const std::string dir = delta::LogDir(kRoot) + "/00000000000000000001.checkpoint.";
  for (const char* part : {"0000000001.0000000003", "0000000002.0000000003"}) {
    Result<std::vector<std::string>> lines =
        reader.ActionLines(part, *s.ReadFile(dir + part + ".parquet"));
    ASSERT_TRUE(lines.ok()) << lines.status().ToString();
    EXPECT_EQ(lines->size(), std::string(part)[9] == '1' ? 5u : 1u) << part;
  }
  EXPECT_NE(s.ReadFile(delta::LogDir(kRoot) + "/_last_checkpoint")->find(R"("parts":3)"),
            std::string::npos);
}

TEST(CheckpointWriter, AMultiPartCheckpointWithoutItsLastPartIsSkipped) {
  storage::InMemoryStorage s;
  TwoCommits(s, /*v2=*/false);
  const CheckpointLayout torn{CheckpointLayout::Kind::kMultiPartIncomplete, 2, ""};
  ASSERT_TRUE(WriteCheckpoint(s, kRoot, *delta::ReplayLog(s, kRoot, 1), torn).ok());
  std::vector<std::string> incomplete;
  Result<std::vector<delta::Checkpoint>> listed = delta::ListCheckpoints(s, kRoot, &incomplete);
  ASSERT_TRUE(listed.ok());
  EXPECT_TRUE(listed->empty());
  ASSERT_EQ(incomplete.size(), 1u);
  EXPECT_EQ(incomplete[0], "checkpoint 1 has 1 of its 2 parts");
  EXPECT_FALSE(s.ReadFile(delta::LogDir(kRoot) + "/_last_checkpoint").ok());
  // Readers start from the JSON then; a complete checkpoint of version 0 is taken instead.
  ASSERT_TRUE(WriteCheckpoint(s, kRoot, *delta::ReplayLog(s, kRoot, 0)).ok());
  Result<delta::Snapshot> through =
      delta::ReplayLogWithCheckpoints(s, kRoot, 1, ArrowActionReader());
  ASSERT_TRUE(through.ok()) << through.status().ToString();
  EXPECT_EQ(AsState(through->files), AsState(delta::ReplayLog(s, kRoot, 1)->files));
}

TEST(CheckpointWriter, AV2CheckpointNamesSidecarsThatHoldTheAdds) {
  storage::InMemoryStorage s;
  TwoCommits(s, /*v2=*/true);
  const CheckpointLayout layout{CheckpointLayout::Kind::kSidecars, 2,
                                "3a0d65cd-4056-49b8-937b-95f9e3ee90e5"};
  Result<std::string> name = WriteCheckpoint(s, kRoot, *delta::ReplayLog(s, kRoot, 1), layout);
  ASSERT_TRUE(name.ok()) << name.status().ToString();
  EXPECT_EQ(*name, "00000000000000000001.checkpoint.3a0d65cd-4056-49b8-937b-95f9e3ee90e5.json");
  ExpectOneCheckpointLikeTheJson(s, delta::Checkpoint::Kind::kV2, 1);
  const std::string top = *s.ReadFile(delta::LogDir(kRoot) + "/" + *name);
  EXPECT_EQ(top.rfind(R"({"checkpointMetadata":{"version":1}})", 0), 0u) << top;
  EXPECT_EQ(top.find(R"("add")"), std::string::npos) << "adds belong in the sidecars";
  // A sidecar has the add and remove columns only.
  const std::string sidecar =
      delta::LogDir(kRoot) + "/_sidecars/3a0d65cd-4056-49b8-937b-95f9e3ee90e5-2.parquet";
  Result<std::vector<std::string>> lines =
      ArrowActionReader().ActionLines("sidecar", *s.ReadFile(sidecar));
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  ASSERT_EQ(lines->size(), 2u);
  EXPECT_EQ(lines->front().rfind(R"({"add":)", 0), 0u);
  // A sidecar gone, the checkpoint is refused by name, never read in part.
  storage::InMemoryStorage without;
  const std::string log = delta::LogDir(kRoot) + "/";
  for (const std::string& f :
       {delta::CommitFileName(0), delta::CommitFileName(1), *name,
        std::string("_sidecars/3a0d65cd-4056-49b8-937b-95f9e3ee90e5-1.parquet")}) {
    ASSERT_TRUE(without.PutIfAbsent(log + f, *s.ReadFile(log + f)).ok()) << f;
  }
  Result<delta::Snapshot> through =
      delta::ReplayLogWithCheckpoints(without, kRoot, 1, ArrowActionReader());
  ASSERT_FALSE(through.ok());
  EXPECT_NE(through.status().message().find("-2.parquet is not there"), std::string::npos)
      << through.status().ToString();
}

// A checkpoint's add whose partitionValues map gives a key twice has no one partition value (a
// reader keeping the first and one keeping the last disagree): replay through it refuses the
// add by field, as the JSON parser refuses such a commit line.
TEST(CheckpointWriter, AnAddWhosePartitionKeyIsGivenTwiceIsRefused) {
  storage::InMemoryStorage s;
  Commit(s, 0, Version0());
  Commit(s, 1, {Add("part=b/f3.parquet", "b")});
  Result<delta::Snapshot> snapshot = delta::ReplayLog(s, kRoot, 1);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  delta::AddFile twice = Add("part=b/f3.parquet", "b");
  twice.partition_values.emplace_back("part", "c");
  snapshot->files.insert_or_assign("part=b/f3.parquet", std::move(twice));
  ASSERT_TRUE(WriteCheckpoint(s, kRoot, *snapshot).ok());
  Result<delta::Snapshot> through =
      delta::ReplayLogWithCheckpoints(s, kRoot, 1, ArrowActionReader());
  ASSERT_FALSE(through.ok());
  EXPECT_NE(through.status().message().find("add.partitionValues.part"), std::string::npos)
      << through.status().ToString();
}

TEST(CheckpointWriter, TheProtocolDecidesTheLayoutATableTakes) {
  // No UUID-named V2 checkpoint without the feature; no multi-part one with it.
  storage::InMemoryStorage plain, v2;
  TwoCommits(plain, /*v2=*/false);
  TwoCommits(v2, /*v2=*/true);
  const CheckpointLayout sidecars{CheckpointLayout::Kind::kSidecars, 2, "id"};
  EXPECT_EQ(*WriteCheckpoint(plain, kRoot, *delta::ReplayLog(plain, kRoot, 1), sidecars),
            "00000000000000000001.checkpoint.parquet");
  const CheckpointLayout multi{CheckpointLayout::Kind::kMultiPart, 2, ""};
  EXPECT_EQ(*WriteCheckpoint(v2, kRoot, *delta::ReplayLog(v2, kRoot, 1), multi),
            "00000000000000000001.checkpoint.parquet");
  EXPECT_EQ(LayoutName(*ParseLayoutName("multi-part-incomplete")),
            std::string("multi-part-incomplete"));
  EXPECT_FALSE(ParseLayoutName("v2").has_value());
}

TEST(CheckpointWriter, ASnapshotWithoutMetadataIsRefused) {
  delta::Snapshot empty;
  empty.version = 4;
  Result<CheckpointFile> file = EncodeCheckpoint(empty);
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.status().code(), StatusCode::kCorrupt);
  EXPECT_NE(file.status().message().find("version 4"), std::string::npos);
}

TEST(ParquetWriter, RowsReadBackAtTheirPositionsAcrossRowGroups) {
  std::vector<std::vector<Literal>> rows;
  for (int64_t i = 0; i < 11; ++i) {
    rows.push_back({Literal::Long(i * 3),
                    i == 4 ? Literal::Null() : Literal::String("s" + std::to_string(i))});
  }
  ParquetWriteOptions options;
  options.row_group_rows = 3;
  Result<std::string> bytes = WriteParquetRows(
      {{"n", WrittenColumn::Type::kLong}, {"s", WrittenColumn::Type::kString}}, rows, options);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  Result<ParquetFileFacts> facts = ReadParquetFacts("f.parquet", *bytes);
  ASSERT_TRUE(facts.ok());
  EXPECT_EQ(facts->num_rows, 11);
  EXPECT_EQ(facts->num_row_groups, 4);
  std::vector<std::vector<Literal>> read;
  ASSERT_TRUE(ScanParquetRows("f.parquet", *bytes, {{{"s"}, {}}, {{"n"}, {}}},
                              [&](uint64_t position, const std::vector<Literal>& values) {
                                EXPECT_EQ(position, read.size());
                                read.push_back({values[1], values[0]});
                                return true;
                              })
                  .ok());
  EXPECT_EQ(read, rows);
}

TEST(ParquetWriter, BadRowsAreRefusedByName) {
  const std::vector<WrittenColumn> columns = {{"n", WrittenColumn::Type::kLong}};
  Result<std::string> narrow = WriteParquetRows(columns, {{}});
  ASSERT_FALSE(narrow.ok());
  EXPECT_EQ(narrow.status().code(), StatusCode::kInvalidArgument);
  Result<std::string> typed = WriteParquetRows(columns, {{Literal::String("x")}});
  ASSERT_FALSE(typed.ok());
  EXPECT_NE(typed.status().message().find("column n"), std::string::npos);
  Result<std::string> twice = WriteParquetRows(
      {{"n", WrittenColumn::Type::kLong}, {"n", WrittenColumn::Type::kString}}, {});
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("named twice"), std::string::npos);
}

}  // namespace
}  // namespace rlc::parquet
