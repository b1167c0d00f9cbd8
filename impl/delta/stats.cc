#include "impl/delta/stats.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cstring>

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

// A column's path while the statistics are walked: views of the keys, valid for the document.
using PathViews = std::vector<std::string_view>;

std::string Join(const PathViews& path) {
  std::string s;
  for (std::string_view p : path) {
    s += '.';
    s += p;
  }
  return s;
}

Status Fail(std::string_view section, const PathViews& path, std::string_view expected) {
  return Status::Corrupt("stats." + std::string(section) + Join(path) + ": expected " +
                         std::string(expected));
}

Status ReadLeaf(od::value& v, std::string_view section, const PathViews& path, StatValueView* out) {
  using K = StatValueView::Kind;
  od::json_type type;
  if (v.type().get(type) != simdjson::SUCCESS) return Fail(section, path, "a JSON value");
  *out = StatValueView{};
  switch (type) {
    case od::json_type::null:
      return Status::Ok();
    case od::json_type::boolean:
      out->kind = K::kBool;
      if (v.get_bool().get(out->boolean)) return Fail(section, path, "a boolean");
      return Status::Ok();
    case od::json_type::string:
      out->kind = K::kString;
      if (v.get_string().get(out->text)) return Fail(section, path, "a string");
      return Status::Ok();
    case od::json_type::number: {
      od::number_type nt;
      if (v.get_number_type().get(nt)) return Fail(section, path, "a number");
      if (nt == od::number_type::signed_integer) {
        out->kind = K::kInt;
        if (v.get_int64().get(out->integer)) return Fail(section, path, "an integer");
      } else {
        out->kind = K::kDouble;
        if (v.get_double().get(out->number)) return Fail(section, path, "a number");
      }
      return Status::Ok();
    }
    default:
      return Fail(section, path, "a scalar");
  }
}

StatValue Owned(const StatValueView& v) {
  using K = StatValueView::Kind;
  switch (v.kind) {
    case K::kBool:
      return v.boolean;
    case K::kInt:
      return v.integer;
    case K::kDouble:
      return v.number;
    case K::kString:
      return std::string(v.text);
    case K::kNull:
      break;
  }
  return std::monostate{};
}

