// Properties of impl/predicate: the stats and partition evaluators are sound against the row
// evaluator, and ToString reads back through the parser.
//
// Method: random rows over a small schema (a long, a string, a nested double; a long partition
// column for the partition property), random predicates over every operator, then statistics
// computed from the rows the way a writer would: tight (exact min/max/nullCount), truncated
// (string min and max cut to a prefix), wide (stats of a superset of the live rows, as after a
// DV, with tightBounds=false and loosened min/max), and with any statistic dropped. Whenever some
// live row makes the predicate True, MayMatch must say true. The same under column mapping, with
// statistics and partition values keyed by physical names that are other columns' logical names.
// A fixed seed is set in CI through RC_PARAMS.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "impl/delta/json_writer.h"
#include "impl/delta/stats.h"
#include "impl/predicate/bind.h"
#include "impl/predicate/datetime.h"
#include "impl/predicate/parser.h"
#include "impl/predicate/row_evaluator.h"
#include "impl/predicate/stats_evaluator.h"
#include "impl/predicate/value_order.h"

namespace {

using rlc::delta::FileStats;
using rlc::delta::StatValue;
using rlc::predicate::ColumnPath;
using rlc::predicate::CompareOp;
using rlc::predicate::Expr;
using rlc::predicate::Literal;
using rlc::predicate::RowValues;
using rlc::predicate::Truth;

const ColumnPath kA = {"a"};
const ColumnPath kS = {"s"};
const ColumnPath kX = {"n", "x"};
const ColumnPath kP = {"p"};

constexpr const char* kSchema =
    R"({"type":"struct","fields":[
      {"name":"a","type":"long","nullable":true,"metadata":{}},
      {"name":"s","type":"string","nullable":true,"metadata":{}},
      {"name":"n","type":{"type":"struct","fields":[{"name":"x","type":"double","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}},
      {"name":"p","type":"long","nullable":true,"metadata":{}}]})";

const rlc::predicate::TableSchema& Schema() {
  static const auto* schema = new rlc::predicate::TableSchema(*rlc::predicate::TableSchema::Parse(
      kSchema, rlc::predicate::ColumnMappingMode::kNone, {"p"}));
  return *schema;
}

const std::vector<std::string> kStrings = {"",  "a",  "ab", "abc", "abd",
                                           "b", "ba", "bb", "c",   "it's"};
const std::vector<double> kDoubles = {-1.5, -0.0, 0.0, 0.5, 1.0, 2.0, 2.5};

Literal ValueFor(const ColumnPath& column) {
  if (*rc::gen::inRange(0, 5) == 0) return Literal::Null();
  if (column == kS) return Literal::String(*rc::gen::elementOf(kStrings));
  if (column == kX) return Literal::Double(*rc::gen::elementOf(kDoubles));
  return Literal::Long(*rc::gen::inRange<int64_t>(-4, 6));
}

// A literal that fits the column's category; numeric columns get longs and doubles alike.
Literal LiteralFor(const ColumnPath& column) {
  if (*rc::gen::inRange(0, 8) == 0) return Literal::Null();
  if (column == kS) return ValueFor(kS).is_null() ? Literal::String("abcd") : ValueFor(kS);
  // A whole number as a long: a whole double compared with a long column does not bind (Spark
  // reads it as a decimal, or compares as doubles: bind.h).
  const int halves = *rc::gen::inRange(-12, 14);
  if (*rc::gen::arbitrary<bool>() && halves % 2 != 0) return Literal::Double(halves / 2.0);
  return Literal::Long(*rc::gen::inRange<int64_t>(-6, 8));
}

CompareOp AnyOp() {
  return *rc::gen::element(CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kLe,
                           CompareOp::kGt, CompareOp::kGe);
}

Expr Leaf(const std::vector<ColumnPath>& columns) {
  const ColumnPath column = *rc::gen::elementOf(columns);
  switch (*rc::gen::inRange(0, 8)) {
    case 0:
      return Expr::Compare(Expr::Lit(LiteralFor(column)), AnyOp(), Expr::Column(column));
    case 1: {
      std::vector<Literal> list;
      const int n = *rc::gen::inRange(1, 4);
      for (int i = 0; i < n; ++i) list.push_back(LiteralFor(column));
      return Expr::In(Expr::Column(column), std::move(list));
    }
    case 2:
      return Expr::IsNull(Expr::Column(column));
    case 3:
      return Expr::IsNotNull(Expr::Column(column));
    case 4:  // a long against a double does not bind (Spark compares them as doubles: bind.h)
      if (column == kS) break;
      return Expr::Compare(Expr::Column(column), AnyOp(), Expr::Column(column));
    case 5: {
      if (column != kA && column != kP) break;
      const int64_t k = *rc::gen::element<int64_t>(-3, -2, -1, 1, 2, 3);
      return Expr::Compare(Expr::Modulo(column, k), AnyOp(),
                           Expr::Lit(Literal::Long(*rc::gen::inRange<int64_t>(-3, 4))));
    }
    case 6:
      return Expr::Lit(
          *rc::gen::element(Literal::Bool(true), Literal::Bool(false), Literal::Null()));
    default:
      break;
  }
  return Expr::Compare(Expr::Column(column), AnyOp(), Expr::Lit(LiteralFor(column)));
}

Expr RandomExpr(const std::vector<ColumnPath>& columns, int depth) {
  const int choice = depth <= 0 ? 0 : *rc::gen::inRange(0, 6);
  if (choice <= 2) return Leaf(columns);
  if (choice == 3) return Expr::Not(RandomExpr(columns, depth - 1));
  std::vector<Expr> children;
  const int n = *rc::gen::inRange(2, 4);
  for (int i = 0; i < n; ++i) children.push_back(RandomExpr(columns, depth - 1));
  return choice == 4 ? Expr::And(std::move(children)) : Expr::Or(std::move(children));
}

RowValues RandomRow() { return {{kA, ValueFor(kA)}, {kS, ValueFor(kS)}, {kX, ValueFor(kX)}}; }

std::vector<RowValues> RandomRows(int max_rows) {
  std::vector<RowValues> rows;
  const int n = *rc::gen::inRange(0, max_rows + 1);
  for (int i = 0; i < n; ++i) rows.push_back(RandomRow());
  return rows;
}

StatValue ToStat(const Literal& v) {
  if (v.kind == Literal::Kind::kString) return v.string_value;
  if (v.kind == Literal::Kind::kDouble) {
    // A writer may print an integral double without a fraction; JSON then reads it as a long.
    if (v.double_value == static_cast<double>(static_cast<int64_t>(v.double_value)) &&
        *rc::gen::arbitrary<bool>()) {
      return static_cast<int64_t>(v.double_value);
    }
    return v.double_value;
  }
  return v.int_value;
}

// Loosens a bound the way wide or truncated statistics may: never past the true values.
Literal Loosen(const Literal& bound, bool is_max) {
  switch (bound.kind) {
    case Literal::Kind::kString: {
      const size_t keep = *rc::gen::inRange<size_t>(0, bound.string_value.size() + 1);
      return Literal::String(bound.string_value.substr(0, keep));  // a prefix, min or max
    }
    case Literal::Kind::kLong: {
      const int64_t by = *rc::gen::inRange<int64_t>(0, 3);
      return Literal::Long(is_max ? bound.int_value + by : bound.int_value - by);
    }
    default: {
      const double by = *rc::gen::inRange(0, 3) * 0.75;
      return Literal::Double(is_max ? bound.double_value + by : bound.double_value - by);
    }
  }
}

// Statistics of `rows` for the non-partition columns, each fact dropped or loosened at random.
FileStats StatsOf(const std::vector<RowValues>& rows, bool tight) {
  FileStats stats;
  stats.tight_bounds = tight;
  if (*rc::gen::inRange(0, 8) != 0) stats.num_records = static_cast<int64_t>(rows.size());
  for (const ColumnPath& column : {kA, kS, kX}) {
    int64_t nulls = 0;
    std::optional<Literal> min, max;
    for (const RowValues& row : rows) {
      const Literal& v = row.at(column);
      if (v.is_null()) {
        ++nulls;
        continue;
      }
      if (!min || *rlc::predicate::CompareValues(v, *min) < 0) min = v;
      if (!max || *rlc::predicate::CompareValues(v, *max) > 0) max = v;
    }
    if (*rc::gen::inRange(0, 6) != 0) stats.null_count[column] = nulls;
    const bool loosen = !tight || column == kS;  // strings are always possibly truncated
    if (min && *rc::gen::inRange(0, 6) != 0) {
      stats.min_values[column] =
          ToStat(loosen && *rc::gen::arbitrary<bool>() ? Loosen(*min, false) : *min);
    }
    if (max && *rc::gen::inRange(0, 6) != 0) {
      stats.max_values[column] =
          ToStat(loosen && *rc::gen::arbitrary<bool>() ? Loosen(*max, true) : *max);
    }
  }
  return stats;
}

bool SomeRowIsTrue(const rlc::predicate::BoundExpr& bound, const std::vector<RowValues>& rows) {
  for (const RowValues& row : rows) {
    rlc::Result<Truth> t = rlc::predicate::EvaluateRow(bound, row);
    RC_ASSERT(t.ok());
    if (*t == Truth::kTrue) return true;
  }
  return false;
}

rlc::predicate::BoundExpr MustBind(const Expr& e) {
  rlc::Result<rlc::predicate::BoundExpr> bound = rlc::predicate::Bind(e, Schema());
  RC_ASSERT(bound.ok());
  return *bound;
}

RC_GTEST_PROP(PredicateSoundnessProperty, TightAndTruncatedStatsNeverSkipAMatch, ()) {
  const Expr e = RandomExpr({kA, kS, kX}, 3);
  const rlc::predicate::BoundExpr bound = MustBind(e);
  const std::vector<RowValues> rows = RandomRows(6);
  const FileStats stats = StatsOf(rows, /*tight=*/true);
  const bool matches = SomeRowIsTrue(bound, rows);
  RC_CLASSIFY(matches, "some row matches");
  RC_CLASSIFY(!matches && !rlc::predicate::MayMatch(bound, stats), "skipped");
  if (matches) RC_ASSERT(rlc::predicate::MayMatch(bound, stats));
}

RC_GTEST_PROP(PredicateSoundnessProperty, WideStatsNeverSkipALiveMatch, ()) {
  const Expr e = RandomExpr({kA, kS, kX}, 3);
  const rlc::predicate::BoundExpr bound = MustBind(e);
  const std::vector<RowValues> live = RandomRows(5);
  std::vector<RowValues> physical = live;  // the DV deleted the extra rows
  for (const RowValues& deleted : RandomRows(4)) {
    physical.insert(physical.begin() + *rc::gen::inRange<size_t>(0, physical.size() + 1), deleted);
  }
  const FileStats stats = StatsOf(physical, /*tight=*/false);
  if (SomeRowIsTrue(bound, live)) RC_ASSERT(rlc::predicate::MayMatch(bound, stats));
}

RC_GTEST_PROP(PredicateSoundnessProperty, PartitionValuesNeverSkipAMatch, ()) {
  const Expr e = RandomExpr({kA, kP}, 3);
  const rlc::predicate::BoundExpr bound = MustBind(e);
  const Literal p = ValueFor(kP);
  std::vector<RowValues> rows = RandomRows(5);
  for (RowValues& row : rows) row[kP] = p;
  std::optional<std::string> text;
  if (!p.is_null())
    text = std::to_string(p.int_value);
  else if (*rc::gen::arbitrary<bool>())
    text = "";  // "" is NULL as well
  const rlc::delta::StringMap values = {{"p", text}};
  const FileStats stats = StatsOf(rows, /*tight=*/true);
  if (SomeRowIsTrue(bound, rows)) {
    RC_ASSERT(rlc::predicate::MayMatchPartition(bound, values));
    RC_ASSERT(rlc::predicate::MayMatchFile(bound, &stats, values));
  }
}

// Timestamps and floats as Delta writes their statistics: timestamps as ISO-8601 text truncated to
// milliseconds (in UTC or with an offset), floats as the float's shortest text.
const rlc::predicate::TableSchema& TimeSchema() {
  static const auto* schema = new rlc::predicate::TableSchema(*rlc::predicate::TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"t","type":"timestamp"},{"name":"f","type":"float"}]})",
      rlc::predicate::ColumnMappingMode::kNone, {}));
  return *schema;
}

