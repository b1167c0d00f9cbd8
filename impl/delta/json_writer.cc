#include "impl/delta/json_writer.h"

namespace rlc::delta {

std::string JsonQuote(std::string_view value) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(value.size() + 2);
  out.push_back('"');
  for (char c : value) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (uint8_t(c) < 0x20) {
          out += "\\u00";
          out.push_back(kHex[uint8_t(c) >> 4]);
          out.push_back(kHex[uint8_t(c) & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
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
  out_ += JsonQuote(key);
  out_.push_back(':');
  need_comma_ = false;
}
void JsonWriter::String(std::string_view value) {
  Separate();
  out_ += JsonQuote(value);
  need_comma_ = true;
}
void JsonWriter::Int(int64_t value) {
  Separate();
  out_ += std::to_string(value);
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
