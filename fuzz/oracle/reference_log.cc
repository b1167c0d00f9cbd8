#include "fuzz/oracle/reference_log.h"

#include <cctype>
#include <string_view>

#include "fuzz/oracle/json_reader.h"

namespace rlc::oracle {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The DV descriptor of an add or remove; false with `why` when a field is malformed. `where`
// names the action for the message.
template <typename Where>
bool ReadDv(const json::Value& dv, const Where& where, ReferenceDv* d, std::string* why) {
  if (!dv.is_object()) return *why = where() + "deletionVector is not an object", false;
  const json::Value* type = dv.Find("storageType");
  const json::Value* text = dv.Find("pathOrInlineDv");
  if (type == nullptr || !type->is_string())
    return *why = where() + "the DV lacks a string storageType", false;
  if (text == nullptr || !text->is_string())
    return *why = where() + "the DV lacks a string pathOrInlineDv", false;
  d->storage_type = type->text;
  d->path_or_inline = text->text;
  const auto integer = [&](const char* name, std::optional<int64_t>* out) {
    const json::Value* v = dv.Find(name);
    if (v == nullptr || v->is_null()) return true;
    *out = v->Int();
    if (!out->has_value()) *why = where() + "the DV's " + name + " is not an integer";
    return out->has_value();
  };
  return integer("offset", &d->offset) && integer("sizeInBytes", &d->size_in_bytes) &&
         integer("cardinality", &d->cardinality);
}

// numRecords from an action's statistics, and the composition tags of its tags map.
void ReadStatsAndTags(const json::Value& f, ReferenceFileAction* action) {
  if (const json::Value* stats = f.Find("stats"); stats != nullptr && stats->is_string()) {
    std::string ignored;
    // numRecords is all the oracle reads of the stats; the rest is checked, not built.
    const std::optional<json::Value> parsed =
        json::ParseKeeping(stats->text, {"numRecords"}, &ignored);
    if (parsed) {
      if (const json::Value* n = parsed->Find("numRecords"); n != nullptr)
        action->num_records = n->Int();
    }
  }
  if (const json::Value* tags = f.Find("tags"); tags != nullptr && tags->is_object()) {
    const auto tag = [&](const char* name, std::optional<std::string>* out) {
      const json::Value* v = tags->Find(name);
      if (v == nullptr) return;
      if (v->is_string()) {
        *out = v->text;
      } else {
        action->composition_tags_malformed = true;
      }
    };
    tag("compactedInto", &action->compacted_into);
    tag("compactionInfo", &action->compaction_info);
  }
}

// Fills `action` from an add's or remove's object; false with `why` when a field is malformed.
bool ReadFileAction(const json::Value& f, bool is_add, ReferenceFileAction* action,
                    std::string* why) {
  action->is_add = is_add;
  const char* an = is_add ? "an add" : "a remove";
  if (!f.is_object()) return *why = std::string(an) + " is not an object", false;
  const json::Value* path = f.Find("path");
  if (path == nullptr || !path->is_string())
    return *why = std::string(an) + " without a string path", false;
  action->path = UrlDecodePath(path->text);
  // Built only for an error: this runs for every add and remove of the log.
  const auto where = [&] { return std::string(is_add ? "add " : "remove ") + action->path + ": "; };
  if (const json::Value* dv = f.Find("deletionVector"); dv != nullptr && !dv->is_null()) {
    ReferenceDv d;
    if (!ReadDv(*dv, where, &d, why)) return false;
    action->dv = std::move(d);
  }
  action->has_base_row_id =
      f.Find("baseRowId") != nullptr && f.Find("defaultRowCommitVersion") != nullptr;
  if (const json::Value* change = f.Find("dataChange"); change != nullptr) {
    if (!change->is_bool()) return *why = where() + "dataChange is not a boolean", false;
    action->data_change = change->kind == json::Value::Kind::kTrue;
  }
  if (const json::Value* parts = f.Find("partitionValues"); parts != nullptr && !parts->is_null()) {
    if (!parts->is_object()) return *why = where() + "partitionValues is not an object", false;
    for (size_t i = 0; i < parts->names.size(); ++i) {
      const json::Value& v = parts->items[i];
      if (!v.is_null() && !v.is_string()) {
        return *why = where() + "partition value " + parts->names[i] + " is not a string", false;
      }
      action->partition_values[parts->names[i]] =
          v.is_null() ? std::nullopt : std::optional<std::string>(v.text);
    }
  }
  ReadStatsAndTags(f, action);
  return true;
}

// The physical names of a metaData action's top-level columns under column mapping (PROTOCOL.md
// "Column Mapping": each field's metadata delta.columnMapping.physicalName names it in the data
// files, statistics and partition values); an empty map without mapping.
bool ReadColumnMapping(const json::Value& metadata, std::map<std::string, std::string>* physical,
                       std::string* why) {
  std::string mode = "none";
  if (const json::Value* conf = metadata.Find("configuration"); conf && conf->is_object()) {
    if (const json::Value* m = conf->Find("delta.columnMapping.mode"); m && m->is_string())
      mode = m->text;
  }
  if (mode == "none") return true;
  if (mode != "name" && mode != "id")
    return *why = "metaData: column mapping mode '" + mode + "' is not none, name or id", false;
  const json::Value* text = metadata.Find("schemaString");
  if (text == nullptr || !text->is_string()) return *why = "metaData: no schemaString", false;
  const std::optional<json::Value> schema = json::Parse(text->text, why);
  const json::Value* fields = schema ? schema->Find("fields") : nullptr;
  if (fields == nullptr || !fields->is_array())
    return *why = "metaData: the schemaString is not a struct of fields", false;
  for (const json::Value& field : fields->items) {
    const json::Value* name = field.Find("name");
    const json::Value* meta = field.Find("metadata");
    const json::Value* physical_name =
        meta != nullptr ? meta->Find("delta.columnMapping.physicalName") : nullptr;
    if (name == nullptr || !name->is_string() || physical_name == nullptr ||
        !physical_name->is_string())
      return *why = "metaData: a mapped column without a name or a physical name", false;
    (*physical)[name->text] = physical_name->text;
  }
  return true;
}

// One commit's lines; false with `why` at the first malformed one.
bool ReadCommitText(std::string_view text, ReferenceCommit* commit, std::string* why) {
  size_t line_number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    std::string parse_error;
    // Only add, remove, protocol and metaData are kept; every other action is still checked as
    // JSON.
    const std::optional<json::Value> action =
        json::ParseKeeping(line, {"add", "remove", "protocol", "metaData"}, &parse_error);
    if (!action || !action->is_object()) {
      *why = "line " + std::to_string(line_number) + " is not a JSON object" +
             (action ? "" : " (" + parse_error + ")");
      return false;
    }
    if (const json::Value* p = action->Find("protocol"); p != nullptr && p->is_object()) {
      std::vector<std::string> features;
      if (const json::Value* list = p->Find("writerFeatures");
          list != nullptr && list->is_array()) {
        for (const json::Value& f : list->items) {
          if (f.is_string()) features.push_back(f.text);
        }
      }
      commit->protocol_writer_features = std::move(features);
    }
    if (const json::Value* m = action->Find("metaData"); m != nullptr && m->is_object()) {
      std::map<std::string, std::string> physical;
      if (!ReadColumnMapping(*m, &physical, why)) {
        *why = "line " + std::to_string(line_number) + ": " + *why;
        return false;
      }
      commit->physical_names = std::move(physical);
    }
    // A remove before an add on one line, as if they were two lines in that order.
    for (const bool is_add : {false, true}) {
      const json::Value* f = action->Find(is_add ? "add" : "remove");
      if (f == nullptr) continue;
      ReferenceFileAction a;
      if (!ReadFileAction(*f, is_add, &a, why)) {
        *why = "line " + std::to_string(line_number) + ": " + *why;
        return false;
      }
      commit->file_actions.push_back(std::move(a));
    }
  }
  return true;
}

}  // namespace

