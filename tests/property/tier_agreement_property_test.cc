// Tier agreement over every Delta primitive type: the statistics tier, partition-value pruning and
// the exact tier (the row reader behind Case 1's exact tier, 1b and Case 2) never clear a file
// holding a row the predicate selects, and the exact tier reads each row as the value written.
//
// Method: a schema drawn from every primitive type (byte, short, integer, long, float, double,
// decimal, string, boolean, binary, date, timestamp, timestamp_ntz), zero to two of its columns
// partition columns, strings sometimes under a collation, columns sometimes widened since their
// file was written (the file and its statistics of the old type); rows of values at each type's
// edges (NaN, -0.0, infinities, the type's range, strings past the 32-character statistics
// prefix and non-ASCII, NULL). A writer in a
// drawn session zone leaves them as Delta Spark does (docs/formats.md#partition-values): the
// partition values as text (zone-less timestamps in its zone, or in UTC with a Z), statistics
// truncated (strings to a prefix, with or without a tie-breaker, timestamps to milliseconds in
// UTC, at an offset or zone-less; no bounds for booleans and binaries; NaN and infinities as JSON
// strings) and one real Parquet data file. The truth is the rows as drawn: what the predicate
// says of a row is EvaluateRow on the values the writer was given, not on anything it wrote.
// Predicates are drawn over the whole language (literals of every kind on either side, IN lists
// with NULLs, column against column, modulo, NOT/AND/OR, a bare boolean column) and go through
// the parser's text. A fixed seed and count in CI through RC_PARAMS; the nightly runs it at 100x.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "impl/delta/stats.h"
#include "impl/parquet/parquet_table_files.h"
#include "impl/parquet/parquet_writer.h"
#include "impl/predicate/bind.h"
#include "impl/predicate/datetime.h"
#include "impl/predicate/parser.h"
#include "impl/predicate/row_evaluator.h"
#include "impl/predicate/stats_evaluator.h"
#include "impl/predicate/value_order.h"
#include "impl/storage/storage.h"

