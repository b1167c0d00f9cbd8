// Tests for impl/dv/z85.h: known vectors, padding, the '#' tail extension, UUIDs and every
// decoding error. Expected strings were derived by hand from the alphabet (docs/formats.md#a4):
//   index 0-9 '0'-'9', 10-35 'a'-'z', 36-61 'A'-'Z', 62 '.', 63 '-', 64 ':', 65 '+', 66 '=',
//   67 '^', 68 '!', 69 '/', 70 '*', 71 '?', 72 '&', 73 '<', 74 '>', 75 '(', 76 ')', 77 '[',
//   78 ']', 79 '{', 80 '}', 81 '@', 82 '%', 83 '$', 84 '#'.
#include "impl/dv/z85.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <tuple>
#include <vector>

#include "impl/dv/bitmap_codec.h"

namespace rlc::dv {
namespace {

std::string Bytes(std::initializer_list<int> values) {
  std::string out;
  for (int v : values) out.push_back(char(uint8_t(v)));
  return out;
}

void ExpectCorrupt(const Result<std::string>& r, const std::string& reason) {
  ASSERT_FALSE(r.ok()) << "expected failure containing '" << reason << "'";
  EXPECT_EQ(r.status().code(), StatusCode::kCorrupt) << r.status().ToString();
  EXPECT_NE(r.status().message().find(reason), std::string::npos)
      << "message '" << r.status().message() << "' lacks '" << reason << "'";
}

// ---------------------------------------------------------------------------------------------
// Known vectors

TEST(Z85Test, ZeroMqSpecHelloWorldEncodes) {
  // The ZeroMQ Z85 spec (rfc.zeromq.org/spec/32) example; Delta uses the same alphabet.
  const std::string bytes = Bytes({0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B});
  EXPECT_EQ(Z85Encode(bytes), "HelloWorld");
}

TEST(Z85Test, ZeroMqSpecHelloWorldDecodes) {
  Result<std::string> r = Z85Decode("HelloWorld", 8);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, Bytes({0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B}));
}

TEST(Z85Test, EmptyInputIsEmptyText) {
  EXPECT_EQ(Z85Encode(""), "");
  Result<std::string> r = Z85Decode("", 0);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "");
}

TEST(Z85Test, ZeroBlockIsFiveZeroDigits) { EXPECT_EQ(Z85Encode(Bytes({0, 0, 0, 0})), "00000"); }

TEST(Z85Test, AllOnesBlockIsLargestValue) {
  // 0xFFFFFFFF = 4294967295. 4294967295 / 85^4 (52200625) = 82 r 14516045;
  //   14516045 / 85^3 (614125) = 23 r 391170; 391170 / 85^2 (7225) = 54 r 1020; 1020 / 85 = 12 r 0
  //   -> digits 82, 23, 54, 12, 0 = '%', 'n', 'S', 'c', '0'.
  EXPECT_EQ(Z85Encode(Bytes({0xFF, 0xFF, 0xFF, 0xFF})), "%nSc0");
  Result<std::string> r = Z85Decode("%nSc0", 4);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, Bytes({0xFF, 0xFF, 0xFF, 0xFF}));
}

TEST(Z85Test, BlocksAreBigEndian) {
  // 00 00 00 01 = 1 -> "00001"; 01 00 00 00 = 16777216 = 0*85^4 + 27*85^3 + 27*85^2 + 9*85 + 1
  //   (27*614125 = 16581375; rest 195841 = 27*7225 (195075) + 766; 766 = 9*85 + 1)
  //   -> '0','r','r','9','1'.
  EXPECT_EQ(Z85Encode(Bytes({0, 0, 0, 1})), "00001");
  EXPECT_EQ(Z85Encode(Bytes({1, 0, 0, 0})), "0rr91");
}

// ---------------------------------------------------------------------------------------------
// Padding

