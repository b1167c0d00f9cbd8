#include "impl/delta/stats.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// The shape of statistics text the reader last read in full: every byte between its values
// (keys, punctuation, whitespace), and what each value is. The statistics of one commit are
// written by one engine and mostly share their shape, so the next text is read by comparing its
// bytes between values with these and reading only the values (PlainStatsReader::Replay): the
// same reads of the same values, in the same roles, as a full read would make of that text.
struct StatsShape {
  enum class Role : uint8_t { kNumRecords, kTightBounds, kOther, kMinValue, kMaxValue, kNullCount };
  struct Slot {
    uint32_t literal_end;  // the bytes before the value: literals[previous literal_end, this)
    Role role;
    int32_t column;            // kMinValue, kMaxValue, kNullCount: the column asked for, or -1
    StatValueView::Kind kind;  // the value's, as recorded
  };
  bool escaped = false;
  std::string literals;     // the bytes between values, one run after another
  std::vector<Slot> slots;  // one per value; the bytes after the last: to the end

  bool Fits(bool text_escaped) const { return !slots.empty() && escaped == text_escaped; }
};

// Whether the n bytes at a and b are the same: memcmp for the short runs between a statistic's
// values (most under 16 bytes, fourteen of them per add), without a call per run.
inline bool SameBytes(const char* a, const char* b, size_t n) {
  uint64_t x = 0, y = 0;
  for (; n >= 8; a += 8, b += 8, n -= 8) {
    std::memcpy(&x, a, 8);
    std::memcpy(&y, b, 8);
    if (x != y) return false;
  }
  if (n >= 4) {  // the first four and the last four, which may overlap
    uint32_t u = 0, v = 0, w = 0, z = 0;
    std::memcpy(&u, a, 4);
    std::memcpy(&v, b, 4);
    std::memcpy(&w, a + n - 4, 4);
    std::memcpy(&z, b + n - 4, 4);
    return u == v && w == z;
  }
  for (; n > 0; ++a, ++b, --n) {
    if (*a != *b) return false;
  }
  return true;
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
      : begin_(stats.text().data()),
        p_(begin_),
        end_(begin_ + stats.text().size()),
        escaped_(stats.escaped()),
        columns_(columns),
        out_(out),
        path_(path) {
    path_.clear();
  }

  // The whole text; when `shape` is not null, its shape is recorded there.
  bool Read(StatsShape* shape) {
    shape_ = shape;
    if (shape_ != nullptr) {
      shape_->escaped = escaped_;
      shape_->literals.clear();
      shape_->slots.clear();
    }
    Ws();
    if (!Take('{')) return false;
    if (!Members([&](std::string_view key) { return TopField(key); })) return false;
    Ws();
    if (p_ != end_) return false;
    if (shape_ != nullptr) shape_->literals.append(mark_, p_);
    return true;
  }

  // The text, when it has `shape` (REQUIRES: shape.Fits(...) for this text, and the shape
  // recorded for these columns): each run of bytes between values compared, each value read and
  // used as a full read would.
  bool Replay(const StatsShape& shape) {
    uint32_t literal = 0;
    for (const StatsShape::Slot& slot : shape.slots) {
      const size_t n = slot.literal_end - literal;
      if (static_cast<size_t>(end_ - p_) < n || !SameBytes(p_, shape.literals.data() + literal, n))
        return false;
      p_ += n;
      literal = slot.literal_end;
      if (!ReplayValue(slot)) return false;
    }
    const size_t n = shape.literals.size() - literal;
    return static_cast<size_t>(end_ - p_) == n && SameBytes(p_, shape.literals.data() + literal, n);
  }

 private:
  static constexpr int kDepthMax = 16;
  enum class Section : uint8_t { kMinValues, kMaxValues, kNullCount };

  static bool IsWs(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
  void Ws() {  // engines write none: one compare when there is none
    while (p_ < end_ && static_cast<unsigned char>(*p_) <= ' ' && IsWs(*p_)) ++p_;
  }
  bool Take(char c) {
    Ws();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool Delimited() const {
    return p_ == end_ || *p_ == ',' || *p_ == '}' || *p_ == ']' || IsWs(*p_);
  }
  // `true` or `false`, as Leaf reads them (Word's test, the two words compared as constants).
  bool Boolean(bool* out) {
    const size_t left = static_cast<size_t>(end_ - p_);
    if (left >= 4 && std::memcmp(p_, "true", 4) == 0) {
      *out = true;
      p_ += 4;
    } else if (left >= 5 && std::memcmp(p_, "false", 5) == 0) {
      *out = false;
      p_ += 5;
    } else {
      return false;
    }
    return Delimited();
  }
  bool Word(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      return false;
    p_ += word.size();
    return Delimited();
  }
  bool AtQuote() const {
    if (!escaped_) return p_ < end_ && *p_ == '"';
    return end_ - p_ >= 2 && p_[0] == '\\' && p_[1] == '"';
  }
  // The first byte at or after p_ that ends a plain string's body: a quote, a backslash, a
  // control character or a byte of a multi-byte character (or end_).
  const char* StringStop(const char* p) const {
#if defined(__SSE2__)
    // Sixteen bytes at a time where sixteen remain: a signed compare below 0x20 catches both the
    // control characters and the bytes >= 0x80.
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    while (end_ - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i stop =
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                       _mm_cmplt_epi8(v, space));
      const int mask = _mm_movemask_epi8(stop);
      if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
      p += 16;
    }
#endif
    while (p < end_) {
      const auto c = static_cast<unsigned char>(*p);
      if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return p;
      ++p;
    }
    return p;
  }
  bool String(std::string_view* out) {
    Ws();
    if (!AtQuote()) return false;
    p_ += escaped_ ? 2 : 1;
    const char* start = p_;
    p_ = StringStop(p_);
    if (!AtQuote())
      return false;  // the end, an escape or a byte it does not read: the general path's
    *out = std::string_view(start, static_cast<size_t>(p_ - start));
    p_ += escaped_ ? 2 : 1;
    return true;
  }
  // JSON's integer grammar, as simdjson reads it into an int64: at most 19 digits, no leading
  // zero, no -0 (the general path's to judge), not followed by a fraction or an exponent.
  bool Integer(int64_t* out) {
    const bool negative = p_ < end_ && *p_ == '-';
    const char* digits = p_ + (negative ? 1 : 0);
    const char* q = digits;
    uint64_t value = 0;
    while (q < end_ && *q >= '0' && *q <= '9' && q - digits < 20) {
      value = value * 10 + static_cast<uint64_t>(*q - '0');
      ++q;
    }
    const ptrdiff_t n = q - digits;
    if (n == 0 || n > 19 || (*digits == '0' && (n > 1 || negative))) return false;
    if (q < end_ && (*q == '.' || *q == 'e' || *q == 'E' || (*q >= '0' && *q <= '9'))) return false;
    // 19 digits may exceed int64 (the limit 9223372036854775807; -9223372036854775808 below).
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    if (value > limit) return false;
    *out = negative ? static_cast<int64_t>(0 - value) : static_cast<int64_t>(value);
    p_ = q;
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
  // The value at p_, used in the slot's role, read as the kind of value the shape recorded there
  // (text that starts another kind gives up: the text is then read whole).
  bool ReplayValue(const StatsShape::Slot& slot) {
    using K = StatValueView::Kind;
    switch (slot.kind) {
      case K::kInt: {
        int64_t integer = 0;
        return Integer(&integer) &&
               Use(slot.role, slot.column, Fields{K::kInt, false, integer, {}});
      }
      case K::kString: {
        std::string_view text;
        return AtQuote() && String(&text) &&  // Leaf's test, without its others
               Use(slot.role, slot.column, Fields{K::kString, false, 0, text});
      }
      case K::kBool: {
        bool boolean = false;
        return Boolean(&boolean) && Use(slot.role, slot.column, Fields{K::kBool, boolean, 0, {}});
      }
      default: {
        StatValueView v;
        return Leaf(&v) && Use(slot.role, slot.column, FieldsOf(v));
      }
    }
  }
  // A value as Use takes it: StatValueView's fields, one by one. A view written to the stack
  // field by field and copied whole is read back in wider loads than its stores, which the
  // processor cannot forward (a stall per value, eleven values an add).
  struct Fields {
    StatValueView::Kind kind;
    bool boolean;
    int64_t integer;
    std::string_view text;
  };
  static Fields FieldsOf(const StatValueView& v) {
    return {v.kind, v.boolean, v.integer, std::string_view(v.text.data(), v.text.size())};
  }
  // What a value means in its role: whether it is allowed there, and where it is kept.
  bool Use(StatsShape::Role role, int column, Fields v);
  // The value at p_, in its role (recorded in the shape, when one is recorded).
  bool Value(StatsShape::Role role, int column);
  bool Skip(int depth);
  int Kept(std::string_view key) const;
  bool SectionMembers(Section section, int depth);
  bool TopField(std::string_view key);

  const char* const begin_;
  const char* p_;
  const char* const end_;
  const bool escaped_;  // a quote is `\"`: the text is escaped
  const std::vector<ColumnPath>& columns_;
  StatsView* const out_;
  PathViews& path_;
  StatsShape* shape_ = nullptr;  // where Read records the shape, or nullptr
  const char* mark_ = begin_;    // the end of the last value recorded
};

bool PlainStatsReader::Leaf(StatValueView* v) {
  using K = StatValueView::Kind;
  *v = StatValueView{};
  if (p_ == end_) return false;
  if (AtQuote()) return v->kind = K::kString, String(&v->text);
  if (*p_ == 't' || *p_ == 'f') return v->kind = K::kBool, Boolean(&v->boolean);
  if (*p_ == 'n') return Word("null");
  return v->kind = K::kInt, Integer(&v->integer);
}

// Inline, and a kept value copied field by field: the value was just written to the caller's stack
// field by field, and a whole copy would read it back in wider loads than those stores, which
// the processor cannot forward (a stall for each of a winner's hundred thousand adds).
[[gnu::always_inline]] inline bool PlainStatsReader::Use(StatsShape::Role role, int column,
                                                         Fields v) {
  using K = StatValueView::Kind;
  using R = StatsShape::Role;
  ColumnStats* kept = column < 0 ? nullptr : &out_->columns[static_cast<size_t>(column)];
  switch (role) {
    case R::kNumRecords:
      if (v.kind == K::kNull) return true;
      if (v.kind != K::kInt || v.integer < 0) return false;
      out_->num_records = v.integer;
      return true;
    case R::kTightBounds:
      if (v.kind != K::kBool) return false;
      out_->tight_bounds = v.boolean;
      return true;
    case R::kOther:
      return true;
    case R::kNullCount:
      if (v.kind != K::kNull && (v.kind != K::kInt || v.integer < 0)) return false;
      if (kept != nullptr && v.kind == K::kInt) kept->null_count = v.integer;
      return true;
    case R::kMinValue:
    case R::kMaxValue:
      if (kept != nullptr) {
        StatValueView& to = (role == R::kMinValue ? kept->min : kept->max).emplace();
        to.kind = v.kind;
        to.boolean = v.boolean;
        to.integer = v.integer;
        to.number = 0;  // this reader reads no fraction: a double is the general path's
        to.text = v.text;
      }
      return true;
  }
  return false;
}

bool PlainStatsReader::Value(StatsShape::Role role, int column) {
  if (shape_ != nullptr) {
    shape_->literals.append(mark_, p_);
    shape_->slots.push_back(
        {static_cast<uint32_t>(shape_->literals.size()), role, column, StatValueView::Kind::kNull});
  }
  StatValueView v;
  if (!Leaf(&v) || !Use(role, column, FieldsOf(v))) return false;
  if (shape_ != nullptr) shape_->slots.back().kind = v.kind;
  mark_ = p_;
  return true;
}

// Any value of the reader's grammar, kept nowhere.
bool PlainStatsReader::Skip(int depth) {
  if (p_ < end_ && *p_ == '{') {
    ++p_;
    return depth < kDepthMax && Members([&](std::string_view) { return Skip(depth + 1); });
  }
  return Value(StatsShape::Role::kOther, -1);
}

// The index of the column asked for that the leaf `key` under path_ is, or -1.
int PlainStatsReader::Kept(std::string_view key) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    const ColumnPath& column = columns_[i];
    if (column.size() != path_.size() + 1) continue;
    const std::string& name = column.back();
    // The first byte before the whole name: most keys are other columns.
    if (name.size() != key.size() || (!key.empty() && name[0] != key[0]) || name != key) continue;
    if (std::equal(path_.begin(), path_.end(), column.begin())) return static_cast<int>(i);
  }
  return -1;
}

