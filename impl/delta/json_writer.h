// JsonWriter: builds one compact JSON text (no spaces), as Delta engines write log lines.
//
// Concern: correct escaping and separators, so every writer in impl/ emits valid JSON. It does
// not check structure beyond commas: callers open and close what they begin.
//
// Thread-safety: one writer per thread.
#ifndef RLC_IMPL_DELTA_JSON_WRITER_H_
#define RLC_IMPL_DELTA_JSON_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "impl/delta/actions.h"

namespace rlc::delta {

class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  void Key(std::string_view key);
  void String(std::string_view value);
  void Int(int64_t value);
  void Bool(bool value);
  void Null();
  void Raw(std::string_view json);  // a value that is already JSON text
  // Ends one record of a JSON-lines text: a newline, after which a value takes no comma.
  void EndLine();
  void Reserve(size_t bytes) { out_.reserve(bytes); }

  // Shorthands for "key": value.
  void Field(std::string_view key, std::string_view value) {
    Key(key);
    String(value);
  }
  void Field(std::string_view key, const char* value) {
    Key(key);
    String(value);
  }
  void Field(std::string_view key, int64_t value) {
    Key(key);
    Int(value);
  }
  void Field(std::string_view key, bool value) {
    Key(key);
    Bool(value);
  }
  void Field(std::string_view key, const StringMap& map);
  void Unknown(const std::vector<UnknownField>& fields);

  const std::string& text() const { return out_; }
  std::string Take() { return std::move(out_); }

 private:
  void Separate();

  std::string out_;
  bool need_comma_ = false;
};

// `value` as a quoted, escaped JSON string: '"', '\\' and control characters escaped, every
// other byte as it is.
std::string JsonQuote(std::string_view value);
// The same, appended to `out`.
void AppendJsonQuoted(std::string_view value, std::string* out);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_JSON_WRITER_H_