namespace {

using rlc::parquet::WrittenColumn;
using rlc::predicate::ColumnPath;
using rlc::predicate::ColumnType;
using rlc::predicate::CompareOp;
using rlc::predicate::Expr;
using rlc::predicate::Literal;
using rlc::predicate::Truth;
using W = WrittenColumn::Type;

rlc::Status StatusOf(const rlc::Status& s) { return s; }
template <typename T>
rlc::Status StatusOf(const rlc::Result<T>& r) {
  return r.status();
}

// A failed Result or Status fails the property with its message.
template <typename R>
void AssertOk(const R& result, const char* what) {
  if (!result.ok()) RC_FAIL(std::string(what) + ": " + StatusOf(result).ToString());
}

constexpr int64_t kMicrosPerMinute = 60 * rlc::predicate::kMicrosPerSecond;

struct TypeSpec {
  ColumnType type;
  W written;
  const char* text;  // the schemaString type
};

const std::vector<TypeSpec> kTypes = {
    {ColumnType::kByte, W::kByte, "byte"},
    {ColumnType::kShort, W::kShort, "short"},
    {ColumnType::kInteger, W::kInteger, "integer"},
    {ColumnType::kLong, W::kLong, "long"},
    {ColumnType::kFloat, W::kFloat, "float"},
    {ColumnType::kDouble, W::kDouble, "double"},
    {ColumnType::kDecimal, W::kDecimal, "decimal(10,2)"},
    {ColumnType::kString, W::kString, "string"},
    {ColumnType::kBoolean, W::kBoolean, "boolean"},
    {ColumnType::kBinary, W::kBinary, "binary"},
    {ColumnType::kDate, W::kDate, "date"},
    {ColumnType::kTimestamp, W::kTimestamp, "timestamp"},
    {ColumnType::kTimestampNtz, W::kTimestampNtz, "timestamp_ntz"},
};

struct Column {
  std::string name;
  TypeSpec spec;  // the table's type now
  bool partition = false;
  size_t index = 0;       // in the schema and in every row
  TypeSpec file;          // the type the data file was written under: spec, or before a widening
  std::string collation;  // a string's, in the field's "__COLLATIONS" metadata ("": none)
};

// Collations Delta records: the binary one compares as rlc does; the others do not.
const std::vector<std::string> kCollations = {"spark.UTF8_BINARY", "spark.UTF8_LCASE",
                                              "icu.de_DE.75.1"};

// Type widening (Delta's typeWidening feature): the files written before the change keep the old
// type, in their Parquet and in their statistics; readers widen their values.
struct Widening {
  size_t from, to;  // indexes in kTypes
};
const std::vector<Widening> kWidenings = {
    {0, 1}, {1, 2}, {2, 3}, {0, 3}, {4, 5}, {2, 5}, {10, 12},
};

using Rows = std::vector<std::vector<Literal>>;

// What the writer does that the log does not record.
struct Writer {
  int64_t zone_offset_micros = 0;         // its session zone, UTC+offset
  bool utc_partition_timestamps = false;  // "2024-01-31T10:00:00.000000Z" instead of wall clock
  int string_max_style = 0;               // 0: prefix, 1: tie-breaker U+FFFD, 2: U+007F/U+10FFFF
  int timestamp_stats_style = 0;          // 0: Z, 1: the session offset, 2: zone-less
};

// ---- values -------------------------------------------------------------------------------------

// Strings: short ones, and ones that run past the 32-character statistics prefix, where the
// character after the prefix is drawn from the code points whose UTF-8 order a truncation can
// get wrong (the tie-breakers U+007F, U+FFFD and U+10FFFF, and their neighbours).
const std::string kPrefix32 = "abcdefghijklmnopqrstuvwxyz012345";
const std::vector<std::string> kShortStrings = {
    "", "a", "ab", "b", "\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80", "it's"};
const std::vector<std::string> kCodePoints = {"a",
                                              "z",
                                              "\x7f",
                                              "\xc3\xa9",
                                              "\xef\xbf\xbc",
                                              "\xef\xbf\xbd",
                                              "\xef\xbf\xbf",
                                              "\xf0\x90\x80\x80",
                                              "\xf0\x9f\x98\x80",
                                              "\xf4\x8f\xbf\xbf"};

size_t CharBytes(unsigned char lead) {
  return lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
}

// The bytes of the first `units` UTF-16 code units of a UTF-8 string (Java's String.length,
// which Delta's truncation counts), a supplementary character counting two and never split.
size_t Utf16PrefixBytes(const std::string& s, size_t units) {
  size_t i = 0;
  for (size_t seen = 0; i < s.size() && seen < units;) {
    const size_t bytes = CharBytes(static_cast<unsigned char>(s[i]));
    seen += bytes == 4 ? 2 : 1;
    i += bytes;
  }
  return i;
}

std::string SomeString() {
  if (*rc::gen::inRange(0, 3) == 0) return *rc::gen::elementOf(kShortStrings);
  std::string s = kPrefix32.substr(0, *rc::gen::element<size_t>(32, 32, 31, 30));
  for (int i = *rc::gen::inRange(1, 4); i > 0; --i) s += *rc::gen::elementOf(kCodePoints);
  return s;
}

constexpr int64_t kNoon2024 = 1706702400000000;  // 2024-01-31 12:00:00 UTC

int64_t SomeMicros() {
  const int64_t base = *rc::gen::element<int64_t>(0, kNoon2024, -86400000000, 4102444800000000);
  const int64_t hours = *rc::gen::inRange<int64_t>(-14, 15);
  return base + hours * 3600000000 + *rc::gen::element<int64_t>(0, 1, 999, 1000, 123456, -1);
}

double SomeDouble(bool as_float) {
  const double inf = std::numeric_limits<double>::infinity();
  const double v = *rc::gen::element<double>(0.1, -0.0, 0.0, 1.0, -2.5, 1e10, 1e-7, inf, -inf,
                                             std::nan(""), 9007199254740992.0, 3.0e38, 5e-324);
  return as_float ? static_cast<double>(static_cast<float>(v)) : v;
}

Literal IntegralValue(ColumnType type) {
  const int64_t max = type == ColumnType::kByte      ? INT8_MAX
                      : type == ColumnType::kShort   ? INT16_MAX
                      : type == ColumnType::kInteger ? INT32_MAX
                                                     : INT64_MAX;
  return Literal::Long(
      *rc::gen::element<int64_t>(*rc::gen::inRange<int64_t>(-3, 4), max, -max - 1, max - 1, 100));
}

// A value of `type` as the row evaluator holds it (NULL about one time in six).
Literal DrawValue(ColumnType type) {
  if (*rc::gen::inRange(0, 6) == 0) return Literal::Null();
  switch (type) {
    case ColumnType::kFloat:
    case ColumnType::kDouble:
      return Literal::Double(SomeDouble(type == ColumnType::kFloat));
    case ColumnType::kDecimal:  // decimal(10,2): hundredths, as the nearest double
      return Literal::Double(static_cast<double>(*rc::gen::inRange(-300, 301)) / 100);
    case ColumnType::kString:
    case ColumnType::kBinary:
      return Literal::String(SomeString());
    case ColumnType::kBoolean:
      return Literal::Bool(*rc::gen::arbitrary<bool>());
    case ColumnType::kDate:
      return Literal::Date(*rc::gen::element<int64_t>(-1, 0, 19753, 19754, 47482, -25567));
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampNtz:
      return Literal::Timestamp(SomeMicros());
    default:
      return IntegralValue(type);
  }
}

// A value of the file's type as the table's type reads it: a date at midnight, an integer as a
// double; the others keep their value.
Literal Widen(const Column& c, const Literal& v) {
  if (v.is_null() || c.file.type == c.spec.type) return v;
  if (v.kind == Literal::Kind::kDate)
    return Literal::Timestamp(v.int_value * rlc::predicate::kMicrosPerDay);
  if (v.kind == Literal::Kind::kLong && c.spec.type == ColumnType::kDouble)
    return Literal::Double(static_cast<double>(v.int_value));
  return v;
}

// The value as the file holds it: Widen undone.
Literal AsFile(const Column& c, const Literal& v) {
  if (v.is_null() || c.file.type == c.spec.type) return v;
  if (c.file.type == ColumnType::kDate)
    return Literal::Date(v.int_value / rlc::predicate::kMicrosPerDay);
  if (rlc::predicate::IsIntegral(c.file.type) && v.kind == Literal::Kind::kDouble)
    return Literal::Long(static_cast<int64_t>(v.double_value));
  return v;
}

// The column as its file was written: the type before any widening.
Column AsWritten(const Column& c) {
  Column written = c;
  written.spec = c.file;
  return written;
}

// A value of the column, drawn in the type of its file, as the table reads it.
Literal ValueOf(const Column& c) { return Widen(c, DrawValue(c.file.type)); }

// A literal a predicate on the column may hold: a value of its type, or of a type it coerces to.
// Mostly near the column's values in the file, where a bound read one code point or one
// microsecond wrong shows.
Literal LiteralFor(const Column& c, const Rows& rows) {
  if (*rc::gen::inRange(0, 10) == 0) return Literal::Null();
  std::vector<Literal> present;
  for (const auto& row : rows) {
    if (!row[c.index].is_null()) present.push_back(row[c.index]);
  }
  Literal v =
      !present.empty() && *rc::gen::inRange(0, 3) != 0 ? *rc::gen::elementOf(present) : ValueOf(c);
  if (v.is_null()) return Literal::Null();
  switch (c.spec.type) {
    case ColumnType::kString:
      if (*rc::gen::inRange(0, 2) == 0) {
        const size_t keep = Utf16PrefixBytes(v.string_value, *rc::gen::inRange<size_t>(0, 36));
        return Literal::String(v.string_value.substr(0, keep) + *rc::gen::elementOf(kCodePoints));
      }
      return v;
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampNtz:
      return Literal::Timestamp(v.int_value + *rc::gen::element<int64_t>(0, 0, 1, -1, 1000));
    case ColumnType::kDate:
      return v;
    default:
      break;
  }
  // The language spells no NaN or infinity (the rows hold them; a predicate cannot).
  if (v.kind == Literal::Kind::kDouble && !std::isfinite(v.double_value))
    return Literal::Double(*rc::gen::element(1e308, -1e308, 0.0));
  if (v.kind == Literal::Kind::kLong && *rc::gen::inRange(0, 3) == 0)
    return Literal::Double(static_cast<double>(v.int_value) + *rc::gen::element(0.0, 0.5, -0.5));
  if (v.kind == Literal::Kind::kDouble && *rc::gen::inRange(0, 4) == 0)
    return Literal::Double(std::nextafter(v.double_value, *rc::gen::element(-1e300, 1e300)));
  return v;
}

// ---- predicates ---------------------------------------------------------------------------------

bool Comparable(const Column& c) { return c.spec.type != ColumnType::kBinary; }
bool IsIntegral(const Column& c) { return rlc::predicate::IsIntegral(c.spec.type); }

CompareOp AnyOp() {
  return *rc::gen::element(CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kLe,
                           CompareOp::kGt, CompareOp::kGe);
}

// A column of the same category as `c` (numeric with numeric), if any.
const Column* Partner(const std::vector<Column>& columns, const Column& c) {
  std::vector<const Column*> same;
  for (const Column& other : columns) {
    if (&other != &c && Comparable(other) &&
        rlc::predicate::CategoryOf(other.spec.type) == rlc::predicate::CategoryOf(c.spec.type))
      same.push_back(&other);
  }
  return same.empty() ? nullptr : *rc::gen::elementOf(same);
}

Expr Leaf(const std::vector<Column>& columns, const Rows& rows) {
  const Column& c = *rc::gen::elementOf(columns);
  const Expr col = Expr::Column({c.name});
  const int form = Comparable(c) ? *rc::gen::inRange(0, 8) : *rc::gen::inRange(2, 4);
  switch (form) {
    case 0:
      return Expr::Compare(Expr::Lit(LiteralFor(c, rows)), AnyOp(), col);
    case 1: {
      std::vector<Literal> list;
      for (int i = *rc::gen::inRange(1, 4); i > 0; --i) list.push_back(LiteralFor(c, rows));
      return Expr::In(col, std::move(list));
    }
    case 2:
      return Expr::IsNull(col);
    case 3:
      return Expr::IsNotNull(col);
    case 4:
      if (const Column* other = Partner(columns, c))
        return Expr::Compare(col, AnyOp(), Expr::Column({other->name}));
      break;
    case 5:
      if (IsIntegral(c)) {
        return Expr::Compare(Expr::Modulo({c.name}, *rc::gen::element<int64_t>(-3, 2, 3, 7)),
                             AnyOp(), Expr::Lit(Literal::Long(*rc::gen::inRange(-2, 3))));
      }
      if (c.spec.type == ColumnType::kBoolean) return col;
      break;
    default:
      break;
  }
  return Expr::Compare(col, AnyOp(), Expr::Lit(LiteralFor(c, rows)));
}

Expr RandomExpr(const std::vector<Column>& columns, const Rows& rows, int depth) {
  const int choice = depth <= 0 ? 0 : *rc::gen::inRange(0, 6);
  if (choice <= 2) return Leaf(columns, rows);
  if (choice == 3) return Expr::Not(RandomExpr(columns, rows, depth - 1));
  std::vector<Expr> children;
  for (int i = *rc::gen::inRange(2, 4); i > 0; --i)
    children.push_back(RandomExpr(columns, rows, depth - 1));
  return choice == 4 ? Expr::And(std::move(children)) : Expr::Or(std::move(children));
}

// ---- the writer ---------------------------------------------------------------------------------

// Java's Double.toString / Float.toString spelling, which Spark's cast to string gives.
std::string JavaNumberText(double v, bool as_float) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  const auto r = as_float ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v),
                                          std::chars_format::scientific)
                          : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, r.ptr);  // "1.5e+10", "-1e-07"
  const size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  const int exponent = std::stoi(sci.substr(e + 1));
  if (mantissa.find('.') == std::string::npos) mantissa += ".0";
  if (exponent < -3 || exponent >= 7) return mantissa + "E" + std::to_string(exponent);
  char plain[400];
  const auto p = as_float ? std::to_chars(plain, plain + sizeof plain, static_cast<float>(v),
                                          std::chars_format::fixed)
                          : std::to_chars(plain, plain + sizeof plain, v, std::chars_format::fixed);
  std::string text(plain, p.ptr);
  if (text.find('.') == std::string::npos) text += ".0";
  return text;
}

