#include "impl/predicate/parser.h"

#include <gtest/gtest.h>

#include "impl/base/limits.h"
#include "impl/predicate/datetime.h"

namespace rlc::predicate {
namespace {

Expr Parse(std::string_view text) {
  Result<Expr> e = ParsePredicate(text);
  EXPECT_TRUE(e.ok()) << text << ": " << e.status().ToString();
  return e.ok() ? *e : Expr{};
}

Expr Col(std::string name) { return Expr::Column({std::move(name)}); }
Expr Lng(int64_t v) { return Expr::Lit(Literal::Long(v)); }

TEST(Parser, EveryComparisonOperator) {
  const std::pair<const char*, CompareOp> cases[] = {
      {"=", CompareOp::kEq},  {"==", CompareOp::kEq}, {"!=", CompareOp::kNe},
      {"<>", CompareOp::kNe}, {"<", CompareOp::kLt},  {"<=", CompareOp::kLe},
      {">", CompareOp::kGt},  {">=", CompareOp::kGe}};
  for (const auto& [text, op] : cases) {
    EXPECT_EQ(Parse(std::string("id ") + text + " 100"), Expr::Compare(Col("id"), op, Lng(100)))
        << text;
  }
}

TEST(Parser, TheIssueExample) {
  EXPECT_EQ(
      Parse("id >= 100 AND part = 'a'"),
      Expr::And({Expr::Compare(Col("id"), CompareOp::kGe, Lng(100)),
                 Expr::Compare(Col("part"), CompareOp::kEq, Expr::Lit(Literal::String("a")))}));
}

TEST(Parser, PrecedenceIsNotThenAndThenOr) {
  const Expr a = Expr::Compare(Col("a"), CompareOp::kEq, Lng(1));
  const Expr b = Expr::Compare(Col("b"), CompareOp::kEq, Lng(2));
  const Expr c = Expr::Compare(Col("c"), CompareOp::kEq, Lng(3));
  EXPECT_EQ(Parse("a = 1 OR b = 2 AND c = 3"), Expr::Or({a, Expr::And({b, c})}));
  EXPECT_EQ(Parse("a = 1 AND b = 2 OR c = 3"), Expr::Or({Expr::And({a, b}), c}));
  EXPECT_EQ(Parse("NOT a = 1 AND b = 2"), Expr::And({Expr::Not(a), b}));
  EXPECT_EQ(Parse("NOT a = 1 OR b = 2"), Expr::Or({Expr::Not(a), b}));
  EXPECT_EQ(Parse("(a = 1 OR b = 2) AND c = 3"), Expr::And({Expr::Or({a, b}), c}));
  EXPECT_EQ(Parse("NOT (a = 1 OR b = 2)"), Expr::Not(Expr::Or({a, b})));
  EXPECT_EQ(Parse("NOT NOT a = 1"), Expr::Not(Expr::Not(a)));
  EXPECT_EQ(Parse("a = 1 AND b = 2 AND c = 3"), Expr::And({a, b, c}));  // one n-ary node
  EXPECT_EQ(Parse("(a = 1 AND b = 2) AND c = 3"), Expr::And({Expr::And({a, b}), c}));
  EXPECT_EQ(Parse("((a = 1))"), a);
}

TEST(Parser, KeywordsInAnyCase) {
  EXPECT_EQ(Parse("a is not null and not b in (1) or c Is Null"),
            Parse("a IS NOT NULL AND NOT b IN (1) OR c IS NULL"));
  EXPECT_EQ(Parse("x = true OR y = False OR z = nULL"),
            Expr::Or({Expr::Compare(Col("x"), CompareOp::kEq, Expr::Lit(Literal::Bool(true))),
                      Expr::Compare(Col("y"), CompareOp::kEq, Expr::Lit(Literal::Bool(false))),
                      Expr::Compare(Col("z"), CompareOp::kEq, Expr::Lit(Literal::Null()))}));
}

TEST(Parser, InListsAndNotIn) {
  EXPECT_EQ(Parse("id IN (1, -2, NULL)"),
            Expr::In(Col("id"), {Literal::Long(1), Literal::Long(-2), Literal::Null()}));
  EXPECT_EQ(Parse("s NOT IN ('a')"), Expr::Not(Expr::In(Col("s"), {Literal::String("a")})));
  EXPECT_EQ(Parse("id % 3 IN (0, 1)"),
            Expr::In(Expr::Modulo({"id"}, 3), {Literal::Long(0), Literal::Long(1)}));
}

TEST(Parser, IsNullAndIsNotNull) {
  EXPECT_EQ(Parse("a.b IS NULL"), Expr::IsNull(Expr::Column({"a", "b"})));
  EXPECT_EQ(Parse("a IS NOT NULL"), Expr::IsNotNull(Col("a")));
}

TEST(Parser, NestedAndBackquotedColumns) {
  EXPECT_EQ(Parse("a.b.c = 1"),
            Expr::Compare(Expr::Column({"a", "b", "c"}), CompareOp::kEq, Lng(1)));
  EXPECT_EQ(Parse("`my col`.`x``y`.`and` = 1"),
            Expr::Compare(Expr::Column({"my col", "x`y", "and"}), CompareOp::kEq, Lng(1)));
  EXPECT_EQ(Parse("`select` > 0"), Expr::Compare(Col("select"), CompareOp::kGt, Lng(0)));
  EXPECT_EQ(Parse("a.`b.c` = 1"),
            Expr::Compare(Expr::Column({"a", "b.c"}), CompareOp::kEq, Lng(1)));
}

TEST(Parser, StringEscapes) {
  EXPECT_EQ(Parse("s = 'it''s'"),
            Expr::Compare(Col("s"), CompareOp::kEq, Expr::Lit(Literal::String("it's"))));
  EXPECT_EQ(Parse("s = ''"),
            Expr::Compare(Col("s"), CompareOp::kEq, Expr::Lit(Literal::String(""))));
  EXPECT_EQ(Parse("s = ''''"),
            Expr::Compare(Col("s"), CompareOp::kEq, Expr::Lit(Literal::String("'"))));
}

TEST(Parser, Numbers) {
  EXPECT_EQ(Parse("x = -5"), Expr::Compare(Col("x"), CompareOp::kEq, Lng(-5)));
  EXPECT_EQ(Parse("x = - 5"), Expr::Compare(Col("x"), CompareOp::kEq, Lng(-5)));
  EXPECT_EQ(Parse("x = -9223372036854775808"),
            Expr::Compare(Col("x"), CompareOp::kEq, Lng(INT64_MIN)));
  EXPECT_EQ(Parse("x = 9223372036854775807"),
            Expr::Compare(Col("x"), CompareOp::kEq, Lng(INT64_MAX)));
  EXPECT_EQ(Parse("x = 1.5"),
            Expr::Compare(Col("x"), CompareOp::kEq, Expr::Lit(Literal::Double(1.5))));
  EXPECT_EQ(Parse("x = -2.5e3"),
            Expr::Compare(Col("x"), CompareOp::kEq, Expr::Lit(Literal::Double(-2500))));
  EXPECT_EQ(Parse("x = 1E-2"),
            Expr::Compare(Col("x"), CompareOp::kEq, Expr::Lit(Literal::Double(0.01))));
  EXPECT_EQ(Parse("-1 < x"), Expr::Compare(Lng(-1), CompareOp::kLt, Col("x")));
}

TEST(Parser, DatesAndTimestamps) {
  EXPECT_EQ(Parse("d = DATE '2024-01-31'"),
            Expr::Compare(Col("d"), CompareOp::kEq, Expr::Lit(Literal::Date(19753))));
  EXPECT_EQ(Parse("d = date '1970-01-01'"),
            Expr::Compare(Col("d"), CompareOp::kEq, Expr::Lit(Literal::Date(0))));
  const int64_t ten_am = 19753 * kMicrosPerDay + 10 * 3600 * kMicrosPerSecond;
  const Expr expected =
      Expr::Compare(Col("t"), CompareOp::kLt, Expr::Lit(Literal::Timestamp(ten_am)));
  EXPECT_EQ(Parse("t < TIMESTAMP '2024-01-31T10:00:00Z'"), expected);
  EXPECT_EQ(Parse("t < TIMESTAMP '2024-01-31T11:30:00+01:30'"), expected);
  // Without a zone: in the session's zone (Spark's reading), its wall clock kept.
  EXPECT_EQ(
      Parse("t < TIMESTAMP '2024-01-31 10:00:00.000001'"),
      Expr::Compare(Col("t"), CompareOp::kLt, Expr::Lit(Literal::SessionTimestamp(ten_am + 1))));
  EXPECT_EQ(ToString(Parse("t < TIMESTAMP '2024-01-31 10:00:00'")),
            "t < TIMESTAMP '2024-01-31 10:00:00'");
  EXPECT_EQ(ToString(expected), "t < TIMESTAMP '2024-01-31 10:00:00Z'");
  // A TIMESTAMP_NTZ literal is a wall clock, and has no zone to give.
  EXPECT_EQ(Parse("w >= TIMESTAMP_NTZ '2024-01-31 10:00:00'"),
            Expr::Compare(Col("w"), CompareOp::kGe, Expr::Lit(Literal::WallClock(ten_am))));
  Result<Expr> zoned = ParsePredicate("w >= TIMESTAMP_NTZ '2024-01-31 10:00:00Z'");
  ASSERT_FALSE(zoned.ok());
  EXPECT_NE(zoned.status().message().find("without a zone"), std::string::npos);
}

TEST(Parser, ModuloPredicates) {
  EXPECT_EQ(Parse("id % 2 = 0"), Expr::Compare(Expr::Modulo({"id"}, 2), CompareOp::kEq, Lng(0)));
  EXPECT_EQ(Parse("id % -3 != 1"), Expr::Compare(Expr::Modulo({"id"}, -3), CompareOp::kNe, Lng(1)));
}

TEST(Parser, BareBooleansStandAsConditions) {
  EXPECT_EQ(Parse("flag"), Col("flag"));
  EXPECT_EQ(Parse("TRUE"), Expr::Lit(Literal::Bool(true)));
  EXPECT_EQ(Parse("NOT flag AND x = 1"),
            Expr::And({Expr::Not(Col("flag")), Expr::Compare(Col("x"), CompareOp::kEq, Lng(1))}));
}

TEST(Parser, ToStringRoundTrips) {
  const char* texts[] = {
      "id >= 100 AND part = 'a'",
      "a = 1 OR b = 2 AND c = 3",
      "(a = 1 OR b = 2) AND NOT (c IN (1, 2, NULL))",
      "(a = 1 AND b = 2) AND c = 3",
      "`my col`.`and` IS NOT NULL OR s = 'it''s'",
      "x = -1.5e-7 OR x = 3.0 OR x = -0.0 OR y = -9223372036854775808",
      "d = DATE '2024-02-29' AND t > TIMESTAMP '1969-12-31 23:59:59.999999'",
      "id % 2 = 0 AND NOT NOT flag",
      "s NOT IN ('a', 'b')",
      "TRUE AND NULL",
  };
  for (const char* text : texts) {
    const Expr e = Parse(text);
    const std::string printed = ToString(e);
    EXPECT_EQ(Parse(printed), e) << text << " printed as " << printed;
  }
  EXPECT_EQ(ToString(Parse("a=1 and (b<2 or c is null)")), "a = 1 AND (b < 2 OR c IS NULL)");
  EXPECT_EQ(ToString(Parse("x = 3.0")), "x = 3.0");
}

// Each malformed input names the exact character (1-based) and what was expected there.
TEST(Parser, MalformedInputsNameThePosition) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "predicate at character 1: expected a column, a literal, NOT or '(', found end of text"},
      {"id >= 100 AND",
       "predicate at character 14: expected a column, a literal, NOT or '(', found end of text"},
      {"id >> 3", "predicate at character 5: expected a literal, found '>'"},
      {"(a = 1", "predicate at character 7: expected AND, OR or ')', found end of text"},
      {"a = 1)", "predicate at character 6: expected AND, OR or end of text, found ')'"},
      {"a b", "predicate at character 3: expected an operator, AND, OR or end of text, found 'b'"},
      {"a IN ()", "predicate at character 7: expected a literal, found ')'"},
      {"a IN (1, b)", "predicate at character 10: expected a literal, found 'b'"},
      {"a IN 1", "predicate at character 6: expected '(' after IN, found '1'"},
      {"a IN (1 2)", "predicate at character 9: expected ',' or ')', found '2'"},
      {"a IS 5", "predicate at character 6: expected NULL or NOT NULL, found '5'"},
      {"a NOT = 5", "predicate at character 7: expected IN after NOT, found '='"},
      {"s = 'abc",
       "predicate at character 5: expected a closing ' for the string that starts "
       "here, found end of text"},
      {"`abc = 1",
       "predicate at character 1: expected a closing ` for the name that starts here, "
       "found end of text"},
      {"a = 1 # 2",
       "predicate at character 7: expected a name, a literal, an operator or '(', "
       "found '#'"},
      {"a ! 1", "predicate at character 3: expected '!=', found '!'"},
      {"a = 1.",
       "predicate at character 7: expected a digit after the decimal point, found end "
       "of text"},
      {"a = 1e+", "predicate at character 8: expected a digit in the exponent, found end of text"},
      {"a = 99999999999999999999",
       "predicate at character 5: expected an integer within 64 bits, found "
       "'99999999999999999999'"},
      {"a = 1e999",
       "predicate at character 5: expected a number within the range of a double, "
       "found '1e999'"},
      {"a = -", "predicate at character 6: expected a number after '-', found end of text"},
      {"id % 0 = 1", "predicate at character 6: expected a non-zero integer modulus, found '0'"},
      {"id % 2.5 = 1",
       "predicate at character 6: expected a non-zero integer modulus, found '2.5'"},
      {"id % x = 1", "predicate at character 6: expected an integer modulus, found 'x'"},
      {"a. = 1", "predicate at character 4: expected a name after '.', found '='"},
      {"d = DATE '2024-02-30'",
       "predicate at character 10: expected a valid date 'YYYY-MM-DD', found ''2024-02-30''"},
      {"d = DATE 5",
       "predicate at character 10: expected a string 'YYYY-MM-DD' after DATE, "
       "found '5'"},
      {"t = TIMESTAMP '2024-01-31 25:00:00'",
       "predicate at character 15: expected a valid timestamp 'YYYY-MM-DD HH:MM:SS[.ffffff]', "
       "found ''2024-01-31 25:00:00''"},
      {"AND a = 1",
       "predicate at character 1: expected a column, a literal, NOT or '(', found "
       "'AND'"},
      {"a = 1 AND OR b = 2",
       "predicate at character 11: expected a column, a literal, NOT or "
       "'(', found 'OR'"},
      {"a = NOT b", "predicate at character 5: expected a literal, found 'NOT'"},
      {"a = 1 = 2", "predicate at character 7: expected AND, OR or end of text, found '='"},
  };
  for (const auto& [text, message] : cases) {
    Result<Expr> e = ParsePredicate(text);
    ASSERT_FALSE(e.ok()) << text;
    EXPECT_EQ(e.status().code(), StatusCode::kInvalidArgument) << text;
    EXPECT_EQ(e.status().message(), message) << text;
  }
}

