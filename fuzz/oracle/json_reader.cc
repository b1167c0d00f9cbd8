#include "fuzz/oracle/json_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

namespace rlc::oracle::json {
namespace {

std::optional<int64_t> IntegerOf(std::string_view literal) {
  if (literal.find_first_of(".eE") != std::string_view::npos) return std::nullopt;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), v);
  if (ec != std::errc() || end != literal.data() + literal.size()) return std::nullopt;
  return v;
}

// Bytes a string's run of plain text stops at: '"', '\\', control characters and every byte past
// ASCII (the start of a UTF-8 sequence to check).
constexpr std::array<bool, 256> kStopsRun = [] {
  std::array<bool, 256> stops{};
  for (int c = 0; c < 256; ++c) stops[size_t(c)] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
  return stops;
}();

bool Plain(char c) { return !kStopsRun[static_cast<unsigned char>(c)]; }

// A null `out` checks the text without keeping it (no value is built).
class Parser {
 public:
  Parser(std::string_view text, std::string* why, const std::string_view* keep_begin = nullptr,
         const std::string_view* keep_end = nullptr)
      : begin_(text.data()),
        at_(text.data()),
        end_(text.data() + text.size()),
        why_(why),
        keep_begin_(keep_begin),
        keep_end_(keep_end) {}

  bool Document(Value* out) {
    SkipSpace();
    if (!ParseValue(out, 0)) return false;
    SkipSpace();
    return at_ == end_ || Fail("unexpected text after the value");
  }

 private:
  bool Fail(const char* what) {
    *why_ = "offset " + std::to_string(at_ - begin_) + ": " + what;
    return false;
  }

  void SkipSpace() {
    while (at_ < end_ && (*at_ == ' ' || *at_ == '\t' || *at_ == '\n' || *at_ == '\r')) ++at_;
  }

  bool Literal(std::string_view word, Value::Kind kind, Value* out) {
    if (static_cast<size_t>(end_ - at_) < word.size() ||
        std::string_view(at_, word.size()) != word) {
      return Fail("not a JSON value");
    }
    at_ += word.size();
    if (out != nullptr) out->kind = kind;
    return true;
  }

  bool ParseValue(Value* out, int depth) {
    if (at_ == end_) return Fail("the text ends where a value should start");
    switch (*at_) {
      case '{':
        return ParseObject(out, depth + 1, depth == 0 && keep_begin_ != nullptr);
      case '[':
        return ParseArray(out, depth + 1);
      case '"':
        if (out == nullptr) return ParseString(nullptr);
        out->kind = Value::Kind::kString;
        return ParseString(&out->text);
      case 't':
        return Literal("true", Value::Kind::kTrue, out);
      case 'f':
        return Literal("false", Value::Kind::kFalse, out);
      case 'n':
        return Literal("null", Value::Kind::kNull, out);
      default:
        return ParseNumber(out);
    }
  }

  // `filtered`: keep only the members named in [keep_begin_, keep_end_).
  bool ParseObject(Value* out, int depth, bool filtered = false) {
    if (depth > kMaxDepth) return Fail("nested too deep");
    if (out != nullptr) out->kind = Value::Kind::kObject;
    ++at_;  // '{'
    SkipSpace();
    if (at_ < end_ && *at_ == '}') return ++at_, true;
    for (;;) {
      SkipSpace();
      if (at_ == end_ || *at_ != '"') return Fail("an object member must start with a string name");
      std::string_view name;
      if (!ParseName(&name)) return false;
      Value* member = nullptr;
      if (out != nullptr && (!filtered || std::find(keep_begin_, keep_end_, name) != keep_end_)) {
        if (out->names.empty()) {
          // Most objects of a log line have a few members: one allocation instead of doubling.
          out->names.reserve(8);
          out->items.reserve(8);
        }
        out->names.emplace_back(name);
        member = &out->items.emplace_back();
      }
      SkipSpace();
      if (at_ == end_ || *at_ != ':') return Fail("':' expected after a member name");
      ++at_;
      SkipSpace();
      if (!ParseValue(member, depth)) return false;
      SkipSpace();
      if (at_ == end_) return Fail("the text ends inside an object");
      if (*at_ == '}') return ++at_, true;
      if (*at_ != ',') return Fail("',' or '}' expected in an object");
      ++at_;
    }
  }

  bool ParseArray(Value* out, int depth) {
    if (depth > kMaxDepth) return Fail("nested too deep");
    if (out != nullptr) out->kind = Value::Kind::kArray;
    ++at_;  // '['
    SkipSpace();
    if (at_ < end_ && *at_ == ']') return ++at_, true;
    if (out != nullptr) out->items.reserve(4);  // a row file's row: one allocation, not three
    for (;;) {
      SkipSpace();
      if (!ParseValue(out == nullptr ? nullptr : &out->items.emplace_back(), depth)) return false;
      SkipSpace();
      if (at_ == end_) return Fail("the text ends inside an array");
      if (*at_ == ']') return ++at_, true;
      if (*at_ != ',') return Fail("',' or ']' expected in an array");
      ++at_;
    }
  }

