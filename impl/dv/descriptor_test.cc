// Tests for impl/dv/descriptor.h: uniqueId, Validate, ResolveDvFilePath, UuidPathOrInlineDv and
// UrlDecode (docs/formats.md#a3).
//
// The 'u' example is the Delta PROTOCOL.md one: pathOrInlineDv "ab^-aqEH.-t@S}K{vb[*k^" is the
// random prefix "ab" followed by the 20-character Z85 form of UUID
// d2c639aa-8816-431a-aaf6-d3fe2512ff61 (checked by hand in z85_test.cc).
#include "impl/dv/descriptor.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace rlc::dv {
namespace {

constexpr char kUuid[] = "d2c639aa-8816-431a-aaf6-d3fe2512ff61";
constexpr char kUuidZ85[] = "^-aqEH.-t@S}K{vb[*k^";

DvDescriptor MakeU(std::string path, std::optional<int32_t> offset) {
  DvDescriptor d;
  d.storage_type = 'u';
  d.path_or_inline_dv = std::move(path);
  d.offset = offset;
  d.size_bytes = 34;
  d.cardinality = 1;
  return d;
}

DvDescriptor MakeP(std::string path) {
  DvDescriptor d;
  d.storage_type = 'p';
  d.path_or_inline_dv = std::move(path);
  d.offset = 1;
  d.size_bytes = 34;
  d.cardinality = 1;
  return d;
}

void ExpectStatus(const Status& s, StatusCode code, const std::string& reason) {
  EXPECT_EQ(s.code(), code) << s.ToString();
  EXPECT_NE(s.message().find(reason), std::string::npos)
      << "message '" << s.message() << "' lacks '" << reason << "'";
}

void ExpectPath(const DvDescriptor& d, const std::string& want, std::string_view root = "/tmp/t",
                std::string_view file_prefix = "") {
  Result<std::string> path = ResolveDvFilePath(d, root, file_prefix);
  ASSERT_TRUE(path.ok()) << d.path_or_inline_dv << ": " << path.status().ToString();
  EXPECT_EQ(*path, want) << d.path_or_inline_dv;
}

void ExpectPathError(const DvDescriptor& d, StatusCode code, const std::string& reason) {
  Result<std::string> path = ResolveDvFilePath(d, "/tmp/t");
  ASSERT_FALSE(path.ok()) << d.path_or_inline_dv << " resolved to " << *path;
  ExpectStatus(path.status(), code, reason);
}

// ---------------------------------------------------------------------------------------------
// UniqueId

TEST(DescriptorTest, UniqueIdWithOffset) {
  EXPECT_EQ(MakeU("ab^-aqEH.-t@S}K{vb[*k^", 1).UniqueId(), "uab^-aqEH.-t@S}K{vb[*k^@1");
  EXPECT_EQ(MakeU(kUuidZ85, 4711).UniqueId(), "u^-aqEH.-t@S}K{vb[*k^@4711");
  EXPECT_EQ(MakeP("file:/x/dv.bin").UniqueId(), "pfile:/x/dv.bin@1");
}

TEST(DescriptorTest, UniqueIdWithoutOffset) {
  EXPECT_EQ(MakeU("ab^-aqEH.-t@S}K{vb[*k^", std::nullopt).UniqueId(), "uab^-aqEH.-t@S}K{vb[*k^");
  DvDescriptor inline_dv;
  inline_dv.storage_type = 'i';
  inline_dv.path_or_inline_dv = "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L";
  EXPECT_EQ(inline_dv.UniqueId(), "iwi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L");
  // The EMPTY constant.
  EXPECT_EQ(DvDescriptor().UniqueId(), "i");
}

TEST(DescriptorTest, UniqueIdDistinguishesPresentZeroOffsetFromAbsent) {
  // An offset that is present is printed even when it is 0 (absent reads as 0, but the id
  // follows the field's presence, as Delta's does).
  EXPECT_EQ(MakeU(kUuidZ85, 0).UniqueId(), "u^-aqEH.-t@S}K{vb[*k^@0");
  EXPECT_NE(MakeU(kUuidZ85, 0).UniqueId(), MakeU(kUuidZ85, std::nullopt).UniqueId());
}

TEST(DescriptorTest, UniqueIdIgnoresSizeAndCardinality) {
  DvDescriptor a = MakeU(kUuidZ85, 1);
  DvDescriptor b = a;
  b.size_bytes = 99;
  b.cardinality = 42;
  b.max_row_index = 7;
  EXPECT_EQ(a.UniqueId(), b.UniqueId());
  EXPECT_FALSE(a == b);
  EXPECT_TRUE(a == MakeU(kUuidZ85, 1));
}

// ---------------------------------------------------------------------------------------------
// Validate

TEST(DescriptorTest, ValidDescriptorsPass) {
  EXPECT_TRUE(MakeU("ab^-aqEH.-t@S}K{vb[*k^", 1).Validate().ok());
  EXPECT_TRUE(MakeU(kUuidZ85, std::nullopt).Validate().ok());
  EXPECT_TRUE(MakeP("file:/x/dv.bin").Validate().ok());
  DvDescriptor p = MakeP("/x/dv.bin");
  p.offset.reset();
  EXPECT_TRUE(p.Validate().ok());
  EXPECT_TRUE(DvDescriptor().Validate().ok());  // EMPTY
  DvDescriptor inline_dv;
  inline_dv.path_or_inline_dv = "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L";
  inline_dv.size_bytes = 40;
  inline_dv.cardinality = 6;
  EXPECT_TRUE(inline_dv.Validate().ok());
}

TEST(DescriptorTest, RelativePathStorageTypeIsUnsupported) {
  DvDescriptor d = MakeP("a/b.bin");
  d.storage_type = 'r';
  ExpectStatus(d.Validate(), StatusCode::kUnsupported, "storageType 'r'");
}

TEST(DescriptorTest, UnknownStorageTypeIsCorrupt) {
  DvDescriptor d = MakeP("/a/b.bin");
  d.storage_type = 'x';
  ExpectStatus(d.Validate(), StatusCode::kCorrupt, "storageType 'x' is not one of u, i, p");
  d.storage_type = 'U';  // case matters
  ExpectStatus(d.Validate(), StatusCode::kCorrupt, "storageType 'U'");
}

TEST(DescriptorTest, NegativeSizeIsCorrupt) {
  DvDescriptor d = MakeU(kUuidZ85, 1);
  d.size_bytes = -1;
  ExpectStatus(d.Validate(), StatusCode::kCorrupt, "sizeInBytes is negative");
}

TEST(DescriptorTest, NegativeCardinalityIsCorrupt) {
  DvDescriptor d = MakeU(kUuidZ85, 1);
  d.cardinality = -1;
  ExpectStatus(d.Validate(), StatusCode::kCorrupt, "cardinality is negative");
}

TEST(DescriptorTest, ShortUuidPathIsCorrupt) {
  ExpectStatus(MakeU("^-aqEH.-t@S}K{vb[*k", 1).Validate(), StatusCode::kCorrupt,
               "needs 20 Z85 characters");
  ExpectStatus(MakeU("", 1).Validate(), StatusCode::kCorrupt, "needs 20 Z85 characters");
}

TEST(DescriptorTest, BadZ85InUuidPathIsCorrupt) {
  // ',' is not Z85; it is character 19 of the last 20.
  ExpectStatus(MakeU("ab^-aqEH.-t@S}K{vb[*k,", 1).Validate(), StatusCode::kCorrupt,
               "deletionVector.pathOrInlineDv: Z85 character 19");
  // The UUID part overflows: "%nSc1" = 2^32.
  ExpectStatus(MakeU("%nSc1000000000000000", 1).Validate(), StatusCode::kCorrupt,
               "deletionVector.pathOrInlineDv: Z85 block at character 0 overflows");
  // The prefix is not decoded, so odd characters there are fine.
  EXPECT_TRUE(MakeU(std::string("a,b") + kUuidZ85, 1).Validate().ok());
}

TEST(DescriptorTest, InlineWithOffsetIsCorrupt) {
  DvDescriptor d;
  d.offset = 1;
  ExpectStatus(d.Validate(), StatusCode::kCorrupt, "offset must be absent for an inline DV");
}

TEST(DescriptorTest, OffsetBeforeFirstRecordIsCorrupt) {
  ExpectStatus(MakeU(kUuidZ85, 0).Validate(), StatusCode::kCorrupt,
               "deletionVector.offset 0 points before the first record (offset 1)");
  DvDescriptor p = MakeP("/a/b.bin");
  p.offset = -5;
  ExpectStatus(p.Validate(), StatusCode::kCorrupt, "deletionVector.offset -5 points before");
}

// ---------------------------------------------------------------------------------------------
// ResolveDvFilePath, 'u'

TEST(DescriptorTest, ResolvesUuidPathWithPrefix) {
  ExpectPath(MakeU("ab^-aqEH.-t@S}K{vb[*k^", 1),
             "/tmp/t/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
}

TEST(DescriptorTest, ResolvesUuidPathWithoutPrefix) {
  ExpectPath(MakeU(kUuidZ85, 1), "/tmp/t/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
}

TEST(DescriptorTest, ResolvesUuidPathWithFileNamePrefix) {
  // Delta's own test tables name their files "test%dv%prefix-deletion_vector_<uuid>.bin".
  ExpectPath(MakeU("ab^-aqEH.-t@S}K{vb[*k^", 1),
             "/data/tbl/ab/test%dv%prefix-deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin",
             "/data/tbl", "test%dv%prefix-");
  ExpectPath(MakeU(kUuidZ85, 1),
             "/data/tbl/test%dv%prefix-deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin",
             "/data/tbl", "test%dv%prefix-");
}

TEST(DescriptorTest, ResolvesUuidPathWithMultiCharacterPrefix) {
  ExpectPath(MakeU(std::string("xyz9") + kUuidZ85, 1),
             "/tmp/t/xyz9/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
}

TEST(DescriptorTest, UuidPathTooShortOrBadIsCorrupt) {
  ExpectPathError(MakeU("^-aqEH.-t@S}K{vb[*k", 1), StatusCode::kCorrupt, "too short");
  ExpectPathError(MakeU("ab^-aqEH.-t@S}K{vb[*k,", 1), StatusCode::kCorrupt, "Z85 character 19");
}

TEST(DescriptorTest, UuidPathOrInlineDvBuildsPrefixPlusZ85) {
  Result<std::string> with_prefix = UuidPathOrInlineDv("ab", kUuid);
  ASSERT_TRUE(with_prefix.ok()) << with_prefix.status().ToString();
  EXPECT_EQ(*with_prefix, "ab^-aqEH.-t@S}K{vb[*k^");
  Result<std::string> no_prefix = UuidPathOrInlineDv("", kUuid);
  ASSERT_TRUE(no_prefix.ok());
  EXPECT_EQ(*no_prefix, kUuidZ85);
  Result<std::string> bad = UuidPathOrInlineDv("ab", "not-a-uuid");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  // And back to the same file.
  ExpectPath(MakeU(*with_prefix, 1),
             "/tmp/t/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin");
}

// ---------------------------------------------------------------------------------------------
// ResolveDvFilePath, 'p'

TEST(DescriptorTest, ResolvesPlainAbsolutePath) {
  ExpectPath(MakeP("/data/t/dv.bin"), "/data/t/dv.bin");
}

TEST(DescriptorTest, ResolvesFileSchemeWithOneSlash) {
  ExpectPath(MakeP("file:/data/t/dv.bin"), "/data/t/dv.bin");
}

TEST(DescriptorTest, ResolvesFileSchemeWithThreeSlashes) {
  ExpectPath(MakeP("file:///data/t/dv.bin"), "/data/t/dv.bin");
}

TEST(DescriptorTest, ResolvesFileSchemeWithLocalhost) {
  ExpectPath(MakeP("file://localhost/data/t/dv.bin"), "/data/t/dv.bin");
}

TEST(DescriptorTest, ResolvesUrlEscapes) {
  // %20 is a space, %25 a literal '%'.
  ExpectPath(MakeP("file:/data/my%20table/dv%25x.bin"), "/data/my table/dv%x.bin");
  ExpectPath(MakeP("/data/my%20table/test%25dv%25prefix-dv.bin"),
             "/data/my table/test%dv%prefix-dv.bin");
  // Decoded once only: %2520 is "%20" in the file name.
  ExpectPath(MakeP("file:///data/a%2520b.bin"), "/data/a%20b.bin");
}

TEST(DescriptorTest, ColonAfterTheFirstSlashIsNotAScheme) {
  ExpectPath(MakeP("/data/a:b/dv.bin"), "/data/a:b/dv.bin");
}

TEST(DescriptorTest, NonFileSchemesAreUnsupported) {
  for (const char* path : {"s3://bucket/t/dv.bin", "s3a://bucket/t/dv.bin",
                           "abfss://c@acct.dfs.core.windows.net/t/dv.bin",
                           "hdfs://namenode:8020/t/dv.bin", "gs://b/dv.bin", "http:x"}) {
    ExpectPathError(MakeP(path), StatusCode::kUnsupported, "only local (file:) paths can be read");
  }
  ExpectPathError(MakeP("s3://bucket/t/dv.bin"), StatusCode::kUnsupported,
                  "DV path 's3://bucket/t/dv.bin'");
}

TEST(DescriptorTest, RelativePathsAreCorrupt) {
  for (const char* path : {"dv.bin", "t/dv.bin", "./dv.bin", "", "file:dv.bin", "file:t/dv.bin"}) {
    ExpectPathError(MakeP(path), StatusCode::kCorrupt, "of storage type 'p' is not absolute");
  }
}

TEST(DescriptorTest, FileUriWithoutPathIsCorrupt) {
  ExpectPathError(MakeP("file://localhost"), StatusCode::kCorrupt, "file URI without a path");
  ExpectPathError(MakeP("file://"), StatusCode::kCorrupt, "file URI without a path");
}

TEST(DescriptorTest, BadEscapeInPathIsCorrupt) {
  ExpectPathError(MakeP("/data/t/dv%2"), StatusCode::kCorrupt,
                  "URL escape at character 10 is truncated");
  ExpectPathError(MakeP("/data/t/dv%zz.bin"), StatusCode::kCorrupt,
                  "URL escape at character 10 is not %XX");
}

TEST(DescriptorDeathTest, ResolveRequiresFileBackedDescriptor) {
  DvDescriptor inline_dv;
  EXPECT_DEATH((void)ResolveDvFilePath(inline_dv, "/tmp/t"), "assertion failed");
}

// ---------------------------------------------------------------------------------------------
// UrlDecode

TEST(DescriptorTest, UrlDecodeDecodesEscapes) {
  for (auto [in, out] : {std::pair<const char*, std::string>{"", ""},
                         {"abc", "abc"},
                         {"%41%42", "AB"},
                         {"%2f%2F", "//"},
                         {"a%20b", "a b"},
                         {"%25", "%"},
                         {"%2541", "%41"},
                         {"a+b", "a+b"},  // '+' is not form-decoded
                         {"%00", std::string(1, '\0')},
                         {"%C3%A9", "\xC3\xA9"}}) {
    Result<std::string> r = UrlDecode(in);
    ASSERT_TRUE(r.ok()) << in << ": " << r.status().ToString();
    EXPECT_EQ(*r, out) << in;
  }
}

TEST(DescriptorTest, UrlDecodeTruncatedEscapeIsRejected) {
  for (auto [in, at] : {std::pair<const char*, int>{"%", 0},
                        {"%4", 0},
                        {"ab%", 2},
                        {"ab%4", 2},
                        {"%41%", 3},
                        {"%41%4", 3}}) {
    Result<std::string> r = UrlDecode(in);
    ASSERT_FALSE(r.ok()) << in;
    ExpectStatus(r.status(), StatusCode::kCorrupt,
                 "URL escape at character " + std::to_string(at) + " is truncated");
  }
}

TEST(DescriptorTest, UrlDecodeNonHexEscapeIsRejected) {
  for (auto [in, at] : {std::pair<const char*, int>{"%zz", 0},
                        {"ab%4g", 2},
                        {"%g4", 0},
                        {"%%41", 0},
                        {"x% 1", 1}}) {
    Result<std::string> r = UrlDecode(in);
    ASSERT_FALSE(r.ok()) << in;
    ExpectStatus(r.status(), StatusCode::kCorrupt,
                 "URL escape at character " + std::to_string(at) + " is not %XX");
  }
}

}  // namespace
}  // namespace rlc::dv