TEST(Z85Test, ShortInputIsZeroPaddedToAFullBlock) {
  // 01 -> 01 00 00 00 (see BlocksAreBigEndian).
  EXPECT_EQ(Z85Encode(Bytes({1})), "0rr91");
  // 01 02 -> 01 02 00 00 = 16908288 = 27*614125 + 45*7225 + 21*85 + 3 -> '0','r','J','l','3'.
  EXPECT_EQ(Z85Encode(Bytes({1, 2})), "0rJl3");
  // 01 02 03 -> 01 02 03 00 = 16909056 = 27*614125 + 45*7225 + 30*85 + 6 -> '0','r','J','u','6'.
  EXPECT_EQ(Z85Encode(Bytes({1, 2, 3})), "0rJu6");
  EXPECT_EQ(Z85Encode(Bytes({1, 2, 3, 4, 5})).size(), 10u);
}

TEST(Z85Test, DecodeDropsZeroPadding) {
  for (auto [text, size, want] :
       {std::tuple{"0rr91", 1, Bytes({1})}, std::tuple{"0rJl3", 2, Bytes({1, 2})},
        std::tuple{"0rJu6", 3, Bytes({1, 2, 3})}}) {
    Result<std::string> r = Z85Decode(text, uint64_t(size));
    ASSERT_TRUE(r.ok()) << text << ": " << r.status().ToString();
    EXPECT_EQ(*r, want) << text;
  }
}

TEST(Z85Test, NonZeroPaddingIsRejected) {
  // "HelloWorld" holds 8 bytes, the last being 0x5B; claiming 7 makes 0x5B padding.
  ExpectCorrupt(Z85Decode("HelloWorld", 7), "padding byte 7 is not zero");
  // "0rJl3" = 01 02 00 00: claiming 1 byte makes 02 padding.
  ExpectCorrupt(Z85Decode("0rJl3", 1), "padding byte 1 is not zero");
}

TEST(Z85Test, LengthNotMultipleOfFiveIsRejected) {
  ExpectCorrupt(Z85Decode("Hell", 4), "4 characters is not a multiple of 5");
  ExpectCorrupt(Z85Decode("HelloWorld0", 8), "11 characters is not a multiple of 5");
}

TEST(Z85Test, SizeThatTheTextCannotHoldIsRejected) {
  // 10 characters = 2 blocks = 5..8 bytes.
  ExpectCorrupt(Z85Decode("HelloWorld", 9), "cannot hold 9 bytes");
  ExpectCorrupt(Z85Decode("HelloWorld", 4), "cannot hold 4 bytes");
  ExpectCorrupt(Z85Decode("HelloWorld", 0), "cannot hold 0 bytes");
  ExpectCorrupt(Z85Decode("", 1), "cannot hold 1 bytes");
  EXPECT_TRUE(Z85Decode("0rr91"
                        "00000",
                        5)
                  .ok());
}

TEST(Z85Test, RoundTripsEveryLengthUpToSixteen) {
  std::string bytes;
  for (int n = 0; n <= 16; ++n) {
    Result<std::string> r = Z85Decode(Z85Encode(bytes), bytes.size());
    ASSERT_TRUE(r.ok()) << n << ": " << r.status().ToString();
    EXPECT_EQ(*r, bytes) << n;
    bytes.push_back(char(uint8_t(0xF1 - 37 * n)));
  }
}

// ---------------------------------------------------------------------------------------------
// Bad characters and overflow