TEST(Parser, LimitsAreEnforced) {
  std::string deep;
  for (int i = 0; i < kPredicateNestingMax; ++i) deep += "(";
  deep += "a = 1";
  for (int i = 0; i < kPredicateNestingMax; ++i) deep += ")";
  EXPECT_TRUE(ParsePredicate(deep).ok());
  Result<Expr> too_deep = ParsePredicate("(" + deep + ")");
  ASSERT_FALSE(too_deep.ok());
  EXPECT_EQ(too_deep.status().code(), StatusCode::kOverLimit);
  EXPECT_NE(too_deep.status().message().find("character 101"), std::string::npos)
      << too_deep.status().message();

  std::string nots;
  for (int i = 0; i <= kPredicateNestingMax; ++i) nots += "NOT ";
  EXPECT_EQ(ParsePredicate(nots + "a").status().code(), StatusCode::kOverLimit);

  const std::string long_text = "s = '" + std::string(kPredicateTextBytesMax, 'x') + "'";
  Result<Expr> too_long = ParsePredicate(long_text);
  EXPECT_EQ(too_long.status().code(), StatusCode::kOverLimit);
  EXPECT_NE(too_long.status().message().find("kPredicateTextBytesMax"), std::string::npos);
}

}  // namespace
}  // namespace rlc::predicate