const std::vector<float> kFloats = {0.1f, 0.2f, 1.0f / 3, -2.5f, 1e-3f, 16777216.0f, 3.4e38f};

int64_t SomeMicros() {
  const int64_t base = *rc::gen::element<int64_t>(0, 1706695200000000);  // 1970, 2024-01-31 10:00
  return base + *rc::gen::inRange<int64_t>(-2500, 2500);
}

Literal TimeValue(const std::string& column) {
  if (*rc::gen::inRange(0, 6) == 0) return Literal::Null();
  if (column == "t") return Literal::Timestamp(SomeMicros());
  return Literal::Double(static_cast<double>(*rc::gen::elementOf(kFloats)));
}

Literal TimeLiteral(const std::string& column) {
  if (column == "t") return Literal::Timestamp(SomeMicros());
  const double f = static_cast<double>(*rc::gen::elementOf(kFloats));
  // The float itself, the decimal a user would write, or a neighbouring double.
  return Literal::Double(*rc::gen::element(f, static_cast<double>(std::stod(std::to_string(f))),
                                           std::nextafter(f, 1e300), std::nextafter(f, -1e300), 0.1,
                                           0.2, 1.0 / 3, 0.001));
}

// "2024-01-31T10:00:00.123Z" or the same instant as "2024-01-31T11:00:00.123+01:00".
std::string TimestampStat(int64_t micros) {
  const int64_t ms = micros >= 0 ? micros / 1000 : -((-micros + 999) / 1000);  // floor
  const bool offset = *rc::gen::arbitrary<bool>();
  std::string text = rlc::predicate::FormatTimestamp(ms * 1000 + (offset ? 3600000000 : 0));
  text[10] = 'T';
  if (text.size() == 19) text += ".000";
  return text.substr(0, 23) + (offset ? "+01:00" : "Z");
}