int64_t FloorTo(int64_t v, int64_t unit) { return (v / unit - (v % unit < 0 ? 1 : 0)) * unit; }

// "2024-01-31T10:00:00.123": truncated to milliseconds, as statistics hold timestamps.
std::string IsoMillis(int64_t micros) {
  std::string text = rlc::predicate::FormatTimestamp(FloorTo(micros, 1000));
  text[10] = 'T';
  return text.size() == 19 ? text + ".000" : text.substr(0, 23);
}

std::string OffsetText(int64_t micros) {
  const int64_t minutes = (micros < 0 ? -micros : micros) / kMicrosPerMinute;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%c%02lld:%02lld", micros < 0 ? '-' : '+',
                static_cast<long long>(minutes / 60), static_cast<long long>(minutes % 60));
  return buf;
}

// The partitionValues text a Delta Spark writer leaves for `v` (nullopt: null).
std::optional<std::string> PartitionText(const Column& c, const Literal& v, const Writer& w) {
  if (v.is_null()) return std::nullopt;
  switch (c.spec.type) {
    case ColumnType::kFloat:
    case ColumnType::kDouble:
      return JavaNumberText(v.double_value, c.spec.type == ColumnType::kFloat);
    case ColumnType::kDecimal: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f", v.double_value);
      return std::string(buf);
    }
    case ColumnType::kString:
      return v.string_value;
    case ColumnType::kBoolean:
      return v.int_value != 0 ? "true" : "false";
    case ColumnType::kDate:
      return rlc::predicate::FormatDate(v.int_value);
    case ColumnType::kTimestamp:
      if (w.utc_partition_timestamps) {
        std::string text = rlc::predicate::FormatTimestamp(v.int_value);
        text[10] = 'T';
        return text + (text.size() == 19 ? ".000000Z" : "Z");
      }
      return rlc::predicate::FormatTimestamp(v.int_value + w.zone_offset_micros);
    case ColumnType::kTimestampNtz:
      return rlc::predicate::FormatTimestamp(v.int_value);
    default:
      return std::to_string(v.int_value);
  }
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      out += buf;
      continue;
    }
    out += ch;
  }
  return out + "\"";
}

