#include "impl/delta/json_writer.h"

#include <charconv>

namespace rlc::delta {

void AppendJsonQuoted(std::string_view value, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t plain_from = 0;  // bytes that need no escape are appended a run at a time
  for (size_t i = 0; i < value.size(); ++i) {
    const auto c = static_cast<uint8_t>(value[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(value.data() + plain_from, i - plain_from);
    plain_from = i + 1;
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        out->append("\\u00");
        out->push_back(kHex[c >> 4]);
        out->push_back(kHex[c & 0xF]);
    }
  }
  out->append(value.data() + plain_from, value.size() - plain_from);
  out->push_back('"');
}

std::string JsonQuote(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  AppendJsonQuoted(value, &out);
  return out;
}

void JsonWriter::Separate() {
  if (need_comma_) out_.push_back(',');
}

void JsonWriter::BeginObject() {
  Separate();
  out_.push_back('{');
  need_comma_ = false;
}
void JsonWriter::EndObject() {
  out_.push_back('}');
  need_comma_ = true;
}
void JsonWriter::BeginArray() {
  Separate();
  out_.push_back('[');
  need_comma_ = false;
}
void JsonWriter::EndArray() {
  out_.push_back(']');
  need_comma_ = true;
}
void JsonWriter::Key(std::string_view key) {
  Separate();
  AppendJsonQuoted(key, &out_);
  out_.push_back(':');
  need_comma_ = false;
}
void JsonWriter::String(std::string_view value) {
  Separate();
  AppendJsonQuoted(value, &out_);
  need_comma_ = true;
}
void JsonWriter::Int(int64_t value) {
  Separate();
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), value);
  out_.append(digits, end);
  need_comma_ = true;
}
void JsonWriter::Bool(bool value) {
  Separate();
  out_ += value ? "true" : "false";
  need_comma_ = true;
}
void JsonWriter::Null() {
  Separate();
  out_ += "null";
  need_comma_ = true;
}
void JsonWriter::Raw(std::string_view json) {
  Separate();
  out_ += json;
  need_comma_ = true;
}

void JsonWriter::EndLine() {
  out_.push_back('\n');
  need_comma_ = false;
}
void JsonWriter::RawLine(std::string_view line) {
  out_ += line;
  EndLine();
}

void JsonWriter::Field(std::string_view key, const StringMap& map) {
  Key(key);
  BeginObject();
  for (const auto& [k, v] : map) {
    Key(k);
    if (v.has_value()) {
      String(*v);
    } else {
      Null();
    }
  }
  EndObject();
}

void JsonWriter::Unknown(const std::vector<UnknownField>& fields) {
  for (const UnknownField& f : fields) {
    Key(f.key);
    Raw(f.raw_json);
  }
}

}  // namespace rlc::delta
