#include "impl/parquet/checkpoint_writer.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <utility>

#include "impl/delta/log.h"

namespace rlc::parquet {
namespace {

using ::arrow::ArrayBuilder;
using ::arrow::field;
using Fields = std::vector<std::shared_ptr<::arrow::Field>>;

std::shared_ptr<::arrow::DataType> StringMapType() {
  return ::arrow::map(::arrow::utf8(), ::arrow::utf8());
}

std::shared_ptr<::arrow::DataType> DvType() {
  return ::arrow::struct_(
      {field("storageType", ::arrow::utf8()), field("pathOrInlineDv", ::arrow::utf8()),
       field("offset", ::arrow::int32()), field("sizeInBytes", ::arrow::int32()),
       field("cardinality", ::arrow::int64())});
}

// Delta's checkpoint schema, in the columns rlc's snapshots fill.
std::shared_ptr<::arrow::Schema> CheckpointSchema() {
  const auto strings = ::arrow::list(::arrow::utf8());
  return ::arrow::schema(Fields{
      field("txn",
            ::arrow::struct_({field("appId", ::arrow::utf8()), field("version", ::arrow::int64()),
                              field("lastUpdated", ::arrow::int64())})),
      field("add",
            ::arrow::struct_(
                {field("path", ::arrow::utf8()), field("partitionValues", StringMapType()),
                 field("size", ::arrow::int64()), field("modificationTime", ::arrow::int64()),
                 field("dataChange", ::arrow::boolean()), field("stats", ::arrow::utf8()),
                 field("tags", StringMapType()), field("deletionVector", DvType()),
                 field("baseRowId", ::arrow::int64()),
                 field("defaultRowCommitVersion", ::arrow::int64()),
                 field("clusteringProvider", ::arrow::utf8())})),
      field("remove", ::arrow::struct_({field("path", ::arrow::utf8()),
                                        field("deletionTimestamp", ::arrow::int64()),
                                        field("dataChange", ::arrow::boolean())})),
      field("metaData",
            ::arrow::struct_(
                {field("id", ::arrow::utf8()), field("name", ::arrow::utf8()),
                 field("description", ::arrow::utf8()),
                 field("format", ::arrow::struct_({field("provider", ::arrow::utf8()),
                                                   field("options", StringMapType())})),
                 field("schemaString", ::arrow::utf8()), field("partitionColumns", strings),
                 field("configuration", StringMapType()), field("createdTime", ::arrow::int64())})),
      field("protocol",
            ::arrow::struct_({field("minReaderVersion", ::arrow::int32()),
                              field("minWriterVersion", ::arrow::int32()),
                              field("readerFeatures", strings), field("writerFeatures", strings)})),
      field("domainMetadata", ::arrow::struct_({field("domain", ::arrow::utf8()),
                                                field("configuration", ::arrow::utf8()),
                                                field("removed", ::arrow::boolean())})),
      field("checkpointMetadata", ::arrow::struct_({field("version", ::arrow::int64())})),
  });
}

// Appenders for one value of a builder made from the schema above. Each keeps the first failure.
class Appender {
 public:
  void String(ArrayBuilder* b, const std::optional<std::string>& v) {
    auto* s = static_cast<::arrow::StringBuilder*>(b);
    Keep(v ? s->Append(*v) : s->AppendNull());
  }
  void Stats(ArrayBuilder* b, const std::optional<delta::StatsJson>& v) {
    auto* s = static_cast<::arrow::StringBuilder*>(b);
    Keep(v ? s->Append(v->Json()) : s->AppendNull());  // a checkpoint holds the JSON itself
  }
  void Long(ArrayBuilder* b, std::optional<int64_t> v) {
    auto* n = static_cast<::arrow::Int64Builder*>(b);
    Keep(v ? n->Append(*v) : n->AppendNull());
  }
  void Int(ArrayBuilder* b, std::optional<int32_t> v) {
    auto* n = static_cast<::arrow::Int32Builder*>(b);
    Keep(v ? n->Append(*v) : n->AppendNull());
  }
  void Bool(ArrayBuilder* b, std::optional<bool> v) {
    auto* n = static_cast<::arrow::BooleanBuilder*>(b);
    Keep(v ? n->Append(*v) : n->AppendNull());
  }
  void Map(ArrayBuilder* b, const std::optional<delta::StringMap>& v) {
    auto* m = static_cast<::arrow::MapBuilder*>(b);
    if (!v) return Keep(m->AppendNull());
    Keep(m->Append());
    for (const auto& [key, value] : *v) {
      String(m->key_builder(), key);
      String(m->item_builder(), value);
    }
  }
  void List(ArrayBuilder* b, const std::optional<std::vector<std::string>>& v) {
    auto* l = static_cast<::arrow::ListBuilder*>(b);
    if (!v) return Keep(l->AppendNull());
    Keep(l->Append());
    for (const std::string& s : *v) String(l->value_builder(), s);
  }
  // Starts a row of struct column `b`; its children follow, in schema order.
  ::arrow::StructBuilder* Struct(ArrayBuilder* b) {
    auto* s = static_cast<::arrow::StructBuilder*>(b);
    Keep(s->Append());
    return s;
  }
  void Null(ArrayBuilder* b) { Keep(b->AppendNull()); }
  const ::arrow::Status& status() const { return status_; }

