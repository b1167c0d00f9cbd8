// JsonReader: the oracle's own strict JSON parser (RFC 8259), for the Delta log lines it reads.
//
// Concern: one JSON text -> a tree of values, or an error naming the byte offset. Written for the
// oracle so that it shares no JSON code with impl/ (which reads with simdjson) and so that a log
// line is parsed once, into plain values, without a library's per-character machinery.
//   - Strings are unescaped (\uXXXX with surrogate pairs to UTF-8); raw bytes must be valid UTF-8
//     and control characters must be escaped. A lone surrogate is an error.
//   - Numbers keep their literal text; Int() reads an integer literal that fits int64_t. A number
//     past a double's range (and not an int64_t) is an error, as in most readers.
//   - An object keeps its members in text order; Find returns the last member of a name, as a
//     reader that stores members in a map would see a repeated name.
//   - Nesting deeper than kMaxDepth, or anything after the value but whitespace, is an error.
// Canonical writes a value back as one text per meaning: object members sorted by name (the last
// of a repeated name kept), integers in decimal, strings escaped only where JSON requires it
// (control characters as \u00xx). Two row values are equal exactly when their texts are.
//
// Thread-safety: stateless function; values are plain data.
#ifndef RLC_FUZZ_ORACLE_JSON_READER_H_
#define RLC_FUZZ_ORACLE_JSON_READER_H_

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rlc::oracle::json {

inline constexpr int kMaxDepth = 64;

struct Value {
  enum class Kind { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string text;                // a string's contents, or a number's literal
  std::vector<std::string> names;  // an object's member names, parallel to items
  std::vector<Value> items;        // an array's elements or an object's member values

  bool is_null() const { return kind == Kind::kNull; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_object() const { return kind == Kind::kObject; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_bool() const { return kind == Kind::kFalse || kind == Kind::kTrue; }
  // An object's member (the last of that name), or nullptr (also when this is not an object).
  const Value* Find(std::string_view name) const;
  // A number literal without fraction or exponent that fits int64_t.
  std::optional<int64_t> Int() const;
};

// The value of `text`, or nullopt with `why` ("offset N: ...").
std::optional<Value> Parse(std::string_view text, std::string* why);
// The same, except that when the value is an object only its members named in `members` are
// kept: the others are checked as strictly but not built (a log line's actions the reader skips).
std::optional<Value> ParseKeeping(std::string_view text,
                                  std::initializer_list<std::string_view> members,
                                  std::string* why);

// Appends the canonical text of `value` to `out`.
void AppendCanonical(const Value& value, std::string* out);
// `text` as a JSON string literal, escaped as Canonical does.
void AppendQuoted(std::string_view text, std::string* out);

}  // namespace rlc::oracle::json

#endif  // RLC_FUZZ_ORACLE_JSON_READER_H_
