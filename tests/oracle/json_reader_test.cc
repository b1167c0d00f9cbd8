// The oracle's JSON parser (fuzz/oracle/json_reader.h), checked against nlohmann::json as an
// independent reference: the same texts accepted and rejected, the same values read (compared
// through the canonical text, which nlohmann's dump of its sorted objects spells the same way for
// integers, strings, booleans and null).
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "fuzz/oracle/json_reader.h"

namespace {

namespace json = rlc::oracle::json;

std::string Canonical(const std::string& text) {
  std::string why;
  const std::optional<json::Value> v = json::Parse(text, &why);
  if (!v) return "rejected: " + why;
  std::string out;
  json::AppendCanonical(*v, &out);
  return out;
}

// Random documents with integers, strings (escapes, control characters, multi-byte UTF-8 and
// characters past U+FFFF), booleans, null, arrays and objects with repeated names.
class Documents {
 public:
  explicit Documents(uint64_t seed) : rng_(seed) {}

  nlohmann::json Value(int depth) {
    switch (rng_() % (depth > 6 ? 4 : 6)) {
      case 0:
        return nullptr;
      case 1:
        return rng_() % 2 == 0;
      case 2: {
        const int64_t n = static_cast<int64_t>(rng_());
        return rng_() % 2 ? n : n % 1000;
      }
      case 3:
        return String();
      case 4: {
        nlohmann::json a = nlohmann::json::array();
        for (uint64_t i = rng_() % 4; i > 0; --i) a.push_back(Value(depth + 1));
        return a;
      }
      default: {
        nlohmann::json o = nlohmann::json::object();
        for (uint64_t i = rng_() % 4; i > 0; --i) o[String()] = Value(depth + 1);
        return o;
      }
    }
  }