TEST(Z85Test, BadCharacterIsRejectedWithItsOffset) {
  // ',' (byte 44) is not in the alphabet; it is character 5.
  ExpectCorrupt(Z85Decode("Hello,orld", 8), "Z85 character 5: byte 44 is not in the Z85 alphabet");
  // ' ' at character 0.
  ExpectCorrupt(Z85Decode(" elloWorld", 8), "Z85 character 0: byte 32");
  // '"' (34) at character 9, the last one.
  ExpectCorrupt(Z85Decode("HelloWorl\"", 8), "Z85 character 9: byte 34");
  // A byte above 127 must not be taken as a negative index.
  ExpectCorrupt(Z85Decode(std::string("Hel") + char(0xFF) + "o", 4), "Z85 character 3: byte 255");
  // An embedded NUL.
  ExpectCorrupt(Z85Decode(std::string("HelloW\0rld", 10), 8), "Z85 character 6: byte 0");
  // '~', '`', '\\', '|', '_', ',' , ';', '\'', '"' are the printable ASCII characters Z85 omits.
  for (char c : std::string("~`\\|_,;'\"")) {
    std::string text = "0000" + std::string(1, c);
    ExpectCorrupt(Z85Decode(text, 4), "Z85 character 4: byte " + std::to_string(int(uint8_t(c))));
  }
}

TEST(Z85Test, OverflowingBlockIsRejectedWithItsOffset) {
  // "%nSc1" = 0xFFFFFFFF + 1 = 2^32.
  ExpectCorrupt(Z85Decode("%nSc1", 4), "Z85 block at character 0 overflows 4294967295");
  ExpectCorrupt(Z85Decode("00000%nSc1", 8), "Z85 block at character 5 overflows");
  // "#####" = 85^5 - 1, the largest 5-digit value.
  ExpectCorrupt(Z85Decode("#####", 4), "Z85 block at character 0 overflows");
  // Any block starting with '#' (84*85^4 = 4384852500 > 2^32-1) overflows.
  ExpectCorrupt(Z85Decode("#0000", 4), "Z85 block at character 0 overflows");
}

// ---------------------------------------------------------------------------------------------
// The '#' tail extension: k '#' then 5-k digits for the final 4-k bytes, big-endian.

TEST(Z85Test, HashTailExtensionDecodesEachTailLength) {
  // 1 byte 01: "###" + 2 digits of 1 = "01".
  Result<std::string> one = Z85Decode("###01", 1);
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(*one, Bytes({0x01}));
  // 2 bytes 01 02 = 258 = 3*85 + 3: "##" + "033".
  Result<std::string> two = Z85Decode("##033", 2);
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_EQ(*two, Bytes({0x01, 0x02}));
  // 3 bytes 01 02 03 = 66051 = 0*614125 + 9*7225 + 12*85 + 6: "#" + "09c6".
  Result<std::string> three = Z85Decode("#09c6", 3);
  ASSERT_TRUE(three.ok()) << three.status().ToString();
  EXPECT_EQ(*three, Bytes({0x01, 0x02, 0x03}));
  // After a full block.
  Result<std::string> six = Z85Decode(
      "HelloWorld"
      "##033",
      10);
  ASSERT_TRUE(six.ok()) << six.status().ToString();
  EXPECT_EQ(*six, Bytes({0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B, 0x01, 0x02}));
}

TEST(Z85Test, DeltaKernelHashTailDecodesToRowThreeBitmap) {
  // delta-kernel-rs cdf-table-with-dv version 5: an inline DV of sizeInBytes 34.
  // The 34 bytes, by hand (docs/formats.md#a5, docs/toolchain.md#delta-dv-layout):
  const std::string want = Bytes({
      0xD1, 0xD3, 0x39, 0x64,                          // magic 1681511377 LE
      0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1 bucket, u64 LE
      0x00, 0x00, 0x00, 0x00,                          // high key 0
      0x3A, 0x30, 0x00, 0x00,                          // cookie 12346 (no runs)
      0x01, 0x00, 0x00, 0x00,                          // 1 container
      0x00, 0x00, 0x00, 0x00,                          // container key 0, cardinality-1 = 0
      0x10, 0x00, 0x00, 0x00,                          // offset header: data at byte 16
      0x03, 0x00,                                      // value 3
  });
  // 45 characters = 9 blocks = 36 bytes; 34 bytes leave a 2-byte tail, written "##093":
  // "093" = 9*85 + 3 = 768 = 0x0300 -> bytes 03 00.
  Result<std::string> bytes = Z85Decode("^Bg9^0rr910000000000iXQKl0rr91000005c8Xg##093", 34);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  EXPECT_EQ(*bytes, want);
  Result<RowBitmap> bitmap = DecodeBitmap(*bytes);
  ASSERT_TRUE(bitmap.ok()) << bitmap.status().ToString();
  EXPECT_EQ(bitmap->ToVector(), std::vector<uint64_t>{3});
  // The standard encoding of the same bytes differs only in the last block: 03 00 00 00 padded.
  EXPECT_EQ(Z85Encode(want), "^Bg9^0rr910000000000iXQKl0rr91000005c8Xg0@@r3");
  Result<std::string> standard = Z85Decode("^Bg9^0rr910000000000iXQKl0rr91000005c8Xg0@@r3", 34);
  ASSERT_TRUE(standard.ok()) << standard.status().ToString();
  EXPECT_EQ(*standard, want);
}