// A string min as Delta truncates it: a prefix.
std::string TruncatedMin(const std::string& min) {
  return min.substr(0, Utf16PrefixBytes(min, 32));
}

// A string max as a writer truncates it: the prefix, extended over the characters not below the
// tie-breaker, then the tie-breaker. Style 1, older Delta writers: U+FFFD, compared as UTF-16
// (a supplementary character is below it there, above it in UTF-8). Style 2, newer ones: U+007F
// when the next character is ASCII below it, else U+10FFFF. Style 0: the prefix alone.
std::string TruncatedMax(const std::string& max, const Writer& w) {
  size_t end = Utf16PrefixBytes(max, 32);
  if (end == max.size()) return max;
  if (w.string_max_style == 0) return max.substr(0, end);
  const std::string tie = w.string_max_style == 1 ? "\xef\xbf\xbd" : "\xf4\x8f\xbf\xbf";
  auto not_below = [&](size_t at) {
    const size_t bytes = CharBytes(static_cast<unsigned char>(max[at]));
    if (w.string_max_style == 1 && bytes == 4) return false;  // a surrogate pair, in UTF-16
    return max.compare(at, bytes, tie) >= 0;
  };
  while (end < max.size() && not_below(end)) end += CharBytes(static_cast<unsigned char>(max[end]));
  if (end == max.size()) return max;
  if (w.string_max_style == 2 && static_cast<unsigned char>(max[end]) < 0x7f)
    return max.substr(0, end) + "\x7f";
  return max.substr(0, end) + tie;
}