std::string FloatStat(double v) {
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  return std::string(buf, r.ptr);
}

std::string TimeStatsJson(const std::vector<RowValues>& rows) {
  std::string min = "{", max = "{", nulls = "{";
  for (const std::string column : {"t", "f"}) {
    std::optional<Literal> lo, hi;
    int64_t null_count = 0;
    for (const RowValues& row : rows) {
      const Literal& v = row.at({column});
      if (v.is_null()) {
        ++null_count;
        continue;
      }
      if (!lo || *rlc::predicate::CompareValues(v, *lo) < 0) lo = v;
      if (!hi || *rlc::predicate::CompareValues(v, *hi) > 0) hi = v;
    }
    const std::string sep = column == "t" ? "" : ",";
    nulls += sep + "\"" + column + "\":" + std::to_string(null_count);
    if (!lo) continue;
    auto text = [&](const Literal& v) {
      return column == "t" ? "\"" + TimestampStat(v.int_value) + "\"" : FloatStat(v.double_value);
    };
    min += (min.size() > 1 ? "," : "") + ("\"" + column + "\":" + text(*lo));
    max += (max.size() > 1 ? "," : "") + ("\"" + column + "\":" + text(*hi));
  }
  return "{\"numRecords\":" + std::to_string(rows.size()) + ",\"minValues\":" + min +
         "},\"maxValues\":" + max + "},\"nullCount\":" + nulls + "}}";
}

