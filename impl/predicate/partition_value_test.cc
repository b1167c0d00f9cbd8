#include "impl/predicate/partition_value.h"

#include <gtest/gtest.h>

#include <cmath>

namespace rlc::predicate {
namespace {

using Kind = PartitionValue::Kind;

PartitionValue Read(ColumnType type, const char* text) {
  return ReadPartitionValue(type, std::optional<std::string>(text));
}

TEST(PartitionValue, NullOrEmptyIsNullForEveryType) {
  for (ColumnType type : {ColumnType::kLong, ColumnType::kString, ColumnType::kTimestamp,
                          ColumnType::kDecimal, ColumnType::kOther}) {
    EXPECT_EQ(ReadPartitionValue(type, std::nullopt).kind, Kind::kNull);
    EXPECT_EQ(Read(type, "").kind, Kind::kNull);
  }
}

TEST(PartitionValue, IntegersAreExactWithinTheirTypesRange) {
  EXPECT_EQ(Read(ColumnType::kLong, "-42").lower.int_value, -42);
  EXPECT_EQ(Read(ColumnType::kByte, "127").kind, Kind::kExact);
  // Spark's cast reads a value out of its column's range as NULL: not the number written.
  EXPECT_EQ(Read(ColumnType::kByte, "128").kind, Kind::kUnknown);
  EXPECT_EQ(Read(ColumnType::kShort, "-32769").kind, Kind::kUnknown);
  EXPECT_EQ(Read(ColumnType::kInteger, "2147483648").kind, Kind::kUnknown);
  EXPECT_EQ(Read(ColumnType::kLong, "2147483648").kind, Kind::kExact);
  EXPECT_EQ(Read(ColumnType::kLong, " 5").kind, Kind::kUnknown);
  EXPECT_EQ(Read(ColumnType::kLong, "5x").kind, Kind::kUnknown);
  EXPECT_STREQ(Read(ColumnType::kLong, "5x").why, "not an integer");
}

TEST(PartitionValue, AFloatIsTheTextRoundedOnceToAFloat) {
  const PartitionValue f = Read(ColumnType::kFloat, "0.1");
  ASSERT_EQ(f.kind, Kind::kExact);
  EXPECT_EQ(f.lower.double_value, static_cast<double>(0.1f));
  EXPECT_NE(f.lower.double_value, 0.1);
  EXPECT_EQ(Read(ColumnType::kDouble, "0.1").lower.double_value, 0.1);
  EXPECT_TRUE(std::isinf(Read(ColumnType::kDouble, "-Infinity").lower.double_value));
  EXPECT_EQ(Read(ColumnType::kDouble, "NaN").kind, Kind::kUnknown);
  EXPECT_EQ(Read(ColumnType::kFloat, "1e60").kind, Kind::kUnknown);  // past a float's range
}

TEST(PartitionValue, BooleansAreTrueOrFalseInAnyCaseOnly) {
  EXPECT_EQ(Read(ColumnType::kBoolean, "TRUE").lower.int_value, 1);
  EXPECT_EQ(Read(ColumnType::kBoolean, "False").lower.int_value, 0);
  EXPECT_EQ(Read(ColumnType::kBoolean, "yes").kind, Kind::kUnknown);
  EXPECT_EQ(Read(ColumnType::kBoolean, "1").kind, Kind::kUnknown);
}

TEST(PartitionValue, AZoneLessTimestampIsARangeOfEveryZone) {
  const PartitionValue t = Read(ColumnType::kTimestamp, "2024-01-31 10:00:00");
  ASSERT_EQ(t.kind, Kind::kRange);
  const int64_t utc = ParseTimestamp("2024-01-31T10:00:00Z")->micros;
  EXPECT_EQ(t.lower.int_value, utc - 18 * 3600 * kMicrosPerSecond);
  EXPECT_EQ(t.upper.int_value, utc + 18 * 3600 * kMicrosPerSecond);
  EXPECT_NE(t.why, nullptr);
  const PartitionValue z = Read(ColumnType::kTimestamp, "2024-01-31T12:00:00+02:00");
  ASSERT_EQ(z.kind, Kind::kExact);
  EXPECT_EQ(z.lower.int_value, utc);
}

TEST(PartitionValue, ATimestampNtzIsExactOnlyWithoutAZone) {
  const PartitionValue t = Read(ColumnType::kTimestampNtz, "2024-01-31 10:00:00");
  ASSERT_EQ(t.kind, Kind::kExact);
  EXPECT_EQ(t.lower.int_value, ParseTimestamp("2024-01-31T10:00:00Z")->micros);
  EXPECT_EQ(Read(ColumnType::kTimestampNtz, "2024-01-31 10:00:00Z").kind, Kind::kUnknown);
}

TEST(PartitionValue, DatesStringsDecimalsAndTheRest) {
  EXPECT_EQ(Read(ColumnType::kDate, "2024-01-31").lower.int_value, *ParseDate("2024-01-31"));
  EXPECT_EQ(Read(ColumnType::kDate, "2024-1-31").kind, Kind::kUnknown);
  const std::optional<std::string> text = "a'b";
  const PartitionValue s = ReadPartitionValue(ColumnType::kString, text);
  ASSERT_EQ(s.kind, Kind::kExact);
  EXPECT_EQ(s.lower.string_value.data(), text->data());  // a view of the text
  EXPECT_EQ(Read(ColumnType::kDecimal, "1.50").kind, Kind::kNonNull);
  EXPECT_EQ(Read(ColumnType::kBinary, "ab").kind, Kind::kUnknown);
}

}  // namespace
}  // namespace rlc::predicate
