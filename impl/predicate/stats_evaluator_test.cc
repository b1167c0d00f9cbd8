#include "impl/predicate/stats_evaluator.h"

#include <gtest/gtest.h>

#include "impl/kernel/stats_leaf.h"
#include "impl/predicate/literal_order.h"
#include "impl/predicate/parser.h"

namespace rlc::predicate {
namespace {

constexpr const char* kSchema =
    R"json({"type":"struct","fields":[
      {"name":"id","type":"long","nullable":true,"metadata":{}},
      {"name":"x","type":"double","nullable":true,"metadata":{}},
      {"name":"f","type":"float","nullable":true,"metadata":{}},
      {"name":"s","type":"string","nullable":true,"metadata":{}},
      {"name":"flag","type":"boolean","nullable":true,"metadata":{}},
      {"name":"d","type":"date","nullable":true,"metadata":{}},
      {"name":"t","type":"timestamp","nullable":true,"metadata":{}},
      {"name":"tn","type":"timestamp_ntz","nullable":true,"metadata":{}},
      {"name":"dec","type":"decimal(10,2)","nullable":true,"metadata":{}},
      {"name":"n","type":{"type":"struct","fields":[{"name":"v","type":"integer","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}}]})json";

BoundExpr BindOn(const TableSchema& schema, std::string_view text) {
  Result<Expr> e = ParsePredicate(text);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status().ToString();
  Result<BoundExpr> b = Bind(e.ok() ? *e : Expr::Lit(Literal::Bool(true)), schema);
  EXPECT_TRUE(b.ok()) << text << ": " << b.status().ToString();
  return *b;
}

bool May(std::string_view text, std::string_view stats_json) {
  static const TableSchema* schema =
      new TableSchema(*TableSchema::Parse(kSchema, ColumnMappingMode::kNone, {}));
  Result<delta::FileStats> stats = delta::ParseStats(std::string(stats_json));
  EXPECT_TRUE(stats.ok()) << stats_json << ": " << stats.status().ToString();
  return MayMatch(BindOn(*schema, text), *stats);
}

constexpr const char* kIds5To9 =
    R"({"numRecords":10,"minValues":{"id":5},"maxValues":{"id":9},"nullCount":{"id":0}})";

TEST(StatsEvaluator, MissingStatisticsMeanMayMatch) {
  const char* predicates[] = {"id = 1",  "id IS NULL", "id IS NOT NULL", "NOT id = 1",
                              "s > 'z'", "n.v < 0",    "id % 2 = 0",     "id IN (1, 2)"};
  const char* stats[] = {
      "{}",
      R"({"numRecords":10})",
      R"({"numRecords":10,"minValues":{"x":1},"maxValues":{"x":1},"nullCount":{"x":0}})",
      R"({"numRecords":10,"minValues":{"id":null},"maxValues":{"id":null}})",
  };
  for (const char* p : predicates) {
    for (const char* s : stats) EXPECT_TRUE(May(p, s)) << p << " on " << s;
  }
  // Only a max: the lower side says nothing, the upper side still prunes.
  EXPECT_TRUE(May("id < -100", R"({"numRecords":10,"maxValues":{"id":9}})"));
  EXPECT_FALSE(May("id > 9", R"({"numRecords":10,"maxValues":{"id":9}})"));
  // No numRecords: nullCount can still rule NULL out, but never rule non-NULL out.
  EXPECT_FALSE(May("id IS NULL", R"({"nullCount":{"id":0}})"));
  EXPECT_TRUE(May("id IS NOT NULL", R"({"nullCount":{"id":7}})"));
}

TEST(StatsEvaluator, TightBoundsPruneEveryOperator) {
  EXPECT_FALSE(May("id < 5", kIds5To9));
  EXPECT_TRUE(May("id <= 5", kIds5To9));
  EXPECT_FALSE(May("id > 9", kIds5To9));
  EXPECT_TRUE(May("id >= 9", kIds5To9));
  EXPECT_FALSE(May("id = 4", kIds5To9));
  EXPECT_TRUE(May("id = 7", kIds5To9));
  EXPECT_TRUE(May("id != 7", kIds5To9));
  EXPECT_FALSE(May("4 >= id", kIds5To9));  // literal on the left
  EXPECT_FALSE(May("id IN (1, 2, 10, NULL)", kIds5To9));
  EXPECT_TRUE(May("id IN (1, 6)", kIds5To9));
  EXPECT_FALSE(May("id IS NULL", kIds5To9));
  EXPECT_TRUE(May("id IS NOT NULL", kIds5To9));
  EXPECT_FALSE(May("id > 9.5", kIds5To9));
  EXPECT_TRUE(May("id > 8.5", kIds5To9));
  EXPECT_FALSE(May("id = NULL", kIds5To9));
}

TEST(StatsEvaluator, NotIsHandledSoundly) {
  EXPECT_FALSE(May("NOT id < 100", kIds5To9));  // id < 100 holds for every row
  EXPECT_TRUE(May("NOT id < 7", kIds5To9));
  EXPECT_TRUE(May("NOT NOT id = 7", kIds5To9));
  EXPECT_FALSE(May("NOT NOT id = 70", kIds5To9));
  const char* single =
      R"({"numRecords":4,"minValues":{"id":7},"maxValues":{"id":7},"nullCount":{"id":0}})";
  EXPECT_FALSE(May("id != 7", single));
  EXPECT_FALSE(May("NOT id = 7", single));
  EXPECT_FALSE(May("id NOT IN (7, 8)", single));
  EXPECT_TRUE(May("id NOT IN (8)", single));
  EXPECT_FALSE(May("id NOT IN (8, NULL)", single));  // Unknown, never True
  // With a NULL among the rows NOT (id = 7) is Unknown there: still no True row.
  const char* single_with_null =
      R"({"numRecords":4,"minValues":{"id":7},"maxValues":{"id":7},"nullCount":{"id":1}})";
  EXPECT_FALSE(May("NOT id = 7", single_with_null));
  EXPECT_TRUE(May("NOT id IS NOT NULL", single_with_null));
  EXPECT_TRUE(May("NOT (id = 7 AND id IS NOT NULL)", single_with_null));
}

TEST(StatsEvaluator, AndOrCombine) {
  EXPECT_FALSE(May("id < 5 OR id > 9", kIds5To9));
  EXPECT_TRUE(May("id < 5 OR s = 'x'", kIds5To9));  // s has no statistics
  EXPECT_FALSE(May("id > 100 AND s = 'x'", kIds5To9));
  EXPECT_TRUE(May("id > 6 AND id < 8", kIds5To9));
  EXPECT_FALSE(May("NOT (id >= 5 AND id <= 9)", kIds5To9));
  EXPECT_FALSE(May("NOT (id >= 5 OR s = 'x')", kIds5To9));
  EXPECT_TRUE(May("NOT (id >= 6 OR s = 'x')", kIds5To9));
}

// A connective wider than the compiled program's stack on the caller's side (domain_evaluator.h),
// and nested ones that keep many results pending: judged as the narrow ones are.
TEST(StatsEvaluator, WideAndDeepConnectives) {
  std::string none = "id = 100", one = "id = 100";
  for (int v = 101; v < 140; ++v) none += " OR id = " + std::to_string(v);
  for (int v = 101; v < 140; ++v) one += " OR id = " + std::to_string(v == 120 ? 7 : v);
  EXPECT_FALSE(May(none, kIds5To9));
  EXPECT_TRUE(May(one, kIds5To9));
  std::string nested = "id = 100";
  for (int v = 101; v < 130; ++v) nested = "id = " + std::to_string(v) + " OR (" + nested + ")";
  EXPECT_FALSE(May(nested, kIds5To9));
  EXPECT_TRUE(May("id = 8 AND (" + nested + " OR id = 6)", kIds5To9));
  EXPECT_FALSE(May("id = 8 AND (" + nested + ")", kIds5To9));
}

// tightBounds=false: min/max still bound the live rows; nullCount says something only at 0 and
// at numRecords (column_domain.h), and then it holds for the live subset of the physical rows.
TEST(StatsEvaluator, WideBounds) {
  const char* wide =
      R"({"numRecords":10,"minValues":{"id":5},"maxValues":{"id":9},"nullCount":{"id":3},"tightBounds":false})";
  EXPECT_FALSE(May("id < 5", wide));
  EXPECT_FALSE(May("id > 9", wide));
  EXPECT_TRUE(May("id = 7", wide));
  EXPECT_TRUE(May("id IS NULL", wide));      // some NULLs may be live
  EXPECT_TRUE(May("id IS NOT NULL", wide));  // and the DV may have removed them all
  const char* wide_no_nulls =
      R"({"numRecords":10,"minValues":{"id":5},"maxValues":{"id":9},"nullCount":{"id":0},"tightBounds":false})";
  EXPECT_FALSE(May("id IS NULL", wide_no_nulls));
  // Every physical row NULL: every live row is NULL too, so IS NOT NULL and comparisons cannot
  // be True even though numRecords also counts rows the DV deleted.
  const char* wide_all_null =
      R"({"numRecords":10,"minValues":{},"maxValues":{},"nullCount":{"id":10},"tightBounds":false})";
  EXPECT_FALSE(May("id IS NOT NULL", wide_all_null));
  EXPECT_FALSE(May("id = 5", wide_all_null));
  EXPECT_FALSE(May("NOT id = 5", wide_all_null));
  EXPECT_TRUE(May("id IS NULL", wide_all_null));
  // A nullCount above numRecords is not believed.
  EXPECT_TRUE(
      May("id IS NOT NULL", R"({"numRecords":2,"nullCount":{"id":5},"tightBounds":false})"));
}

TEST(StatsEvaluator, AllNullColumn) {
  const char* all_null =
      R"({"numRecords":3,"minValues":{"s":null},"maxValues":{"s":null},"nullCount":{"s":3}})";
  EXPECT_FALSE(May("s = 'a'", all_null));
  EXPECT_FALSE(May("s != 'a'", all_null));
  EXPECT_FALSE(May("NOT s = 'a'", all_null));
  EXPECT_FALSE(May("s IN ('a', NULL)", all_null));
  EXPECT_FALSE(May("s IS NOT NULL", all_null));
  EXPECT_TRUE(May("s IS NULL", all_null));
  EXPECT_TRUE(May("NOT s IS NOT NULL", all_null));
  EXPECT_TRUE(May("s = 'a' OR s IS NULL", all_null));
  EXPECT_FALSE(May("s = 'a' OR id = NULL", all_null));
}

// Delta truncates string statistics (32 characters by default): min is a prefix of the true min,
// max may be a prefix of the true max.
TEST(StatsEvaluator, TruncatedStrings) {
  const std::string prefix(32, 'k');
  const std::string stats = R"({"numRecords":5,"minValues":{"s":"abc"},"maxValues":{"s":")" +
                            prefix + R"("},"nullCount":{"s":0}})";
  EXPECT_TRUE(May("s = '" + prefix + "zzz'", stats));  // starts with the stored max
  EXPECT_TRUE(May("s > '" + prefix + "'", stats));
  EXPECT_TRUE(May("s >= '" + prefix + "a'", stats));
  EXPECT_FALSE(May("s = 'kl'", stats));  // above every string starting with max
  EXPECT_FALSE(May("s > 'kl'", stats));
  EXPECT_FALSE(May("s >= 'l'", stats));
  EXPECT_TRUE(May("s = 'abc'", stats));
  EXPECT_FALSE(May("s = 'ab'", stats));  // below the min, a valid lower bound
  EXPECT_FALSE(May("s < 'abc'", stats));
  EXPECT_TRUE(May("s <= 'abc'", stats));
  EXPECT_FALSE(May("s IN ('a', 'l')", stats));
  EXPECT_TRUE(May("s IN ('a', '" + prefix + "!')", stats));
  // min == max as stored does not prove every value equal: either may be truncated.
  const char* same =
      R"({"numRecords":5,"minValues":{"s":"abc"},"maxValues":{"s":"abc"},"nullCount":{"s":0}})";
  EXPECT_TRUE(May("s != 'abc'", same));
  EXPECT_TRUE(May("NOT s = 'abc'", same));
  EXPECT_TRUE(May("s = 'abcdef'", same));
  EXPECT_FALSE(May("s = 'abd'", same));
  EXPECT_FALSE(May("s < 'abc'", same));
}

// Older Delta writers cut a max past 32 characters and appended U+FFFD, comparing in UTF-16,
// where U+10000 and up sort below it: the max "prefix" U+FFFD then sits below the true max
// "prefix" U+1F600 in UTF-8's order. Trusted as written, the file was cleared for a predicate
// its row matches (found by tests/property/tier_agreement_property_test.cc).
TEST(StatsEvaluator, AnOldTieBreakerIsNoBoundOnSupplementaryCharacters) {
  const std::string prefix = "abcdefghijklmnopqrstuvwxyz012345";
  const std::string stats = R"({"numRecords":1,"minValues":{"s":")" + prefix +
                            R"("},"maxValues":{"s":")" + prefix +
                            "\xef\xbf\xbd"
                            R"("},"nullCount":{"s":0}})";
  EXPECT_TRUE(May("s = '" + prefix + "\xf0\x9f\x98\x80'", stats));     // the true max: U+1F600
  EXPECT_TRUE(May("s > '" + prefix + "\xef\xbf\xbf'", stats));         // above U+FFFF
  EXPECT_TRUE(May("s IN ('" + prefix + "\xf4\x8f\xbf\xbf')", stats));  // U+10FFFF
  EXPECT_FALSE(May("s > '" + prefix.substr(0, 31) + "6'", stats));     // the prefix still bounds
  // Newer writers' U+10FFFF bounds the true max in UTF-8: still read as a prefix bound.
  const std::string newer = R"({"numRecords":1,"maxValues":{"s":")" + prefix +
                            "\xf4\x8f\xbf\xbf"
                            R"("}})";
  EXPECT_TRUE(May("s = '" + prefix + "\xf4\x8f\xbf\xbfz'", newer));
  EXPECT_FALSE(May("s > '" + prefix.substr(0, 31) + "6'", newer));
}