TEST(Z85Test, HashTailWithTooFewMarksIsRejected) {
  // Size 1 implies 3 marks; "##033" has 2.
  ExpectCorrupt(Z85Decode("##033", 1), "2 padding marks where the length implies 3");
  // Size 2 implies 2 marks; "#09c6" has 1.
  ExpectCorrupt(Z85Decode("#09c6", 2), "1 padding marks where the length implies 2");
}

TEST(Z85Test, HashTailWithTooManyMarksIsRejected) {
  // Size 3 implies 1 mark; "##033" has 2.
  ExpectCorrupt(Z85Decode("##033", 3), "2 padding marks where the length implies 1");
  ExpectCorrupt(Z85Decode("###01", 2), "3 padding marks where the length implies 2");
  ExpectCorrupt(Z85Decode("####0", 1), "4 padding marks where the length implies 3");
  ExpectCorrupt(Z85Decode("HelloWorld"
                          "#####",
                          9),
                "Z85 character 10: 5 padding marks");
}

TEST(Z85Test, HashTailOnAFullLastBlockIsAnOverflow) {
  // Size 4: no tail, so "##033" is a standard block, and a leading '#' overflows.
  ExpectCorrupt(Z85Decode("##033", 4), "Z85 block at character 0 overflows");
}

TEST(Z85Test, HashTailOnlyInTheLastBlock) {
  // A '#' block before the last one is a standard block and overflows.
  ExpectCorrupt(Z85Decode("##033"
                          "00000",
                          6),
                "Z85 block at character 0 overflows");
}

TEST(Z85Test, HashTailValueOverflowIsRejected) {
  // "%%" = 82*85+82 = 7052 > 255.
  ExpectCorrupt(Z85Decode("###%%", 1), "Z85 block at character 3 overflows 255");
  // "%%%" = 82*7225 + 82*85 + 82 = 599502 > 65535.
  ExpectCorrupt(Z85Decode("##%%%", 2), "Z85 block at character 2 overflows 65535");
  // "%%%%" = 82*614125 + 599502 = 50957752 > 16777215.
  ExpectCorrupt(Z85Decode("#%%%%", 3), "Z85 block at character 1 overflows 16777215");
  // Largest legal values still decode: 255 = 3*85 + 0 -> "30".
  Result<std::string> r = Z85Decode("###30", 1);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, Bytes({0xFF}));
}

TEST(Z85Test, HashTailBadCharacterNamesItsOffset) {
  ExpectCorrupt(Z85Decode("HelloWorld"
                          "##0,3",
                          10),
                "Z85 character 13: byte 44");
}

// ---------------------------------------------------------------------------------------------
// UUIDs