// A timestamp bound: in UTC with a Z, at the session offset, or zone-less at the session offset.
std::string TimestampStat(int64_t micros, const Column& c, const Writer& w) {
  if (c.spec.type == ColumnType::kTimestampNtz) return IsoMillis(micros);
  switch (w.timestamp_stats_style) {
    case 0:
      return IsoMillis(micros) + "Z";
    case 1:
      return IsoMillis(micros + w.zone_offset_micros) + OffsetText(w.zone_offset_micros);
    default:
      return IsoMillis(micros + w.zone_offset_micros);
  }
}

// One bound as statistics JSON, or "" when the writer records none for this type.
std::string StatText(const Column& c, const Literal& v, const Writer& w, bool is_max) {
  switch (c.spec.type) {
    case ColumnType::kBoolean:
    case ColumnType::kBinary:
      return "";
    case ColumnType::kFloat:
    case ColumnType::kDouble: {
      if (std::isnan(v.double_value) || std::isinf(v.double_value))
        return JsonString(JavaNumberText(v.double_value, false));
      return JavaNumberText(v.double_value, c.spec.type == ColumnType::kFloat);
    }
    case ColumnType::kDecimal:
      return *PartitionText(c, v, w);
    case ColumnType::kString:
      return JsonString(is_max ? TruncatedMax(v.string_value, w) : TruncatedMin(v.string_value));
    case ColumnType::kDate:
      return JsonString(rlc::predicate::FormatDate(v.int_value));
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampNtz:
      return JsonString(TimestampStat(v.int_value, c, w));
    default:
      return std::to_string(v.int_value);
  }
}

std::string StatsJson(const std::vector<Column>& columns,
                      const std::vector<std::vector<Literal>>& rows, const Writer& w) {
  std::string min, max, nulls;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].partition) continue;
    std::optional<Literal> lo, hi;
    int64_t null_count = 0;
    for (const auto& row : rows) {
      const Literal& v = row[i];
      if (v.is_null()) {
        ++null_count;
        continue;
      }
      if (!lo || *rlc::predicate::CompareValues(v, *lo) < 0) lo = v;
      if (!hi || *rlc::predicate::CompareValues(v, *hi) > 0) hi = v;
    }
    const std::string key = JsonString(columns[i].name) + ":";
    nulls += (nulls.empty() ? "" : ",") + key + std::to_string(null_count);
    if (!lo) continue;
    const Column written = AsWritten(columns[i]);
    const std::string lo_text = StatText(written, AsFile(columns[i], *lo), w, false);
    const std::string hi_text = StatText(written, AsFile(columns[i], *hi), w, true);
    if (!lo_text.empty()) min += (min.empty() ? "" : ",") + key + lo_text;
    if (!hi_text.empty()) max += (max.empty() ? "" : ",") + key + hi_text;
  }
  return "{\"numRecords\":" + std::to_string(rows.size()) + ",\"minValues\":{" + min +
         "},\"maxValues\":{" + max + "},\"nullCount\":{" + nulls + "}}";
}

// ---- the table ----------------------------------------------------------------------------------

struct DrawnTable {
  std::vector<Column> columns;
  std::vector<std::vector<Literal>> rows;  // the truth: one value per column, partition included
  rlc::delta::Metadata metadata;
  rlc::delta::AddFile add;
  Writer writer;
};

