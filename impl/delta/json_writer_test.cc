// JSON string quoting (json_writer.h): exact escapes for hand-written cases, and agreement with
// a plain one-byte-at-a-time quoting on every byte value and on generated strings, appended
// after text already in the buffer.
#include "impl/delta/json_writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

namespace {

using rlc::delta::AppendJsonQuoted;
using rlc::delta::JsonQuote;

// The quoting JSON requires, one byte at a time: '"', '\\' and control characters escaped (the
// short forms where JSON has one), every other byte as it is.
std::string PlainQuote(const std::string& value) {
  std::string out = "\"";
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\b') {
      out += "\\b";
    } else if (c == '\f') {
      out += "\\f";
    } else if (c < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\u%04x", c);
      out += escape;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

TEST(JsonQuote, EscapesWhatJsonRequires) {
  EXPECT_EQ(JsonQuote(""), "\"\"");
  EXPECT_EQ(JsonQuote("part-0.rows"), "\"part-0.rows\"");
  EXPECT_EQ(JsonQuote("{\"numRecords\":3}"), "\"{\\\"numRecords\\\":3}\"");
  EXPECT_EQ(JsonQuote("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(JsonQuote("line\nnext\ttab\r"), "\"line\\nnext\\ttab\\r\"");
  EXPECT_EQ(JsonQuote(std::string("\x01\x1f", 2)), "\"\\u0001\\u001f\"");
  EXPECT_EQ(JsonQuote(std::string("nul\0byte", 8)), "\"nul\\u0000byte\"");
  EXPECT_EQ(JsonQuote("/ stays"), "\"/ stays\"");
  EXPECT_EQ(JsonQuote("caf\xc3\xa9"), "\"caf\xc3\xa9\"");  // UTF-8 as it is
}

TEST(JsonQuote, AgreesWithPlainQuotingOnEveryByte) {
  for (int c = 0; c < 256; ++c) {
    const std::string one(1, static_cast<char>(c));
    EXPECT_EQ(JsonQuote(one), PlainQuote(one)) << "byte " << c;
  }
}

TEST(JsonQuote, AppendsAfterExistingTextAsPlainQuotingDoes) {
  std::mt19937_64 random(20261130);
  for (int round = 0; round < 10000; ++round) {
    std::string value(random() % 300, '\0');
    const bool escapes_likely = random() % 2 == 0;
    for (char& ch : value) {
      // Half the strings are mostly quotes and control bytes, half mostly plain text.
      const uint64_t r = random();
      ch = escapes_likely && r % 3 == 0 ? "\"\\\n\x01\x7f"[r / 3 % 5] : static_cast<char>(r >> 8);
    }
    std::string out = "prefix:";
    AppendJsonQuoted(value, &out);
    ASSERT_EQ(out, "prefix:" + PlainQuote(value)) << "round " << round;
  }
}

}  // namespace