TEST(Z85Test, DeltaProtocolUuidExample) {
  // PROTOCOL.md: pathOrInlineDv "ab^-aqEH.-t@S}K{vb[*k^" = prefix "ab" + 20-char Z85 of
  // d2c639aa-8816-431a-aaf6-d3fe2512ff61. Checked by hand on the first block: "^-aqE" =
  // 67*85^4 + 63*85^3 + 10*85^2 + 26*85 + 40 = 3536206250 = 0xD2C639AA.
  Result<std::string> text = Z85ToUuidText("^-aqEH.-t@S}K{vb[*k^");
  ASSERT_TRUE(text.ok()) << text.status().ToString();
  EXPECT_EQ(*text, "d2c639aa-8816-431a-aaf6-d3fe2512ff61");
  Result<std::string> z85 = UuidTextToZ85("d2c639aa-8816-431a-aaf6-d3fe2512ff61");
  ASSERT_TRUE(z85.ok()) << z85.status().ToString();
  EXPECT_EQ(*z85, "^-aqEH.-t@S}K{vb[*k^");
}

TEST(Z85Test, UuidExtremesByHand) {
  // All-zero UUID: four zero blocks.
  Result<std::string> zero = UuidTextToZ85("00000000-0000-0000-0000-000000000000");
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ(*zero, "00000000000000000000");
  // All-ones: four "%nSc0" blocks (see AllOnesBlockIsLargestValue).
  Result<std::string> ones = Z85ToUuidText("%nSc0%nSc0%nSc0%nSc0");
  ASSERT_TRUE(ones.ok());
  EXPECT_EQ(*ones, "ffffffff-ffff-ffff-ffff-ffffffffffff");
  // 00000000-0000-0000-0000-000000000001: the last byte is the least significant of block 4.
  Result<std::string> last = UuidTextToZ85("00000000-0000-0000-0000-000000000001");
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(*last, "00000000000000000001");
  // 01000000-...: the first byte is the most significant of block 1.
  Result<std::string> first = Z85ToUuidText("0rr91000000000000000");
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, "01000000-0000-0000-0000-000000000000");
}

TEST(Z85Test, UuidTextAcceptsUpperCaseAndEmitsLowerCase) {
  Result<std::string> z85 = UuidTextToZ85("D2C639AA-8816-431A-AAF6-D3FE2512FF61");
  ASSERT_TRUE(z85.ok()) << z85.status().ToString();
  EXPECT_EQ(*z85, "^-aqEH.-t@S}K{vb[*k^");
}

TEST(Z85Test, MalformedUuidTextIsRejected) {
  for (const char* bad : {
           "",
           "d2c639aa8816431aaaf6d3fe2512ff61",       // no dashes
           "d2c639aa-8816-431a-aaf6-d3fe2512ff6",    // 35 characters
           "d2c639aa-8816-431a-aaf6-d3fe2512ff611",  // 37 characters
           "d2c639a-a8816-431a-aaf6-d3fe2512ff61",   // dash moved
           "d2c639aa-8816-431a-aaf6-d3fe2512ff6g",   // 'g'
           "d2c639aa-8816-431a-aaf6d-3fe2512ff61",   // dash moved, still 36
           "d2c639aa08816-431a-aaf6-d3fe2512ff61",   // hex where a dash belongs
       }) {
    Result<std::string> r = UuidTextToZ85(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  Result<std::string> r = UuidTextToZ85("d2c639aa-8816-431a-aaf6-d3fe2512ff6g");
  EXPECT_NE(r.status().message().find("character 35 is not hex"), std::string::npos)
      << r.status().message();
}

TEST(Z85Test, MalformedUuidZ85IsRejected) {
  ExpectCorrupt(Z85ToUuidText("^-aqEH.-t@S}K{vb[*k"), "20 characters, got 19");
  ExpectCorrupt(Z85ToUuidText("ab^-aqEH.-t@S}K{vb[*k^"), "20 characters, got 22");
  ExpectCorrupt(Z85ToUuidText("^-aqEH.-t@S}K{vb[*k,"), "Z85 character 19");
  ExpectCorrupt(Z85ToUuidText("%nSc1000000000000000"), "Z85 block at character 0 overflows");
}

}  // namespace
}  // namespace rlc::dv