// Type widening: a file written while the column was a float keeps its statistics as the float's
// shortest text ("3.0E38"), which read as a double is below the float's value
// (3.0000000054977558E38), the value readers see after the column became a double. Read as a
// double bound, the file was cleared for `c = 3.0000000054977558e+38`; the statistics of a column
// that was a float are read as a float's (found by tests/property/tier_agreement_property_test.cc).
TEST(StatsEvaluator, StatisticsWrittenBeforeAFloatBecameADoubleAreAFloats) {
  const char* widened =
      R"({"type":"struct","fields":[{"name":"c","type":"double","nullable":true,)"
      R"("metadata":{"delta.typeChanges":[{"fromType":"float","toType":"double"}]}}]})";
  const TableSchema schema = *TableSchema::Parse(widened, ColumnMappingMode::kNone, {});
  const Result<delta::FileStats> stats = delta::ParseStats(std::string(
      R"({"numRecords":1,"minValues":{"c":3.0E38},"maxValues":{"c":3.0E38},"nullCount":{"c":0}})"));
  ASSERT_TRUE(stats.ok());
  const double value = static_cast<double>(3.0e38f);
  EXPECT_TRUE(MayMatch(BindOn(schema, "c = " + ToString(Literal::Double(value))), *stats));
  EXPECT_TRUE(MayMatch(BindOn(schema, "c > 3.0E38"), *stats));
  EXPECT_FALSE(MayMatch(BindOn(schema, "c > 3.1E38"), *stats));  // a float's step, no more
  // A column that was always a double reads the same text exactly.
  const TableSchema plain = *TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"c","type":"double","nullable":true,"metadata":{}}]})",
      ColumnMappingMode::kNone, {});
  EXPECT_FALSE(MayMatch(BindOn(plain, "c > 3.0E38"), *stats));
}