RC_GTEST_PROP(PredicateSoundnessProperty, TimestampAndFloatStatsAsDeltaWritesThem, ()) {
  std::vector<RowValues> rows;
  const int n = *rc::gen::inRange(1, 5);
  for (int i = 0; i < n; ++i) rows.push_back({{{"t"}, TimeValue("t")}, {{"f"}, TimeValue("f")}});
  const std::string column = *rc::gen::element<std::string>("t", "f");
  Expr e = Expr::Compare(Expr::Column({column}), AnyOp(), Expr::Lit(TimeLiteral(column)));
  if (*rc::gen::arbitrary<bool>()) e = Expr::Not(std::move(e));
  rlc::Result<rlc::predicate::BoundExpr> bound = rlc::predicate::Bind(e, TimeSchema());
  RC_ASSERT(bound.ok());
  const std::string json = TimeStatsJson(rows);
  rlc::Result<FileStats> stats = rlc::delta::ParseStats(json);
  RC_ASSERT(stats.ok());
  const bool matches = SomeRowIsTrue(*bound, rows);
  RC_CLASSIFY(!matches && !rlc::predicate::MayMatch(*bound, *stats), "skipped");
  if (matches) RC_ASSERT(rlc::predicate::MayMatch(*bound, *stats));
}

// A statistic as JSON text: what a writer puts in an add's stats string.
std::string StatJson(const StatValue& v) {
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* i = std::get_if<int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, *d).ptr;
    std::string out(text, end);
    // A double with no fraction must still read back as a double, not an integer.
    if (out.find_first_of(".en") == std::string::npos) out += ".0";
    return out;
  }
  if (const auto* t = std::get_if<std::string>(&v)) return rlc::delta::JsonQuote(*t);
  return "null";
}

