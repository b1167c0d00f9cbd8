#include "impl/delta/commit_writer.h"

#include "impl/delta/json_writer.h"

namespace rlc::delta {
namespace {

template <typename T>
void OptionalInt(JsonWriter& w, std::string_view key, const std::optional<T>& v) {
  if (v.has_value()) w.Field(key, int64_t(*v));
}
void OptionalString(JsonWriter& w, std::string_view key, const std::optional<std::string>& v) {
  if (v.has_value()) w.Field(key, std::string_view(*v));
}
// Escaped statistics are written back as they were read (their escapes were checked then).
void OptionalStats(JsonWriter& w, std::string_view key, const std::optional<StatsJson>& v) {
  if (!v.has_value()) return;
  if (!v->escaped()) return w.Field(key, v->text());
  w.Key(key);
  w.Raw("\"" + std::string(v->text()) + "\"");
}
void OptionalMap(JsonWriter& w, std::string_view key, const std::optional<StringMap>& v) {
  if (v.has_value()) w.Field(key, *v);
}

void WriteDescriptor(JsonWriter& w, const std::optional<dv::DvDescriptor>& d) {
  if (!d.has_value()) return;
  w.Key("deletionVector");
  w.BeginObject();
  w.Field("storageType", std::string_view(&d->storage_type, 1));
  w.Field("pathOrInlineDv", std::string_view(d->path_or_inline_dv));
  if (d->offset.has_value()) w.Field("offset", int64_t(*d->offset));
  w.Field("sizeInBytes", int64_t(d->size_bytes));
  w.Field("cardinality", d->cardinality);
  if (d->max_row_index.has_value()) w.Field("maxRowIndex", *d->max_row_index);
  w.EndObject();
}

void WriteStringList(JsonWriter& w, std::string_view key, const std::vector<std::string>& list) {
  w.Key(key);
  w.BeginArray();
  for (const std::string& s : list) w.String(s);
  w.EndArray();
}

struct LineWriter {
  JsonWriter& w;

  void operator()(const AddFile& a) {
    w.Key("add");
    w.BeginObject();
    w.Field("path", std::string_view(a.path));
    w.Field("partitionValues", a.partition_values);
    w.Field("size", a.size_bytes);
    w.Field("modificationTime", a.modification_time_ms);
    w.Field("dataChange", a.data_change);
    OptionalStats(w, "stats", a.stats);
    OptionalMap(w, "tags", a.tags);
    WriteDescriptor(w, a.deletion_vector);
    OptionalInt(w, "baseRowId", a.base_row_id);
    OptionalInt(w, "defaultRowCommitVersion", a.default_row_commit_version);
    OptionalString(w, "clusteringProvider", a.clustering_provider);
    w.Unknown(a.unknown_fields);
    w.EndObject();
  }
  void operator()(const RemoveFile& r) {
    w.Key("remove");
    w.BeginObject();
    w.Field("path", std::string_view(r.path));
    OptionalInt(w, "deletionTimestamp", r.deletion_timestamp_ms);
    w.Field("dataChange", r.data_change);
    if (r.extended_file_metadata.has_value())
      w.Field("extendedFileMetadata", *r.extended_file_metadata);
    OptionalMap(w, "partitionValues", r.partition_values);
    OptionalInt(w, "size", r.size_bytes);
    OptionalStats(w, "stats", r.stats);
    OptionalMap(w, "tags", r.tags);
    WriteDescriptor(w, r.deletion_vector);
    OptionalInt(w, "baseRowId", r.base_row_id);
    OptionalInt(w, "defaultRowCommitVersion", r.default_row_commit_version);
    w.Unknown(r.unknown_fields);
    w.EndObject();
  }
  void operator()(const Metadata& m) {
    w.Key("metaData");
    w.BeginObject();
    w.Field("id", std::string_view(m.id));
    OptionalString(w, "name", m.name);
    OptionalString(w, "description", m.description);
    w.Key("format");
    w.BeginObject();
    w.Field("provider", std::string_view(m.format_provider));
    w.Field("options", m.format_options);
    w.EndObject();
    w.Field("schemaString", std::string_view(m.schema_string));
    WriteStringList(w, "partitionColumns", m.partition_columns);
    w.Field("configuration", m.configuration);
    OptionalInt(w, "createdTime", m.created_time_ms);
    w.Unknown(m.unknown_fields);
    w.EndObject();
  }
  void operator()(const Protocol& p) {
    w.Key("protocol");
    w.BeginObject();
    w.Field("minReaderVersion", int64_t(p.min_reader_version));
    w.Field("minWriterVersion", int64_t(p.min_writer_version));
    if (p.reader_features.has_value()) WriteStringList(w, "readerFeatures", *p.reader_features);
    if (p.writer_features.has_value()) WriteStringList(w, "writerFeatures", *p.writer_features);
    w.Unknown(p.unknown_fields);
    w.EndObject();
  }
  void operator()(const CommitInfo& c) {
    w.Key("commitInfo");
    w.BeginObject();
    OptionalInt(w, "timestamp", c.timestamp_ms);
    OptionalString(w, "operation", c.operation);
    if (!c.operation_parameters.empty()) {
      w.Key("operationParameters");
      w.BeginObject();
      w.Unknown(c.operation_parameters);
      w.EndObject();
    }
    OptionalInt(w, "readVersion", c.read_version);
    OptionalString(w, "isolationLevel", c.isolation_level);
    if (c.is_blind_append.has_value()) w.Field("isBlindAppend", *c.is_blind_append);
    w.Unknown(c.unknown_fields);
    w.EndObject();
  }
  void operator()(const Txn& t) {
    w.Key("txn");
    w.BeginObject();
    w.Field("appId", std::string_view(t.app_id));
    w.Field("version", t.version);
    OptionalInt(w, "lastUpdated", t.last_updated_ms);
    w.Unknown(t.unknown_fields);
    w.EndObject();
  }
  void operator()(const DomainMetadata& d) {
    w.Key("domainMetadata");
    w.BeginObject();
    w.Field("domain", std::string_view(d.domain));
    w.Field("configuration", std::string_view(d.configuration));
    w.Field("removed", d.removed);
    w.Unknown(d.unknown_fields);
    w.EndObject();
  }
  void operator()(const AddCdcFile& c) {
    w.Key("cdc");
    w.BeginObject();
    w.Field("path", std::string_view(c.path));
    w.Field("partitionValues", c.partition_values);
    w.Field("size", c.size_bytes);
    w.Field("dataChange", c.data_change);
    OptionalMap(w, "tags", c.tags);
    w.Unknown(c.unknown_fields);
    w.EndObject();
  }
  void operator()(const UnknownAction&) {}  // written verbatim by the caller
};

// One action as one JSON object (no newline); an action rlc does not model, verbatim.
void WriteAction(JsonWriter& w, const Action& action) {
  if (const auto* unknown = std::get_if<UnknownAction>(&action)) {
    w.Raw(unknown->raw_line);
    return;
  }
  w.BeginObject();
  std::visit(LineWriter{w}, action);
  w.EndObject();
}

}  // namespace

std::string WriteActionLine(const Action& action) {
  JsonWriter w;
  w.Reserve(512);
  WriteAction(w, action);
  return w.Take();
}

std::string WriteCommitFile(const std::vector<Action>& actions) {
  // One buffer for the whole commit: a line is a few hundred bytes, so growing it from empty,
  // line by line, would copy it several times.
  JsonWriter w;
  w.Reserve(actions.size() * 512);
  for (const Action& a : actions) {
    WriteAction(w, a);
    w.EndLine();
  }
  return w.Take();
}

}  // namespace rlc::delta