// The leaf kernel sees values only through ValueLe, false for values of different categories:
// every answer must then be "may", for every operator (the proofs model comparable values only).
TEST(StatsLeafKernel, ValuesThatCannotBeComparedMayDoAnything) {
  const kernel::ValueBounds<LiteralOrder> bounds{true, Literal::Long(1), true, Literal::Long(5),
                                                 false};
  for (kernel::LeafOp op : {kernel::LeafOp::kEq, kernel::LeafOp::kNe, kernel::LeafOp::kLt,
                            kernel::LeafOp::kLe, kernel::LeafOp::kGt, kernel::LeafOp::kGe}) {
    for (const Literal& x : {Literal::String("z"), Literal::Null(), Literal::Bool(true)}) {
      const kernel::LeafPossible<LiteralOrder> p =
          kernel::CompareWithLiteral(LiteralOrder{}, bounds, op, x, false);
      EXPECT_TRUE(p.can_be_true) << static_cast<int>(op);
      EXPECT_TRUE(p.can_be_false) << static_cast<int>(op);
    }
  }
}

TEST(StatsLeafKernel, NullFactsSpeakOnlyAtTheExtremes) {
  const LiteralOrder d;
  auto facts = [&](bool has_rows, int64_t rows, bool has_count, int64_t count) {
    const kernel::NullFacts<LiteralOrder> f =
        kernel::NullFactsFromCounts(d, has_rows, rows, has_count, count);
    return std::make_pair(f.may_be_null, f.may_be_non_null);
  };
  EXPECT_EQ(facts(true, 10, true, 0), std::make_pair(false, true));
  EXPECT_EQ(facts(true, 10, true, 10), std::make_pair(true, false));
  EXPECT_EQ(facts(true, 10, true, 4), std::make_pair(true, true));
  EXPECT_EQ(facts(true, 0, false, 0), std::make_pair(false, false));  // no rows: nothing at all
  EXPECT_EQ(facts(false, 0, true, 0), std::make_pair(false, true));   // numRecords absent
  EXPECT_EQ(facts(false, 0, true, 3), std::make_pair(true, true));
  EXPECT_EQ(facts(true, 10, true, 11),
            std::make_pair(true, true));  // a count above numRecords says nothing
  EXPECT_EQ(facts(true, 10, true, -1), std::make_pair(true, true));  // nor does a negative one
  EXPECT_EQ(facts(true, 10, false, 0), std::make_pair(true, true));
}