  bool ParseNumber(Value* out) {
    const char* start = at_;
    auto digits = [&] {
      const char* from = at_;
      while (at_ < end_ && *at_ >= '0' && *at_ <= '9') ++at_;
      return at_ > from;
    };
    if (at_ < end_ && *at_ == '-') ++at_;
    if (at_ < end_ && *at_ == '0') {
      ++at_;
    } else if (!digits()) {
      at_ = start;
      return Fail("not a JSON value");
    }
    const char* integer_end = at_;
    if (at_ < end_ && *at_ == '.') {
      ++at_;
      if (!digits()) return Fail("a digit must follow the decimal point");
    }
    if (at_ < end_ && (*at_ == 'e' || *at_ == 'E')) {
      ++at_;
      if (at_ < end_ && (*at_ == '+' || *at_ == '-')) ++at_;
      if (!digits()) return Fail("a digit must follow the exponent");
    }
    const std::string_view literal(start, static_cast<size_t>(at_ - start));
    // An integer of at most 18 digits fits int64_t: only longer literals need reading here.
    const bool short_integer = integer_end == at_ && at_ - start <= 18;
    // A limit RFC 8259 allows: a number a double cannot hold (and no 64-bit integer reads) is
    // refused.
    if (!short_integer && !IntegerOf(literal)) {
      scratch_.assign(literal);  // strtod needs a terminated string
      if (!std::isfinite(std::strtod(scratch_.c_str(), nullptr))) {
        at_ = start;
        return Fail("a number out of range");
      }
    }
    if (out != nullptr) {
      out->kind = Value::Kind::kNumber;
      out->text.assign(literal);
    }
    return true;
  }

  static bool Continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

