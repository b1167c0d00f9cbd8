#include "impl/delta/stats.h"

#include <simdjson.h>

#include "impl/base/limits.h"
#include "impl/delta/json_writer.h"
#include "impl/delta/raw_json.h"

namespace rlc::delta {
namespace {

namespace od = simdjson::ondemand;

// True when nothing but whitespace follows what was consumed (3.0.1 has no document::at_end).
bool AtEnd(od::document& doc) {
  const char* location = nullptr;
  return doc.current_location().get(location) != simdjson::SUCCESS;
}

std::string Join(const ColumnPath& path) {
  std::string s;
  for (const std::string& p : path) {
    s += '.';
    s += p;
  }
  return s;
}

Status Fail(std::string_view section, const ColumnPath& path, std::string_view expected) {
  return Status::Corrupt("stats." + std::string(section) + Join(path) + ": expected " +
                         std::string(expected));
}

Status ReadLeaf(od::value& v, std::string_view section, const ColumnPath& path, StatValue* out) {
  od::json_type type;
  if (v.type().get(type) != simdjson::SUCCESS) return Fail(section, path, "a JSON value");
  switch (type) {
    case od::json_type::null:
      *out = std::monostate{};
      return Status::Ok();
    case od::json_type::boolean: {
      bool b = false;
      if (v.get_bool().get(b)) return Fail(section, path, "a boolean");
      *out = b;
      return Status::Ok();
    }
    case od::json_type::string: {
      std::string_view s;
      if (v.get_string().get(s)) return Fail(section, path, "a string");
      *out = std::string(s);
      return Status::Ok();
    }
    case od::json_type::number: {
      od::number_type nt;
      if (v.get_number_type().get(nt)) return Fail(section, path, "a number");
      if (nt == od::number_type::signed_integer) {
        int64_t i = 0;
        if (v.get_int64().get(i)) return Fail(section, path, "an integer");
        *out = i;
      } else {
        double d = 0;
        if (v.get_double().get(d)) return Fail(section, path, "a number");
        *out = d;
      }
      return Status::Ok();
    }
    default:
      return Fail(section, path, "a scalar");
  }
}

// Walks a nested object; calls leaf(path, value) for every non-object value.
template <typename Leaf>
Status Walk(od::value& v, std::string_view section, ColumnPath& path, int depth, Leaf& leaf) {
  if (depth > kStatsNestingMax) return Fail(section, path, "less nesting");
  od::object obj;
  if (v.get_object().get(obj)) return Fail(section, path, "an object");
  for (auto entry : obj) {
    od::field f;
    std::string_view key;
    if (std::move(entry).get(f) || f.unescaped_key().get(key))
      return Fail(section, path, "an object");
    path.emplace_back(key);
    od::value child = f.value();
    od::json_type type;
    if (child.type().get(type)) return Fail(section, path, "a JSON value");
    if (type == od::json_type::object) {
      RLC_RETURN_IF_ERROR(Walk(child, section, path, depth + 1, leaf));
    } else {
      RLC_RETURN_IF_ERROR(leaf(child, path));
    }
    path.pop_back();
  }
  return Status::Ok();
}

template <typename OnField>
Status ForEachTopField(std::string_view json, OnField on_field) {
  simdjson::padded_string padded(json);
  thread_local od::parser parser;  // reused: a parser keeps its buffers between documents
  od::document doc;
  if (parser.iterate(padded).get(doc)) return Status::Corrupt("stats: not a JSON document");
  od::object obj;
  if (doc.get_object().get(obj)) return Status::Corrupt("stats: expected a JSON object");
  for (auto entry : obj) {
    od::field f;
    std::string_view key;
    if (std::move(entry).get(f) || f.unescaped_key().get(key))
      return Status::Corrupt("stats: malformed object");
    std::string key_copy(key);
    od::value v = f.value();
    RLC_RETURN_IF_ERROR(on_field(key_copy, v));
  }
  if (!AtEnd(doc)) return Status::Corrupt("stats: trailing characters after the object");
  return Status::Ok();
}

Status ReadNumRecords(od::value& v, std::optional<int64_t>* out) {
  bool is_null = false;
  if (v.is_null().get(is_null) == simdjson::SUCCESS && is_null) return Status::Ok();
  int64_t n = 0;
  if (v.get_int64().get(n) || n < 0) {
    return Status::Corrupt("stats.numRecords: expected a non-negative integer");
  }
  *out = n;
  return Status::Ok();
}

}  // namespace

Result<FileStats> ParseStats(std::string_view json) {
  FileStats stats;
  RLC_RETURN_IF_ERROR(ForEachTopField(json, [&](const std::string& key, od::value& v) -> Status {
    ColumnPath path;
    if (key == "numRecords") return ReadNumRecords(v, &stats.num_records);
    if (key == "tightBounds") {
      if (v.get_bool().get(stats.tight_bounds))
        return Status::Corrupt("stats.tightBounds: expected a boolean");
      return Status::Ok();
    }
    if (key == "minValues" || key == "maxValues") {
      auto& target = key == "minValues" ? stats.min_values : stats.max_values;
      auto leaf = [&](od::value& x, const ColumnPath& p) -> Status {
        StatValue value;
        RLC_RETURN_IF_ERROR(ReadLeaf(x, key, p, &value));
        target[p] = std::move(value);
        return Status::Ok();
      };
      return Walk(v, key, path, 0, leaf);
    }
    if (key == "nullCount") {
      auto leaf = [&](od::value& x, const ColumnPath& p) -> Status {
        int64_t n = 0;
        bool is_null = false;
        if (x.is_null().get(is_null) == simdjson::SUCCESS && is_null) return Status::Ok();
        if (x.get_int64().get(n) || n < 0) return Fail(key, p, "a non-negative integer");
        stats.null_count[p] = n;
        return Status::Ok();
      };
      return Walk(v, key, path, 0, leaf);
    }
    return Status::Ok();  // other statistics are not used by rlc
  }));
  return stats;
}

Result<std::optional<int64_t>> ParseNumRecords(std::string_view json) {
  std::optional<int64_t> num_records;
  RLC_RETURN_IF_ERROR(ForEachTopField(json, [&](const std::string& key, od::value& v) -> Status {
    if (key == "numRecords") return ReadNumRecords(v, &num_records);
    return Status::Ok();
  }));
  return num_records;
}

Result<std::string> WithWideBounds(std::string_view json) {
  // Rebuilt from each top-level field's raw text, so every statistic rlc does not model is kept
  // byte for byte; only tightBounds changes.
  std::string out = "{";
  RLC_RETURN_IF_ERROR(ForEachTopField(json, [&](const std::string& key, od::value& v) -> Status {
    if (key == "tightBounds") return Status::Ok();
    std::string raw;
    if (!RawJsonValue(v, &raw)) return Status::Corrupt("stats." + key + ": malformed value");
    if (out.size() > 1) out += ',';
    out += JsonQuote(key) + ":" + raw;
    return Status::Ok();
  }));
  if (out.size() > 1) out += ',';
  return out + "\"tightBounds\":false}";
}

}  // namespace rlc::delta