TEST(StatsEvaluator, TimestampsAllowForMillisecondTruncation) {
  const char* ts =
      R"({"numRecords":2,"minValues":{"t":"2024-01-31T09:00:00.000Z","tn":"2024-01-31T09:00:00.000"},"maxValues":{"t":"2024-01-31T11:00:00.000+01:00","tn":"2024-01-31T10:00:00.000"},"nullCount":{"t":0,"tn":0}})";
  EXPECT_TRUE(May("t > TIMESTAMP '2024-01-31 10:00:00.000500Z'", ts));  // max may be .000999
  EXPECT_FALSE(May("t > TIMESTAMP '2024-01-31 10:00:00.001Z'", ts));
  EXPECT_FALSE(May("t < TIMESTAMP '2024-01-31 08:59:59.999Z'", ts));
  EXPECT_TRUE(May("t = '2024-01-31 10:00:00Z'", ts));
  EXPECT_TRUE(May("tn > '2024-01-31 10:00:00.000999'", ts));
  EXPECT_FALSE(May("tn > '2024-01-31 10:00:00.001'", ts));
  // A zone-less value for a `timestamp` column may be in any zone: widened by 18 hours.
  const char* no_zone = R"({"numRecords":2,"maxValues":{"t":"2024-01-31T10:00:00.000"}})";
  EXPECT_TRUE(May("t > TIMESTAMP '2024-02-01 03:00:00Z'", no_zone));
  EXPECT_FALSE(May("t > TIMESTAMP '2024-02-01 05:00:00Z'", no_zone));
}

