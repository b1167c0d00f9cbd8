#include "impl/delta/json_writer.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace rlc::delta {

namespace {

// How many bytes each input byte adds when escaped: 1 for '"', '\\' and the control characters
// with a short escape (\n ...), 5 for the other control characters (\u00XX), 0 for the rest.
constexpr std::array<uint8_t, 256> kEscapeExtra = [] {
  std::array<uint8_t, 256> extra{};
  for (int c = 0; c < 0x20; ++c) extra[size_t(c)] = 5;
  for (const char c : {'\n', '\r', '\t', '\b', '\f', '"', '\\'}) extra[static_cast<uint8_t>(c)] = 1;
  return extra;
}();

}  // namespace

void AppendJsonQuoted(std::string_view value, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  // The escaped length first, so the output grows once and is then written in place: log
  // lines quote JSON inside JSON (stats), where every other byte may need an escape.
  size_t extra = 0;
  for (const char c : value) extra += kEscapeExtra[static_cast<uint8_t>(c)];
  const size_t at = out->size();
  out->resize(at + value.size() + extra + 2);
  char* p = out->data() + at;
  *p++ = '"';
  if (extra == 0) {
    if (!value.empty()) std::memcpy(p, value.data(), value.size());
    p += value.size();
  } else {
    for (const char ch : value) {
      const auto c = static_cast<uint8_t>(ch);
      if (kEscapeExtra[c] == 0) {
        *p++ = ch;
        continue;
      }
      *p++ = '\\';
      switch (c) {
        case '"':
          *p++ = '"';
          break;
        case '\\':
          *p++ = '\\';
          break;
        case '\n':
          *p++ = 'n';
          break;
        case '\r':
          *p++ = 'r';
          break;
        case '\t':
          *p++ = 't';
          break;
        case '\b':
          *p++ = 'b';
          break;
        case '\f':
          *p++ = 'f';
          break;
        default:
          *p++ = 'u';
          *p++ = '0';
          *p++ = '0';
          *p++ = kHex[c >> 4];
          *p++ = kHex[c & 0xF];
      }
    }
  }
  *p = '"';
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