// One section of the statistics (min, max or null counts) as nested JSON objects.
template <typename Map, typename Write>
std::string SectionJson(const Map& section, Write write) {
  std::map<std::string, std::string> top;  // key -> JSON of its value (an object when nested)
  std::map<std::string, std::vector<std::string>> nested;
  for (const auto& [path, value] : section) {
    if (path.size() == 1) top[path[0]] = write(value);
    if (path.size() == 2)
      nested[path[0]].push_back(rlc::delta::JsonQuote(path[1]) + ":" + write(value));
  }
  for (const auto& [key, members] : nested) {
    std::string object = "{";
    for (const std::string& m : members) object += (object.size() > 1 ? "," : "") + m;
    top[key] = object + "}";
  }
  std::string out = "{";
  for (const auto& [key, json] : top)
    out += (out.size() > 1 ? "," : "") + rlc::delta::JsonQuote(key) + ":" + json;
  return out + "}";
}

std::string StatsJson(const FileStats& stats) {
  std::string out = "{";
  if (stats.num_records.has_value())
    out += "\"numRecords\":" + std::to_string(*stats.num_records) + ",";
  out += "\"minValues\":" + SectionJson(stats.min_values, StatJson);
  out += ",\"maxValues\":" + SectionJson(stats.max_values, StatJson);
  out += ",\"nullCount\":" +
         SectionJson(stats.null_count, [](int64_t n) { return std::to_string(n); });
  return out + ",\"tightBounds\":" + (stats.tight_bounds ? "true" : "false") + "}";
}

