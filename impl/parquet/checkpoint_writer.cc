#include "impl/parquet/checkpoint_writer.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <utility>

#include "impl/delta/commit_writer.h"
#include "impl/delta/json_writer.h"
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

// The builders of one row's columns: exactly one gets the action, the others a null. A sidecar
// file has the add and remove columns only (`first`, `count`: the schema's columns it holds).
struct Row {
  std::vector<std::unique_ptr<ArrayBuilder>>& columns;
  Appender& a;
  enum Column { kTxn, kAdd, kRemove, kMetaData, kProtocol, kDomain, kCheckpointMetadata, kColumns };
  int first = 0;
  int count = kColumns;

  ArrayBuilder* Start(Column c) const {
    for (int i = first; i < first + count; ++i) {
      if (i != c) a.Null(columns[static_cast<size_t>(i - first)].get());
    }
    return columns[static_cast<size_t>(c - first)].get();
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

// Which of a snapshot's actions one Parquet file of a checkpoint holds: its protocol, metaData,
// app transactions and domains (`table`), the adds [first_add, end_add) in path order, and the
// checkpointMetadata action (a classic-named V2 checkpoint). A sidecar holds adds alone, under
// the add and remove columns only.
struct Portion {
  bool table = true;
  size_t first_add = 0;
  size_t end_add = SIZE_MAX;
  bool checkpoint_metadata = false;
  bool sidecar = false;
};

Result<CheckpointFile> EncodePortion(const delta::Snapshot& snapshot, const Portion& portion) {
  std::shared_ptr<::arrow::Schema> schema = CheckpointSchema();
  Row::Column first = Row::kTxn;
  int count = Row::kColumns;
  if (portion.sidecar) {
    schema = ::arrow::schema(Fields{schema->field(Row::kAdd), schema->field(Row::kRemove)});
    first = Row::kAdd;
    count = 2;
  }
  std::vector<std::unique_ptr<ArrayBuilder>> builders;
  for (const auto& f : schema->fields()) {
    auto made = ::arrow::MakeBuilder(f->type());
    if (!made.ok()) return Failed(made.status());
    builders.push_back(std::move(*made));
  }
  Appender a;
  const Row row{builders, a, first, count};
  CheckpointFile file;
  if (portion.table) {
    AppendProtocol(row, *snapshot.protocol);
    AppendMetadata(row, *snapshot.metadata);
    for (const auto& [app, txn] : snapshot.app_transactions) AppendTxn(row, txn);
    for (const auto& [name, domain] : snapshot.domains) AppendDomain(row, domain);
    file.actions +=
        2 + static_cast<int64_t>(snapshot.app_transactions.size() + snapshot.domains.size());
  }
  size_t i = 0;
  for (const auto& [path, add] : snapshot.files) {
    if (i >= portion.first_add && i < portion.end_add) {
      AppendAdd(row, add);
      ++file.adds;
    }
    ++i;
  }
  if (portion.checkpoint_metadata) {
    ::arrow::StructBuilder* s = a.Struct(row.Start(Row::kCheckpointMetadata));
    a.Long(s->field_builder(0), snapshot.version);
    ++file.actions;
  }
  if (!a.status().ok()) return Failed(a.status());
  file.actions += file.adds;
  RLC_ASSIGN_OR_RETURN(file.bytes, ToParquet(schema, builders, file.actions));
  return file;
}

Status RequireTableActions(const delta::Snapshot& snapshot) {
  if (snapshot.protocol && snapshot.metadata) return Status::Ok();
  return Status::Corrupt("the snapshot at version " + std::to_string(snapshot.version) +
                         " has no protocol or metaData: no checkpoint of it can be read");
}

bool TakesV2(const delta::Snapshot& snapshot) {
  return snapshot.protocol->HasWriterFeature("v2Checkpoint");
}

std::string VersionName(int64_t version) {
  char name[32];
  std::snprintf(name, sizeof(name), "%020lld", static_cast<long long>(version));
  return name;
}

// Puts a checkpoint's file; another writer's file of the same name holds the same state.
Status PutFile(storage::Storage& storage, const std::string& path, const std::string& bytes) {
  const Status put = storage.PutIfAbsent(path, bytes);
  return put.ok() || put.code() == StatusCode::kAlreadyExists ? Status::Ok() : put;
}

// What a layout wrote: the name readers list it by, and _last_checkpoint's counts.
struct Written {
  std::string name;
  int64_t actions = 0;
  int64_t bytes = 0;
  int64_t adds = 0;
  int64_t parts = 0;  // a multi-part checkpoint's
};

// Parts 1..parts, the adds dealt out in runs; the table's actions in part 1. With `drop_last`,
// the last part is not written (a writer that stopped midway): readers skip the checkpoint.
Result<Written> WriteMultiPart(storage::Storage& storage, const std::string& log_dir,
                               const delta::Snapshot& snapshot, int parts, bool drop_last) {
  Written w;
  w.parts = parts;
  const size_t adds = snapshot.files.size();
  for (int part = 1; part <= parts; ++part) {
    Portion portion;
    portion.table = part == 1;
    portion.first_add = adds * static_cast<size_t>(part - 1) / static_cast<size_t>(parts);
    portion.end_add = adds * static_cast<size_t>(part) / static_cast<size_t>(parts);
    RLC_ASSIGN_OR_RETURN(const CheckpointFile file, EncodePortion(snapshot, portion));
    char suffix[48];
    std::snprintf(suffix, sizeof(suffix), ".checkpoint.%010d.%010d.parquet", part, parts);
    const std::string name = VersionName(snapshot.version) + suffix;
    if (part == 1) w.name = name;
    w.actions += file.actions;
    w.bytes += static_cast<int64_t>(file.bytes.size());
    w.adds += file.adds;
    if (drop_last && part == parts) break;
    RLC_RETURN_IF_ERROR(PutFile(storage, log_dir + "/" + name, file.bytes));
  }
  return w;
}

// A sidecar action's line: its path is relative to _delta_log/_sidecars.
std::string SidecarLine(const std::string& name, int64_t size_bytes) {
  delta::JsonWriter j;
  j.BeginObject();
  j.Key("sidecar");
  j.BeginObject();
  j.Field("path", name);
  j.Field("sizeInBytes", size_bytes);
  j.Field("modificationTime", int64_t{0});
  j.EndObject();
  j.EndObject();
  j.EndLine();
  return j.Take();
}

// A UUID-named V2 checkpoint: a JSON top level (checkpointMetadata, the table's actions and one
// sidecar action per sidecar file) and `sidecars` Parquet files under _delta_log/_sidecars
// holding the adds. The sidecars are put first: a reader that lists the top level finds them.
Result<Written> WriteV2WithSidecars(storage::Storage& storage, const std::string& log_dir,
                                    const delta::Snapshot& snapshot, int sidecars,
                                    const std::string& id) {
  Written w;
  std::string top =
      "{\"checkpointMetadata\":{\"version\":" + std::to_string(snapshot.version) + "}}\n";
  std::vector<delta::Action> table = {*snapshot.protocol, *snapshot.metadata};
  for (const auto& [app, txn] : snapshot.app_transactions) table.emplace_back(txn);
  for (const auto& [name, domain] : snapshot.domains) table.emplace_back(domain);
  top += delta::WriteCommitFile(table);
  w.actions = 3 + static_cast<int64_t>(snapshot.app_transactions.size() + snapshot.domains.size());
  const size_t adds = snapshot.files.size();
  for (int k = 0; k < sidecars; ++k) {
    Portion portion;
    portion.table = false;
    portion.sidecar = true;
    portion.first_add = adds * static_cast<size_t>(k) / static_cast<size_t>(sidecars);
    portion.end_add = adds * static_cast<size_t>(k + 1) / static_cast<size_t>(sidecars);
    RLC_ASSIGN_OR_RETURN(const CheckpointFile file, EncodePortion(snapshot, portion));
    const std::string name = id + "-" + std::to_string(k + 1) + ".parquet";
    RLC_RETURN_IF_ERROR(PutFile(storage, log_dir + "/_sidecars/" + name, file.bytes));
    top += SidecarLine(name, static_cast<int64_t>(file.bytes.size()));
    w.actions += file.actions + 1;
    w.adds += file.adds;
    w.bytes += static_cast<int64_t>(file.bytes.size());
  }
  w.name = VersionName(snapshot.version) + ".checkpoint." + id + ".json";
  w.bytes += static_cast<int64_t>(top.size());
  RLC_RETURN_IF_ERROR(PutFile(storage, log_dir + "/" + w.name, top));
  return w;
}

// _last_checkpoint names the newest checkpoint written; a later one's hint stays (the version is
// its first field).
Status PointHint(storage::Storage& storage, const std::string& log_dir, int64_t version,
                 const Written& w) {
  const std::string hint_path = log_dir + "/_last_checkpoint";
  Result<std::string> hint = storage.ReadFile(hint_path);
  if (hint.ok()) {
    long long named = -1;
    if (std::sscanf(hint->c_str(), "{\"version\":%lld", &named) == 1 && named >= version)
      return Status::Ok();
  }
  std::string text = "{\"version\":" + std::to_string(version) +
                     ",\"size\":" + std::to_string(w.actions) +
                     ",\"sizeInBytes\":" + std::to_string(w.bytes) +
                     ",\"numOfAddFiles\":" + std::to_string(w.adds);
  if (w.parts > 0) text += ",\"parts\":" + std::to_string(w.parts);
  return storage.Replace(hint_path, text + "}");
}

}  // namespace

Result<CheckpointFile> EncodeCheckpoint(const delta::Snapshot& snapshot) {
  RLC_RETURN_IF_ERROR(RequireTableActions(snapshot));
  // A table with the v2Checkpoint feature takes V2 checkpoints only: this one becomes a
  // classic-named V2 checkpoint by its checkpointMetadata action (no sidecars: the adds are here).
  Portion whole;
  whole.checkpoint_metadata = TakesV2(snapshot);
  return EncodePortion(snapshot, whole);
}

const char* LayoutName(CheckpointLayout::Kind kind) {
  using K = CheckpointLayout::Kind;
  switch (kind) {
    case K::kClassic:
      return "classic";
    case K::kMultiPart:
      return "multi-part";
    case K::kMultiPartIncomplete:
      return "multi-part-incomplete";
    case K::kSidecars:
      return "sidecars";
  }
  return "classic";
}

std::optional<CheckpointLayout::Kind> ParseLayoutName(std::string_view name) {
  using K = CheckpointLayout::Kind;
  for (K kind : {K::kClassic, K::kMultiPart, K::kMultiPartIncomplete, K::kSidecars}) {
    if (name == LayoutName(kind)) return kind;
  }
  return std::nullopt;
}

Result<std::string> WriteCheckpoint(storage::Storage& storage, std::string_view table_root,
                                    const delta::Snapshot& snapshot,
                                    const CheckpointLayout& layout) {
  RLC_RETURN_IF_ERROR(RequireTableActions(snapshot));
  using K = CheckpointLayout::Kind;
  const std::string log_dir = delta::LogDir(table_root);
  const bool v2 = TakesV2(snapshot);
  const bool multi = layout.kind == K::kMultiPart || layout.kind == K::kMultiPartIncomplete;
  Written w;
  if (multi && !v2) {
    RLC_ASSIGN_OR_RETURN(w, WriteMultiPart(storage, log_dir, snapshot, std::max(layout.parts, 1),
                                           layout.kind == K::kMultiPartIncomplete));
    if (layout.kind == K::kMultiPartIncomplete) return w.name;  // no hint names a torn one
  } else if (layout.kind == K::kSidecars && v2) {
    if (layout.id.empty()) return Status::InvalidArgument("a V2 checkpoint needs an id");
    RLC_ASSIGN_OR_RETURN(
        w, WriteV2WithSidecars(storage, log_dir, snapshot, std::max(layout.parts, 1), layout.id));
  } else {
    RLC_ASSIGN_OR_RETURN(const CheckpointFile file, EncodeCheckpoint(snapshot));
    w = {VersionName(snapshot.version) + ".checkpoint.parquet", file.actions,
         static_cast<int64_t>(file.bytes.size()), file.adds, 0};
    RLC_RETURN_IF_ERROR(PutFile(storage, log_dir + "/" + w.name, file.bytes));
  }
  RLC_RETURN_IF_ERROR(PointHint(storage, log_dir, snapshot.version, w));
  return w.name;
}

}  // namespace rlc::parquet
