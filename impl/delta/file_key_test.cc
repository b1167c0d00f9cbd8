// The file identity every layer shares: decoding with its one policy for bad escapes, DV
// identity, row counts from statistics, and the remove Delta writes for an add.
#include "impl/delta/file_key.h"

#include <gtest/gtest.h>

namespace rlc::delta {
namespace {

TEST(FileKey, DecodesEscapesAndKeepsAPathThatDoesNotDecode) {
  EXPECT_EQ(DecodedPath("region=eu/part-0.parquet"), "region=eu/part-0.parquet");
  EXPECT_EQ(DecodedPath("region=a%20b/part-0.parquet"), "region=a b/part-0.parquet");
  EXPECT_EQ(DecodedPath("region=%C3%A9/p"), "region=\xC3\xA9/p");
  // A bad escape: the raw path is its own key, equal to itself and to nothing decoded.
  EXPECT_EQ(DecodedPath("bad%zzescape"), "bad%zzescape");
  EXPECT_EQ(DecodedPath("cut%2"), "cut%2");
  EXPECT_FALSE(HasEscape("plain"));
  EXPECT_TRUE(HasEscape("a%20b"));
}

TEST(FileKey, SameDvComparesUniqueIds) {
  dv::DvDescriptor a;
  a.storage_type = 'u';
  a.path_or_inline_dv = "ab^-aqEH.-t@S}K{vb[*k^";
  a.offset = 1;
  a.size_bytes = 10;
  a.cardinality = 3;
  dv::DvDescriptor b = a;
  b.cardinality = 4;  // not part of the identity
  dv::DvDescriptor c = a;
  c.offset = 2;
  EXPECT_TRUE(SameDv(a, b));
  EXPECT_FALSE(SameDv(a, c));
  EXPECT_TRUE(SameDv(std::nullopt, std::nullopt));
  EXPECT_FALSE(SameDv(a, std::nullopt));
  EXPECT_FALSE(SameDv(std::nullopt, a));
}

TEST(FileKey, NumRecordsOfStatistics) {
  EXPECT_EQ(NumRecordsOf(std::string(R"({"numRecords":42,"minValues":{}})")), 42);
  EXPECT_EQ(NumRecordsOf(std::nullopt), std::nullopt);
  EXPECT_EQ(NumRecordsOf(std::string(R"({"minValues":{}})")), std::nullopt);
  EXPECT_EQ(NumRecordsOf(std::string(R"({"numRecords":)")), std::nullopt);
}

TEST(FileKey, RemoveFromCarriesTheVersionItRemoves) {
  AddFile add;
  add.path = "part-1.parquet";
  add.partition_values = {{"region", std::string("eu")}};
  add.size_bytes = 123;
  add.stats = R"({"numRecords":5})";
  add.tags = StringMap{{"k", std::string("v")}};
  add.deletion_vector = dv::DvDescriptor{};
  add.base_row_id = 7;
  add.default_row_commit_version = 3;
  const RemoveFile r = RemoveFrom(add, 99, false);
  EXPECT_EQ(r.path, add.path);
  EXPECT_EQ(r.deletion_timestamp_ms, 99);
  EXPECT_FALSE(r.data_change);
  EXPECT_EQ(r.extended_file_metadata, std::optional<bool>(true));
  EXPECT_EQ(r.partition_values, add.partition_values);
  EXPECT_EQ(r.size_bytes, add.size_bytes);
  EXPECT_EQ(r.stats, add.stats);
  EXPECT_EQ(r.tags, add.tags);
  EXPECT_EQ(r.deletion_vector, add.deletion_vector);
  EXPECT_EQ(r.base_row_id, add.base_row_id);
  EXPECT_EQ(r.default_row_commit_version, add.default_row_commit_version);
}

}  // namespace
}  // namespace rlc::delta
