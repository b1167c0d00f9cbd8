#include "impl/delta/commit_parser.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "impl/base/limits.h"
#include "impl/delta/raw_json.h"

namespace rlc::delta {
namespace {

namespace od = simdjson::ondemand;

// True when nothing but whitespace follows what was consumed (3.0.1 has no document::at_end).
bool AtEnd(od::document& doc) {
  const char* location = nullptr;
  return doc.current_location().get(location) != simdjson::SUCCESS;
}

// A string value read in place when it holds no escape (paths and DV paths rarely do): the body
// of its token, which On Demand bounds by the next structural character. Sound because On
// Demand's first stage checked the whole line before any field is read (every string closed,
// valid UTF-8, free of control characters), so a body without a backslash is the string's value
// byte for byte. Anything else goes to On Demand, which unescapes or reports the type. This
// spares a call through On Demand's implementation and a copy per string (~5% of a parse).
// The view is valid while the line is.
simdjson::error_code StringOf(od::value& v, std::string_view* out) {
  const std::string_view token = WithoutTrailingWhitespace(v.raw_json_token());
  if (token.size() >= 2 && token.front() == '"' && token.back() == '"') {
    const std::string_view body = token.substr(1, token.size() - 2);
    if (std::memchr(body.data(), '\\', body.size()) == nullptr) {
      *out = body;
      return simdjson::SUCCESS;
    }
  }
  return v.get_string().get(*out);
}

// Reads the fields of one action object. `path_` is the dotted field name used in messages.
class FieldReader {
 public:
  static Status Fail(std::string_view field, std::string_view expected) {
    return Status::Corrupt("field '" + std::string(field) + "': expected " + std::string(expected));
  }

