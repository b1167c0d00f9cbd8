#include "impl/delta/stats.h"

#include <gtest/gtest.h>

#include <random>

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

// Whether ParseStatsOf of `stats` answers for `columns` what ParseStats answers of `json` (the
// same text unescaped), and refuses what it refuses with the same message. "" when it does, else
// what differs.
// Read by `reader` when given (over `columns`), else by ParseStatsOf.
std::string DiffersFromParseStats(const StatsJson& stats, const std::string& json,
                                  const std::vector<ColumnPath>& columns,
                                  StatsReader* reader = nullptr) {
  const Result<FileStats> whole = ParseStats(json);
  StatsView view;
  const Status of =
      reader != nullptr ? reader->Read(stats, &view) : ParseStatsOf(stats, columns, &view);
  if (whole.ok() != of.ok()) return "accepted by one only";
  if (!of.ok()) return whole.status().message() == of.message() ? "" : "another error";
  if (view.num_records != whole->num_records) return "numRecords";
  if (view.tight_bounds != whole->tight_bounds) return "tightBounds";
  if (view.columns.size() != columns.size()) return "column count";
  for (size_t i = 0; i < columns.size(); ++i) {
    const ColumnStats& c = view.columns[i];
    const auto min = whole->min_values.find(columns[i]);
    const auto max = whole->max_values.find(columns[i]);
    const auto nulls = whole->null_count.find(columns[i]);
    const std::string which = " of column " + std::to_string(i);
    if (c.min.has_value() != (min != whole->min_values.end())) return "min present" + which;
    if (c.max.has_value() != (max != whole->max_values.end())) return "max present" + which;
    if (c.min.has_value() && Owned(c.min) != min->second) return "min" + which;
    if (c.max.has_value() && Owned(c.max) != max->second) return "max" + which;
    const std::optional<int64_t> null_count =
        nulls == whole->null_count.end() ? std::nullopt : std::optional<int64_t>(nulls->second);
    if (c.null_count != null_count) return "nullCount" + which;
  }
  return "";
}

const std::vector<ColumnPath>& Columns() {
  static const std::vector<ColumnPath> columns = {{"a"}, {"n", "x"}, {"missing"}, {"n"}};
  return columns;
}

// ParseStatsOf answers for its columns what ParseStats answers, and refuses what it refuses with
// the same message, whichever columns are asked for, and whether the statistics are plain or
// escaped as a commit holds them.
TEST(ParseStatsOf, SaysOfItsColumnsWhatParseStatsSaysAndFailsAlike) {
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
      EXPECT_EQ(DiffersFromParseStats(stats, json, Columns()), "") << json;
      StatsReader reader(Columns());
      EXPECT_EQ(DiffersFromParseStats(stats, json, Columns(), &reader), "") << json;
    }
  }
}

// Statistics of one shape: the bytes between values as an engine writes them, the values free.
std::string Shaped(const std::string& num_records, const std::string& min_a,
                   const std::string& max_a, const std::string& nulls_x,
                   const std::string& tight = "true") {
  return R"({"numRecords":)" + num_records + R"(,"minValues":{"a":)" + min_a +
         R"(,"s":"q","n":{"x":2}},"maxValues":{"a":)" + max_a +
         R"(,"s":"z","n":{"x":5}},"nullCount":{"a":0,"n":{"x":)" + nulls_x +
         R"(}},"tightBounds":)" + tight + "}";
}

