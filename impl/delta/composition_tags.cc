#include "impl/delta/composition_tags.h"

#include <algorithm>

#include <simdjson.h>

#include "impl/delta/json_writer.h"

namespace rlc::delta {
namespace {

namespace od = simdjson::ondemand;

// True when nothing but whitespace follows what was consumed (3.0.1 has no document::at_end).
bool AtEnd(od::document& doc) {
  const char* location = nullptr;
  return doc.current_location().get(location) != simdjson::SUCCESS;
}

std::optional<std::string> ParseSinglePath(std::string_view json) {
  simdjson::padded_string padded(json);
  thread_local od::parser parser;  // reused: a parser keeps its buffers between documents
  od::document doc;
  od::array arr;
  if (parser.iterate(padded).get(doc) || doc.get_array().get(arr)) return std::nullopt;
  std::optional<std::string> path;
  for (auto element : arr) {
    std::string_view s;
    if (path.has_value() || element.get_string().get(s)) return std::nullopt;
    path = std::string(s);
  }
  if (!AtEnd(doc)) return std::nullopt;
  return path;
}

bool ParseSingleEntry(std::string_view json, int64_t* offset, int64_t* records) {
  simdjson::padded_string padded(json);
  thread_local od::parser parser;  // reused: a parser keeps its buffers between documents
  od::document doc;
  od::array arr;
  if (parser.iterate(padded).get(doc) || doc.get_array().get(arr)) return false;
  int entries = 0;
  bool has_offset = false, has_records = false;
  for (auto element : arr) {
    od::object obj;
    if (++entries > 1 || element.get_object().get(obj)) return false;
    for (auto entry : obj) {
      od::field f;
      std::string_view key;
      if (std::move(entry).get(f) || f.unescaped_key().get(key)) return false;
      if (key == "rowOffsetInTarget") {
        if (has_offset || f.value().get_int64().get(*offset)) return false;
        has_offset = true;
      } else if (key == "sourceNumPhysicalRecords") {
        if (has_records || f.value().get_int64().get(*records)) return false;
        has_records = true;
      }
      // Unknown fields are skipped by the iteration itself.
    }
  }
  if (!AtEnd(doc)) return false;
  return entries == 1 && has_offset && has_records && *offset >= 0 && *records >= 0;
}

}  // namespace

std::optional<CompositionTag> ParseCompositionTags(std::string_view compacted_into_json,
                                                   std::string_view compaction_info_json) {
  std::optional<std::string> path = ParseSinglePath(compacted_into_json);
  if (!path.has_value()) return std::nullopt;
  CompositionTag tag;
  tag.output_path = std::move(*path);
  if (!ParseSingleEntry(compaction_info_json, &tag.row_offset_in_target,
                        &tag.source_num_physical_records)) {
    return std::nullopt;
  }
  return tag;
}

std::optional<CompositionTag> ParseCompositionTags(const StringMap& tags) {
  const std::optional<std::string>* into = nullptr;
  const std::optional<std::string>* info = nullptr;
  for (const auto& [key, value] : tags) {
    if (key == kCompactedIntoTag) {
      if (into != nullptr) return std::nullopt;  // a duplicated key is not the one shape we accept
      into = &value;
    } else if (key == kCompactionInfoTag) {
      if (info != nullptr) return std::nullopt;
      info = &value;
    }
  }
  if (into == nullptr || info == nullptr || !into->has_value() || !info->has_value()) {
    return std::nullopt;
  }
  return ParseCompositionTags(**into, **info);
}

void WriteCompositionTags(const CompositionTag& tag, StringMap* tags) {
  JsonWriter into;
  into.BeginArray();
  into.String(tag.output_path);
  into.EndArray();
  JsonWriter info;
  info.BeginArray();
  info.BeginObject();
  info.Field("rowOffsetInTarget", tag.row_offset_in_target);
  info.Field("sourceNumPhysicalRecords", tag.source_num_physical_records);
  info.EndObject();
  info.EndArray();
  bool set_into = false, set_info = false;
  for (auto& [key, value] : *tags) {
    if (key == kCompactedIntoTag) {
      value = into.text();
      set_into = true;
    } else if (key == kCompactionInfoTag) {
      value = info.text();
      set_info = true;
    }
  }
  if (!set_into) tags->emplace_back(std::string(kCompactedIntoTag), into.text());
  if (!set_info) tags->emplace_back(std::string(kCompactionInfoTag), info.text());
}

void EraseCompositionTags(std::optional<StringMap>* tags) {
  if (!tags->has_value()) return;
  StringMap& map = **tags;
  map.erase(std::remove_if(map.begin(), map.end(),
                           [](const auto& entry) {
                             return entry.first == kCompactedIntoTag ||
                                    entry.first == kCompactionInfoTag;
                           }),
            map.end());
  if (map.empty()) tags->reset();
}

}  // namespace rlc::delta