TEST(StatsEvaluator, NumbersDatesBooleans) {
  // A float's statistic is its shortest text; 0.1f is above the double 0.1.
  EXPECT_TRUE(May("f > 0.1", R"({"numRecords":1,"maxValues":{"f":0.1}})"));
  EXPECT_FALSE(May("f > 0.2", R"({"numRecords":1,"maxValues":{"f":0.1}})"));
  const char* x = R"({"numRecords":3,"minValues":{"x":-1.5},"maxValues":{"x":3}})";
  EXPECT_FALSE(May("x > 3", x));
  EXPECT_TRUE(May("x > 2.9", x));
  EXPECT_FALSE(May("x < -1.5", x));
  EXPECT_TRUE(May("x = -1", x));
  const char* d =
      R"({"numRecords":3,"minValues":{"d":"2024-01-01"},"maxValues":{"d":"2024-01-31"}})";
  EXPECT_FALSE(May("d > DATE '2024-01-31'", d));
  EXPECT_TRUE(May("d = '2024-01-15'", d));
  const char* flags =
      R"({"numRecords":3,"minValues":{"flag":false},"maxValues":{"flag":false},"nullCount":{"flag":0}})";
  EXPECT_FALSE(May("flag", flags));
  EXPECT_TRUE(May("NOT flag", flags));
  // Decimal statistics are not used; NaN and contradictory bounds are ignored.
  EXPECT_TRUE(May("dec = 5", R"({"numRecords":3,"minValues":{"dec":1},"maxValues":{"dec":2}})"));
  EXPECT_TRUE(May("id = 5", R"({"numRecords":3,"minValues":{"id":10},"maxValues":{"id":1}})"));
  EXPECT_TRUE(May("x > 1e300", R"({"numRecords":3,"minValues":{"x":1},"maxValues":{"x":"NaN"}})"));
  EXPECT_FALSE(May("n.v > 3", R"({"numRecords":3,"maxValues":{"n":{"v":3}}})"));
}