  static Status String(od::value& v, std::string_view field, std::string* out) {
    std::string_view s;
    if (StringOf(v, &s) != simdjson::SUCCESS) return Fail(field, "a string");
    out->assign(s);
    return Status::Ok();
  }
  static Status OptString(od::value& v, std::string_view field, std::optional<std::string>* out) {
    if (IsNull(v)) {
      out->reset();
      return Status::Ok();
    }
    std::string s;
    RLC_RETURN_IF_ERROR(String(v, field, &s));
    *out = std::move(s);
    return Status::Ok();
  }
  static Status Int64(od::value& v, std::string_view field, int64_t* out) {
    if (v.get_int64().get(*out) != simdjson::SUCCESS) return Fail(field, "a 64-bit integer");
    return Status::Ok();
  }
  static Status OptInt64(od::value& v, std::string_view field, std::optional<int64_t>* out) {
    if (IsNull(v)) {
      out->reset();
      return Status::Ok();
    }
    int64_t x = 0;
    RLC_RETURN_IF_ERROR(Int64(v, field, &x));
    *out = x;
    return Status::Ok();
  }
  static Status Int32(od::value& v, std::string_view field, int32_t* out) {
    int64_t x = 0;
    RLC_RETURN_IF_ERROR(Int64(v, field, &x));
    if (x < INT32_MIN || x > INT32_MAX) return Fail(field, "a 32-bit integer");
    *out = int32_t(x);
    return Status::Ok();
  }
  static Status Bool(od::value& v, std::string_view field, bool* out) {
    if (v.get_bool().get(*out) != simdjson::SUCCESS) return Fail(field, "true or false");
    return Status::Ok();
  }
  static Status OptBool(od::value& v, std::string_view field, std::optional<bool>* out) {
    if (IsNull(v)) {
      out->reset();
      return Status::Ok();
    }
    bool b = false;
    RLC_RETURN_IF_ERROR(Bool(v, field, &b));
    *out = b;
    return Status::Ok();
  }
  static Status Map(od::value& v, std::string_view field, StringMap* out) {
    od::object obj;
    if (v.get_object().get(obj) != simdjson::SUCCESS) return Fail(field, "an object");
    out->clear();
    for (auto entry : obj) {
      od::field f;
      std::string_view key;
      if (std::move(entry).get(f) != simdjson::SUCCESS ||
          f.unescaped_key().get(key) != simdjson::SUCCESS) {
        return Fail(field, "an object of strings");
      }
      // A key given twice has no one value (readers disagree: the first, the last), and Delta's
      // writers never give one twice: refused, so that every reader of the map reads one value.
      if (std::any_of(out->begin(), out->end(), [&](const auto& kv) { return kv.first == key; }))
        return Fail(std::string(field) + "." + std::string(key), "a key given once");
      od::value value = f.value();
      std::optional<std::string> s;
      if (!IsNull(value)) {
        std::string_view text;
        if (value.get_string().get(text) != simdjson::SUCCESS) {
          return Fail(std::string(field) + "." + std::string(key), "a string");
        }
        s.emplace(text);
      }
      out->emplace_back(std::string(key), std::move(s));
    }
    return Status::Ok();
  }
  static Status OptMap(od::value& v, std::string_view field, std::optional<StringMap>* out) {
    if (IsNull(v)) {
      out->reset();
      return Status::Ok();
    }
    StringMap m;
    RLC_RETURN_IF_ERROR(Map(v, field, &m));
    *out = std::move(m);
    return Status::Ok();
  }
  static Status StringList(od::value& v, std::string_view field, std::vector<std::string>* out) {
    od::array arr;
    if (v.get_array().get(arr) != simdjson::SUCCESS) return Fail(field, "an array of strings");
    out->clear();
    for (auto element : arr) {
      std::string_view s;
      if (element.get_string().get(s) != simdjson::SUCCESS)
        return Fail(field, "an array of strings");
      out->emplace_back(s);
    }
    return Status::Ok();
  }
  static Status Raw(od::value& v, std::string_view field, std::string* out) {
    // On Demand skips over an object or array without validating it; a raw value is written back
    // verbatim, so RawJsonValue checks it (only unknown fields pay for this).
    if (!RawJsonValue(v, out)) return Fail(field, "a valid JSON value");
    return Status::Ok();
  }
  static Status Unknown(od::field& f, std::string_view key, std::string_view action,
                        std::vector<UnknownField>* out) {
    UnknownField u;
    u.key.assign(key);
    od::value v = f.value();
    RLC_RETURN_IF_ERROR(Raw(v, std::string(action) + "." + u.key, &u.raw_json));
    out->push_back(std::move(u));
    return Status::Ok();
  }
  static bool IsNull(od::value& v) {
    // Only a token that starts with 'n' can be null; peeking first spares most values On
    // Demand's full check (~4% of a parse, which asks this of every optional field).
    const std::string_view token = v.raw_json_token();
    if (token.empty() || token.front() != 'n') return false;
    bool is_null = false;
    return v.is_null().get(is_null) == simdjson::SUCCESS && is_null;
  }
};

using R = FieldReader;

// Whether a key is `name`: the size first, then a comparison of known length the compiler
// writes inline (a call to compare strings per key was a measurable part of a parse).
template <size_t N>
bool Is(std::string_view key, const char (&name)[N]) {
  return key.size() == N - 1 && std::memcmp(key.data(), name, N - 1) == 0;
}

// Iterates an object's fields, calling on_field(key, field) for each.
template <typename OnField>
Status ForEachField(od::value& v, std::string_view what, OnField on_field) {
  od::object obj;
  if (v.get_object().get(obj) != simdjson::SUCCESS) return R::Fail(what, "an object");
  for (auto entry : obj) {
    od::field f;
    std::string_view key;
    if (std::move(entry).get(f) != simdjson::SUCCESS ||
        f.unescaped_key().get(key) != simdjson::SUCCESS) {
      return R::Fail(what, "an object with string keys");
    }
    // The key stays valid: On Demand unescapes into a per-document buffer that later strings
    // append to, never overwrite.
    RLC_RETURN_IF_ERROR(on_field(key, f));
  }
  return Status::Ok();
}

// Field names for messages, built once: concatenating them per action is measurable.
struct DescriptorFieldNames {
  explicit DescriptorFieldNames(const std::string& base)
      : storage_type(base + ".storageType"),
        path(base + ".pathOrInlineDv"),
        offset(base + ".offset"),
        size(base + ".sizeInBytes"),
        cardinality(base + ".cardinality"),
        max_row_index(base + ".maxRowIndex"),
        context("field '" + base + "'") {}
  std::string storage_type, path, offset, size, cardinality, max_row_index, context;
};

const DescriptorFieldNames& NamesFor(std::string_view field) {
  static const DescriptorFieldNames add("add.deletionVector");
  static const DescriptorFieldNames remove("remove.deletionVector");
  return field.substr(0, 3) == "add" ? add : remove;
}

Status ParseDescriptor(od::value& v, std::string_view field, std::optional<dv::DvDescriptor>* out) {
  if (R::IsNull(v)) {
    out->reset();
    return Status::Ok();
  }
  dv::DvDescriptor d;
  bool has_type = false, has_path = false, has_size = false, has_cardinality = false;
  const DescriptorFieldNames& names = NamesFor(field);
  RLC_RETURN_IF_ERROR(ForEachField(v, field, [&](std::string_view key, od::field& f) -> Status {
    od::value x = f.value();
    if (Is(key, "storageType")) {
      std::string s;
      RLC_RETURN_IF_ERROR(R::String(x, names.storage_type, &s));
      if (s.size() != 1) return R::Fail(names.storage_type, "one character");
      d.storage_type = s[0];
      has_type = true;
    } else if (Is(key, "pathOrInlineDv")) {
      has_path = true;
      return R::String(x, names.path, &d.path_or_inline_dv);
    } else if (Is(key, "offset")) {
      if (R::IsNull(x)) return Status::Ok();
      int32_t o = 0;
      RLC_RETURN_IF_ERROR(R::Int32(x, names.offset, &o));
      d.offset = o;
    } else if (Is(key, "sizeInBytes")) {
      has_size = true;
      return R::Int32(x, names.size, &d.size_bytes);
    } else if (Is(key, "cardinality")) {
      has_cardinality = true;
      return R::Int64(x, names.cardinality, &d.cardinality);
    } else if (Is(key, "maxRowIndex")) {
      return R::OptInt64(x, names.max_row_index, &d.max_row_index);
    }
    return Status::Ok();  // unknown descriptor fields are ignored
  }));
  if (!has_type || !has_path || !has_size || !has_cardinality) {
    return R::Fail(field, "storageType, pathOrInlineDv, sizeInBytes and cardinality");
  }
  RLC_RETURN_IF_ERROR(d.Validate().WithContext(names.context));
  *out = std::move(d);
  return Status::Ok();
}

// Where a parse keeps its actions' statistics (stats_json.h): the escaped text of each, copied
// into chunks shared by the commit's actions, never unescaped here.
struct StatsSink {
  StatsChunks chunks;
  size_t remaining = 0;  // bytes of the input from the current line on: a bound of what is left
};

Status ReadStats(od::value& v, std::string_view field, StatsSink& sink,
                 std::optional<StatsJson>* out) {
  if (R::IsNull(v)) {
    out->reset();
    return Status::Ok();
  }
  // The string with its quotes (On Demand's raw token, less the whitespace after it).
  const std::string_view raw = WithoutTrailingWhitespace(v.raw_json_token());
  if (raw.size() < 2 || raw.front() != '"' || raw.back() != '"') return R::Fail(field, "a string");
  const std::string_view escaped = raw.substr(1, raw.size() - 2);
  if (!IsJsonStringInside(escaped)) return R::Fail(field, "a string (an escape JSON allows)");
  *out = sink.chunks.Keep(escaped, sink.remaining);
  return Status::Ok();
}

Status ParseAdd(od::value& v, AddFile* a, StatsSink& sink) {
  bool has_path = false, has_pv = false, has_size = false, has_mtime = false, has_dc = false;
  RLC_RETURN_IF_ERROR(ForEachField(v, "add", [&](std::string_view key, od::field& f) -> Status {
    od::value x = f.value();
    if (Is(key, "path")) {
      has_path = true;
      return R::String(x, "add.path", &a->path);
    }
    if (Is(key, "partitionValues")) {
      has_pv = true;
      return R::Map(x, "add.partitionValues", &a->partition_values);
    }
    if (Is(key, "size")) {
      has_size = true;
      return R::Int64(x, "add.size", &a->size_bytes);
    }
    if (Is(key, "modificationTime")) {
      has_mtime = true;
      return R::Int64(x, "add.modificationTime", &a->modification_time_ms);
    }
    if (Is(key, "dataChange")) {
      has_dc = true;
      return R::Bool(x, "add.dataChange", &a->data_change);
    }
    if (Is(key, "stats")) return ReadStats(x, "add.stats", sink, &a->stats);
    if (Is(key, "tags")) return R::OptMap(x, "add.tags", &a->tags);
    if (Is(key, "deletionVector"))
      return ParseDescriptor(x, "add.deletionVector", &a->deletion_vector);
    if (Is(key, "baseRowId")) return R::OptInt64(x, "add.baseRowId", &a->base_row_id);
    if (Is(key, "defaultRowCommitVersion"))
      return R::OptInt64(x, "add.defaultRowCommitVersion", &a->default_row_commit_version);
    if (Is(key, "clusteringProvider"))
      return R::OptString(x, "add.clusteringProvider", &a->clustering_provider);
    return R::Unknown(f, key, "add", &a->unknown_fields);
  }));
  if (!has_path) return R::Fail("add.path", "a required field");
  if (!has_pv) return R::Fail("add.partitionValues", "a required field");
  if (!has_size) return R::Fail("add.size", "a required field");
  if (!has_mtime) return R::Fail("add.modificationTime", "a required field");
  if (!has_dc) return R::Fail("add.dataChange", "a required field");
  return Status::Ok();
}

Status ParseRemove(od::value& v, RemoveFile* r, StatsSink& sink) {
  bool has_path = false, has_dc = false;
  RLC_RETURN_IF_ERROR(ForEachField(v, "remove", [&](std::string_view key, od::field& f) -> Status {
    od::value x = f.value();
    if (Is(key, "path")) {
      has_path = true;
      return R::String(x, "remove.path", &r->path);
    }
    if (Is(key, "deletionTimestamp"))
      return R::OptInt64(x, "remove.deletionTimestamp", &r->deletion_timestamp_ms);
    if (Is(key, "dataChange")) {
      has_dc = true;
      return R::Bool(x, "remove.dataChange", &r->data_change);
    }
    if (Is(key, "extendedFileMetadata"))
      return R::OptBool(x, "remove.extendedFileMetadata", &r->extended_file_metadata);
    if (Is(key, "partitionValues"))
      return R::OptMap(x, "remove.partitionValues", &r->partition_values);
    if (Is(key, "size")) return R::OptInt64(x, "remove.size", &r->size_bytes);
    if (Is(key, "stats")) return ReadStats(x, "remove.stats", sink, &r->stats);
    if (Is(key, "tags")) return R::OptMap(x, "remove.tags", &r->tags);
    if (Is(key, "deletionVector"))
      return ParseDescriptor(x, "remove.deletionVector", &r->deletion_vector);
    if (Is(key, "baseRowId")) return R::OptInt64(x, "remove.baseRowId", &r->base_row_id);
    if (Is(key, "defaultRowCommitVersion"))
      return R::OptInt64(x, "remove.defaultRowCommitVersion", &r->default_row_commit_version);
    return R::Unknown(f, key, "remove", &r->unknown_fields);
  }));
  if (!has_path) return R::Fail("remove.path", "a required field");
  if (!has_dc) return R::Fail("remove.dataChange", "a required field");
  return Status::Ok();
}

Status ParseMetadata(od::value& v, Metadata* m) {
  bool has_id = false, has_schema = false;
  RLC_RETURN_IF_ERROR(
      ForEachField(v, "metaData", [&](std::string_view key, od::field& f) -> Status {
        od::value x = f.value();
        if (Is(key, "id")) {
          has_id = true;
          return R::String(x, "metaData.id", &m->id);
        }
        if (Is(key, "name")) return R::OptString(x, "metaData.name", &m->name);
        if (Is(key, "description")) return R::OptString(x, "metaData.description", &m->description);
        if (Is(key, "schemaString")) {
          has_schema = true;
          return R::String(x, "metaData.schemaString", &m->schema_string);
        }
        if (Is(key, "partitionColumns"))
          return R::StringList(x, "metaData.partitionColumns", &m->partition_columns);
        if (Is(key, "configuration")) return R::Map(x, "metaData.configuration", &m->configuration);
        if (Is(key, "createdTime"))
          return R::OptInt64(x, "metaData.createdTime", &m->created_time_ms);
        if (Is(key, "format")) {
          return ForEachField(
              x, "metaData.format", [&](std::string_view k, od::field& g) -> Status {
                od::value y = g.value();
                if (Is(k, "provider"))
                  return R::String(y, "metaData.format.provider", &m->format_provider);
                if (Is(k, "options"))
                  return R::Map(y, "metaData.format.options", &m->format_options);
                return Status::Ok();
              });
        }
        return R::Unknown(f, key, "metaData", &m->unknown_fields);
      }));
  if (!has_id) return R::Fail("metaData.id", "a required field");
  if (!has_schema) return R::Fail("metaData.schemaString", "a required field");
  return Status::Ok();
}

Status ParseProtocol(od::value& v, Protocol* p) {
  bool has_reader = false, has_writer = false;
  RLC_RETURN_IF_ERROR(
      ForEachField(v, "protocol", [&](std::string_view key, od::field& f) -> Status {
        od::value x = f.value();
        if (Is(key, "minReaderVersion")) {
          has_reader = true;
          return R::Int32(x, "protocol.minReaderVersion", &p->min_reader_version);
        }
        if (Is(key, "minWriterVersion")) {
          has_writer = true;
          return R::Int32(x, "protocol.minWriterVersion", &p->min_writer_version);
        }
        if (Is(key, "readerFeatures")) {
          std::vector<std::string> list;
          RLC_RETURN_IF_ERROR(R::StringList(x, "protocol.readerFeatures", &list));
          p->reader_features = std::move(list);
          return Status::Ok();
        }
        if (Is(key, "writerFeatures")) {
          std::vector<std::string> list;
          RLC_RETURN_IF_ERROR(R::StringList(x, "protocol.writerFeatures", &list));
          p->writer_features = std::move(list);
          return Status::Ok();
        }
        return R::Unknown(f, key, "protocol", &p->unknown_fields);
      }));
  if (!has_reader) return R::Fail("protocol.minReaderVersion", "a required field");
  if (!has_writer) return R::Fail("protocol.minWriterVersion", "a required field");
  return Status::Ok();
}

Status ParseCommitInfo(od::value& v, CommitInfo* c) {
  return ForEachField(v, "commitInfo", [&](std::string_view key, od::field& f) -> Status {
    od::value x = f.value();
    if (Is(key, "timestamp")) return R::OptInt64(x, "commitInfo.timestamp", &c->timestamp_ms);
    if (Is(key, "operation")) return R::OptString(x, "commitInfo.operation", &c->operation);
    if (Is(key, "readVersion")) return R::OptInt64(x, "commitInfo.readVersion", &c->read_version);
    if (Is(key, "isolationLevel"))
      return R::OptString(x, "commitInfo.isolationLevel", &c->isolation_level);
    if (Is(key, "isBlindAppend"))
      return R::OptBool(x, "commitInfo.isBlindAppend", &c->is_blind_append);
    if (Is(key, "operationParameters")) {
      return ForEachField(
          x, "commitInfo.operationParameters", [&](std::string_view k, od::field& g) {
            return R::Unknown(g, k, "commitInfo.operationParameters", &c->operation_parameters);
          });
    }
    return R::Unknown(f, key, "commitInfo", &c->unknown_fields);
  });
}

Status ParseTxn(od::value& v, Txn* t) {
  bool has_app = false, has_version = false;
  RLC_RETURN_IF_ERROR(ForEachField(v, "txn", [&](std::string_view key, od::field& f) -> Status {
    od::value x = f.value();
    if (Is(key, "appId")) {
      has_app = true;
      return R::String(x, "txn.appId", &t->app_id);
    }
    if (Is(key, "version")) {
      has_version = true;
      return R::Int64(x, "txn.version", &t->version);
    }
    if (Is(key, "lastUpdated")) return R::OptInt64(x, "txn.lastUpdated", &t->last_updated_ms);
    return R::Unknown(f, key, "txn", &t->unknown_fields);
  }));
  if (!has_app || !has_version) return R::Fail("txn", "appId and version");
  return Status::Ok();
}

Status ParseDomainMetadata(od::value& v, DomainMetadata* d) {
  bool has_domain = false, has_config = false, has_removed = false;
  RLC_RETURN_IF_ERROR(
      ForEachField(v, "domainMetadata", [&](std::string_view key, od::field& f) -> Status {
        od::value x = f.value();
        if (Is(key, "domain")) {
          has_domain = true;
          return R::String(x, "domainMetadata.domain", &d->domain);
        }
        if (Is(key, "configuration")) {
          has_config = true;
          return R::String(x, "domainMetadata.configuration", &d->configuration);
        }
        if (Is(key, "removed")) {
          has_removed = true;
          return R::Bool(x, "domainMetadata.removed", &d->removed);
        }
        return R::Unknown(f, key, "domainMetadata", &d->unknown_fields);
      }));
  if (!has_domain || !has_config || !has_removed) {
    return R::Fail("domainMetadata", "domain, configuration and removed");
  }
  return Status::Ok();
}

Status ParseCdc(od::value& v, AddCdcFile* c) {
  bool has_path = false;
  RLC_RETURN_IF_ERROR(ForEachField(v, "cdc", [&](std::string_view key, od::field& f) -> Status {
    od::value x = f.value();
    if (Is(key, "path")) {
      has_path = true;
      return R::String(x, "cdc.path", &c->path);
    }
    if (Is(key, "partitionValues")) return R::Map(x, "cdc.partitionValues", &c->partition_values);
    if (Is(key, "size")) return R::Int64(x, "cdc.size", &c->size_bytes);
    if (Is(key, "dataChange")) return R::Bool(x, "cdc.dataChange", &c->data_change);
    if (Is(key, "tags")) return R::OptMap(x, "cdc.tags", &c->tags);
    return R::Unknown(f, key, "cdc", &c->unknown_fields);
  }));
  if (!has_path) return R::Fail("cdc.path", "a required field");
  return Status::Ok();
}

// Parses straight into the action's place (a commit holds up to millions: no temporary to move).
template <typename T, typename ParseFn>
Status ParseInto(od::value& v, Action* out, ParseFn parse) {
  return parse(v, &out->emplace<T>());
}

// Parses the action object of `doc`, the document of `line` (an od::document, or a document of
// On Demand's stream), up to its closing brace.
template <typename Document>
Status ParseAction(Document& doc, std::string_view line, StatsSink& sink, Action* out) {
  od::object obj;
  if (simdjson::error_code error = doc.get_object().get(obj)) {
    return Status::Corrupt(std::string("a log line must be one JSON object (") +
                           simdjson::error_message(error) + ")");
  }
  int actions = 0;
  for (auto entry : obj) {
    od::field f;
    std::string_view key_view;
    simdjson::error_code error = std::move(entry).get(f);
    if (!error) error = f.unescaped_key().get(key_view);
    if (error) {
      return Status::Corrupt(std::string("malformed JSON object (") +
                             simdjson::error_message(error) + ")");
    }
    if (++actions > 1) return Status::Corrupt("a log line must hold exactly one action");
    const std::string_view key = key_view;
    od::value v = f.value();
    if (Is(key, "add")) {
      RLC_RETURN_IF_ERROR(ParseAdd(v, &out->emplace<AddFile>(), sink));
    } else if (Is(key, "remove")) {
      RLC_RETURN_IF_ERROR(ParseRemove(v, &out->emplace<RemoveFile>(), sink));
    } else if (Is(key, "metaData")) {
      RLC_RETURN_IF_ERROR(ParseInto<Metadata>(v, out, ParseMetadata));
    } else if (Is(key, "protocol")) {
      RLC_RETURN_IF_ERROR(ParseInto<Protocol>(v, out, ParseProtocol));
    } else if (Is(key, "commitInfo")) {
      RLC_RETURN_IF_ERROR(ParseInto<CommitInfo>(v, out, ParseCommitInfo));
    } else if (Is(key, "txn")) {
      RLC_RETURN_IF_ERROR(ParseInto<Txn>(v, out, ParseTxn));
    } else if (Is(key, "domainMetadata")) {
      RLC_RETURN_IF_ERROR(ParseInto<DomainMetadata>(v, out, ParseDomainMetadata));
    } else if (Is(key, "cdc")) {
      RLC_RETURN_IF_ERROR(ParseInto<AddCdcFile>(v, out, ParseCdc));
    } else {
      std::string raw;
      RLC_RETURN_IF_ERROR(R::Raw(v, key, &raw));  // validates the value (see Raw)
      // Trailing whitespace is not kept: ParseCommit drops a line's last '\r', so a raw line
      // ending in '\r' would not survive WriteCommitFile -> ParseCommit.
      *out = UnknownAction{std::string(key), std::string(WithoutTrailingWhitespace(line))};
    }
  }
  if (actions == 0) return Status::Corrupt("a log line must hold exactly one action");
  return Status::Ok();
}

// Parses the line at `line` alone (capacity bytes readable from there, >= size +
// SIMDJSON_PADDING).
Status ParseLine(od::parser& parser, const char* line, size_t size, size_t capacity,
                 StatsSink& sink, Action* out) {
  od::document doc;
  if (simdjson::error_code error = parser.iterate(line, size, capacity).get(doc)) {
    return Status::Corrupt(std::string("not a JSON document (") + simdjson::error_message(error) +
                           ")");
  }
  RLC_RETURN_IF_ERROR(ParseAction(doc, std::string_view(line, size), sink, out));
  // Nothing may follow the object.
  if (!AtEnd(doc)) return Status::Corrupt("trailing characters after the JSON object");
  return Status::Ok();
}

bool IsJsonWhitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A commit's lines through On Demand's document stream: one first stage (the structural scan
// and validation) per batch of lines rather than one per line, ~10% of a parse. The stream reads
// documents, not lines, so a line is taken from it only when it is provably one document, the
// one ParseLine would read: the stream's next document starts at the line's first byte, parses,
// and its last structural character lies before the line's newline with the next one after it
// (strings hold no raw newline, and any other byte outside whitespace starts a structural
// character, so nothing else is on the line). A line that is not, or whose document ends its
// batch (the next is not yet scanned), is parsed alone by the caller; once the stream has gone
// astray (a first-stage error, leading whitespace, a document that fails or shares its line
// with more), so is every later line. Blank lines hold no document: the caller skips them. The
// stream only ever spares work: each line's result is ParseLine's.
class StreamedLines {
 public:
  // `region`: whole lines, with SIMDJSON_PADDING bytes readable past its end.
  StreamedLines(od::parser& parser, std::string_view region) : base_(region.data()) {
    constexpr size_t kBatchBytes = size_t{1} << 20;  // lines longer than this are parsed alone
    parser.threaded = false;  // no thread of simdjson's own: callers choose their threads
    live_ = parser.iterate_many(region.data(), region.size(), kBatchBytes).get(stream_) ==
            simdjson::SUCCESS;
    if (live_) it_ = stream_.begin();
  }

  // Parses the line [start, start + size) of the region, its newline at `newline`, into *out.
  // False: parse the line alone (*out may hold a part of it).
  bool Next(size_t start, size_t size, size_t newline, StatsSink& sink, Action* out) {
    if (!live_ || !(it_ != stream_.end())) return Stop();
    od::document_reference doc;
    if ((*it_).get(doc) != simdjson::SUCCESS || it_.current_index() != start) return Stop();
    if (!ParseAction(doc, std::string_view(base_ + start, size), sink, out).ok()) return Stop();
    const char* next = nullptr;
    const bool batch_end = doc.current_location().get(next) != simdjson::SUCCESS;
    ++it_;
    if (batch_end) return false;  // the stream goes on; this line is judged alone
    const char* last = next;
    while (last > base_ + start && IsJsonWhitespace(last[-1])) --last;
    if (next <= base_ + newline || last > base_ + newline) return Stop();
    return true;
  }

 private:
  bool Stop() {
    live_ = false;
    return false;
  }
  const char* base_;
  od::document_stream stream_;
  od::document_stream::iterator it_;
  bool live_ = false;
};

}  // namespace

Result<Action> ParseActionLine(std::string_view line) {
  simdjson::padded_string padded(line);
  thread_local od::parser parser;  // reused: a parser keeps its buffers between documents
  Action action;
  StatsSink sink;
  sink.remaining = line.size();
  RLC_RETURN_IF_ERROR(ParseLine(parser, padded.data(), line.size(),
                                padded.size() + simdjson::SIMDJSON_PADDING, sink, &action));
  return action;
}

namespace {

// Where each line of `bytes` ends (the offset of its newline, or bytes.size() for the last).
std::vector<size_t> LineEnds(std::string_view bytes) {
  std::vector<size_t> ends;
  ends.reserve(bytes.size() / 256 + 1);
  const char* const begin = bytes.data();
  const char* const end = begin + bytes.size();
  for (const char* p = begin; p < end;) {
    const void* newline = std::memchr(p, '\n', size_t(end - p));
    const char* at = newline ? static_cast<const char*>(newline) : end;
    ends.push_back(size_t(at - begin));
    p = at + 1;
  }
  return ends;
}

// Where a commit's lines are parsed from. Lines are parsed where they are: simdjson may read
// SIMDJSON_PADDING bytes past a document's end, which within the file are the next lines' bytes
// (it never takes them for the line's). Only the lines from the first that ends that close to
// the file's end are parsed from a padded copy of that tail, not the whole file (a copy of a
// 100,000-action commit is ~10% of its parse). The lines before `stream_end`, a line's start
// with SIMDJSON_PADDING bytes after it, may come from the document stream (StreamedLines), when
// they are enough to be worth its parser (~1 MiB of memory per thread).
struct LinePlaces {
  size_t tail_from = 0;
  size_t stream_end = 0;  // 0: no stream