// A reader's read of statistics shaped like the last ones it read whole compares the bytes
// between values and reads only the values: it must answer what a whole read answers, whatever
// the values are and wherever the bytes between them differ.
TEST(StatsReader, StatisticsOfTheLastShapeReadAsAWholeRead) {
  const std::string first = Shaped("10", "1", "9", "0");
  const std::vector<std::string> next = {
      Shaped("11", "2", "8", "3"),              // the same shape
      Shaped("12", "-5", "900000000000", "0"),  // longer values
      Shaped("null", "null", "null", "null"),   // NULLs where numbers were
      Shaped("1", "\"t\"", "true", "1"),        // values of other types
      Shaped("1", "1.5", "2e3", "1"),           // numbers the general path reads
      Shaped("-1", "1", "2", "1"),              // a negative numRecords: refused
      Shaped("1", "1", "2", "-3"),              // a negative nullCount: refused
      Shaped("1", "1", "2", "1", "\"yes\""),    // a tightBounds that is no boolean: refused
      Shaped("1", "01", "2", "1"),              // a leading zero: refused
      Shaped("1", "{\"b\":1}", "2", "1"),       // an object where a value was
      Shaped("1", "1", "2", "1") + " x",        // trailing bytes: refused
      Shaped("1", "1", "2", "1") + " ",         // trailing whitespace
      Shaped("1", "1", "2", "1").substr(1),     // the first byte missing
      R"({"numRecords":1,"maxValues":{"a":1,"s":"q","n":{"x":2}},"minValues":{"a":3,"s":"z",)"
      R"("n":{"x":5}},"nullCount":{"a":0,"n":{"x":1}},"tightBounds":true})",  // sections swapped
      R"({"numRecords":1,"minValues":{"b":1,"s":"q","n":{"x":2}},"maxValues":{"a":3,"s":"z",)"
      R"("n":{"x":5}},"nullCount":{"a":0,"n":{"x":1}},"tightBounds":true})",  // another column
      R"({"numRecords":1,"minValues":{"a":1,"s":"q","n":{"y":2}},"maxValues":{"a":3,"s":"z",)"
      R"("n":{"x":5}},"nullCount":{"a":0,"n":{"x":1}},"tightBounds":true})",  // a nested key
      R"({"numRecords":1,"minValues":{"a":1,"s":"q\"","n":{"x":2}},"maxValues":{"a":3,"s":"z",)"
      R"("n":{"x":5}},"nullCount":{"a":0,"n":{"x":1}},"tightBounds":true})",  // an escape
  };
  for (const std::string& json : next) {
    for (const bool escaped : {false, true}) {
      const auto form = [&](const std::string& text) {
        return escaped ? *StatsJson::EscapedCopyOf(text) : StatsJson(text);
      };
      const StatsJson shape = form(first);
      const StatsJson stats = form(json);
      // The first text's shape is the reader's; then the next text is read, twice (the second
      // time by its own shape when the first read it whole).
      for (const std::vector<ColumnPath>& columns : {Columns(), {{"s"}, {"a"}}}) {
        StatsReader reader(columns);
        ASSERT_EQ(DiffersFromParseStats(shape, first, columns, &reader), "");
        EXPECT_EQ(DiffersFromParseStats(stats, json, columns, &reader), "") << json;
        EXPECT_EQ(DiffersFromParseStats(stats, json, columns, &reader), "") << json;
      }
    }
  }
}

// The same, over random statistics and random damage: one reader reads each text after the one
// before it, so most are read by the shape of the last, and each must be read as a whole read
// reads it.
TEST(StatsReader, RandomTextsAfterOneAnotherReadAsWholeReads) {
  std::mt19937_64 rng(20261204);
  StatsReader reader(Columns());
  const auto pick = [&](std::initializer_list<const char*> options) {
    return std::string(*(options.begin() + rng() % options.size()));
  };
  // Mostly values the shape's reader reads itself, so that most texts are read by the shape.
  const auto value = [&] {
    if (rng() % 5 != 0)
      return pick({"0", "1", "-7", "42", "250", "-1234567", "12345678", "123456789",
                   "9223372036854775807", "null", "true", "false", "\"t\"", "\"\""});
    return pick({"9223372036854775808", "-0", "1.5", "\"x\\\"y\"", "\"\\u00e9\"", "[1]", "{}"});
  };
  int compared = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string json = Shaped(value(), value(), value(), value(), pick({"true", "false"}));
    if (rng() % 4 == 0) {  // damage: a byte replaced, removed or inserted
      const size_t at = rng() % json.size();
      const char byte = "{}[]\":,0a \\"[rng() % 12];
      switch (rng() % 3) {
        case 0:
          json[at] = byte;
          break;
        case 1:
          json.erase(at, 1);
          break;
        default:  // the end as often as anywhere else
          json.insert(rng() % 2 == 0 ? json.size() : at, 1, byte);
      }
    }
    const std::optional<StatsJson> escaped = StatsJson::EscapedCopyOf(json);
    const StatsJson stats = rng() % 2 == 0 || !escaped.has_value() ? StatsJson(json) : *escaped;
    ASSERT_EQ(DiffersFromParseStats(stats, json, Columns(), &reader), "") << json;
    ++compared;
  }
  EXPECT_EQ(compared, 20000);
}
}  // namespace
}  // namespace rlc::delta
