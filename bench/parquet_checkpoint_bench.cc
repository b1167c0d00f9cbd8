// Replaying a table of 1,000,000 files from a Parquet checkpoint plus 10 JSON commits
// (rlc::delta::ReplayLogWithCheckpoints with rlc::parquet::ArrowActionReader, what inspect, check
// and audit do) against reading the checkpoint's columns alone with Arrow (the floor: the bytes
// decoded into Arrow arrays, nothing built from them). Aim: at most 1.5x.
//
// The table lives in memory (InMemoryStorage): a classic checkpoint at version 10 (protocol,
// metaData, 1,000,000 adds with statistics, in row groups of 100,000) and commits 11..20, each
// removing one file and adding one. The checkpoint is written once with Arrow's writer.
#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <benchmark/benchmark.h>
#include <parquet/arrow/reader.h>
#include <parquet/arrow/writer.h>

#include <memory>
#include <string>
#include <vector>

#include "impl/delta/checkpoint.h"
#include "impl/delta/log.h"
#include "impl/parquet/checkpoint_actions.h"
#include "impl/storage/storage.h"

namespace {

constexpr int64_t kFiles = 1'000'000;
constexpr char kRoot[] = "/t";

std::string FilePath(int64_t i) { return "part-" + std::to_string(i) + ".parquet"; }

std::shared_ptr<arrow::Array> Adds() {
  auto pv_type = arrow::map(arrow::utf8(), arrow::utf8());
  auto add_type = arrow::struct_(
      {arrow::field("path", arrow::utf8()), arrow::field("partitionValues", pv_type),
       arrow::field("size", arrow::int64()), arrow::field("modificationTime", arrow::int64()),
       arrow::field("dataChange", arrow::boolean()), arrow::field("stats", arrow::utf8())});
  arrow::StructBuilder add(
      add_type, arrow::default_memory_pool(),
      {std::make_shared<arrow::StringBuilder>(),
       std::make_shared<arrow::MapBuilder>(arrow::default_memory_pool(),
                                           std::make_shared<arrow::StringBuilder>(),
                                           std::make_shared<arrow::StringBuilder>()),
       std::make_shared<arrow::Int64Builder>(), std::make_shared<arrow::Int64Builder>(),
       std::make_shared<arrow::BooleanBuilder>(), std::make_shared<arrow::StringBuilder>()});
  auto* path = static_cast<arrow::StringBuilder*>(add.field_builder(0));
  auto* pv = static_cast<arrow::MapBuilder*>(add.field_builder(1));
  auto* size = static_cast<arrow::Int64Builder*>(add.field_builder(2));
  auto* time = static_cast<arrow::Int64Builder*>(add.field_builder(3));
  auto* change = static_cast<arrow::BooleanBuilder*>(add.field_builder(4));
  auto* stats = static_cast<arrow::StringBuilder*>(add.field_builder(5));
  for (int64_t i = 0; i < kFiles + 2; ++i) {
    if (i < 2) {  // the protocol's and the metaData's rows
      (void)add.AppendNull();
      continue;
    }
    (void)add.Append();
    (void)path->Append(FilePath(i - 2));
    (void)pv->Append();
    (void)size->Append(1000 + i);
    (void)time->Append(1700000000000);
    (void)change->Append(true);
    (void)stats->Append(R"({"numRecords":100,"minValues":{"id":)" + std::to_string(i) +
                        R"(},"maxValues":{"id":)" + std::to_string(i + 99) +
                        R"(},"nullCount":{"id":0}})");
  }
  return add.Finish().ValueOrDie();
}

std::shared_ptr<arrow::Array> OneRow(int64_t at, std::shared_ptr<arrow::DataType> type,
                                     const std::vector<std::shared_ptr<arrow::Scalar>>& fields) {
  auto value = std::make_shared<arrow::StructScalar>(fields, type);
  auto builder = arrow::MakeBuilder(type).ValueOrDie();
  for (int64_t i = 0; i < kFiles + 2; ++i) {
    (void)(i == at ? builder->AppendScalar(*value) : builder->AppendNull());
  }
  return builder->Finish().ValueOrDie();
}

std::string Checkpoint() {
  auto protocol_type = arrow::struct_({arrow::field("minReaderVersion", arrow::int32()),
                                       arrow::field("minWriterVersion", arrow::int32())});
  auto format_type = arrow::struct_({arrow::field("provider", arrow::utf8())});
  auto metadata_type =
      arrow::struct_({arrow::field("id", arrow::utf8()), arrow::field("format", format_type),
                      arrow::field("schemaString", arrow::utf8()),
                      arrow::field("partitionColumns", arrow::list(arrow::utf8()))});
  const std::string schema =
      R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}}]})";
  auto protocol =
      OneRow(0, protocol_type, {arrow::MakeScalar(int32_t{1}), arrow::MakeScalar(int32_t{2})});
  auto metadata = OneRow(
      1, metadata_type,
      {arrow::MakeScalar(std::string("bench")),
       std::make_shared<arrow::StructScalar>(
           std::vector<std::shared_ptr<arrow::Scalar>>{arrow::MakeScalar(std::string("parquet"))},
           format_type),
       arrow::MakeScalar(schema),
       std::make_shared<arrow::ListScalar>(arrow::MakeEmptyArray(arrow::utf8()).ValueOrDie())});
  const std::shared_ptr<arrow::Array> adds = Adds();
  auto table = arrow::Table::Make(
      arrow::schema({arrow::field("protocol", protocol_type),
                     arrow::field("metaData", metadata_type), arrow::field("add", adds->type())}),
      {protocol, metadata, adds});
  auto sink = arrow::io::BufferOutputStream::Create().ValueOrDie();
  PARQUET_THROW_NOT_OK(
      parquet::arrow::WriteTable(*table, arrow::default_memory_pool(), sink, 100'000));
  return sink->Finish().ValueOrDie()->ToString();
}

const rlc::storage::InMemoryStorage& Table() {
  static rlc::storage::InMemoryStorage* storage = [] {
    auto* s = new rlc::storage::InMemoryStorage();
    const std::string log = rlc::delta::LogDir(kRoot);
    (void)s->PutIfAbsent(log + "/00000000000000000010.checkpoint.parquet", Checkpoint());
    for (int64_t v = 11; v <= 20; ++v) {
      const std::string commit =
          R"({"commitInfo":{"operation":"WRITE","isBlindAppend":false}})"
          "\n"
          R"({"remove":{"path":")" +
          FilePath(v) +
          R"(","dataChange":true}})"
          "\n"
          R"({"add":{"path":"new-)" +
          std::to_string(v) +
          R"(.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}})"
          "\n";
      (void)s->PutIfAbsent(log + "/" + rlc::delta::CommitFileName(v), commit);
    }
    return s;
  }();
  return *storage;
}