  LinePlaces(std::string_view bytes, const std::vector<size_t>& ends) : tail_from(bytes.size()) {
    constexpr size_t kStreamBytesMin = size_t{64} << 10;
    constexpr size_t kPadding = simdjson::SIMDJSON_PADDING;
    for (size_t line = ends.size(); line-- > 0;) {  // from the last line back
      const size_t start = line == 0 ? 0 : ends[line - 1] + 1;
      if (stream_end == 0 && start + kPadding <= bytes.size()) stream_end = start;
      if (ends[line] + kPadding <= bytes.size()) break;  // nor is any line before it in the tail
      tail_from = start;
    }
    if (stream_end < kStreamBytesMin) stream_end = 0;
  }
};

// The thread's parser for a commit's document stream. A stream lives across a walk's `done`
// calls, so a `done` that parses a commit itself gets a parser of its own for its stream.
class StreamParser {
 public:
  StreamParser() {
    if (taken_) {
      own_ = std::make_unique<od::parser>();
    } else {
      taken_ = true;
    }
  }
  ~StreamParser() {
    if (own_ == nullptr) taken_ = false;
  }
  StreamParser(const StreamParser&) = delete;
  StreamParser& operator=(const StreamParser&) = delete;
  od::parser& get() { return own_ != nullptr ? *own_ : ThreadParser(); }