  // Copies one UTF-8 sequence starting at a byte >= 0x80 to *w (unless null), checking it is well
  // formed.
  bool Utf8Sequence(char** w) {
    const auto* p = reinterpret_cast<const unsigned char*>(at_);
    const size_t left = static_cast<size_t>(end_ - at_);
    const unsigned char c = p[0];
    size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;  // nothing past U+10FFFF
    } else {
      return Fail("invalid UTF-8 in a string");
    }
    if (left < length || p[1] < low || p[1] > high) return Fail("invalid UTF-8 in a string");
    for (size_t i = 2; i < length; ++i) {
      if (!Continuation(p[i])) return Fail("invalid UTF-8 in a string");
    }
    if (*w != nullptr) {
      std::memcpy(*w, at_, length);
      *w += length;
    }
    at_ += length;
    return true;
  }

  bool Hex4(uint32_t* out) {
    if (end_ - at_ < 4) return Fail("a \\u escape needs four hex digits");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = at_[i];
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        v |= static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        v |= static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return Fail("a \\u escape needs four hex digits");
      }
    }
    at_ += 4;
    *out = v;
    return true;
  }

  static void AppendUtf8(uint32_t code, char** w) {
    char*& p = *w;
    if (code < 0x80) {
      *p++ = static_cast<char>(code);
    } else if (code < 0x800) {
      *p++ = static_cast<char>(0xC0 | (code >> 6));
      *p++ = static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      *p++ = static_cast<char>(0xE0 | (code >> 12));
      *p++ = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *p++ = static_cast<char>(0x80 | (code & 0x3F));
    } else {
      *p++ = static_cast<char>(0xF0 | (code >> 18));
      *p++ = static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      *p++ = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *p++ = static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  // Decodes one escape to *w (unless null).
  bool Escape(char** w) {
    ++at_;  // '\\'
    if (at_ == end_) return Fail("the text ends inside an escape");
    const char c = *at_++;
    char plain = 0;
    switch (c) {
      case '"':
        plain = '"';
        break;
      case '\\':
        plain = '\\';
        break;
      case '/':
        plain = '/';
        break;
      case 'b':
        plain = '\b';
        break;
      case 'f':
        plain = '\f';
        break;
      case 'n':
        plain = '\n';
        break;
      case 'r':
        plain = '\r';
        break;
      case 't':
        plain = '\t';
        break;
      case 'u':
        break;
      default:
        --at_;
        return Fail("unknown escape");
    }
    if (c != 'u') {
      if (*w != nullptr) *(*w)++ = plain;
      return true;
    }
    uint32_t code = 0;
    if (!Hex4(&code)) return false;
    if (code >= 0xDC00 && code <= 0xDFFF) return Fail("a low surrogate without a high one");
    if (code >= 0xD800 && code <= 0xDBFF) {
      uint32_t low = 0;
      if (end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u')
        return Fail("a high surrogate without a low one");
      at_ += 2;
      if (!Hex4(&low)) return false;
      if (low < 0xDC00 || low > 0xDFFF) return Fail("a high surrogate without a low one");
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    if (*w != nullptr) AppendUtf8(code, w);
    return true;
  }

  // A member name: a view of the text when it holds no escape and no byte past ASCII (names
  // nearly always), else unescaped into scratch_.
  bool ParseName(std::string_view* name) {
    const char* from = at_ + 1;
    const char* p = from;
    while (p < end_ && Plain(*p)) ++p;
    if (p < end_ && *p == '"') {
      *name = std::string_view(from, static_cast<size_t>(p - from));
      at_ = p + 1;
      return true;
    }
    scratch_.clear();
    if (!ParseString(&scratch_)) return false;
    *name = scratch_;
    return true;
  }

  // A null `out` checks the string without keeping it. The output grows once: decoding never
  // makes a string longer than its literal, so its size is bounded by where the literal ends.
  bool ParseString(std::string* out) {
    ++at_;  // '"'
    char* w = nullptr;
    size_t base = 0;
    if (out != nullptr) {
      const char* close = at_;  // the closing quote, skipping escaped characters
      while (close < end_ && *close != '"') close += *close == '\\' ? 2 : 1;
      base = out->size();
      out->resize(base + static_cast<size_t>(std::min(close, end_) - at_));
      w = out->data() + base;
    }
    for (;;) {
      // The run of bytes that need no work, copied at once.
      const char* run = at_;
      while (at_ < end_ && Plain(*at_)) ++at_;
      if (w != nullptr && at_ > run) {
        std::memcpy(w, run, static_cast<size_t>(at_ - run));
        w += at_ - run;
      }
      if (at_ == end_) return Fail("the text ends inside a string");
      const auto c = static_cast<unsigned char>(*at_);
      if (c == '"') {
        ++at_;
        if (out != nullptr) out->resize(static_cast<size_t>(w - out->data()));
        return true;
      }
      if (c == '\\') {
        if (!Escape(&w)) return false;
      } else if (c < 0x20) {
        return Fail("a control character in a string must be escaped");
      } else if (!Utf8Sequence(&w)) {
        return false;
      }
    }
  }

  const char* begin_;
  const char* at_;
  const char* end_;
  std::string* why_;
  const std::string_view* keep_begin_;
  const std::string_view* keep_end_;
  std::string scratch_;  // a member name that needed unescaping; a number for strtod
};

}  // namespace

const Value* Value::Find(std::string_view name) const {
  for (size_t i = names.size(); i-- > 0;) {
    if (names[i] == name) return &items[i];
  }
  return nullptr;
}

std::optional<int64_t> Value::Int() const {
  if (kind != Kind::kNumber) return std::nullopt;
  return IntegerOf(text);
}

void AppendQuoted(std::string_view text, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 0xF]);
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

void AppendCanonical(const Value& value, std::string* out) {
  switch (value.kind) {
    case Value::Kind::kNull:
      out->append("null");
      return;
    case Value::Kind::kFalse:
      out->append("false");
      return;
    case Value::Kind::kTrue:
      out->append("true");
      return;
    case Value::Kind::kString:
      AppendQuoted(value.text, out);
      return;
    case Value::Kind::kNumber: {
      const std::optional<int64_t> n = value.Int();
      out->append(n ? std::to_string(*n) : value.text);
      return;
    }
    case Value::Kind::kArray:
      out->push_back('[');
      for (size_t i = 0; i < value.items.size(); ++i) {
        if (i > 0) out->push_back(',');
        AppendCanonical(value.items[i], out);
      }
      out->push_back(']');
      return;
    case Value::Kind::kObject: {
      std::map<std::string_view, const Value*>
          members;  // sorted; a repeated name keeps its last value
      for (size_t i = 0; i < value.names.size(); ++i) members[value.names[i]] = &value.items[i];
      out->push_back('{');
      bool first = true;
      for (const auto& [name, member] : members) {
        if (!first) out->push_back(',');
        first = false;
        AppendQuoted(name, out);
        out->push_back(':');
        AppendCanonical(*member, out);
      }
      out->push_back('}');
      return;
    }
  }
}

std::optional<Value> Parse(std::string_view text, std::string* why) {
  Value v;
  Parser parser(text, why);
  if (!parser.Document(&v)) return std::nullopt;
  return v;
}

std::optional<Value> ParseKeeping(std::string_view text,
                                  std::initializer_list<std::string_view> members,
                                  std::string* why) {
  Value v;
  Parser parser(text, why, members.begin(), members.end());
  if (!parser.Document(&v)) return std::nullopt;
  return v;
}

}  // namespace rlc::oracle::json