std::vector<Column> DrawColumns(const std::vector<TypeSpec>& types) {
  std::vector<Column> columns;
  const int n = *rc::gen::inRange(1, 5);
  for (int i = 0; i < n; ++i) {
    Column c{"c" + std::to_string(i), *rc::gen::elementOf(types), false, columns.size(), {}, ""};
    c.file = c.spec;
    if (types.size() == kTypes.size() && *rc::gen::inRange(0, 6) == 0) {
      const Widening widening = *rc::gen::elementOf(kWidenings);
      c.spec = kTypes[widening.to];
      c.file = kTypes[widening.from];
    }
    c.partition = c.spec.type != ColumnType::kBinary && c.file.type == c.spec.type &&
                  *rc::gen::inRange(0, 4) == 0;
    if (c.spec.type == ColumnType::kString && *rc::gen::inRange(0, 4) == 0)
      c.collation = *rc::gen::elementOf(kCollations);
    columns.push_back(c);
  }
  if (std::all_of(columns.begin(), columns.end(), [](const Column& c) { return c.partition; }))
    columns.push_back({"d", kTypes[3], false, columns.size(), kTypes[3],
                       ""});  // a file holds one column at least
  return columns;
}

// `binary_as_string`: the schema the truth is judged under. The row evaluator holds no binary
// value, and a binary column is only ever asked IS [NOT] NULL, which a string answers alike; a
// collated string is a plain one there (only IS [NOT] NULL may bind on a collation rlc does not
// implement, and NULL is NULL under every collation).
std::string SchemaString(const std::vector<Column>& columns, bool binary_as_string = false) {
  std::string fields;
  for (const Column& c : columns) {
    const bool as_string = binary_as_string && c.spec.type == ColumnType::kBinary;
    std::string metadata;
    if (c.file.type != c.spec.type) {
      metadata = std::string("\"delta.typeChanges\":[{\"fromType\":\"") + c.file.text +
                 "\",\"toType\":\"" + c.spec.text + "\"}]";
    }
    if (!c.collation.empty() && !binary_as_string)
      metadata = "\"__COLLATIONS\":{\"" + c.name + "\":\"" + c.collation + "\"}";
    fields += (fields.empty() ? "" : ",") + std::string("{\"name\":\"") + c.name +
              "\",\"type\":\"" + (as_string ? "string" : c.spec.text) +
              "\",\"nullable\":true,\"metadata\":{" + metadata + "}}";
  }
  return "{\"type\":\"struct\",\"fields\":[" + fields + "]}";
}

Writer DrawWriter() {
  Writer w;
  w.zone_offset_micros = *rc::gen::element<int64_t>(-18 * 60, -12 * 60, -8 * 60, -4 * 60 - 30, 0,
                                                    5 * 60 + 45, 14 * 60, 18 * 60) *
                         kMicrosPerMinute;
  w.utc_partition_timestamps = *rc::gen::inRange(0, 4) == 0;
  w.string_max_style = *rc::gen::inRange(0, 3);
  w.timestamp_stats_style = *rc::gen::inRange(0, 3);
  return w;
}

// Rows, with one value per partition column shared by every row; "" in a string partition is
// NULL (Spark writes an empty partition value as null).
std::vector<std::vector<Literal>> DrawRows(const std::vector<Column>& columns) {
  std::vector<Literal> partition(columns.size());
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!columns[i].partition) continue;
    partition[i] = ValueOf(columns[i]);
    if (partition[i].kind == Literal::Kind::kString && partition[i].string_value.empty())
      partition[i] = Literal::Null();
  }
  std::vector<std::vector<Literal>> rows(*rc::gen::inRange<size_t>(1, 6));
  for (auto& row : rows) {
    for (size_t i = 0; i < columns.size(); ++i)
      row.push_back(columns[i].partition ? partition[i] : ValueOf(columns[i]));
  }
  return rows;
}

constexpr char kRoot[] = "/t";
constexpr char kPath[] = "part-00000.snappy.parquet";