// The conflict check reads only the predicates' columns of each add's statistics, as views
// (delta::ParseStatsOf), escaped as the commit holds them; that must judge every file exactly as
// the whole statistics do.
RC_GTEST_PROP(PredicateSoundnessProperty, TheStatisticsOfThePredicatesColumnsJudgeAsTheWhole, ()) {
  const Expr e = RandomExpr({kA, kS, kX, kP}, 3);
  const rlc::predicate::BoundExpr bound = MustBind(e);
  const std::vector<RowValues> rows = RandomRows(6);
  const std::string json = StatsJson(StatsOf(rows, *rc::gen::arbitrary<bool>()));
  const rlc::Result<FileStats> whole = rlc::delta::ParseStats(json);
  RC_ASSERT(whole.ok());
  std::vector<ColumnPath> columns;
  for (const auto& [path, column] : bound.columns()) {
    if (!column.is_partition && column.physical_path) columns.push_back(*column.physical_path);
  }
  rlc::delta::StatsView view;
  const rlc::delta::StatsJson plain(json);
  RC_ASSERT(rlc::delta::ParseStatsOf(plain, columns, &view).ok());
  const rlc::delta::StringMap partition = {
      {"p", *rc::gen::element<std::optional<std::string>>(std::nullopt, "1", "4")}};
  const bool kept = rlc::predicate::MayMatchFile(bound, &*whole, partition);
  RC_ASSERT(rlc::predicate::MayMatchFile(bound, view, columns, partition) == kept);
  const std::optional<rlc::delta::StatsJson> escaped = rlc::delta::StatsJson::EscapedCopyOf(json);
  RC_ASSERT(escaped.has_value());
  RC_ASSERT(rlc::delta::ParseStatsOf(*escaped, columns, &view).ok());
  RC_ASSERT(rlc::predicate::MayMatchFile(bound, view, columns, partition) == kept);
}

// The conflict check compiles the loser's read predicates together (predicate::FilePredicates:
// each column's domain built once per file for all of them) and reads file after file with one
// delta::StatsReader (most by the shape of the file before): each predicate's answer on each file
// must be the one MayMatchFile gives it alone from the whole statistics.
RC_GTEST_PROP(PredicateSoundnessProperty, PredicatesJudgedTogetherAnswerAsEachAlone, ()) {
  const int count = *rc::gen::inRange(1, 4);
  std::vector<rlc::predicate::BoundExpr> predicates;
  std::vector<ColumnPath> columns;  // as the matcher lists them: every non-partition column once
  for (int i = 0; i < count; ++i) {
    predicates.push_back(MustBind(RandomExpr({kA, kS, kX, kP}, 2)));
    for (const auto& [path, column] : predicates.back().columns()) {
      if (column.is_partition || !column.physical_path) continue;
      if (std::find(columns.begin(), columns.end(), *column.physical_path) == columns.end())
        columns.push_back(*column.physical_path);
    }
  }
  const rlc::predicate::FilePredicates together(predicates, columns);
  const bool escaped = *rc::gen::arbitrary<bool>();
  rlc::delta::StatsReader reader(columns);
  for (int file = 0; file < 4; ++file) {
    const std::string json = StatsJson(StatsOf(RandomRows(4), *rc::gen::arbitrary<bool>()));
    const rlc::Result<FileStats> whole = rlc::delta::ParseStats(json);
    RC_ASSERT(whole.ok());
    const rlc::delta::StatsJson stats =
        escaped ? *rlc::delta::StatsJson::EscapedCopyOf(json) : rlc::delta::StatsJson(json);
    rlc::delta::StatsView view;
    RC_ASSERT(reader.Read(stats, &view).ok());
    const rlc::delta::StringMap partition = {
        {"p", *rc::gen::element<std::optional<std::string>>(std::nullopt, "1", "4")}};
    std::vector<bool> from_view, from_whole, from_partition;
    together.MayMatchPerPredicate(view, partition, &from_view);
    together.MayMatchPerPredicate(*whole, partition, &from_whole);
    together.MayMatchPerPredicate(partition, &from_partition);
    RC_ASSERT(from_view.size() == predicates.size());
    for (size_t i = 0; i < predicates.size(); ++i) {
      const bool alone = rlc::predicate::MayMatchFile(predicates[i], &*whole, partition);
      RC_ASSERT(from_view[i] == alone);
      RC_ASSERT(from_whole[i] == alone);
      RC_ASSERT(from_partition[i] == rlc::predicate::MayMatchPartition(predicates[i], partition));
    }
  }
}