// Walks a nested object; calls leaf(path, value) for every non-object value.
template <typename Leaf>
Status Walk(od::value& v, std::string_view section, PathViews& path, int depth, Leaf& leaf) {
  if (depth > kStatsNestingMax) return Fail(section, path, "less nesting");
  od::object obj;
  if (v.get_object().get(obj)) return Fail(section, path, "an object");
  for (auto entry : obj) {
    od::field f;
    std::string_view key;
    if (std::move(entry).get(f) || f.unescaped_key().get(key))
      return Fail(section, path, "an object");
    path.push_back(key);
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

// Calls on_field(key, value) for each top-level field. Keys and strings are views into the
// thread's parser, valid until its next document.
template <typename OnField>
Status ForEachTopField(std::string_view json, OnField on_field) {
  thread_local std::string padded;  // reused, as the parser: no allocation per statistics string
  padded.assign(json);
  padded.resize(json.size() + simdjson::SIMDJSON_PADDING);
  thread_local od::parser parser;  // reused: a parser keeps its buffers between documents
  od::document doc;
  if (parser.iterate(padded.data(), json.size(), padded.size()).get(doc))
    return Status::Corrupt("stats: not a JSON document");
  od::object obj;
  if (doc.get_object().get(obj)) return Status::Corrupt("stats: expected a JSON object");
  for (auto entry : obj) {
    od::field f;
    std::string_view key;
    if (std::move(entry).get(f) || f.unescaped_key().get(key))
      return Status::Corrupt("stats: malformed object");
    od::value v = f.value();
    RLC_RETURN_IF_ERROR(on_field(key, v));
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

Status ReadNullCount(od::value& v, std::string_view section, const PathViews& path,
                     std::optional<int64_t>* out) {
  bool is_null = false;
  if (v.is_null().get(is_null) == simdjson::SUCCESS && is_null) return Status::Ok();
  int64_t n = 0;
  if (v.get_int64().get(n) || n < 0) return Fail(section, path, "a non-negative integer");
  *out = n;
  return Status::Ok();
}

// Every field ParseStats reads, each checked, handed on: numRecords and tightBounds as values,
// each leaf of minValues, maxValues and nullCount to on_leaf(section, path, value).
template <typename OnLeaf>
Status WalkStats(std::string_view json, std::optional<int64_t>* num_records, bool* tight_bounds,
                 OnLeaf on_leaf) {
  thread_local PathViews path;
  return ForEachTopField(json, [&](std::string_view key, od::value& v) -> Status {
    path.clear();
    if (key == "numRecords") return ReadNumRecords(v, num_records);
    if (key == "tightBounds") {
      if (v.get_bool().get(*tight_bounds))
        return Status::Corrupt("stats.tightBounds: expected a boolean");
      return Status::Ok();
    }
    if (key == "minValues" || key == "maxValues" || key == "nullCount") {
      auto leaf = [&](od::value& x, const PathViews& p) { return on_leaf(key, p, x); };
      return Walk(v, key, path, 0, leaf);
    }
    return Status::Ok();  // other statistics are not used by rlc
  });
}

bool SamePath(const PathViews& a, const ColumnPath& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

// A reader of statistics text as engines write it: objects, strings without escapes or non-ASCII
// bytes, integers, true, false and null. It answers exactly what the general path (simdjson,
// WalkStats) answers, or gives up (false) on anything else: an escape, a fraction or exponent,
// an array, an integer out of range, -0, deep nesting, a value of a type the field does not
// take, malformed text. Then the general path reads the text and gives its answer or its error,
// so that this reader decides nothing on its own and costs no allocation.
// It reads the text plain or as a commit holds it, escaped inside a JSON string: there every
// quote is `\"` and, text of this grammar holding no other escape, the strings between those
// quotes are the unescaped strings themselves (any other backslash: it gives up).
class PlainStatsReader {
 public:
  // `path` is scratch memory, kept by the caller so that a read allocates nothing.
  PlainStatsReader(const StatsJson& stats, const std::vector<ColumnPath>& columns, StatsView* out,
                   PathViews& path)
      : p_(stats.text().data()),
        end_(stats.text().data() + stats.text().size()),
        quote_size_(stats.escaped() ? 2 : 1),
        columns_(columns),
        out_(out),
        path_(path) {
    path_.clear();
  }

  bool Read() {
    Ws();
    if (!Take('{')) return false;
    if (!Members([&](std::string_view key) { return TopField(key); })) return false;
    Ws();
    return p_ == end_;
  }

 private:
  static constexpr int kDepthMax = 16;

  void Ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool Take(char c) {
    Ws();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool Delimited() const { return p_ == end_ || std::strchr(",}] \t\n\r", *p_) != nullptr; }
  bool Word(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      return false;
    p_ += word.size();
    return Delimited();
  }
  bool AtQuote() const {
    if (quote_size_ == 1) return p_ < end_ && *p_ == '"';
    return end_ - p_ >= 2 && p_[0] == '\\' && p_[1] == '"';
  }
  bool String(std::string_view* out) {
    Ws();
    if (!AtQuote()) return false;
    p_ += quote_size_;
    const char* start = p_;
    while (p_ < end_ && *p_ != '"' && *p_ != '\\') {
      const auto c = static_cast<unsigned char>(*p_);
      if (c < 0x20 || c >= 0x80) return false;
      ++p_;
    }
    if (!AtQuote()) return false;  // the end, or an escape: the general path's to read
    *out = std::string_view(start, static_cast<size_t>(p_ - start));
    p_ += quote_size_;
    return true;
  }
  bool Integer(int64_t* out) {
    const char* start = p_;
    if (p_ < end_ && *p_ == '-') ++p_;
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    if (*p_ == '0' && (p_ + 1 < end_ && p_[1] >= '0' && p_[1] <= '9')) return false;
    if (*start == '-' && *p_ == '0') return false;  // -0: the general path's to judge
    const auto [after, ec] = std::from_chars(start, end_, *out);
    if (ec != std::errc() || (after < end_ && (*after == '.' || *after == 'e' || *after == 'E')))
      return false;
    p_ = after;
    return Delimited();
  }
  // `{` taken: each member's key to on_member, which reads the value; then `}`.
  template <typename OnMember>
  bool Members(OnMember on_member) {
    Ws();
    if (p_ < end_ && *p_ == '}') return ++p_, true;
    for (;;) {
      std::string_view key;
      if (!String(&key) || !Take(':')) return false;
      Ws();
      if (!on_member(key)) return false;
      if (Take('}')) return true;
      if (!Take(',')) return false;
    }
  }
  bool Leaf(StatValueView* v);
  bool Skip(int depth);
  bool Section(std::string_view section, int depth);
  bool TopField(std::string_view key);

  const char* p_;
  const char* const end_;
  const int quote_size_;  // 1: `"`; 2: `\"`, the text being escaped
  const std::vector<ColumnPath>& columns_;
  StatsView* const out_;
  PathViews& path_;
};

bool PlainStatsReader::Leaf(StatValueView* v) {
  using K = StatValueView::Kind;
  *v = StatValueView{};
  if (p_ == end_) return false;
  if (AtQuote()) return v->kind = K::kString, String(&v->text);
  if (*p_ == 't' || *p_ == 'f') {
    v->kind = K::kBool, v->boolean = *p_ == 't';
    return Word(v->boolean ? "true" : "false");
  }
  if (*p_ == 'n') return Word("null");
  return v->kind = K::kInt, Integer(&v->integer);
}

// Any value of the reader's grammar, kept nowhere.
bool PlainStatsReader::Skip(int depth) {
  if (p_ < end_ && *p_ == '{') {
    ++p_;
    return depth < kDepthMax && Members([&](std::string_view) { return Skip(depth + 1); });
  }
  StatValueView ignored;
  return Leaf(&ignored);
}

// The members of minValues, maxValues or nullCount at `path_`, each leaf kept when it is one of
// the columns asked for.
bool PlainStatsReader::Section(std::string_view section, int depth) {
  if (depth >= kDepthMax || !Take('{')) return false;
  return Members([&](std::string_view key) {
    path_.push_back(key);
    bool ok = true;
    if (p_ < end_ && *p_ == '{') {
      ok = Section(section, depth + 1);
    } else {
      ColumnStats* kept = nullptr;
      for (size_t i = 0; i < columns_.size() && kept == nullptr; ++i) {
        if (SamePath(path_, columns_[i])) kept = &out_->columns[i];
      }
      StatValueView v;
      ok = Leaf(&v);
      if (section == "nullCount") {
        using K = StatValueView::Kind;
        ok = ok && (v.kind == K::kNull || (v.kind == K::kInt && v.integer >= 0));
        if (ok && kept != nullptr && v.kind == K::kInt) kept->null_count = v.integer;
      } else if (ok && kept != nullptr) {
        (section == "minValues" ? kept->min : kept->max) = v;
      }
    }
    path_.pop_back();
    return ok;
  });
}

bool PlainStatsReader::TopField(std::string_view key) {
  using K = StatValueView::Kind;
  if (key == "minValues" || key == "maxValues" || key == "nullCount") return Section(key, 0);
  if (key != "numRecords" && key != "tightBounds") return Skip(0);
  StatValueView v;
  if (!Leaf(&v)) return false;
  if (key == "tightBounds") return v.kind == K::kBool && (out_->tight_bounds = v.boolean, true);
  if (v.kind == K::kNull) return true;
  if (v.kind != K::kInt || v.integer < 0) return false;
  out_->num_records = v.integer;
  return true;
}

// The JSON text of `stats`: a view of the plain text, or of the unescaped text in `buffer`.
std::string_view JsonText(const StatsJson& stats, std::string& buffer) {
  if (!stats.escaped()) return stats.text();
  buffer = stats.Json();
  return buffer;
}

Result<FileStats> ParseStatsText(std::string_view json) {
  FileStats stats;
  RLC_RETURN_IF_ERROR(WalkStats(
      json, &stats.num_records, &stats.tight_bounds,
      [&](std::string_view section, const PathViews& p, od::value& x) -> Status {
        const ColumnPath path(p.begin(), p.end());
        if (section == "nullCount") {
          std::optional<int64_t> n;
          RLC_RETURN_IF_ERROR(ReadNullCount(x, section, p, &n));
          if (n.has_value()) stats.null_count[path] = *n;
          return Status::Ok();
        }
        StatValueView value;
        RLC_RETURN_IF_ERROR(ReadLeaf(x, section, p, &value));
        (section == "minValues" ? stats.min_values : stats.max_values)[path] = Owned(value);
        return Status::Ok();
      }));
  return stats;
}

// ParseStatsOf's general path, over the JSON text.
Status WalkStatsOf(std::string_view json, const std::vector<ColumnPath>& columns, StatsView* out) {
  return WalkStats(json, &out->num_records, &out->tight_bounds,
                   [&](std::string_view section, const PathViews& p, od::value& x) -> Status {
                     ColumnStats* kept = nullptr;
                     for (size_t i = 0; i < columns.size() && kept == nullptr; ++i) {
                       if (SamePath(p, columns[i])) kept = &out->columns[i];
                     }
                     if (section == "nullCount") {
                       std::optional<int64_t> n;
                       RLC_RETURN_IF_ERROR(ReadNullCount(x, section, p, &n));
                       if (kept != nullptr && n.has_value()) kept->null_count = n;
                       return Status::Ok();
                     }
                     StatValueView value;
                     RLC_RETURN_IF_ERROR(ReadLeaf(x, section, p, &value));
                     if (kept != nullptr) (section == "minValues" ? kept->min : kept->max) = value;
                     return Status::Ok();
                   });
}

}  // namespace

Result<FileStats> ParseStats(const StatsJson& stats) {
  std::string buffer;
  return ParseStatsText(JsonText(stats, buffer));
}

Status ParseStatsOf(const StatsJson& stats, const std::vector<ColumnPath>& columns,
                    StatsView* out) {
  out->num_records.reset();
  out->tight_bounds = true;
  out->columns.assign(columns.size(), ColumnStats{});
  thread_local PathViews path;
  if (PlainStatsReader(stats, columns, out, path).Read()) return Status::Ok();
  out->num_records.reset();
  out->tight_bounds = true;
  out->columns.assign(columns.size(), ColumnStats{});
  thread_local std::string unescaped;  // WalkStats copies the text again: only the views matter
  return WalkStatsOf(JsonText(stats, unescaped), columns, out);
}

Result<std::optional<int64_t>> ParseNumRecords(const StatsJson& stats) {
  std::string buffer;
  std::optional<int64_t> num_records;
  RLC_RETURN_IF_ERROR(
      ForEachTopField(JsonText(stats, buffer), [&](std::string_view key, od::value& v) -> Status {
        if (key == "numRecords") return ReadNumRecords(v, &num_records);
        return Status::Ok();
      }));
  return num_records;
}

Result<StatsJson> WithWideBounds(const StatsJson& stats) {
  std::string buffer;
  const std::string_view json = JsonText(stats, buffer);
  // Rebuilt from each top-level field's raw text, so every statistic rlc does not model is kept
  // byte for byte; only tightBounds changes.
  std::string out = "{";
  RLC_RETURN_IF_ERROR(ForEachTopField(json, [&](std::string_view key, od::value& v) -> Status {
    if (key == "tightBounds") return Status::Ok();
    std::string raw;
    if (!RawJsonValue(v, &raw))
      return Status::Corrupt("stats." + std::string(key) + ": malformed value");
    if (out.size() > 1) out += ',';
    out += JsonQuote(key) + ":" + raw;
    return Status::Ok();
  }));
  if (out.size() > 1) out += ',';
  return StatsJson(out + "\"tightBounds\":false}");
}

}  // namespace rlc::delta