std::string ReferenceDv::Id() const {
  std::string id = storage_type + path_or_inline;
  if (offset.has_value()) id += "@" + std::to_string(*offset);
  return id;
}

std::string UrlDecodePath(const std::string& path) {
  std::string out;
  out.reserve(path.size());
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size() && HexDigit(path[i + 1]) >= 0 &&
        HexDigit(path[i + 2]) >= 0) {
      out += static_cast<char>(HexDigit(path[i + 1]) * 16 + HexDigit(path[i + 2]));
      i += 2;
    } else {
      out += path[i];
    }
  }
  return out;
}

ReferenceLog ReadReferenceLog(const std::string& table_dir, int64_t version,
                              const ByteSource& files) {
  ReferenceLog log;
  const std::string log_dir = table_dir + "/_delta_log/";
  for (int64_t v = 0; version < 0 || v <= version; ++v) {
    std::string digits = std::to_string(v);
    const std::string name =
        std::string(digits.size() < 20 ? 20 - digits.size() : 0, '0') + digits + ".json";
    const std::optional<std::string> text = files.Read(log_dir + name);
    if (!text) {
      if (version >= 0 || v == 0)
        log.error = "version " + std::to_string(v) + " has no JSON commit";
      break;
    }
    ReferenceCommit commit;
    commit.version = v;
    std::string why;
    if (!ReadCommitText(*text, &commit, &why)) {
      log.error = "version " + std::to_string(v) + ": " + why;
      break;
    }
    log.commits.push_back(std::move(commit));
  }
  return log;
}

}  // namespace rlc::oracle