TEST(StatsEvaluator, ModuloMayMatchUnlessBounded) {
  EXPECT_TRUE(May("id % 2 = 0", kIds5To9));
  EXPECT_TRUE(May("id % 2 = 1", kIds5To9));
  EXPECT_FALSE(May("id % 3 = 5", kIds5To9));   // |id % 3| < 3
  EXPECT_FALSE(May("id % 3 = -1", kIds5To9));  // id >= 0, so id % 3 >= 0
  EXPECT_TRUE(May("id % 3 = -1", R"({"numRecords":3,"minValues":{"id":-5},"maxValues":{"id":9}})"));
  const char* single =
      R"({"numRecords":4,"minValues":{"id":7},"maxValues":{"id":7},"nullCount":{"id":0}})";
  EXPECT_FALSE(May("id % 2 = 0", single));
  EXPECT_TRUE(May("id % 2 = 1", single));
  EXPECT_TRUE(May("id % 2 = 0", "{}"));
}

TEST(StatsEvaluator, EmptyFileNeverMatches) {
  EXPECT_FALSE(May("TRUE", R"({"numRecords":0})"));
  EXPECT_FALSE(May("id IS NULL", R"({"numRecords":0})"));
  EXPECT_TRUE(May("TRUE", "{}"));
  EXPECT_FALSE(May("FALSE", "{}"));
  EXPECT_FALSE(May("NULL", "{}"));
}

// The real table delta__dv-with-columnmapping: statistics are keyed by physical names.
constexpr const char* kMappedSchema =
    R"({"type":"struct","fields":[{"name":"part","type":"integer","nullable":true,"metadata":{"delta.columnMapping.id":1,"delta.columnMapping.physicalName":"col-60c949ca-b8bc-4330-b931-b73fb4c60037"}},{"name":"col1","type":"integer","nullable":true,"metadata":{"delta.columnMapping.id":2,"delta.columnMapping.physicalName":"col-9f0743fd-a52e-44a7-92e0-72a3d34231b1"}},{"name":"col2","type":"string","nullable":true,"metadata":{"delta.columnMapping.id":3,"delta.columnMapping.physicalName":"col-ae46e8ed-607b-4b7c-8a13-44991fe0a2e4"}}]})";