DrawnTable DrawTable(const std::vector<TypeSpec>& types, rlc::storage::Storage* storage) {
  DrawnTable t;
  t.columns = DrawColumns(types);
  t.rows = DrawRows(t.columns);
  t.writer = DrawWriter();
  t.metadata.id = "m";
  t.metadata.schema_string = SchemaString(t.columns);
  std::vector<WrittenColumn> written;
  std::vector<std::vector<Literal>> file_rows(t.rows.size());
  for (size_t i = 0; i < t.columns.size(); ++i) {
    const Column& c = t.columns[i];
    if (c.partition) {
      t.metadata.partition_columns.push_back(c.name);
      t.add.partition_values.emplace_back(c.name, PartitionText(c, t.rows[0][i], t.writer));
      continue;
    }
    written.push_back({c.name, c.file.written, 10, 2});
    for (size_t r = 0; r < t.rows.size(); ++r) {
      Literal v = AsFile(c, t.rows[r][i]);
      if (c.spec.type == ColumnType::kDecimal && !v.is_null())
        v = Literal::Long(std::llround(v.double_value * 100));  // the unscaled value
      file_rows[r].push_back(v);
    }
  }
  rlc::Result<std::string> bytes = rlc::parquet::WriteParquetRows(written, file_rows);
  AssertOk(bytes, "bytes");
  AssertOk(storage->PutIfAbsent(std::string(kRoot) + "/" + kPath, *bytes), "storage->PutIfAbsent");
  t.add.path = kPath;
  t.add.data_change = true;
  t.add.stats = StatsJson(t.columns, t.rows, t.writer);
  return t;
}

// ---- the tiers ----------------------------------------------------------------------------------

rlc::predicate::RowValues RowOf(const DrawnTable& t, size_t r) {
  rlc::predicate::RowValues row;
  for (size_t i = 0; i < t.columns.size(); ++i) row[{t.columns[i].name}] = t.rows[r][i];
  return row;
}

bool SameValue(const Literal& a, const Literal& b) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  const std::optional<int> order = rlc::predicate::CompareValues(a, b);
  return order.has_value() && *order == 0;
}

// The exact tier's reading of the file: every row as drawn, or a refusal (kUnsupported).
void CheckExactTier(const DrawnTable& t, const rlc::storage::Storage& storage) {
  rlc::parquet::ParquetTableFiles files(storage, kRoot, t.metadata);
  files.AddDataFile(t.add);
  size_t seen = 0;
  bool any_refused = false;
  const rlc::Status scanned =
      files.ScanValues(kPath, [&](uint64_t position, const std::vector<Literal>& values) {
        RC_ASSERT(position < t.rows.size());
        for (size_t i = 0; i < values.size(); ++i) {
          const auto& column = (*files.columns())[i];
          const auto at = std::find_if(t.columns.begin(), t.columns.end(), [&](const Column& c) {
            return ColumnPath{c.name} == column.logical_path;
          });
          RC_ASSERT(at != t.columns.end());
          const Literal& truth = t.rows[position][at - t.columns.begin()];
          // A value of another category (a date under a column widened to timestamp_ntz) is
          // one the row evaluator refuses, and a refused row is kept: no reading, no harm.
          const bool refused = !values[i].is_null() && rlc::predicate::CategoryOf(values[i]) !=
                                                           rlc::predicate::CategoryOf(column.type);
          any_refused |= refused;
          if (!refused && !SameValue(values[i], truth)) {
            RC_FAIL("the exact tier reads " + column.logical_path[0] + " of row " +
                    std::to_string(position) + " as " + ToString(values[i]) + ", written " +
                    ToString(truth) + " (schema " + t.metadata.schema_string + ")");
          }
        }
        ++seen;
        return true;
      });
  RC_CLASSIFY(scanned.ok(), "the exact tier reads the rows");
  RC_CLASSIFY(any_refused, "the exact tier reads a value of another category");
  if (!scanned.ok()) {
    RC_ASSERT(scanned.code() == rlc::StatusCode::kUnsupported);
    return;
  }
  RC_ASSERT(seen == t.rows.size());
}

rlc::predicate::BoundExpr MustBind(const Expr& e, const std::string& schema_string,
                                   const std::vector<std::string>& partition_columns) {
  rlc::Result<rlc::predicate::TableSchema> schema = rlc::predicate::TableSchema::Parse(
      schema_string, rlc::predicate::ColumnMappingMode::kNone, partition_columns);
  AssertOk(schema, "the schema");
  rlc::Result<rlc::predicate::BoundExpr> bound = rlc::predicate::Bind(e, *schema);
  AssertOk(bound, "the binding");
  return *bound;
}

// Does some row make `e` True? Judged on the values drawn, never on what the writer wrote.
bool SomeRowMatches(const DrawnTable& t, const Expr& e) {
  const rlc::predicate::BoundExpr truth =
      MustBind(e, SchemaString(t.columns, /*binary_as_string=*/true), t.metadata.partition_columns);
  for (size_t r = 0; r < t.rows.size(); ++r) {
    rlc::Result<Truth> answer = rlc::predicate::EvaluateRow(truth, RowOf(t, r));
    if (!answer.ok()) RC_FAIL(answer.status().ToString() + " on " + ToString(e));
    if (*answer == Truth::kTrue) return true;
  }
  return false;
}

// What the predicates of one table did, for the property's classification.
struct Outcomes {
  bool some_match = false;
  bool cleared_by_stats = false;
  bool cleared_by_partition = false;
  bool refused = false;
};

