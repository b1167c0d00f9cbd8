#include "model/semantics/serial.h"

#include <gtest/gtest.h>

#include <limits>

namespace rlc::model {
namespace {

using P = Predicate;
using Op = Predicate::Op;

// (id, value): (1,'a') (2,NULL) (3,'c') (NULL,'d'), row ids 1..4.
LogicalTable Sample() {
  LogicalTable t = MakeTable();
  t.Insert({int64_t{1}, std::string("a")});
  t.Insert({int64_t{2}, Value{}});
  t.Insert({int64_t{3}, std::string("c")});
  t.Insert({Value{}, std::string("d")});
  return t;
}

std::vector<RowId> Ids(const LogicalTable& t) {
  std::vector<RowId> ids;
  for (const auto& [id, row] : t.rows) ids.push_back(id);
  return ids;
}

TEST(Values, DoublesCompareAsSparkComparesThemAndKeepTheirIdentity) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(Compare(Double{nan}, Double{nan}), 0);  // Spark: NaN = NaN
  EXPECT_EQ(Compare(Double{nan}, Double{inf}), 1);  // and above every number
  EXPECT_EQ(Compare(Double{-inf}, Double{nan}), -1);
  EXPECT_EQ(Compare(Double{-0.0}, Double{0.0}), 0);  // -0.0 = 0.0
  EXPECT_EQ(Compare(Double{1.5}, Double{2.5e300}), -1);
  // A table holds -0.0 and 0.0 as two values, and NaN as one.
  EXPECT_NE(Value{Double{-0.0}}, Value{Double{0.0}});
  EXPECT_LT(Value{Double{-0.0}}, Value{Double{0.0}});
  EXPECT_EQ(Value{Double{nan}}, Value{Double{-nan}});
  EXPECT_LT(Value{Double{inf}}, Value{Double{nan}});
  EXPECT_EQ(Compare(Value{}, Double{nan}), std::nullopt);
}

TEST(Values, LiteralsReadAsTheSameValueBySparkAndRlc) {
  // 2024-03-10 is day 19792: 2024-01-01 (1704067200 s) is day 19723, plus 31 + 29 + 9.
  EXPECT_EQ(ToString(Timestamp{int64_t{19792} * 86400 * 1000000 + 1}),
            "TIMESTAMP '2024-03-10 00:00:00.000001Z'");
  EXPECT_EQ(ToString(Timestamp{-1}), "TIMESTAMP '1969-12-31 23:59:59.999999Z'");
  EXPECT_EQ(ToString(Date{19792}), "DATE '2024-03-10'");
  EXPECT_EQ(ToString(Date{-1}), "DATE '1969-12-31'");
  EXPECT_EQ(ToString(Double{1.5}), "1.5E0");  // 1.5 alone is a decimal in Spark SQL
  EXPECT_EQ(ToString(Double{-0.0}), "-0E0");
  EXPECT_EQ(ToString(Double{1e300}), "1e+300");
  EXPECT_EQ(ToString(Double{std::numeric_limits<double>::quiet_NaN()}), "CAST('NaN' AS DOUBLE)");
  // The wall clock of an instant in a zone west of UTC falls on the day before.
  EXPECT_EQ(WallClockText(int64_t{19792} * 86400 * 1000000 + 5LL * 3600 * 1000000, -8 * 60),
            "2024-03-09 21:00:00.000000");
  EXPECT_EQ(DaysFromCivil({2024, 3, 10}), 19792);
  EXPECT_EQ(DaysFromCivil({1969, 12, 31}), -1);
  const CivilDate leap = CivilFromDays(DaysFromCivil({2024, 2, 29}));
  EXPECT_EQ(leap.year * 10000 + leap.month * 100 + leap.day, 20240229);
}

TEST(SerialSemantics, ThreeValuedLogic) {
  EXPECT_EQ(And(Truth::kFalse, Truth::kUnknown), Truth::kFalse);
  EXPECT_EQ(And(Truth::kTrue, Truth::kUnknown), Truth::kUnknown);
  EXPECT_EQ(Or(Truth::kTrue, Truth::kUnknown), Truth::kTrue);
  EXPECT_EQ(Or(Truth::kFalse, Truth::kUnknown), Truth::kUnknown);
  EXPECT_EQ(Not(Truth::kUnknown), Truth::kUnknown);
}

TEST(SerialSemantics, BlindInsertReadsNothingAndAddsRows) {
  OperationEffect e = Apply(Sample(), BlindInsert{{{int64_t{9}, std::string("z")}}});
  EXPECT_TRUE(e.is_blind_append);
  EXPECT_TRUE(e.reads.empty());
  ASSERT_EQ(e.writes.size(), 1u);
  EXPECT_EQ(e.writes[0].kind, RowWrite::Kind::kInsert);
  EXPECT_EQ(e.writes[0].row, 5u);  // identities are never reused
  EXPECT_EQ(e.after.rows.size(), 5u);
  EXPECT_EQ(e.after.version, 1);
}

TEST(SerialSemantics, DeleteWhereSkipsNullComparisons) {
  // id <> 1: row 4 (id NULL) is Unknown, so it stays.
  OperationEffect e = Apply(Sample(), Delete{P::Compare("id", Op::kNe, int64_t{1})});
  EXPECT_EQ(Ids(e.after), (std::vector<RowId>{1, 4}));
  ASSERT_EQ(e.reads.size(), 1u);
  EXPECT_EQ(e.reads[0].matched, (std::vector<RowId>{2, 3}));
  EXPECT_FALSE(e.is_blind_append);
  ASSERT_EQ(e.writes.size(), 2u);
  EXPECT_EQ(e.writes[0].kind, RowWrite::Kind::kDelete);
  EXPECT_EQ(e.writes[0].before->values[0], Value{int64_t{2}});
}

TEST(SerialSemantics, NotOfUnknownStillDoesNotQualify) {
  OperationEffect e =
      Apply(Sample(), Delete{P::Not(P::Compare("value", Op::kEq, std::string("a")))});
  // value = 'a' is Unknown for row 2 (NULL); NOT Unknown is Unknown: row 2 stays.
  EXPECT_EQ(Ids(e.after), (std::vector<RowId>{1, 2}));
}

TEST(SerialSemantics, RemainderTakesTheDividendsSignAndNullIsUnknown) {
  LogicalTable t = MakeTable();
  t.Insert({int64_t{-3}, std::string("a")});
  t.Insert({int64_t{4}, std::string("b")});
  t.Insert({int64_t{7}, std::string("c")});
  t.Insert({Value{}, std::string("d")});
  t.Insert({std::numeric_limits<int64_t>::min(), std::string("e")});
  auto matched = [&](const Predicate& p) {
    std::vector<std::string> values;
    for (const auto& [id, row] : t.rows) {
      if (Qualifies(p, t, row)) values.push_back(std::get<std::string>(row.values[1]));
    }
    return values;
  };
  // Java's remainder: -3 % 2 is -1, not 1; INT64_MIN % -1 is 0.
  EXPECT_EQ(matched(P::CompareRemainder("id", 2, Op::kEq, int64_t{1})),
            (std::vector<std::string>{"c"}));
  EXPECT_EQ(matched(P::CompareRemainder("id", 2, Op::kEq, int64_t{-1})),
            (std::vector<std::string>{"a"}));
  EXPECT_EQ(matched(P::CompareRemainder("id", -1, Op::kEq, int64_t{0})),
            (std::vector<std::string>{"a", "b", "c", "e"}));
  EXPECT_EQ(matched(P::Not(P::CompareRemainder("id", 3, Op::kNe, int64_t{1}))),
            (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(ToString(P::CompareRemainder("id", 2, Op::kGe, int64_t{1})), "id % 2 >= 1");
}

TEST(SparkSql, EachOperationIsOneStatementOnTheTablePlaceholder) {
  const std::vector<Column> schema = MakeTable().schema;  // (id long, value string)
  EXPECT_EQ(SparkSql(Delete{P::CompareRemainder("id", 2, Op::kEq, int64_t{1})}, schema),
            "DELETE FROM {table} WHERE id % 2 = 1");
  EXPECT_EQ(SparkSql(Update{P::IsNull("value"), {{"value", std::string("u")}}}, schema),
            "UPDATE {table} SET value = 'u' WHERE value IS NULL");
  EXPECT_EQ(SparkSql(InsertSelect{P::Compare("id", Op::kLt, int64_t{3}),
                                  {{"value", std::string("copy")}}},
                     schema),
            "INSERT INTO {table} SELECT id, CAST('copy' AS STRING) AS value FROM {table} WHERE "
            "id < 3");
  EXPECT_EQ(SparkSql(BlindInsert{{{int64_t{1}, Value{}}}}, schema),
            "INSERT INTO {table} VALUES (1, NULL)");
  using K = MergeClause::Kind;
  Merge merge{{{int64_t{2}, std::string("x")}},
              "id",
              {{K::kMatchedUpdate,
                P::Compare("value", Op::kNe, std::string("a")),
                {{"value", std::string("m")}},
                false},
               {K::kNotMatchedInsert, P::IsNotNull("value"), {}, false},
               {K::kNotMatchedBySourceDelete, P::Compare("id", Op::kGe, int64_t{7}), {}, false}}};
  EXPECT_EQ(SparkSql(merge, schema),
            "MERGE INTO {table} AS t USING (SELECT CAST(c0 AS BIGINT) AS id, CAST(c1 AS STRING) "
            "AS value FROM VALUES (2, 'x') AS v(c0, c1)) AS s ON t.id = s.id WHEN MATCHED AND "
            "t.value <> 'a' THEN UPDATE SET t.value = 'm' WHEN NOT MATCHED AND s.value IS NOT "
            "NULL THEN INSERT * WHEN NOT MATCHED BY SOURCE AND t.id >= 7 THEN DELETE");
  EXPECT_EQ(SparkSql(Optimize{{"value"}}, schema), "OPTIMIZE {table} ZORDER BY (value)");
  EXPECT_EQ(SparkSql(IdempotentWrite{"app", 1, BlindInsert{{{int64_t{1}, Value{}}}}}, schema), "");
}

TEST(SerialSemantics, IsNullQualifiesNullRows) {
  OperationEffect e = Apply(Sample(), Delete{P::Or({P::IsNull("id"), P::IsNull("value")})});
  EXPECT_EQ(Ids(e.after), (std::vector<RowId>{1, 3}));
}

TEST(SerialSemantics, UpdateSetsOnlyQualifyingRows) {
  OperationEffect e =
      Apply(Sample(), Update{P::Compare("id", Op::kGe, int64_t{2}), {{"value", std::string("u")}}});
  EXPECT_EQ(e.after.rows.at(2).values[1], Value{std::string("u")});
  EXPECT_EQ(e.after.rows.at(3).values[1], Value{std::string("u")});
  EXPECT_EQ(e.after.rows.at(1).values[1], Value{std::string("a")});
  EXPECT_EQ(e.after.rows.at(4).values[1], Value{std::string("d")});
  ASSERT_EQ(e.writes.size(), 2u);
  EXPECT_EQ(e.writes[1].kind, RowWrite::Kind::kUpdate);
  EXPECT_EQ(e.writes[1].before->values[1], Value{std::string("c")});
  EXPECT_EQ(e.writes[1].after->values[1], Value{std::string("u")});
}

TEST(SerialSemantics, InsertSelectReadsTheTableAndIsNotBlind) {
  OperationEffect e = Apply(Sample(), InsertSelect{P::Compare("id", Op::kLe, int64_t{2}),
                                                   {{"value", std::string("copy")}}});
  EXPECT_FALSE(e.is_blind_append);
  EXPECT_EQ(e.reads[0].matched, (std::vector<RowId>{1, 2}));
  EXPECT_EQ(e.after.rows.size(), 6u);
  EXPECT_EQ(e.after.rows.at(5).values, (std::vector<Value>{int64_t{1}, std::string("copy")}));
  EXPECT_EQ(e.after.rows.at(6).values, (std::vector<Value>{int64_t{2}, std::string("copy")}));
}

Merge MergeOnId(std::vector<std::vector<Value>> source, std::vector<MergeClause> clauses) {
  return Merge{std::move(source), "id", std::move(clauses)};
}

TEST(SerialSemantics, MergeAppliesTheFirstMatchingClauseInOrder) {
  using K = MergeClause::Kind;
  // Source: ids 1, 3, 7 and NULL. Clauses: matched AND id = 1 -> delete; matched -> update from
  // source; not matched -> insert; not matched by source AND id = 2 -> delete.
  Merge m =
      MergeOnId({{int64_t{1}, std::string("s1")},
                 {int64_t{3}, std::string("s3")},
                 {int64_t{7}, std::string("s7")},
                 {Value{}, std::string("sn")}},
                {{K::kMatchedDelete, P::Compare("id", Op::kEq, int64_t{1}), {}, false},
                 {K::kMatchedUpdate, P::True(), {}, true},
                 {K::kNotMatchedInsert, P::True(), {}, false},
                 {K::kNotMatchedBySourceDelete, P::Compare("id", Op::kEq, int64_t{2}), {}, false}});
  OperationEffect e = Apply(Sample(), m);
  ASSERT_FALSE(e.error.has_value());
  EXPECT_EQ(e.after.rows.count(1), 0u);  // matched, first clause: delete
  EXPECT_EQ(e.after.rows.at(3).values[1], Value{std::string("s3")});  // matched, second clause
  EXPECT_EQ(e.after.rows.count(2), 0u);  // not matched by source, id = 2
  EXPECT_EQ(e.after.rows.at(4).values[1], Value{std::string("d")});  // NULL id: no clause applies
  // Not matched: 7 and the NULL-keyed source row (NULL never matches) are inserted.
  EXPECT_EQ(e.after.rows.at(5).values, (std::vector<Value>{int64_t{7}, std::string("s7")}));
  EXPECT_EQ(e.after.rows.at(6).values, (std::vector<Value>{Value{}, std::string("sn")}));
  EXPECT_FALSE(e.is_blind_append);
}

TEST(SerialSemantics, MergeClauseOrderMatters) {
  using K = MergeClause::Kind;
  Merge update_first =
      MergeOnId({{int64_t{1}, std::string("s")}},
                {{K::kMatchedUpdate, P::True(), {{"value", std::string("u")}}, false},
                 {K::kMatchedDelete, P::True(), {}, false}});
  Merge delete_first = update_first;
  std::swap(delete_first.clauses[0], delete_first.clauses[1]);
  EXPECT_EQ(Apply(Sample(), update_first).after.rows.at(1).values[1], Value{std::string("u")});
  EXPECT_EQ(Apply(Sample(), delete_first).after.rows.count(1), 0u);
}

TEST(SerialSemantics, MergeWithTwoSourceRowsForOneTargetFails) {
  using K = MergeClause::Kind;
  Merge m = MergeOnId({{int64_t{1}, std::string("x")}, {int64_t{1}, std::string("y")}},
                      {{K::kMatchedUpdate, P::True(), {}, true}});
  OperationEffect e = Apply(Sample(), m);
  ASSERT_TRUE(e.error.has_value());
  EXPECT_NE(e.error->find("several source rows matched target row 1"), std::string::npos);
  EXPECT_EQ(e.after.rows, Sample().rows);
}

TEST(SerialSemantics, OptimizeAndZOrderLeaveRowsAndChangeNoData) {
  for (Operation op : {Operation{Optimize{}}, Operation{Optimize{{"id"}}}}) {
    OperationEffect e = Apply(Sample(), op);
    EXPECT_EQ(e.after.rows, Sample().rows);
    EXPECT_FALSE(e.data_change);
    EXPECT_TRUE(e.writes.empty());
    EXPECT_EQ(e.after.version, 1);
  }
}

TEST(SerialSemantics, MetadataAndProtocolChangesLeaveRows) {
  OperationEffect m = Apply(Sample(), MetadataChange{"delta.isolationLevel", "WriteSerializable"});
  EXPECT_TRUE(m.changes_metadata);
  EXPECT_EQ(m.after.properties.isolation_level, IsolationLevel::kWriteSerializable);
  EXPECT_EQ(m.after.rows, Sample().rows);
  OperationEffect p = Apply(Sample(), ProtocolChange{"rowTracking"});
  EXPECT_TRUE(p.changes_protocol);
  EXPECT_EQ(p.after.protocol_features.count("rowTracking"), 1u);
  EXPECT_EQ(p.after.rows, Sample().rows);
}

TEST(SerialSemantics, IdempotentWriteAppliesOnce) {
  IdempotentWrite w{"stream-1", 5, BlindInsert{{{int64_t{8}, std::string("e")}}}};
  OperationEffect first = Apply(Sample(), w);
  EXPECT_FALSE(first.skipped);
  EXPECT_EQ(first.after.rows.size(), 5u);
  EXPECT_EQ(first.after.app_versions.at("stream-1"), 5);
  OperationEffect again = Apply(first.after, w);
  EXPECT_TRUE(again.skipped);
  EXPECT_EQ(again.after.rows.size(), 5u);
  IdempotentWrite older{"stream-1", 4, w.insert};
  EXPECT_TRUE(Apply(first.after, older).skipped);
}

TEST(SerialSemantics, ApplyWritesCountsWritesToVanishedRows) {
  LogicalTable t = Sample();
  OperationEffect del = Apply(t, Delete{P::Compare("id", Op::kEq, int64_t{1})});
  OperationEffect upd =
      Apply(t, Update{P::Compare("id", Op::kEq, int64_t{1}), {{"value", std::string("x")}}});
  int lost = 0;
  LogicalTable after = ApplyWrites(del.after, upd.writes, &lost);
  EXPECT_EQ(lost, 1);
  EXPECT_EQ(after.rows.count(1), 0u);
}

// The model's values compare as Spark SQL's: a decimal by its number whatever its scale, a binary
// by unsigned bytes, booleans false first; each prints as a literal of its own type.
TEST(Values, EveryTypeComparesAsSparkAndPrintsItsLiteral) {
  EXPECT_EQ(Compare(Decimal{150, 2}, Decimal{15, 1}), 0);
  EXPECT_EQ(Compare(Decimal{-1, 3}, Decimal{0, 2}), -1);
  EXPECT_EQ(Compare(Decimal{9'999'999'999, 2}, Decimal{99'999'999'995, 3}), -1);
  EXPECT_EQ(Compare(Binary{"\x80"}, Binary{"\x7f"}), 1);
  EXPECT_EQ(Compare(Binary{""}, Binary{std::string("\0", 1)}), -1);
  EXPECT_EQ(Compare(Boolean{false}, Boolean{true}), -1);
  EXPECT_EQ(Compare(TimestampNtz{5}, TimestampNtz{5}), 0);
  EXPECT_EQ(ToString(Decimal{-5, 2}), "-0.05");
  EXPECT_EQ(ToString(Decimal{7, 0}), "7");
  EXPECT_EQ(ToString(Binary{"\x0a\xff"}), "X'0AFF'");
  EXPECT_EQ(ToString(Boolean{true}), "true");
  EXPECT_EQ(ToString(TimestampNtz{1}), "TIMESTAMP_NTZ '1970-01-01 00:00:00.000001'");
  EXPECT_TRUE(HoldsValueOf(ColumnType::kByte, int64_t{-128}));
  EXPECT_FALSE(HoldsValueOf(ColumnType::kByte, int64_t{128}));
  EXPECT_TRUE(HoldsValueOf(ColumnType::kFloat, Double{static_cast<double>(1.1F)}));
  EXPECT_FALSE(HoldsValueOf(ColumnType::kFloat, Double{1.1}));
  EXPECT_FALSE(HoldsValueOf(ColumnType::kDecimal, Decimal{5, 3}));
  EXPECT_FALSE(HoldsValueOf(ColumnType::kDecimal, Decimal{10'000'000'000, 2}));
  for (ColumnType t : kColumnTypes) EXPECT_EQ(ColumnTypeNamed(TypeName(t)), t);
}

// An IN list is the OR of its equalities, NULLs included: never FALSE once a NULL is listed.
TEST(SerialSemantics, AnInListIsTheOrOfItsEqualities) {
  LogicalTable t = MakeTable();
  const RowId one = t.Insert({int64_t{1}, std::string("a")});
  const RowId two = t.Insert({int64_t{2}, std::string("b")});
  const P in = P::In("id", {int64_t{1}, Value{}});
  EXPECT_EQ(ToString(in), "id IN (1, NULL)");
  EXPECT_EQ(Evaluate(in, t, t.rows.at(one)), Truth::kTrue);
  EXPECT_EQ(Evaluate(in, t, t.rows.at(two)), Truth::kUnknown);
  EXPECT_EQ(Evaluate(P::Not(in), t, t.rows.at(two)), Truth::kUnknown);
  P first = P::Compare("id", Op::kLe, int64_t{1});
  first.literal_first = true;
  EXPECT_EQ(ToString(first), "1 >= id");
  EXPECT_EQ(Evaluate(first, t, t.rows.at(one)), Truth::kTrue);
}

// Two columns compared: each row's own pair of values, UNKNOWN where either is NULL.
TEST(SerialSemantics, AComparisonOfTwoColumnsReadsBothOfTheRowsValues) {
  LogicalTable t = MakeTable(/*partitioned=*/true, ColumnType::kInteger, ColumnType::kByte);
  const RowId low = t.Insert({int64_t{1}, std::string("a"), int64_t{5}, int64_t{-3}});
  const RowId high = t.Insert({int64_t{9}, std::string("b"), int64_t{5}, int64_t{7}});
  const RowId null = t.Insert({int64_t{4}, std::string("c"), Value{}, int64_t{4}});
  const P lt = P::CompareColumns("id", Op::kLt, "x");
  EXPECT_EQ(ToString(lt), "id < x");
  EXPECT_EQ(ToString(lt, "t"), "t.id < t.x");
  EXPECT_EQ(Evaluate(lt, t, t.rows.at(low)), Truth::kTrue);
  EXPECT_EQ(Evaluate(lt, t, t.rows.at(high)), Truth::kFalse);
  EXPECT_EQ(Evaluate(lt, t, t.rows.at(null)), Truth::kUnknown);
  EXPECT_EQ(Evaluate(P::CompareColumns("part", Op::kEq, "id"), t, t.rows.at(null)), Truth::kTrue);
  P remainder = P::CompareColumns("id", Op::kEq, "part");
  remainder.modulus = 2;  // 9 % 2 = 1, not 7
  EXPECT_EQ(Evaluate(remainder, t, t.rows.at(high)), Truth::kFalse);
  EXPECT_EQ(ToString(remainder), "id % 2 = part");
  EXPECT_TRUE(ComparableTypes(ColumnType::kByte, ColumnType::kLong));
  EXPECT_TRUE(ComparableTypes(ColumnType::kFloat, ColumnType::kDouble));
  EXPECT_FALSE(ComparableTypes(ColumnType::kDecimal, ColumnType::kLong));
  EXPECT_FALSE(ComparableTypes(ColumnType::kTimestamp, ColumnType::kTimestampNtz));
}

TEST(SerialSemantics, DescribeReadsLikeSql) {
  EXPECT_EQ(Describe(Delete{P::And({P::Compare("id", Op::kGt, int64_t{3}), P::IsNull("value")})}),
            "DELETE WHERE id > 3 AND value IS NULL");
  EXPECT_EQ(Describe(Update{P::Compare("value", Op::kEq, std::string("a")), {{"id", int64_t{0}}}}),
            "UPDATE SET id = 0 WHERE value = 'a'");
  EXPECT_EQ(Describe(Optimize{{"id"}}), "OPTIMIZE ZORDER BY (id)");
  EXPECT_EQ(OperationName(Merge{}), "MERGE");
}

// Several partition columns come last, in order, each a partition column; an UPDATE of part2
// moves the row to another leaf and keeps its identity.
TEST(SerialSemantics, SeveralPartitionColumnsComeLastAndAnUpdateMovesARowBetweenLeaves) {
  LogicalTable t = MakeTable({ColumnType::kLong, ColumnType::kString}, ColumnType::kByte);
  ASSERT_EQ(t.schema.size(), 5u);
  EXPECT_EQ(t.schema[2].name, "x");
  EXPECT_FALSE(t.schema[2].is_partition);
  EXPECT_EQ(t.schema[3].name, "part");
  EXPECT_EQ(t.schema[4].name, "part2");
  EXPECT_TRUE(t.schema[3].is_partition && t.schema[4].is_partition);
  EXPECT_EQ(t.schema[4].type, ColumnType::kString);
  EXPECT_EQ(MakeTable(true, ColumnType::kString, std::nullopt).schema,
            MakeTable({ColumnType::kString}, std::nullopt).schema);
  const RowId row =
      t.Insert({int64_t{1}, std::string("a"), int64_t{2}, int64_t{0}, std::string("p")});
  const OperationEffect effect =
      Apply(t, Update{Predicate::Compare("part2", Predicate::Op::kEq, std::string("p")),
                      {{"part2", std::string("q")}}});
  ASSERT_EQ(effect.after.rows.size(), 1u);
  EXPECT_EQ(effect.after.rows.at(row).values[4], Value{std::string("q")});
  EXPECT_EQ(effect.after.rows.at(row).values[3], Value{int64_t{0}});
}

// A UTF8_LCASE column compares in lowercase, a literal taking the column's collation: 'V3'
// equals 'v3', and '_' sorts before 'A' (it sorts after it by bytes); IS NULL is as ever.
TEST(SerialSemantics, AUtf8LcaseColumnComparesInLowercase) {
  LogicalTable t = MakeTable();
  t.schema[1].collation = Collation::kUtf8Lcase;
  const RowId upper = t.Insert({int64_t{1}, std::string("V3")});
  const RowId under = t.Insert({int64_t{2}, std::string("_")});
  using Op = Predicate::Op;
  EXPECT_EQ(Evaluate(Predicate::Compare("value", Op::kEq, std::string("v3")), t, t.rows.at(upper)),
            Truth::kTrue);
  EXPECT_EQ(Evaluate(Predicate::Compare("value", Op::kNe, std::string("v3")), t, t.rows.at(upper)),
            Truth::kFalse);
  EXPECT_EQ(Evaluate(Predicate::Compare("value", Op::kLt, std::string("A")), t, t.rows.at(under)),
            Truth::kTrue);
  LogicalTable binary = t;
  binary.schema[1].collation = Collation::kUtf8Binary;
  EXPECT_EQ(Evaluate(Predicate::Compare("value", Op::kEq, std::string("v3")), binary,
                     binary.rows.at(upper)),
            Truth::kFalse);
  EXPECT_EQ(Evaluate(Predicate::Compare("value", Op::kLt, std::string("A")), binary,
                     binary.rows.at(under)),
            Truth::kFalse);
  EXPECT_EQ(std::string(CollationName(Collation::kUtf8Lcase)), "UTF8_LCASE");
  EXPECT_EQ(CollationNamed("UTF8_LCASE"), Collation::kUtf8Lcase);
  EXPECT_EQ(CollationNamed("utf8_lcase"), std::nullopt);
}

}  // namespace
}  // namespace rlc::model