 private:
  static od::parser& ThreadParser() {
    thread_local od::parser parser;  // reused: it keeps its buffers between commits
    return parser;
  }
  static inline thread_local bool taken_ = false;
  std::unique_ptr<od::parser> own_;
};

// Walks the commit's lines: `reserve(n)` learns how many there are, then each non-empty one is
// parsed into `slot()` and handed to `done()`, whose error stops the walk.
template <typename Reserve, typename Slot, typename Done>
Status ParseLines(std::string_view bytes, int64_t version, std::string_view file_name,
                  Reserve reserve, Slot slot, Done done) {
  if (bytes.size() > kCommitFileBytesMax) {
    return Status::OverLimit(std::string(file_name) + ": " + std::to_string(bytes.size()) +
                             " bytes exceeds the commit size limit");
  }
  const std::vector<size_t> ends = LineEnds(bytes);
  reserve(std::min<size_t>(ends.size(), kActionsPerCommitMax));
  const LinePlaces places(bytes, ends);
  const size_t tail_from = places.tail_from;
  const simdjson::padded_string tail(bytes.substr(std::min(tail_from, bytes.size())));
  thread_local od::parser parser;  // reused: a parser keeps its buffers between documents
  std::optional<StreamParser> stream_parser;  // declared before the stream it outlives
  std::optional<StreamedLines> stream;
  if (places.stream_end > 0) {
    stream_parser.emplace();
    stream.emplace(stream_parser->get(), bytes.substr(0, places.stream_end));
  }
  size_t pos = 0;
  uint64_t actions = 0;
  StatsSink sink;
  for (size_t line = 0; line < ends.size(); pos = ends[line] + 1, ++line) {
    const bool in_tail = pos >= tail_from;
    const char* start = in_tail ? tail.data() + (pos - tail_from) : bytes.data() + pos;
    const size_t capacity =
        in_tail ? tail.size() - (pos - tail_from) + simdjson::SIMDJSON_PADDING : bytes.size() - pos;
    size_t size = ends[line] - pos;
    if (size > 0 && start[size - 1] == '\r') --size;
    if (size == 0) continue;
    if (++actions > kActionsPerCommitMax) {
      return Status::OverLimit(std::string(file_name) + ": more than " +
                               std::to_string(kActionsPerCommitMax) + " actions");
    }
    Action& action = slot();
    sink.remaining = bytes.size() - pos;
    const bool streamed = stream.has_value() && ends[line] < places.stream_end &&
                          stream->Next(pos, size, ends[line], sink, &action);
    if (Status s =
            streamed ? Status::Ok() : ParseLine(parser, start, size, capacity, sink, &action);
        !s.ok()) {
      return s.WithContext(std::string(file_name) + " (version " + std::to_string(version) +
                           ") line " + std::to_string(line + 1) + " at byte " +
                           std::to_string(pos));
    }
    RLC_RETURN_IF_ERROR(done(action));
  }
  return Status::Ok();
}

}  // namespace

Result<Commit> ParseCommit(std::string_view bytes, int64_t version, std::string_view file_name) {
  Commit commit;
  commit.version = version;
  // One slot per line, reserved up front and parsed in place: growing a vector of actions moves
  // each of them again.
  RLC_RETURN_IF_ERROR(ParseLines(
      bytes, version, file_name, [&](size_t lines) { commit.actions.reserve(lines); },
      [&]() -> Action& { return commit.actions.emplace_back(); },
      [](Action&) { return Status::Ok(); }));
  return commit;
}

Status ForEachCommitAction(std::string_view bytes, int64_t version, std::string_view file_name,
                           const std::function<void(size_t lines)>& reserve,
                           const std::function<Status(Action&& action)>& visit) {
  Action action;
  return ParseLines(
      bytes, version, file_name,
      [&](size_t lines) {
        if (reserve) reserve(lines);
      },
      [&]() -> Action& { return action; },
      [&](Action& parsed) { return visit(std::move(parsed)); });
}

}  // namespace rlc::delta