 private:
  void Keep(const ::arrow::Status& s) {
    if (status_.ok()) status_ = s;
  }
  ::arrow::Status status_;
};

// The builders of one row's columns: exactly one gets the action, the others a null.
struct Row {
  std::vector<std::unique_ptr<ArrayBuilder>>& columns;
  Appender& a;
  enum Column { kTxn, kAdd, kRemove, kMetaData, kProtocol, kDomain, kCheckpointMetadata, kColumns };

  ArrayBuilder* Start(Column c) const {
    for (int i = 0; i < kColumns; ++i) {
      if (i != c) a.Null(columns[static_cast<size_t>(i)].get());
    }
    return columns[static_cast<size_t>(c)].get();
  }
};

void AppendAdd(Row row, const delta::AddFile& add) {
  Appender& a = row.a;
  ::arrow::StructBuilder* s = a.Struct(row.Start(Row::kAdd));
  a.String(s->field_builder(0), add.path);
  a.Map(s->field_builder(1), add.partition_values);
  a.Long(s->field_builder(2), add.size_bytes);
  a.Long(s->field_builder(3), add.modification_time_ms);
  // A checkpoint records state, not a change: Delta Spark and delta-rs write every add false.
  a.Bool(s->field_builder(4), false);
  a.Stats(s->field_builder(5), add.stats);
  a.Map(s->field_builder(6), add.tags);
  if (add.deletion_vector) {
    const dv::DvDescriptor& d = *add.deletion_vector;
    ::arrow::StructBuilder* dv = a.Struct(s->field_builder(7));
    a.String(dv->field_builder(0), std::string(1, d.storage_type));
    a.String(dv->field_builder(1), d.path_or_inline_dv);
    a.Int(dv->field_builder(2), d.offset);
    a.Int(dv->field_builder(3), d.size_bytes);
    a.Long(dv->field_builder(4), d.cardinality);
  } else {
    a.Null(s->field_builder(7));
  }
  a.Long(s->field_builder(8), add.base_row_id);
  a.Long(s->field_builder(9), add.default_row_commit_version);
  a.String(s->field_builder(10), add.clustering_provider);
}

void AppendMetadata(Row row, const delta::Metadata& m) {
  Appender& a = row.a;
  ::arrow::StructBuilder* s = a.Struct(row.Start(Row::kMetaData));
  a.String(s->field_builder(0), m.id);
  a.String(s->field_builder(1), m.name);
  a.String(s->field_builder(2), m.description);
  ::arrow::StructBuilder* format = a.Struct(s->field_builder(3));
  a.String(format->field_builder(0), m.format_provider);
  a.Map(format->field_builder(1), m.format_options);
  a.String(s->field_builder(4), m.schema_string);
  a.List(s->field_builder(5), m.partition_columns);
  a.Map(s->field_builder(6), m.configuration);
  a.Long(s->field_builder(7), m.created_time_ms);
}

void AppendProtocol(Row row, const delta::Protocol& p) {
  Appender& a = row.a;
  ::arrow::StructBuilder* s = a.Struct(row.Start(Row::kProtocol));
  a.Int(s->field_builder(0), p.min_reader_version);
  a.Int(s->field_builder(1), p.min_writer_version);
  a.List(s->field_builder(2), p.reader_features);
  a.List(s->field_builder(3), p.writer_features);
}

void AppendTxn(Row row, const delta::Txn& t) {
  Appender& a = row.a;
  ::arrow::StructBuilder* s = a.Struct(row.Start(Row::kTxn));
  a.String(s->field_builder(0), t.app_id);
  a.Long(s->field_builder(1), t.version);
  a.Long(s->field_builder(2), t.last_updated_ms);
}

void AppendDomain(Row row, const delta::DomainMetadata& d) {
  Appender& a = row.a;
  ::arrow::StructBuilder* s = a.Struct(row.Start(Row::kDomain));
  a.String(s->field_builder(0), d.domain);
  a.String(s->field_builder(1), d.configuration);
  a.Bool(s->field_builder(2), d.removed);
}

Status Failed(const ::arrow::Status& s) {
  return Status::IoError("writing a checkpoint: " + s.ToString());
}

Result<std::string> ToParquet(const std::shared_ptr<::arrow::Schema>& schema,
                              std::vector<std::unique_ptr<ArrayBuilder>>& builders, int64_t rows) {
  std::vector<std::shared_ptr<::arrow::Array>> arrays;
  for (auto& b : builders) {
    std::shared_ptr<::arrow::Array> array;
    if (auto s = b->Finish(&array); !s.ok()) return Failed(s);
    arrays.push_back(std::move(array));
  }
  const std::shared_ptr<::arrow::Table> table = ::arrow::Table::Make(schema, arrays, rows);
  try {
    auto sink = ::arrow::io::BufferOutputStream::Create();
    if (!sink.ok()) return Failed(sink.status());
    const ::arrow::Status written = ::parquet::arrow::WriteTable(
        *table, ::arrow::default_memory_pool(), *sink, std::max<int64_t>(rows, 1));
    if (!written.ok()) return Failed(written);
    auto buffer = (*sink)->Finish();
    if (!buffer.ok()) return Failed(buffer.status());
    return (*buffer)->ToString();
  } catch (const ::parquet::ParquetException& e) {
    return Status::IoError(std::string("writing a checkpoint: ") + e.what());
  }
}

}  // namespace

Result<CheckpointFile> EncodeCheckpoint(const delta::Snapshot& snapshot) {
  if (!snapshot.protocol || !snapshot.metadata) {
    return Status::Corrupt("the snapshot at version " + std::to_string(snapshot.version) +
                           " has no protocol or metaData: no checkpoint of it can be read");
  }
  const std::shared_ptr<::arrow::Schema> schema = CheckpointSchema();
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  for (const auto& f : schema->fields()) {
    auto made = ::arrow::MakeBuilder(f->type());
    if (!made.ok()) return Failed(made.status());
    builders.push_back(std::move(*made));
  }
  Appender a;
  const Row row{builders, a};
  AppendProtocol(row, *snapshot.protocol);
  AppendMetadata(row, *snapshot.metadata);
  for (const auto& [app, txn] : snapshot.app_transactions) AppendTxn(row, txn);
  for (const auto& [name, domain] : snapshot.domains) AppendDomain(row, domain);
  for (const auto& [path, add] : snapshot.files) AppendAdd(row, add);
  // A table with the v2Checkpoint feature takes V2 checkpoints only: this one becomes a
  // classic-named V2 checkpoint by its checkpointMetadata action (no sidecars: the adds are here).
  const bool v2 = snapshot.protocol->HasWriterFeature("v2Checkpoint");
  if (v2) {
    ::arrow::StructBuilder* s = a.Struct(row.Start(Row::kCheckpointMetadata));
    a.Long(s->field_builder(0), snapshot.version);
  }
  if (!a.status().ok()) return Failed(a.status());
  CheckpointFile file;
  file.adds = static_cast<int64_t>(snapshot.files.size());
  file.actions = 2 +
                 static_cast<int64_t>(snapshot.app_transactions.size() + snapshot.domains.size()) +
                 file.adds + (v2 ? 1 : 0);
  RLC_ASSIGN_OR_RETURN(file.bytes, ToParquet(schema, builders, file.actions));
  return file;
}

Result<std::string> WriteCheckpoint(storage::Storage& storage, std::string_view table_root,
                                    const delta::Snapshot& snapshot) {
  RLC_ASSIGN_OR_RETURN(const CheckpointFile file, EncodeCheckpoint(snapshot));
  char name[64];
  std::snprintf(name, sizeof(name), "%020lld.checkpoint.parquet",
                static_cast<long long>(snapshot.version));
  const std::string log_dir = delta::LogDir(table_root);
  const Status put = storage.PutIfAbsent(log_dir + "/" + name, file.bytes);
  if (!put.ok() && put.code() != StatusCode::kAlreadyExists) return put;
  const std::string hint_path = log_dir + "/_last_checkpoint";
  Result<std::string> hint = storage.ReadFile(hint_path);
  if (hint.ok()) {  // a later checkpoint's hint stays: the version is its first field
    long long named = -1;
    if (std::sscanf(hint->c_str(), "{\"version\":%lld", &named) == 1 && named >= snapshot.version)
      return std::string(name);
  }
  const std::string text = "{\"version\":" + std::to_string(snapshot.version) +
                           ",\"size\":" + std::to_string(file.actions) +
                           ",\"sizeInBytes\":" + std::to_string(file.bytes.size()) +
                           ",\"numOfAddFiles\":" + std::to_string(file.adds) + "}";
  RLC_RETURN_IF_ERROR(storage.Replace(hint_path, text));
  return std::string(name);
}

}  // namespace rlc::parquet
