#include "impl/delta/composition_tags.h"

#include <gtest/gtest.h>

namespace rlc::delta {
namespace {

// The tag map of a Databricks 16.0 OPTIMIZE tombstone (delta-rs__cdf-table-with-cdc-and-dvs, v3).
StringMap DatabricksTags() {
  return {{"MAX_INSERTION_TIME", "1734070073000000"},
          {"INSERTION_TIME", "1734070073000000"},
          {"compactedInto",
           R"(["part-00000-378c491b-e2a3-40c7-b572-f43e95b22ea6.c000.snappy.parquet"])"},
          {"compactionInfo", R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1}])"},
          {"OPTIMIZE_TARGET_SIZE", "268435456"}};
}

TEST(CompositionTags, ParsesDatabricksTagsAmongOthers) {
  std::optional<CompositionTag> tag = ParseCompositionTags(DatabricksTags());
  ASSERT_TRUE(tag.has_value());
  EXPECT_EQ(tag->output_path,
            "part-00000-378c491b-e2a3-40c7-b572-f43e95b22ea6.c000.snappy.parquet");
  EXPECT_EQ(tag->row_offset_in_target, 0);
  EXPECT_EQ(tag->source_num_physical_records, 1);
}

TEST(CompositionTags, UnknownEntryFieldsAreIgnored) {
  auto tag = ParseCompositionTags(
      R"(["o"])",
      R"([{"x":{"y":[1]},"sourceNumPhysicalRecords":7,"rowOffsetInTarget":3,"z":null}])");
  ASSERT_TRUE(tag.has_value());
  EXPECT_EQ(tag->row_offset_in_target, 3);
  EXPECT_EQ(tag->source_num_physical_records, 7);
}

struct Shape {
  const char* into;
  const char* info;
};

class CompositionTagsAbsent : public ::testing::TestWithParam<Shape> {};

TEST_P(CompositionTagsAbsent, AnyOtherShapeCountsAsAbsent) {
  EXPECT_EQ(ParseCompositionTags(GetParam().into, GetParam().info), std::nullopt);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, CompositionTagsAbsent,
    ::testing::Values(
        Shape{R"(["a","b"])", R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1}])"},
        Shape{R"([])", R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1}])"},
        Shape{R"("a")", R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1}])"},
        Shape{R"([1])", R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1}])"},
        Shape{
            R"(["a"])",
            R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1},{"rowOffsetInTarget":1,"sourceNumPhysicalRecords":1}])"},
        Shape{R"(["a"])", R"([])"}, Shape{R"(["a"])", R"([{"rowOffsetInTarget":0}])"},
        Shape{R"(["a"])", R"([{"sourceNumPhysicalRecords":1}])"},
        Shape{R"(["a"])", R"([{"rowOffsetInTarget":-1,"sourceNumPhysicalRecords":1}])"},
        Shape{R"(["a"])", R"([{"rowOffsetInTarget":"0","sourceNumPhysicalRecords":1}])"},
        Shape{R"(["a"])", R"([{"rowOffsetInTarget":0.5,"sourceNumPhysicalRecords":1}])"},
        Shape{R"(["a"])",
              R"([{"rowOffsetInTarget":0,"rowOffsetInTarget":1,"sourceNumPhysicalRecords":1}])"},
        Shape{R"(["a"])", R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1}] x)"},
        Shape{R"(["a"] [)", R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1}])"},
        Shape{R"(["a")", R"([{"rowOffsetInTarget":0,"sourceNumPhysicalRecords":1}])"}));

TEST(CompositionTags, OneTagAloneIsAbsent) {
  StringMap tags = DatabricksTags();
  tags.erase(tags.begin() + 3);  // drop compactionInfo
  EXPECT_EQ(ParseCompositionTags(tags), std::nullopt);
  StringMap null_value = DatabricksTags();
  null_value[2].second = std::nullopt;
  EXPECT_EQ(ParseCompositionTags(null_value), std::nullopt);
}

TEST(CompositionTags, WriteReplacesOnlyTheTwoTags) {
  StringMap tags = DatabricksTags();
  CompositionTag tag{"out \"quoted\".parquet", 41, 9};
  WriteCompositionTags(tag, &tags);
  ASSERT_EQ(tags.size(), 5u);
  EXPECT_EQ(tags[0].first, "MAX_INSERTION_TIME");
  EXPECT_EQ(tags[2].second, R"(["out \"quoted\".parquet"])");
  EXPECT_EQ(tags[3].second, R"([{"rowOffsetInTarget":41,"sourceNumPhysicalRecords":9}])");
  EXPECT_EQ(ParseCompositionTags(tags), std::optional<CompositionTag>(tag));
  StringMap empty;
  WriteCompositionTags(tag, &empty);
  EXPECT_EQ(empty.size(), 2u);
}

}  // namespace
}  // namespace rlc::delta