  std::string String() {
    static const char* const kPieces[] = {"a",  "path", "\"",   "\\",   "/", "\n",
                                          "\t", "\x01", "\x1f", "\x7f", "é", "€",
                                          "😀",  "%20",  " ",    "{",    "]", ":"};
    std::string s;
    for (uint64_t i = rng_() % 5; i > 0; --i) s += kPieces[rng_() % std::size(kPieces)];
    return s;
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

TEST(JsonReader, ReadsWhatAnotherParserReads) {
  Documents docs(5);
  for (int round = 0; round < 2000; ++round) {
    const nlohmann::json doc = docs.Value(0);
    const std::string compact = doc.dump();
    const std::string spaced = doc.dump(2);  // newlines and indentation between tokens
    SCOPED_TRACE(compact);
    EXPECT_EQ(Canonical(compact), compact);
    EXPECT_EQ(Canonical(spaced), compact);
    // ASCII-only spelling: every non-ASCII character as \u escapes (surrogate pairs included).
    EXPECT_EQ(Canonical(doc.dump(-1, ' ', /*ensure_ascii=*/true)), compact);
  }
}

TEST(JsonReader, RepeatedNamesKeepTheLastValueAsAMapWould) {
  const std::string text = R"({"a":1,"b":[true],"a":{"z":null,"y":"x"}})";
  EXPECT_EQ(Canonical(text), nlohmann::json::parse(text).dump());
  std::string why;
  const std::optional<json::Value> v = json::Parse(text, &why);
  ASSERT_TRUE(v.has_value()) << why;
  ASSERT_NE(v->Find("a"), nullptr);
  EXPECT_TRUE(v->Find("a")->is_object());
  EXPECT_EQ(v->Find("c"), nullptr);
  EXPECT_EQ(v->Find("a")->Find("y")->text, "x");
}

TEST(JsonReader, RejectsWhatJsonForbids) {
  const std::vector<std::string> bad = {"",
                                        " ",
                                        "{",
                                        "}",
                                        "[1,]",
                                        "[,1]",
                                        "{\"a\" 1}",
                                        "{\"a\":1,}",
                                        "{a:1}",
                                        "{\"a\":}",
                                        "01",
                                        "-",
                                        "1.",
                                        ".5",
                                        "1e",
                                        "1e+",
                                        "+1",
                                        "0x10",
                                        "tru",
                                        "nul",
                                        "falsey",
                                        "1 2",
                                        "[1] x",
                                        "\"abc",
                                        "\"\\x\"",
                                        "\"\\u12\"",
                                        "\"\\u12G4\"",
                                        "\"\x01\"",
                                        "\"a\nb\"",
                                        "\"\\ud800\"",
                                        "\"\\ud800x\"",
                                        "\"\\ud800\\u0041\"",
                                        "\"\\udc00\"",
                                        "\"\xff\"",
                                        "\"\xc0\xaf\"",
                                        "\"\xe0\x80\xaf\"",
                                        "\"\xed\xa0\x80\"",
                                        "\"\xf4\x90\x80\x80\"",
                                        "\"\xc3\"",
                                        "\"\xe2\x82\"",
                                        "'a'",
                                        "[1 2]",
                                        "NaN",
                                        "Infinity",
                                        "/* */1"};
  for (const std::string& text : bad) {
    SCOPED_TRACE(text);
    ASSERT_FALSE(nlohmann::json::accept(text)) << "the reference accepts it: fix the case";
    std::string why;
    EXPECT_FALSE(json::Parse(text, &why).has_value());
    EXPECT_EQ(why.rfind("offset ", 0), 0u) << why;
  }
}

TEST(JsonReader, AcceptsAndRejectsMutatedTextsAsAnotherParserDoes) {
  Documents docs(9);
  int rejected = 0, accepted = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = docs.Value(0).dump(round % 3 == 0 ? 1 : -1);
    // One to three byte edits: replace, insert or delete, with bytes JSON cares about.
    static const char kBytes[] = "{}[],:\"\\u0123456789eE+-. tfn\x01\x80\xbf\xc3\xe2\xf0";
    for (uint64_t edits = 1 + docs.rng()() % 3; edits > 0 && !text.empty(); --edits) {
      const size_t at = docs.rng()() % text.size();
      const char byte = kBytes[docs.rng()() % (sizeof(kBytes) - 1)];
      switch (docs.rng()() % 3) {
        case 0:
          text[at] = byte;
          break;
        case 1:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte);
          break;
        default:
          text.erase(at, 1);
      }
    }
    SCOPED_TRACE(text);
    const bool reference = nlohmann::json::accept(text);
    std::string why;
    const std::optional<json::Value> v = json::Parse(text, &why);
    ASSERT_EQ(v.has_value(), reference) << why;
    if (v) {
      ++accepted;
      // Floats print differently; every other accepted text must read the same.
      const nlohmann::json ref = nlohmann::json::parse(text);
      bool has_float = false;
      std::function<void(const nlohmann::json&)> scan = [&](const nlohmann::json& j) {
        has_float = has_float || j.is_number_float() || j.is_number_unsigned();
        if (j.is_structured()) {
          for (const auto& item : j) scan(item);
        }
      };
      scan(ref);
      if (!has_float) {
        EXPECT_EQ(Canonical(text), ref.dump());
      }
    } else {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(accepted, 1000);
}

TEST(JsonReader, KeepingSomeMembersChecksTheRestAsStrictly) {
  Documents docs(13);
  int objects = 0, kept_members = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = docs.Value(0).dump();
    if (round % 2 == 1 && !text.empty())
      text.erase(docs.rng()() % text.size(), 1);  // often malformed
    SCOPED_TRACE(text);
    std::string why_all, why_kept;
    const std::optional<json::Value> all = json::Parse(text, &why_all);
    const std::optional<json::Value> kept = json::ParseKeeping(text, {"a", "path"}, &why_kept);
    ASSERT_EQ(kept.has_value(), all.has_value());
    if (!all) {
      EXPECT_EQ(why_kept, why_all);
      continue;
    }
    if (!all->is_object()) {
      std::string a, k;
      json::AppendCanonical(*all, &a);
      json::AppendCanonical(*kept, &k);
      EXPECT_EQ(k, a);  // only an object is filtered
      continue;
    }
    ++objects;
    for (const std::string& name : kept->names) EXPECT_TRUE(name == "a" || name == "path") << name;
    for (const char* name : {"a", "path", "\"", "é"}) {
      const json::Value* in_all = all->Find(name);
      const json::Value* in_kept = kept->Find(name);
      const bool wanted = std::string(name) == "a" || std::string(name) == "path";
      ASSERT_EQ(in_kept != nullptr, wanted && in_all != nullptr) << name;
      if (in_kept == nullptr) continue;
      ++kept_members;
      std::string a, k;
      json::AppendCanonical(*in_all, &a);
      json::AppendCanonical(*in_kept, &k);
      EXPECT_EQ(k, a);
    }
  }
  EXPECT_GT(objects, 1000);
  EXPECT_GT(kept_members, 50);
}

TEST(JsonReader, ReadsIntegersOnlyWhenTheyFit) {
  const auto integer = [](const std::string& text) {
    std::string why;
    const std::optional<json::Value> v = json::Parse(text, &why);
    return v ? v->Int() : std::nullopt;
  };
  EXPECT_EQ(integer("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(integer("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(integer("-0"), 0);
  EXPECT_FALSE(integer("9223372036854775808").has_value());
  EXPECT_FALSE(integer("1.0").has_value());
  EXPECT_FALSE(integer("1e2").has_value());
  EXPECT_FALSE(integer("\"1\"").has_value());
}

TEST(JsonReader, RefusesNestingDeeperThanItsLimit) {
  std::string why;
  const std::string fits = std::string(json::kMaxDepth, '[') + std::string(json::kMaxDepth, ']');
  EXPECT_TRUE(json::Parse(fits, &why).has_value()) << why;
  const std::string deep =
      std::string(json::kMaxDepth + 1, '[') + std::string(json::kMaxDepth + 1, ']');
  EXPECT_FALSE(json::Parse(deep, &why).has_value());
  EXPECT_NE(why.find("nested too deep"), std::string::npos) << why;
  // Far deeper input fails the same way, without exhausting the stack.
  EXPECT_FALSE(json::Parse(std::string(1 << 20, '['), &why).has_value());
}

TEST(JsonReader, NamesTheOffsetOfTheError) {
  std::string why;
  EXPECT_FALSE(json::Parse(R"({"path":"a","size":12x})", &why).has_value());
  EXPECT_EQ(why, "offset 21: ',' or '}' expected in an object");
}

}  // namespace
