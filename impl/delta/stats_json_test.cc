#include "impl/delta/stats_json.h"

#include <gtest/gtest.h>

#include <random>

namespace rlc::delta {
namespace {

TEST(IsJsonStringInside, TakesEscapedQuotesAndEveryEscapeJsonAllows) {
  EXPECT_TRUE(IsJsonStringInside(""));
  EXPECT_TRUE(IsJsonStringInside(R"({\"numRecords\":5,\"minValues\":{\"id\":1}})"));
  EXPECT_TRUE(IsJsonStringInside(R"(a\\\"b)"));  // an escaped backslash, then an escaped quote
  EXPECT_TRUE(IsJsonStringInside(R"(\/\b\f\n\r\t\\)"));
  EXPECT_TRUE(IsJsonStringInside(R"(caf\u00e9 \ud83d\ude00)"));
  EXPECT_FALSE(IsJsonStringInside(R"(a\xb)"));   // no such escape
  EXPECT_FALSE(IsJsonStringInside(R"(ab\)"));    // a backslash escapes nothing
  EXPECT_FALSE(IsJsonStringInside(R"(a"b)"));    // a quote would end the string
  EXPECT_FALSE(IsJsonStringInside(R"(a\\"b)"));  // the quote after an escaped backslash too
  EXPECT_FALSE(IsJsonStringInside("a\tb"));      // a control character unescaped
  EXPECT_FALSE(IsJsonStringInside(R"(\u12)"));   // a \u escape cut short
  EXPECT_FALSE(IsJsonStringInside(R"(\u12G4xyz)"));
}

// The one-pass check works on blocks of 16 bytes: an escape split across two blocks, and text
// ending right after a block, are judged like any other.
TEST(IsJsonStringInside, JudgesEscapesAcrossBlocks) {
  for (size_t at = 0; at < 40; ++at) {
    std::string text(40, 'a');
    std::string good = text, bad = text, lone = text;
    good.replace(at, 2, "\\\"");
    bad.replace(at, 2, "\\q");
    lone.replace(at, 1, "\"");
    EXPECT_TRUE(IsJsonStringInside(good.substr(0, 41))) << at;
    EXPECT_FALSE(IsJsonStringInside(bad)) << at;
    EXPECT_FALSE(IsJsonStringInside(lone)) << at;
    EXPECT_FALSE(IsJsonStringInside(std::string(at, 'a') + "\\")) << at;
  }
}

// An independent reading of JSON's string grammar, without \u (judged by examples above).
bool ByTheGrammar(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '"' || c < 0x20) return false;
    if (c != '\\') continue;
    if (++i == text.size()) return false;
    if (std::string_view("\"\\/bfnrt").find(text[i]) == std::string_view::npos) return false;
  }
  return true;
}

TEST(IsJsonStringInside, AgreesWithTheGrammarOnRandomText) {
  std::mt19937 rng(20261204);
  const std::string alphabet = "ab\\\"nt/\x01";
  for (int n = 0; n < 20000; ++n) {
    std::string text(rng() % 48, 'a');
    for (char& c : text) c = alphabet[rng() % alphabet.size()];
    EXPECT_EQ(IsJsonStringInside(text), ByTheGrammar(text)) << text;
  }
}

TEST(StatsJson, BothFormsGiveTheSameJsonAndCompareEqual) {
  const std::string json = R"({"numRecords":2,"minValues":{"s":"x\"y"}})";
  const StatsJson plain(json);
  const StatsJson escaped = *StatsJson::EscapedCopyOf(json);
  EXPECT_FALSE(plain.escaped());
  EXPECT_TRUE(escaped.escaped());
  EXPECT_EQ(escaped.text(), R"({\"numRecords\":2,\"minValues\":{\"s\":\"x\\\"y\"}})");
  EXPECT_EQ(plain.Json(), json);
  EXPECT_EQ(escaped.Json(), json);
  EXPECT_EQ(plain, escaped);
  EXPECT_FALSE(plain == StatsJson(R"({"numRecords":3})"));
  EXPECT_FALSE(escaped == *StatsJson::EscapedCopyOf(R"({"numRecords":3})"));
  EXPECT_FALSE(StatsJson::EscapedCopyOf("{\"s\":\"\xff\"}").has_value());  // not UTF-8
}

TEST(StatsChunks, KeepsEachTextWhileChunksFill) {
  StatsChunks chunks;
  std::vector<StatsJson> kept;
  std::vector<std::string> texts;
  for (int i = 0; i < 2000; ++i) {
    texts.push_back("{\\\"numRecords\\\":" + std::to_string(i) + "}");
    kept.push_back(chunks.Keep(texts.back(), /*remaining=*/64));  // many small chunks
  }
  for (int i = 0; i < 2000; ++i) {
    EXPECT_EQ(kept[i].text(), texts[i]);
    EXPECT_EQ(kept[i].Json(), "{\"numRecords\":" + std::to_string(i) + "}");
  }
}

}  // namespace
}  // namespace rlc::delta