// Both sides run once before they are timed: the first run of either pays the allocators' first
// touch of their memory (a third of a cold run), which says nothing about either reader.
void BM_CheckpointReplayRlc(benchmark::State& state) {
  const rlc::storage::InMemoryStorage& storage = Table();
  const rlc::parquet::ArrowActionReader reader;
  (void)rlc::delta::ReplayLogWithCheckpoints(storage, kRoot, std::nullopt, reader);
  for (auto _ : state) {
    auto snapshot = rlc::delta::ReplayLogWithCheckpoints(storage, kRoot, std::nullopt, reader);
    if (!snapshot.ok() || snapshot->files.size() != static_cast<size_t>(kFiles)) {
      state.SkipWithError(snapshot.ok() ? "wrong file count"
                                        : snapshot.status().ToString().c_str());
      break;
    }
    benchmark::DoNotOptimize(snapshot->files.size());
  }
  state.SetItemsProcessed(state.iterations() * kFiles);
}
BENCHMARK(BM_CheckpointReplayRlc)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

// Not an aim, a measure of what the replay leaves for later: the same replay, then every file's
// add asked for once (what `rlc inspect` and a checkpoint writer do), each add built then.
void BM_CheckpointReplayThenEveryFileRlc(benchmark::State& state) {
  const rlc::storage::InMemoryStorage& storage = Table();
  const rlc::parquet::ArrowActionReader reader;
  for (auto _ : state) {
    auto snapshot = rlc::delta::ReplayLogWithCheckpoints(storage, kRoot, std::nullopt, reader);
    if (!snapshot.ok()) {
      state.SkipWithError(snapshot.status().ToString().c_str());
      break;
    }
    int64_t bytes = 0;
    for (const auto& [path, add] : snapshot->files) bytes += add.size_bytes;
    benchmark::DoNotOptimize(bytes);
  }
  state.SetItemsProcessed(state.iterations() * kFiles);
}
BENCHMARK(BM_CheckpointReplayThenEveryFileRlc)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

std::shared_ptr<arrow::Table> ReadCheckpointColumns(const rlc::storage::InMemoryStorage& storage) {
  // The buffer owns the bytes, which the table may view.
  std::shared_ptr<arrow::Buffer> buffer = arrow::Buffer::FromString(
      *storage.ReadFile(rlc::delta::LogDir(kRoot) + "/00000000000000000010.checkpoint.parquet"));
  auto reader = parquet::arrow::OpenFile(std::make_shared<arrow::io::BufferReader>(buffer),
                                         arrow::default_memory_pool())
                    .ValueOrDie();
  return reader->ReadTable().ValueOrDie();
}

void BM_CheckpointColumnsArrowFloor(benchmark::State& state) {
  const rlc::storage::InMemoryStorage& storage = Table();
  (void)ReadCheckpointColumns(storage);
  for (auto _ : state) {
    std::shared_ptr<arrow::Table> table = ReadCheckpointColumns(storage);
    benchmark::DoNotOptimize(table->num_rows());
  }
  state.SetItemsProcessed(state.iterations() * kFiles);
}
BENCHMARK(BM_CheckpointColumnsArrowFloor)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(5);

}  // namespace