// The members of minValues, maxValues or nullCount at `path_`, each leaf kept when it is one of
// the columns asked for.
bool PlainStatsReader::SectionMembers(Section section, int depth) {
  if (depth >= kDepthMax || !Take('{')) return false;
  return Members([&](std::string_view key) {
    if (p_ < end_ && *p_ == '{') {
      path_.push_back(key);
      const bool ok = SectionMembers(section, depth + 1);
      path_.pop_back();
      return ok;
    }
    using R = StatsShape::Role;
    const R role = section == Section::kMinValues   ? R::kMinValue
                   : section == Section::kMaxValues ? R::kMaxValue
                                                    : R::kNullCount;
    return Value(role, Kept(key));
  });
}

bool PlainStatsReader::TopField(std::string_view key) {
  using R = StatsShape::Role;
  if (key == "minValues") return SectionMembers(Section::kMinValues, 0);
  if (key == "maxValues") return SectionMembers(Section::kMaxValues, 0);
  if (key == "nullCount") return SectionMembers(Section::kNullCount, 0);
  if (key == "numRecords") return Value(R::kNumRecords, -1);
  if (key == "tightBounds") return Value(R::kTightBounds, -1);
  return Skip(0);
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

struct StatsReader::Memory {
  PathViews path;
  StatsShape shape;      // of the last text read whole
  StatsShape recording;  // being recorded
};

StatsReader::StatsReader(const std::vector<ColumnPath>& columns)
    : columns_(columns), memory_(std::make_unique<Memory>()) {}

StatsReader::~StatsReader() = default;

namespace {

void Clear(size_t columns, StatsView* out) {
  out->num_records.reset();
  out->tight_bounds = true;
  if (out->columns.size() != columns) {
    out->columns.assign(columns, ColumnStats{});
    return;
  }
  for (ColumnStats& c : out->columns) {  // in place: the view is reused from add to add
    c.min.reset();
    c.max.reset();
    c.null_count.reset();
  }
}

// A whole read: the plain reader (recording the text's shape in `shape` when it is not null; then
// *recorded says whether it read the text), else the general path.
Status ReadWhole(const StatsJson& stats, const std::vector<ColumnPath>& columns, StatsView* out,
                 PathViews& path, StatsShape* shape, bool* recorded) {
  Clear(columns.size(), out);
  const bool plain = PlainStatsReader(stats, columns, out, path).Read(shape);
  if (recorded != nullptr) *recorded = plain;
  if (plain) return Status::Ok();
  Clear(columns.size(), out);
  thread_local std::string unescaped;  // WalkStats copies the text again: only the views matter
  return WalkStatsOf(JsonText(stats, unescaped), columns, out);
}

}  // namespace

Status StatsReader::Read(const StatsJson& stats, StatsView* out) {
  Memory& m = *memory_;
  Clear(columns_.size(), out);
  if (m.shape.Fits(stats.escaped()) &&
      PlainStatsReader(stats, columns_, out, m.path).Replay(m.shape))
    return Status::Ok();
  bool recorded = false;
  const Status status = ReadWhole(stats, columns_, out, m.path, &m.recording, &recorded);
  if (recorded) std::swap(m.shape, m.recording);  // the buffers stay the reader's
  return status;
}

Status ParseStatsOf(const StatsJson& stats, const std::vector<ColumnPath>& columns,
                    StatsView* out) {
  thread_local PathViews path;
  return ReadWhole(stats, columns, out, path, nullptr, nullptr);
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
