#include "impl/delta/stats.h"

#include <gtest/gtest.h>

namespace rlc::delta {
namespace {

TEST(Stats, NestedValuesAreKeyedByColumnPath) {
  Result<FileStats> s = ParseStats(
      R"({"numRecords":10,"minValues":{"id":-3,"a":{"b":"x","c":1.5}},"maxValues":{"id":9,"d":"2024-01-01T00:00:00.000Z"},"nullCount":{"id":0,"a":{"b":2,"c":null}}})");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->num_records, 10);
  EXPECT_TRUE(s->tight_bounds);  // absent means true
  EXPECT_EQ(std::get<int64_t>(s->min_values.at({"id"})), -3);
  EXPECT_EQ(std::get<std::string>(s->min_values.at({"a", "b"})), "x");
  EXPECT_EQ(std::get<double>(s->min_values.at({"a", "c"})), 1.5);
  EXPECT_EQ(std::get<std::string>(s->max_values.at({"d"})), "2024-01-01T00:00:00.000Z");
  EXPECT_EQ(s->null_count.at({"a", "b"}), 2);
  EXPECT_EQ(s->null_count.count({"a", "c"}), 0u);
}

TEST(Stats, WideBoundsAreRecorded) {
  Result<FileStats> s = ParseStats(R"({"numRecords":5,"tightBounds":false})");
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->tight_bounds);
}

TEST(Stats, NumRecordsAloneIsCheap) {
  EXPECT_EQ(*ParseNumRecords(R"({"minValues":{"x":1},"numRecords":42})"),
            std::optional<int64_t>(42));
  EXPECT_EQ(*ParseNumRecords(R"({"minValues":{"x":1}})"), std::nullopt);
}

TEST(Stats, BadStatsNameTheField) {
  Result<FileStats> negative = ParseStats(R"({"numRecords":-1})");
  EXPECT_NE(negative.status().message().find("stats.numRecords"), std::string::npos);
  Result<FileStats> bad_count = ParseStats(R"({"nullCount":{"a":{"b":"x"}}})");
  EXPECT_NE(bad_count.status().message().find("stats.nullCount.a.b"), std::string::npos);
  EXPECT_FALSE(ParseStats("[1]").ok());
  EXPECT_FALSE(ParseStats(R"({"numRecords":1} x)").ok());
  EXPECT_FALSE(ParseStats(R"({"tightBounds":"no"})").ok());
}

TEST(Stats, DeepNestingIsRefused) {
  std::string deep = R"({"minValues":)";
  for (int i = 0; i < 100; ++i) deep += R"({"a":)";
  deep += "1";
  for (int i = 0; i < 100; ++i) deep += "}";
  deep += "}";
  Result<FileStats> s = ParseStats(deep);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("less nesting"), std::string::npos);
}

}  // namespace
}  // namespace rlc::delta

namespace rlc::delta {
namespace {

TEST(WithWideBounds, SetsTightBoundsFalseAndKeepsEverythingElse) {
  Result<StatsJson> wide = WithWideBounds(
      R"({"numRecords":3,"minValues":{"a":1,"s":"x\"y"},"tightBounds":true,"other":[1,2]})");
  ASSERT_TRUE(wide.ok()) << wide.status().ToString();
  EXPECT_EQ(wide->Json(),
            R"({"numRecords":3,"minValues":{"a":1,"s":"x\"y"},"other":[1,2],"tightBounds":false})");
  Result<FileStats> parsed = ParseStats(*wide);
  ASSERT_TRUE(parsed.ok());
  EXPECT_FALSE(parsed->tight_bounds);
  EXPECT_EQ(*WithWideBounds("{}"), R"({"tightBounds":false})");
  EXPECT_FALSE(WithWideBounds("[1]").ok());
  EXPECT_FALSE(WithWideBounds(R"({"a":1} x)").ok());
}

}  // namespace
}  // namespace rlc::delta

namespace rlc::delta {
namespace {

StatValue Owned(const std::optional<StatValueView>& v) {
  if (!v.has_value()) return std::monostate{};
  switch (v->kind) {
    case StatValueView::Kind::kBool:
      return v->boolean;
    case StatValueView::Kind::kInt:
      return v->integer;
    case StatValueView::Kind::kDouble:
      return v->number;
    case StatValueView::Kind::kString:
      return std::string(v->text);
    case StatValueView::Kind::kNull:
      break;
  }
  return std::monostate{};
}

// ParseStatsOf answers for its columns what ParseStats answers, and refuses what it refuses with
// the same message, whichever columns are asked for, and whether the statistics are plain or
// escaped as a commit holds them.
TEST(ParseStatsOf, SaysOfItsColumnsWhatParseStatsSaysAndFailsAlike) {
  const std::vector<ColumnPath> columns = {{"a"}, {"n", "x"}, {"missing"}, {"n"}};
  for (
      const std::string json : {
          R"({"numRecords":7,"minValues":{"a":1,"n":{"x":2.5},"s":"q"},"maxValues":{"a":9,)"
          R"("n":{"x":null},"s":"z"},"nullCount":{"a":0,"n":{"x":3},"s":1},"tightBounds":false})",
          R"({"minValues":{"a":"text","a":true},"nullCount":{"a":null}})",
          R"({"numRecords":null,"other":[1,{"x":2}],"maxValues":{}})",
          R"({"numRecords":-1})",
          R"({"nullCount":{"a":{"b":"x"}}})",
          R"({"minValues":{"a":[1]}})",
          R"({"tightBounds":"no"})",
          R"({"numRecords":1} x)",
          R"([1])",
          R"({"minValues":{"s":"unterminated})",
          R"({"numRecords":2,"minValues":{"a":"x\"y\\z","n":{"x":"\u00e9"}},"maxValues":{"a":"q"}})",
          "{\"numRecords\":\n3,\t\"minValues\":{\"a\":1}}",
      }) {
    for (const StatsJson& stats : {StatsJson(json), *StatsJson::EscapedCopyOf(json)}) {
      const Result<FileStats> whole = ParseStats(json);
      StatsView view;
      const Status of = ParseStatsOf(stats, columns, &view);
      ASSERT_EQ(whole.ok(), of.ok()) << json;
      if (!of.ok()) {
        EXPECT_EQ(whole.status().message(), of.message()) << json;
        continue;
      }
      EXPECT_EQ(view.num_records, whole->num_records) << json;
      EXPECT_EQ(view.tight_bounds, whole->tight_bounds) << json;
      ASSERT_EQ(view.columns.size(), columns.size());
      for (size_t i = 0; i < columns.size(); ++i) {
        const ColumnStats& c = view.columns[i];
        const auto min = whole->min_values.find(columns[i]);
        const auto max = whole->max_values.find(columns[i]);
        const auto nulls = whole->null_count.find(columns[i]);
        EXPECT_EQ(c.min.has_value(), min != whole->min_values.end()) << json << " " << i;
        EXPECT_EQ(c.max.has_value(), max != whole->max_values.end()) << json << " " << i;
        if (c.min.has_value() && min != whole->min_values.end()) {
          EXPECT_EQ(Owned(c.min), min->second);
        }
        if (c.max.has_value() && max != whole->max_values.end()) {
          EXPECT_EQ(Owned(c.max), max->second);
        }
        EXPECT_EQ(c.null_count, nulls == whole->null_count.end()
                                    ? std::nullopt
                                    : std::optional<int64_t>(nulls->second))
            << json << " " << i;
      }
    }
  }
}

}  // namespace
}  // namespace rlc::delta