// The first add's stats and partition values in its version 0.
constexpr const char* kMappedStats =
    R"({"numRecords":3,"minValues":{"col-9f0743fd-a52e-44a7-92e0-72a3d34231b1":0,"col-ae46e8ed-607b-4b7c-8a13-44991fe0a2e4":"foo0"},"maxValues":{"col-9f0743fd-a52e-44a7-92e0-72a3d34231b1":20,"col-ae46e8ed-607b-4b7c-8a13-44991fe0a2e4":"foo0"},"nullCount":{"col-9f0743fd-a52e-44a7-92e0-72a3d34231b1":0,"col-ae46e8ed-607b-4b7c-8a13-44991fe0a2e4":0},"tightBounds":true})";
const delta::StringMap kMappedPartition = {{"col-60c949ca-b8bc-4330-b931-b73fb4c60037", "0"}};

TEST(StatsEvaluator, ColumnMappingReadsPhysicalNames) {
  Result<TableSchema> mapped =
      TableSchema::Parse(kMappedSchema, ColumnMappingMode::kName, {"part"});
  ASSERT_TRUE(mapped.ok());
  const delta::FileStats stats = *delta::ParseStats(kMappedStats);
  EXPECT_FALSE(MayMatch(BindOn(*mapped, "col1 > 20"), stats));
  EXPECT_TRUE(MayMatch(BindOn(*mapped, "col1 >= 20"), stats));
  EXPECT_TRUE(MayMatch(BindOn(*mapped, "col2 = 'foo0'"), stats));
  EXPECT_FALSE(MayMatch(BindOn(*mapped, "col2 = 'foo1'"), stats));
  EXPECT_TRUE(MayMatch(BindOn(*mapped, "part = 1"), stats));  // stats know no partition values
  // Read without the mapping, the logical names find no statistics: kept.
  Result<TableSchema> unmapped =
      TableSchema::Parse(R"({"type":"struct","fields":[{"name":"col1","type":"integer"}]})",
                         ColumnMappingMode::kNone, {});
  ASSERT_TRUE(unmapped.ok());
  EXPECT_TRUE(MayMatch(BindOn(*unmapped, "col1 > 20"), stats));
  // A column whose physical name is missing in mode name is unresolved: kept.
  Result<TableSchema> broken =
      TableSchema::Parse(R"({"type":"struct","fields":[{"name":"col1","type":"integer"}]})",
                         ColumnMappingMode::kName, {});
  ASSERT_TRUE(broken.ok());
  delta::FileStats logical_stats = *delta::ParseStats(R"({"numRecords":3,"maxValues":{"col1":1}})");
  EXPECT_TRUE(MayMatch(BindOn(*broken, "col1 > 20"), logical_stats));
}