// Column mapping (mode name): statistics and partition values are keyed by physical names, and a
// physical name may be any string, another column's logical name included. Here every column's
// physical name is another's logical name: the worst case for a lookup by the wrong name, which
// would read another column's statistics and could skip a file holding a match.
const rlc::predicate::TableSchema& MappedSchema() {
  static const auto* schema = new rlc::predicate::TableSchema(*rlc::predicate::TableSchema::Parse(
      R"({"type":"struct","fields":[
      {"name":"a","type":"long","nullable":true,"metadata":{"delta.columnMapping.id":1,"delta.columnMapping.physicalName":"s"}},
      {"name":"s","type":"string","nullable":true,"metadata":{"delta.columnMapping.id":2,"delta.columnMapping.physicalName":"a"}},
      {"name":"n","type":{"type":"struct","fields":[{"name":"x","type":"double","nullable":true,"metadata":{"delta.columnMapping.id":4,"delta.columnMapping.physicalName":"p"}}]},"nullable":true,"metadata":{"delta.columnMapping.id":3,"delta.columnMapping.physicalName":"n"}},
      {"name":"p","type":"long","nullable":true,"metadata":{"delta.columnMapping.id":5,"delta.columnMapping.physicalName":"x"}}]})",
      rlc::predicate::ColumnMappingMode::kName, {"p"}));
  return *schema;
}

// `stats` (keyed by logical paths) as a writer under MappedSchema keys them.
FileStats Physical(const FileStats& stats) {
  const std::map<ColumnPath, ColumnPath> physical = {{kA, {"s"}}, {kS, {"a"}}, {kX, {"n", "p"}}};
  FileStats out;
  out.num_records = stats.num_records;
  out.tight_bounds = stats.tight_bounds;
  for (const auto& [path, v] : stats.min_values) out.min_values[physical.at(path)] = v;
  for (const auto& [path, v] : stats.max_values) out.max_values[physical.at(path)] = v;
  for (const auto& [path, n] : stats.null_count) out.null_count[physical.at(path)] = n;
  return out;
}

RC_GTEST_PROP(PredicateSoundnessProperty, ColumnMappedStatsNeverSkipAMatch, ()) {
  const Expr e = RandomExpr({kA, kS, kX, kP}, 3);
  rlc::Result<rlc::predicate::BoundExpr> bound = rlc::predicate::Bind(e, MappedSchema());
  RC_ASSERT(bound.ok());
  std::vector<RowValues> rows = RandomRows(6);
  const Literal p = ValueFor(kP);  // one partition: every row holds its value
  for (RowValues& row : rows) row[kP] = p;
  const std::string json = StatsJson(Physical(StatsOf(rows, *rc::gen::arbitrary<bool>())));
  const rlc::Result<FileStats> whole = rlc::delta::ParseStats(json);
  RC_ASSERT(whole.ok());
  std::vector<ColumnPath> columns;
  for (const auto& [path, column] : bound->columns()) {
    if (!column.is_partition && column.physical_path) columns.push_back(*column.physical_path);
  }
  rlc::delta::StatsView view;
  const rlc::delta::StatsJson stats(json);
  RC_ASSERT(rlc::delta::ParseStatsOf(stats, columns, &view).ok());
  const rlc::delta::StringMap partition = {
      {"x", p.is_null() ? std::nullopt : std::optional<std::string>(std::to_string(p.int_value))}};
  const bool matches = SomeRowIsTrue(*bound, rows);
  const bool kept = rlc::predicate::MayMatchFile(*bound, &*whole, partition);
  RC_ASSERT(rlc::predicate::MayMatchFile(*bound, view, columns, partition) == kept);
  RC_CLASSIFY(!matches && !kept, "skipped");
  if (matches) RC_ASSERT(kept);
}

RC_GTEST_PROP(PredicateSoundnessProperty, ToStringParsesBackToTheSameTree, ()) {
  const Expr e = RandomExpr({kA, kS, kX, kP}, 4);
  const std::string text = rlc::predicate::ToString(e);
  rlc::Result<Expr> parsed = rlc::predicate::ParsePredicate(text);
  RC_ASSERT(parsed.ok());
  RC_ASSERT(*parsed == e);
}

}  // namespace