// The statistics tier, its compiled form (Case 1's, over a StatsView) and partition pruning keep
// a file with a matching row.
void CheckPruningTiers(const DrawnTable& t, const Expr& drawn, Outcomes* outcomes) {
  rlc::Result<Expr> parsed = rlc::predicate::ParsePredicate(ToString(drawn));
  AssertOk(parsed, "the parse");
  if (ToString(*parsed) != ToString(drawn))  // not ==: a NaN literal is not == itself
    RC_FAIL("read back as " + ToString(*parsed) + " from " + ToString(drawn));
  rlc::Result<rlc::predicate::TableSchema> schema =
      rlc::predicate::TableSchema::FromMetadata(t.metadata);
  AssertOk(schema, "the schema");
  rlc::Result<rlc::predicate::BoundExpr> bound_or = rlc::predicate::Bind(*parsed, *schema);
  if (!bound_or.ok()) {
    // Unbound, the checker's matcher matches every file (impl/conflict/partition_filter.h): no
    // tier prunes. Only a comparison Spark may answer otherwise (a coercion that rounds, a time
    // in the session's zone: bind.h) or of a string under a collation rlc does not implement
    // may not bind.
    const bool collated = std::any_of(t.columns.begin(), t.columns.end(), [](const Column& c) {
      return !c.collation.empty() && c.collation != kCollations[0];
    });
    const bool refused = bound_or.status().message().find("refused") != std::string::npos;
    if (!collated && !refused) RC_FAIL(bound_or.status().ToString() + " on " + ToString(drawn));
    outcomes->refused = true;
    return;
  }
  const rlc::predicate::BoundExpr& bound = *bound_or;
  const bool matches = SomeRowMatches(t, *parsed);
  rlc::Result<rlc::delta::FileStats> stats = rlc::delta::ParseStats(*t.add.stats);
  AssertOk(stats, "the statistics");
  std::vector<ColumnPath> stats_columns;
  for (const Column& c : t.columns) {
    if (!c.partition) stats_columns.push_back({c.name});
  }
  rlc::delta::StatsView view;
  AssertOk(rlc::delta::ParseStatsOf(*t.add.stats, stats_columns, &view), "ParseStatsOf");
  const std::vector<rlc::predicate::BoundExpr> one = {bound};
  std::vector<bool> compiled;
  rlc::predicate::FilePredicates(one, stats_columns)
      .MayMatchPerPredicate(view, t.add.partition_values, &compiled);
  const bool by_stats = rlc::predicate::MayMatchFile(bound, &*stats, t.add.partition_values);
  const bool by_partition = rlc::predicate::MayMatchPartition(bound, t.add.partition_values);
  outcomes->some_match |= matches;
  outcomes->cleared_by_stats |= !matches && !by_stats;
  outcomes->cleared_by_partition |= !matches && !by_partition;
  if (!matches) return;
  RC_LOG() << ToString(drawn) << "\nschema " << t.metadata.schema_string << "\nstats "
           << t.add.stats->Json() << "\n";
  RC_ASSERT(by_stats);
  RC_ASSERT(compiled.at(0));
  RC_ASSERT(by_partition);
}

constexpr int kPredicatesPerTable = 8;

void CheckTable(const std::vector<TypeSpec>& types, int predicates) {
  rlc::storage::InMemoryStorage storage;
  const DrawnTable t = DrawTable(types, &storage);
  Outcomes outcomes;
  for (int i = 0; i < predicates; ++i)
    CheckPruningTiers(t, RandomExpr(t.columns, t.rows, 2), &outcomes);
  RC_CLASSIFY(outcomes.some_match, "a predicate matches a row");
  RC_CLASSIFY(outcomes.cleared_by_stats, "the statistics clear the file for a predicate");
  RC_CLASSIFY(outcomes.cleared_by_partition, "the partition values clear the file for one");
  RC_CLASSIFY(outcomes.refused, "a predicate is refused (a collation, a coercion Spark rounds)");
  RC_CLASSIFY(std::any_of(t.columns.begin(), t.columns.end(),
                          [](const Column& c) { return c.file.type != c.spec.type; }),
              "a column was widened");
  CheckExactTier(t, storage);
}

RC_GTEST_PROP(TierAgreementProperty, NoTierClearsAFileWithAMatchingRow, ()) {
  CheckTable(kTypes, kPredicatesPerTable);
}

// Strings alone, where the statistics' truncation and tie-breakers meet UTF-8's byte order.
RC_GTEST_PROP(TierAgreementProperty, StringBoundsAroundTheTieBreakers, ()) {
  CheckTable({{ColumnType::kString, W::kString, "string"}}, 4 * kPredicatesPerTable);
}

}  // namespace