TEST(StatsEvaluator, PartitionValuesAreExact) {
  Result<TableSchema> mapped =
      TableSchema::Parse(kMappedSchema, ColumnMappingMode::kName, {"part"});
  ASSERT_TRUE(mapped.ok());
  auto may = [&](std::string_view text, const delta::StringMap& values) {
    return MayMatchPartition(BindOn(*mapped, text), values);
  };
  EXPECT_TRUE(may("part = 0", kMappedPartition));
  EXPECT_FALSE(may("part = 1", kMappedPartition));
  EXPECT_FALSE(may("part != 0", kMappedPartition));
  EXPECT_FALSE(may("NOT part = 0", kMappedPartition));
  EXPECT_FALSE(may("part IS NULL", kMappedPartition));
  EXPECT_TRUE(may("part IN (1, 0)", kMappedPartition));
  EXPECT_TRUE(may("col1 > 100", kMappedPartition));  // not a partition column: unknown
  EXPECT_FALSE(may("part = 1 AND col1 > 100", kMappedPartition));
  const delta::StringMap null_part = {{"col-60c949ca-b8bc-4330-b931-b73fb4c60037", std::nullopt}};
  EXPECT_FALSE(may("part = 0", null_part));
  EXPECT_FALSE(may("NOT part = 0", null_part));
  EXPECT_TRUE(may("part IS NULL", null_part));
  const delta::StringMap empty_part = {{"col-60c949ca-b8bc-4330-b931-b73fb4c60037", ""}};
  EXPECT_TRUE(may("part IS NULL", empty_part));  // "" is NULL for every type
  EXPECT_FALSE(may("part IS NOT NULL", empty_part));
  EXPECT_TRUE(may("part = 5", {{"col-60c949ca-b8bc-4330-b931-b73fb4c60037", "x"}}));  // unparsable
  EXPECT_TRUE(may("part = 5", {{"part", "0"}}));  // keyed by the logical name: not found

  // Both sources at once.
  const delta::FileStats stats = *delta::ParseStats(kMappedStats);
  const BoundExpr either = BindOn(*mapped, "part = 1 OR col1 > 20");
  EXPECT_TRUE(MayMatch(either, stats));
  EXPECT_TRUE(MayMatchPartition(either, kMappedPartition));
  EXPECT_FALSE(MayMatchFile(either, &stats, kMappedPartition));
}

TEST(StatsEvaluator, TypedPartitionValues) {
  Result<TableSchema> schema = TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"t","type":"timestamp"},{"name":"tn","type":"timestamp_ntz"},{"name":"d","type":"date"},{"name":"b","type":"boolean"},{"name":"x","type":"double"},{"name":"s","type":"string"}]})",
      ColumnMappingMode::kNone, {"t", "tn", "d", "b", "x", "s"});
  ASSERT_TRUE(schema.ok());
  const delta::StringMap values = {{"t", "2024-01-31 10:00:00"},
                                   {"tn", "2024-01-31 10:00:00"},
                                   {"d", "2024-01-31"},
                                   {"b", "true"},
                                   {"x", "2.5"},
                                   {"s", "a'b"}};
  auto may = [&](std::string_view text) {
    return MayMatchPartition(BindOn(*schema, text), values);
  };
  EXPECT_TRUE(may("t = TIMESTAMP '2024-01-31 12:00:00Z'"));  // zone unknown: +-18 hours
  EXPECT_FALSE(may("t = TIMESTAMP '2024-02-02 12:00:00Z'"));
  EXPECT_FALSE(may("tn = '2024-01-31 12:00:00'"));
  EXPECT_TRUE(may("tn = '2024-01-31 10:00:00'"));
  EXPECT_TRUE(may("d = DATE '2024-01-31' AND b AND x = 2.5 AND s = 'a''b'"));
  EXPECT_FALSE(may("NOT b"));
  EXPECT_FALSE(may("x > 2.5"));
  EXPECT_FALSE(may("s != 'a''b'"));  // partition strings are never truncated
}

// The row reader's one reading (partition_value.h): a float is the nearest float, an integer out
// of its column's range or an unknown boolean spelling says nothing.
TEST(StatsEvaluator, PartitionValuesReadOnceForEveryTier) {
  Result<TableSchema> schema = TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"f","type":"float"},{"name":"i","type":"byte"},{"name":"b","type":"boolean"}]})",
      ColumnMappingMode::kNone, {"f", "i", "b"});
  ASSERT_TRUE(schema.ok());
  const delta::StringMap values = {{"f", "0.1"}, {"i", "300"}, {"b", "yes"}};
  auto may = [&](std::string_view text) {
    return MayMatchPartition(BindOn(*schema, text), values);
  };
  EXPECT_FALSE(may("f = 0.1"));  // (double)0.1f is not 0.1, as Spark compares them
  EXPECT_TRUE(may("f > 0.1"));
  EXPECT_TRUE(may("i IS NULL"));  // Spark's cast reads 300 as a byte NULL
  EXPECT_TRUE(may("i = 300"));
  EXPECT_TRUE(may("b"));
  EXPECT_TRUE(may("NOT b"));
}

}  // namespace
}  // namespace rlc::predicate
