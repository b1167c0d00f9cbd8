#include "impl/delta/stats_json.h"

#include <simdjson.h>

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "impl/base/assert.h"
#include "impl/delta/json_writer.h"

namespace rlc::delta {

StatsJson::StatsJson(std::string json) {
  auto owned = std::make_shared<const std::string>(std::move(json));
  text_ = *owned;
  owner_ = std::move(owned);
}

StatsJson StatsJson::Escaped(std::shared_ptr<const std::string> owner, std::string_view escaped) {
  return StatsJson(std::move(owner), escaped, /*escaped=*/true);
}

namespace {

// The DOM parser's answer for `text` quoted: every escape and code point checked.
bool ParsesAsJsonString(std::string_view text, std::string* unescaped) {
  thread_local std::string quoted;
  quoted.assign(1, '"');
  quoted.append(text);
  quoted.push_back('"');
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element element;
  std::string_view s;
  if (parser.parse(quoted.data(), quoted.size()).get(element) || element.get_string().get(s))
    return false;
  if (unescaped != nullptr) unescaped->assign(s);
  return true;
}

}  // namespace

namespace {

// The escapes of `text` one by one: each JSON allows; \u and any other to the DOM parser.
bool EscapesAllowed(std::string_view text) {
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c < 0x20) return false;
    if (c != '\\') {
      ++p;
      continue;
    }
    if (end - p < 2) return false;
    switch (p[1]) {
      case '"':
      case '\\':
      case '/':
      case 'b':
      case 'f':
      case 'n':
      case 'r':
      case 't':
        p += 2;
        continue;
      default:
        return ParsesAsJsonString(text, nullptr);
    }
  }
  return true;
}

}  // namespace

bool IsJsonStringInside(std::string_view text) {
  // Statistics escape their quotes and nothing else. So the common case is checked in one pass:
  // every quote right after a backslash, every backslash right before a quote, no control
  // character. Such text is valid; any other is checked escape by escape.
  const auto* b = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  unsigned after_backslash = 0;  // the previous byte was a backslash
#if defined(__SSE2__)
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i control_max = _mm_set1_epi8(0x1f);
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + i));
    const auto backslashes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, backslash)));
    const auto quotes = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, quote)));
    const auto controls =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, control_max), v)));
    if (controls != 0 || quotes != (((backslashes << 1) | after_backslash) & 0xffffu))
      return EscapesAllowed(text);
    after_backslash = backslashes >> 15;
  }
#endif
  for (; i < n; ++i) {
    const unsigned is_quote = b[i] == '"';
    if (b[i] < 0x20 || is_quote != after_backslash) return EscapesAllowed(text);
    after_backslash = b[i] == '\\';
  }
  return after_backslash == 0 || EscapesAllowed(text);
}

std::optional<StatsJson> StatsJson::EscapedCopyOf(std::string_view json) {
  std::string quoted;
  AppendJsonQuoted(json, &quoted);
  auto owner = std::make_shared<const std::string>(quoted.substr(1, quoted.size() - 2));
  const std::string_view text = *owner;
  if (!ParsesAsJsonString(text, nullptr)) return std::nullopt;
  return Escaped(std::move(owner), text);
}

std::string StatsJson::Json() const {
  if (!escaped_) return std::string(text_);
  std::string json;
  const bool ok = ParsesAsJsonString(text_, &json);
  RLC_ASSERT(ok);  // Escaped's requirement
  return json;
}

bool operator==(const StatsJson& a, const StatsJson& b) {
  if (a.escaped_ == b.escaped_ && a.text_ == b.text_) return true;
  return a.Json() == b.Json();
}

StatsJson StatsChunks::Keep(std::string_view escaped, size_t remaining) {
  // A chunk holds at most a mebibyte more than its largest statistics: a long-lived action keeps
  // its whole chunk alive.
  constexpr size_t kChunkBytesMax = size_t{1} << 20;
  if (chunk_ == nullptr || chunk_->capacity() - chunk_->size() < escaped.size()) {
    chunk_ = std::make_shared<std::string>();
    chunk_->reserve(std::max(escaped.size(), std::min(remaining, kChunkBytesMax)));
  }
  const size_t at = chunk_->size();
  chunk_->append(escaped);  // within the capacity reserved: earlier views stay valid
  return StatsJson::Escaped(chunk_, std::string_view(chunk_->data() + at, escaped.size()));
}

}  // namespace rlc::delta
