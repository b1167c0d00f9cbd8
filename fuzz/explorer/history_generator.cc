#include "fuzz/explorer/history_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "impl/conflict/case_catalogue.h"

namespace rlc::explorer {
namespace {

using model::Predicate;
using Op = Predicate::Op;

template <typename T>
T Pick(std::initializer_list<std::pair<std::size_t, T>> weighted) {
  return *rc::gen::weightedElement<T>(weighted);
}
int64_t Between(int64_t low, int64_t high) { return *rc::gen::inRange<int64_t>(low, high + 1); }
// Shrinks towards false (rapidcheck shrinks the number towards 0).
bool Chance(int percent) { return *rc::gen::inRange(0, 100) >= 100 - percent; }

// A value longer than the 32 characters statistics keep of a string, its first 40 shared by every
// such value: their truncated bounds cannot tell them apart.
std::string LongValue(int64_t k) {
  return "a value longer than the prefix statistics keep, number " + std::to_string(k);
}

// The table's typed columns beyond (id long, value string): a partition column `part` and a
// data column `x`, each absent or of a drawn type. Timestamps, dates and doubles reach every tier
// that way: partition values as writers print them (a timestamp as wall clock text in the
// writers' session zone), statistics as Delta truncates them (timestamps to milliseconds), rows
// at the types' edges (NaN, -0.0, infinities, instants a microsecond apart).
struct Shape {
  std::optional<model::ColumnType> part;
  // A second partition column, `part2`, nested under `part` (a table partitioned by two
  // columns): files whose paths and partitionValues name two values, partitions that are leaves.
  std::optional<model::ColumnType> part2;
  // `value` is UTF8_LCASE: rows and literals then differ by case now and then ('V3' = 'v3'),
  // and 'v3' < 'V5' holds there where bytes say otherwise.
  bool value_lcase = false;
  std::optional<model::ColumnType> x;
  // The type `x` was created with, when a later commit widened it: files written before the
  // widening hold values of that type, and literals near them are where a statistics tier that
  // reads their bounds under the new type may err.
  std::optional<model::ColumnType> x_created;
  // A string partition's two values: plain, or ones a directory name must escape (Hive's escapes
  // of ':', '/', '%', '=' and the like) and a URI must escape again (the '%' of those, a space),
  // beside non-ASCII text a URI keeps as it is: paths every reader has to decode alike.
  std::array<std::string, 2> part_strings = {"p0", "p1"};
  // A key the table does not hold that every writer of the history favours when it inserts a row
  // or names a key twice in a MERGE's source: rare conjunctions (an INSERT of the very key a
  // concurrent MERGE names twice) become common where it is drawn, and stay possible elsewhere.
  std::optional<int64_t> hot_key;
};

// A new row's key: the hot key now and then, else one of `low`..`high`.
int64_t NewKey(const Shape& shape, int64_t low, int64_t high, int hot_percent) {
  if (shape.hot_key && Chance(hot_percent)) return *shape.hot_key;
  return Between(low, high);
}

// Swarm testing: half the histories draw from the whole grammar; the other half switch each
// feature on or off for the whole history: the operation kinds, typed columns and writers' lies,
// and four that concentrate a history (lies told by most writers, a partitioned table, a plain
// store, every flag on). A class that needs a conjunction of rare
// features (a DV update moved to another partition, met by a loser that read that partition with
// the exact tier on) is far likelier where the features it needs are concentrated and those it does
// not are off, leaving it the history's few transactions, while every feature still meets every
// other in the whole-grammar half.
constexpr int kOperationKinds = 9;  // GenOperation's kinds
struct Swarm {
  std::array<bool, kOperationKinds> operations = {true, true, true, true, true,
                                                  true, true, true, true};
  bool typed_columns = true;
  bool writer_lies = true;
  bool lies_often = false;   // most writers quirky, and many move files to other partitions
  bool partitioned = false;  // the table is partitioned
  bool plain_store = false;  // statistics and DVs written, no faults, no column mapping
  bool every_flag = false;   // every writer has every allowed case on
};

Swarm GenSwarm() {
  Swarm swarm;
  if (!Chance(50)) return swarm;
  bool any = false;
  for (bool& on : swarm.operations) any = (on = !Chance(50)) || any;
  if (!any) swarm.operations[0] = true;  // a DELETE at least
  swarm.typed_columns = !Chance(50);
  swarm.writer_lies = !Chance(50);
  swarm.lies_often = swarm.writer_lies && Chance(50);
  swarm.partitioned = Chance(50);
  swarm.plain_store = Chance(50);
  swarm.every_flag = Chance(50);
  return swarm;
}

constexpr int64_t kMicrosPerHour = int64_t{3600} * 1000000;
// 2024-03-10T00:00:00Z: an instant whose wall clock in the zones drawn falls on three dates.
constexpr int64_t kBaseMicros = int64_t{19792} * 24 * kMicrosPerHour;
constexpr int32_t kBaseDays = 19792;

// Each type's values at its edges, in the order TypedValue draws them.
model::Value EdgeValue(model::ColumnType type, int64_t k) {
  using T = model::ColumnType;
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  switch (type) {
    case T::kByte:
      return std::array<int64_t, 6>{1, INT8_MIN, INT8_MAX, 0, -1, 100}[static_cast<size_t>(k % 6)];
    case T::kShort:
      return std::array<int64_t, 6>{
          1, INT16_MIN, INT16_MAX, 0, -1, 300}[static_cast<size_t>(k % 6)];
    case T::kInteger:
      return std::array<int64_t, 6>{
          1, INT32_MIN, INT32_MAX, 0, -1, 70000}[static_cast<size_t>(k % 6)];
    case T::kFloat:  // a float's value is the float widened: 1.1f is 1.100000023841858
      return model::Double{std::array<double, 6>{static_cast<double>(1.1F), -0.0,
                                                 static_cast<double>(3.4e38F), 0.0, kNaN,
                                                 -kInf}[static_cast<size_t>(k % 6)]};
    case T::kDouble:
      return model::Double{
          std::array<double, 6>{1.5, -0.0, 2.5e300, 0.0, kNaN, -kInf}[static_cast<size_t>(k % 6)]};
    case T::kDecimal:  // decimal(10,2): 12.50, -0.05, the precision's edges
      return model::Decimal{std::array<int64_t, 6>{1250, -5, 9'999'999'999, 0, -9'999'999'999,
                                                   100}[static_cast<size_t>(k % 6)],
                            model::kDecimalScale};
    case T::kBinary: {  // bytes past ASCII and a NUL: unsigned order, no text
      static const std::array<std::string, 6> kBytes = {
          "a", "", "\xff\x01", std::string("a\0", 2), "\x80", "ab"};
      return model::Binary{kBytes[static_cast<size_t>(k % 6)]};
    }
    default:
      return k;
  }
}

// The n-th value of a typed column: a few distinct values, so that files share some and rows
// collide. Timestamps (instants and wall clocks) 7 hours apart (less than the zones' spread) with
// sub-millisecond offsets that truncated statistics cannot tell apart; numbers at their types'
// edges.
model::Value TypedValue(model::ColumnType type, int64_t n, int distinct) {
  using T = model::ColumnType;
  const int64_t k = ((n % distinct) + distinct) % distinct;
  const int64_t micros = kBaseMicros + k * 7 * kMicrosPerHour + (k % 2) * 999;
  switch (type) {
    case T::kTimestamp:
      return model::Timestamp{micros};
    case T::kTimestampNtz:
      return model::TimestampNtz{micros};
    case T::kDate:
      return model::Date{static_cast<int32_t>(kBaseDays + k)};
    case T::kBoolean:
      return model::Boolean{k % 2 == 1};
    case T::kString:
      return std::string("p") + std::to_string(k);
    case T::kLong:
      return k;
    default:
      return EdgeValue(type, k);
  }
}

// A literal of the column's type near its values: one of them, or between two of them (for a
// timestamp, within the zones' spread of one, where a misplaced zone changes the answer; for an
// integral type, past its range; for a float, the double nearest a float's digits, which is not
// the float; for a decimal, a digit past the column's scale).
model::Value NearLiteral(model::ColumnType type, int distinct) {
  using T = model::ColumnType;
  const int64_t k = Between(0, distinct);
  if (Chance(50)) {
    const model::Value v = TypedValue(type, k, distinct);
    const auto* d = std::get_if<model::Double>(&v);
    if (d == nullptr || std::isfinite(d->value)) return v;
  }
  const int64_t micros = kBaseMicros + Between(-10, 24) * kMicrosPerHour +
                         Pick<int64_t>({{3, 0}, {1, 500}, {1, 999}, {1, 1000}});
  switch (type) {
    case T::kTimestamp:
      return model::Timestamp{micros};
    case T::kTimestampNtz:
      return model::TimestampNtz{micros};
    case T::kDouble:
      return model::Double{Pick<double>({{1, 1.0}, {1, 2.0}, {1, -1.0}, {1, 1e300}})};
    case T::kFloat:
      // The shortest digits of the column's floats (1.1 for 1.1f, 3.4e38 for the largest float):
      // doubles just short of the floats' values.
      return model::Double{Pick<double>({{3, 1.1}, {1, 3.4e38}, {1, 1.0}, {1, -1.0}, {1, 3.5e38}})};
    case T::kByte:
    case T::kShort:
    case T::kInteger:
      return Pick<int64_t>({{1, 128}, {1, -129}, {1, 32768}, {1, int64_t{1} << 31}, {1, 2}});
    case T::kDecimal:
      return model::Decimal{Pick<int64_t>({{1, 12505}, {1, -1}, {1, 99'999'999'995}, {1, 1}}), 3};
    default:
      return TypedValue(type, k, distinct);
  }
}

// The partition's value of row n: two values for longs and strings (as before), three for the
// typed partitions.
model::Value PartValue(const Shape& shape, int64_t n) {
  const model::ColumnType type = *shape.part;
  if (type == model::ColumnType::kString) return shape.part_strings[static_cast<size_t>(n % 2)];
  const bool typed = type != model::ColumnType::kLong && type != model::ColumnType::kString &&
                     type != model::ColumnType::kBoolean;
  return TypedValue(type, n, typed ? 3 : 2);
}

// The second partition column's value of row n: its values change every other row, so that
// (part, part2) cross into about four leaves; a string one takes the same two strings.
model::Value Part2Value(const Shape& shape, int64_t n) {
  Shape second = shape;
  second.part = shape.part2;
  return PartValue(second, n / 2);
}

// A comparison of a typed column with a literal near its values.
Predicate TypedCompare(const std::string& column, model::ColumnType type, int distinct) {
  // rlc's predicate language has no binary literal: a binary column is only ever NULL or not.
  if (type == model::ColumnType::kBinary)
    return Chance(50) ? Predicate::IsNull(column) : Predicate::IsNotNull(column);
  // A float's bound written as its shortest digits (1.1) is a double just short of the float's
  // value: only a strict lower bound at those digits (x > 1.1) tells the two readings apart.
  const int gt = type == model::ColumnType::kFloat ? 3 : 1;
  const Op op = Pick<Op>({{3, Op::kEq}, {2, Op::kLt}, {2, Op::kGe}, {1, Op::kNe}, {gt, Op::kGt}});
  return Predicate::Compare(column, op, NearLiteral(type, distinct));
}

// A predicate over the table's columns, mostly on id (the rows' key) so that writers collide
// often but not always. A remainder (case 6) is never evaluated by Delta's statistics skipping, so
// a Delta scan of it reads files that hold none of the rows it matches: reads wider than the
// matched rows' files. An OR of two keys (case 7) admits a file whose bounds span the gap between
// them though none of its rows is either key.
// The pairs of the table's columns whose values compare (model::ComparableTypes), both ways
// round: a key with an integral `x` or `part`, `value` with a string `part`, `x` with `part`.
std::vector<std::pair<std::string, std::string>> ComparablePairs(const Shape& shape) {
  std::vector<std::pair<std::string, model::ColumnType>> columns = {
      {"id", model::ColumnType::kLong}, {"value", model::ColumnType::kString}};
  if (shape.x) columns.emplace_back("x", *shape.x);
  // A UTF8_LCASE `value` compares with no UTF8_BINARY string (Spark: COLLATION_MISMATCH).
  if (shape.value_lcase) columns.erase(columns.begin() + 1);
  if (shape.part) columns.emplace_back("part", *shape.part);
  if (shape.part2) columns.emplace_back("part2", *shape.part2);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& [a, ta] : columns) {
    for (const auto& [b, tb] : columns) {
      if (a != b && model::ComparableTypes(ta, tb)) pairs.emplace_back(a, b);
    }
  }
  return pairs;
}

// A comparison of two columns (`id < x`): no statistics tier of Delta's evaluates one, and no one
// column's bounds decide it for a file; rlc's tiers compare the two columns' bounds, or rows.
std::optional<Predicate> ColumnsCompared(const Shape& shape) {
  const std::vector<std::pair<std::string, std::string>> pairs = ComparablePairs(shape);
  if (pairs.empty()) return std::nullopt;
  const auto& [a, b] = pairs[static_cast<size_t>(Between(0, std::ssize(pairs) - 1))];
  const Op op = Pick<Op>(
      {{2, Op::kEq}, {2, Op::kLt}, {1, Op::kGe}, {1, Op::kNe}, {1, Op::kGt}, {1, Op::kLe}});
  return Predicate::CompareColumns(a, op, b);
}

Predicate WhereAsWritten(int64_t max_id, const Shape& shape) {
  const int64_t k = Between(1, max_id + 1);
  if (shape.value_lcase && Chance(15)) {  // where the collation alone decides
    const std::string v = std::string(Chance(50) ? "V" : "v") + std::to_string(k);
    const Op op = Pick<Op>({{3, Op::kEq}, {2, Op::kLt}, {1, Op::kGe}, {1, Op::kNe}});
    if (Chance(60)) return Predicate::Compare("value", op, v);
    return Predicate::And(
        {Predicate::Compare("value", op, v), Predicate::Compare("id", Op::kGe, k)});
  }
  if ((shape.x || shape.part) && Chance(8)) {
    if (std::optional<Predicate> compared = ColumnsCompared(shape)) {
      if (Chance(50)) return *compared;
      return Predicate::Or({std::move(*compared), Predicate::Compare("id", Op::kEq, k)});
    }
  }
  // A typed column, alone or beside a key range: where two tiers may read one value two ways.
  if (shape.x && Chance(shape.x_created ? 50 : 25)) {
    const model::ColumnType near = shape.x_created && Chance(50) ? *shape.x_created : *shape.x;
    Predicate on_x = Chance(15) ? Predicate::IsNull("x") : TypedCompare("x", near, 6);
    if (*shape.x != model::ColumnType::kBinary && Chance(15))
      on_x = Predicate::In("x", {NearLiteral(near, 6), NearLiteral(*shape.x, 6)});
    if (Chance(40)) return on_x;
    return Predicate::And({std::move(on_x), Predicate::Compare("id", Op::kGe, k)});
  }
  // One leaf of a table partitioned by two columns, or part2's values across every `part`.
  if (shape.part2 && Chance(12)) {
    Predicate on_part2 = Chance(60) ? Predicate::Compare("part2", Op::kEq, Part2Value(shape, k))
                                    : TypedCompare("part2", *shape.part2, 3);
    if (Chance(40)) {
      on_part2 = Predicate::And(
          {Predicate::Compare("part", Op::kEq, PartValue(shape, k)), std::move(on_part2)});
    }
    if (Chance(50)) return on_part2;
    return Predicate::And({std::move(on_part2), Predicate::Compare("id", Op::kGe, k)});
  }
  if (shape.part && *shape.part != model::ColumnType::kLong &&
      *shape.part != model::ColumnType::kString && Chance(30)) {
    Predicate on_part = TypedCompare("part", *shape.part, 3);
    if (Chance(50)) return on_part;
    return Predicate::Or({std::move(on_part), Predicate::Compare("id", Op::kEq, k)});
  }
  switch (Pick<int>({{4, 0}, {2, 1}, {2, 2}, {1, 3}, {1, 4}, {1, 5}, {1, 6}, {1, 7}})) {
    case 7:
      return Predicate::Or({Predicate::Compare("id", Op::kEq, k),
                            Predicate::Compare("id", Op::kEq, Between(1, max_id + 3))});
    case 6:
      return Predicate::CompareRemainder("id", 2, Op::kEq, k % 2);
    case 0:
      return Predicate::Compare("id", Op::kEq, k);
    case 1:
      return Predicate::Compare("id", Op::kLt, k);
    case 2:
      return Predicate::Compare("id", Op::kGe, k);
    case 3:
      return Predicate::Compare("value", Op::kEq,
                                Chance(30) ? LongValue(k) : std::string("v") + std::to_string(k));
    case 4:
      return Predicate::IsNull("value");
    default:
      return shape.part ? Predicate::And({Predicate::Compare("part", Op::kEq, PartValue(shape, k)),
                                          Predicate::Compare("id", Op::kGe, k)})
                        : Predicate::And({Predicate::Compare("id", Op::kGe, k),
                                          Predicate::Compare("id", Op::kLe, k + 2)});
  }
}

// SQL's other spellings of the same conditions, which every reader must parse alike: a
// comparison with the literal on the left (5 > id), an IN list for an OR of equalities of one
// column (with a NULL in it now and then: such an IN is never FALSE).
void Respell(Predicate& p) {
  // (Not a boolean's: the scenario language reads a leading TRUE as the condition TRUE.)
  if (p.kind == Predicate::Kind::kCompare && p.modulus == 0 && p.other_column.empty() &&
      !std::holds_alternative<model::Boolean>(p.literal) && Chance(15))
    p.literal_first = true;
  const bool equalities =
      p.kind == Predicate::Kind::kOr && !p.children.empty() &&
      std::all_of(p.children.begin(), p.children.end(), [&](const Predicate& c) {
        return c.kind == Predicate::Kind::kCompare && c.op == Op::kEq && c.modulus == 0 &&
               c.other_column.empty() && c.column == p.children.front().column;
      });
  if (equalities && Chance(50)) {
    p.in_list = true;
    if (Chance(20))
      p.children.push_back(Predicate::Compare(p.children.front().column, Op::kEq, {}));
    return;
  }
  for (Predicate& c : p.children) Respell(c);
}

Predicate Where(int64_t max_id, const Shape& shape) {
  Predicate p = WhereAsWritten(max_id, shape);
  Respell(p);
  return p;
}

// The partition column is sometimes NULL (Delta's __HIVE_DEFAULT_PARTITION__), x too.
std::vector<model::Value> NewRow(int64_t id, const Shape& shape, const std::string& value) {
  std::vector<model::Value> row = {id, value};
  if (shape.x) row.push_back(Chance(10) ? model::Value{} : TypedValue(*shape.x, Between(0, 5), 6));
  if (shape.part) row.push_back(Chance(8) ? model::Value{} : PartValue(shape, id));
  if (shape.part2) row.push_back(Chance(8) ? model::Value{} : Part2Value(shape, id));
  return row;
}

// A MERGE whose reads often differ from its writes: a matched clause may act only on some of the
// key rows it reads (AND condition), a second matched clause may follow, and not-matched inserts
// (conditional too) make the absence of a match part of what it read.
model::Operation GenMerge(int64_t max_id, const Shape& shape) {
  using Kind = model::MergeClause::Kind;
  model::Merge merge;
  merge.key_column = "id";
  const int64_t n = Between(1, 3);
  for (int64_t i = 0; i < n; ++i)
    merge.source_rows.push_back(NewRow(NewKey(shape, 1, max_id + 2, 15), shape, "m"));
  if (Chance(20)) {
    // A key named twice: the MERGE fails wherever a target row holds it (Delta's multiple-match
    // error), whether or not a clause condition holds for that row, so a concurrent insert of the
    // key decides the MERGE's outcome though its registered predicate never selects the row.
    // Mostly a key the table does not hold yet, as inserts draw them.
    const int64_t key = shape.hot_key && Chance(70) ? *shape.hot_key
                        : Chance(60)                ? Between(max_id + 1, max_id + 3)
                                                    : Between(1, max_id + 2);
    merge.source_rows.push_back(NewRow(key, shape, "m"));
    merge.source_rows.push_back(NewRow(key, shape, "m"));
  }
  // A MERGE scoped to one partition by its clause condition (`part = 'p1' AND id >= 2`), as
  // MERGEs into partitioned tables often are: Delta's scan takes it as one filter naming a data
  // column, prunes no partition, and counts the source's matches in every partition. Its source
  // names a row of that partition (so the clause acts), mostly one of another partition than the
  // hot key's: the condition rules out the very row a concurrent INSERT of that key writes.
  const auto condition = [&](int percent) {
    if (!Chance(percent)) return Predicate::True();
    if (shape.part && Chance(40)) {
      int64_t e = Between(1, max_id);
      for (int i = 0;
           i < 4 && shape.hot_key && PartValue(shape, e) == PartValue(shape, *shape.hot_key); ++i)
        e = Between(1, max_id);
      merge.source_rows.push_back(NewRow(e, shape, "m"));
      Predicate on_data =
          Chance(50) ? Predicate::Compare("id", Op::kGe, Between(1, e)) : Where(max_id, shape);
      return Predicate::And(
          {Predicate::Compare("part", Op::kEq, PartValue(shape, e)), std::move(on_data)});
    }
    return Where(max_id, shape);
  };
  const auto matched = [&](Predicate when) {
    return Chance(50)
               ? model::MergeClause{Kind::kMatchedDelete, std::move(when), {}, false}
               : model::MergeClause{
                     Kind::kMatchedUpdate, std::move(when), {{"value", std::string("m")}}, false};
  };
  merge.clauses.push_back(matched(condition(40)));
  if (Chance(20)) merge.clauses.push_back(matched(Predicate::True()));
  if (Chance(35)) merge.clauses.push_back({Kind::kNotMatchedInsert, condition(25), {}, false});
  if (Chance(10)) {
    merge.clauses.push_back({Kind::kNotMatchedBySourceDelete,
                             Predicate::Compare("id", Op::kGe, Between(1, max_id)),
                             {},
                             false});
  }
  return merge;
}

// The operation kinds, as GenOperation numbers them.
enum Kind : int {
  kDelete,
  kUpdate,
  kBlindInsert,
  kInsertSelect,
  kMerge,
  kOptimize,
  kMetadataChange,
  kIdempotentWrite,
  kProtocolChange
};

model::Operation OperationOfKind(int kind, int64_t max_id, const Shape& shape) {
  switch (kind) {
    case kDelete:
      return model::Delete{Where(max_id, shape)};
    case kUpdate: {
      const int64_t k = Between(0, 3);
      model::Update update{Where(max_id, shape),
                           {{"value", Chance(15) ? LongValue(k) : "u" + std::to_string(k)}}};
      // Now and then the rows move to another leaf: their new images are written there.
      if (shape.part2 && Chance(20)) update.set.push_back({"part2", Part2Value(shape, k + 2)});
      return update;
    }
    case kBlindInsert: {
      model::BlindInsert insert;
      const int64_t n = Between(1, 2);
      for (int64_t i = 0; i < n; ++i)
        insert.rows.push_back(NewRow(NewKey(shape, 1, max_id + 3, 50), shape, "new"));
      return insert;
    }
    case kInsertSelect:
      return model::InsertSelect{Where(max_id, shape), {{"value", std::string("copy")}}};
    case kMerge:
      return GenMerge(max_id, shape);
    case kOptimize:
      return model::Optimize{Chance(12) ? std::vector<std::string>{"value"}
                                        : std::vector<std::string>{}};
    case kMetadataChange:
      // A user property: Spark SQL reserves `owner` and the like, which no engine can set.
      return model::MetadataChange{"team", std::string("t") + std::to_string(Between(0, 2))};
    // A protocol upgrade: a feature no data commit must honour, or row tracking, which every
    // later add must honour (and which the simulator's writer does not support).
    case kProtocolChange:
      return model::ProtocolChange{Chance(50) ? "rowTracking" : "v2Checkpoint"};
    default: {
      model::IdempotentWrite write;
      write.app_id = Chance(50) ? "app1" : "app2";
      write.version = Between(1, 2);
      write.insert.rows.push_back(NewRow(Between(1, max_id + 3), shape, "idem"));
      return write;
    }
  }
}

model::Operation GenOperation(int64_t max_id, const Shape& shape, bool setup,
                              const Swarm& swarm = {}) {
  static constexpr std::array<size_t, kOperationKinds> kWeights = {6, 4, 3, 2, 3, 4, 1, 1, 1};
  const auto w = [&](int kind) {
    const auto k = static_cast<size_t>(kind);
    return setup || swarm.operations[k] ? kWeights[k] : 0;
  };
  const int kind = setup
                       ? Pick<int>({{3, kDelete}, {2, kUpdate}, {2, kBlindInsert}, {2, kOptimize}})
                       : Pick<int>({{w(0), 0},
                                    {w(1), 1},
                                    {w(2), 2},
                                    {w(3), 3},
                                    {w(4), 4},
                                    {w(5), 5},
                                    {w(6), 6},
                                    {w(7), 7},
                                    {w(8), 8}});
  return OperationOfKind(kind, max_id, shape);
}

// How the transaction's engine writes: mostly honestly; sometimes as another engine would (adds
// first), a buggy one (removes without statistics), or a dishonest one (statistics that lie about
// the file a remove names, composition tags that miscount two sources, a DML written as a
// dataChange=false relocation, one of its DV updates taken for no change by the engine itself,
// a commitInfo.readVersion left out or older than the snapshot it read, an add written twice,
// a file of another partition re-added under its partition values, or one of its own DV updates
// written under another partition's values, which move rows: the oracle judges those commits by
// the rows it reads back).
simulator::WriterQuirks GenWriter(const Swarm& swarm) {
  simulator::WriterQuirks q;
  if (!swarm.writer_lies) return q;
  using RV = simulator::WriterQuirks::ReadVersion;
  // commitInfo.readVersion, which no reader can refute, is misstated by any writer now and then:
  // a follower of a blind append that claims to have read before it.
  q.read_version = Pick<RV>({{14, RV::kHonest}, {1, RV::kAbsent}, {5, RV::kStale}});
  // So are partition values, which move a file's rows: the lie the cases' guards about moved
  // files answer (a re-add, a DV update), drawn for any writer, not only a quirky one.
  q.readd_elsewhere = Chance(swarm.lies_often ? 25 : 6);
  if (q.readd_elsewhere) q.readd_which = static_cast<uint8_t>(Between(0, 3));
  q.dv_update_elsewhere = Chance(swarm.lies_often ? 25 : 8);
  // Any field of any action, left out, stale or contradicting (simulator/field_lies.h): the
  // grammar of a foreign writer, beyond the habits listed here.
  if (Chance(12)) {
    using F = simulator::FieldLie;
    const int64_t n = Between(1, 3);
    for (int64_t i = 0; i < n; ++i) {
      const auto field = static_cast<F::Field>(Between(0, simulator::kFieldCount - 1));
      // A flag and the order of the actions can only be told the other way.
      const bool one_way = field == F::Field::kAddDataChange ||
                           field == F::Field::kRemoveDataChange || field == F::Field::kActionOrder;
      q.field_lies.push_back(
          {field, one_way ? F::Telling::kContradicting : static_cast<F::Telling>(Between(0, 2)),
           static_cast<uint8_t>(Between(0, 2))});
    }
  }
  if (!Chance(swarm.lies_often ? 60 : 15)) return q;
  using R = simulator::WriterQuirks::RemoveStats;
  q.adds_first = Chance(30);
  q.remove_stats =
      Pick<R>({{3, R::kCopied}, {1, R::kAbsent}, {2, R::kLyingBounds}, {2, R::kLyingCount}});
  q.miscounted_tags = Chance(30);
  q.malformed_tags = Chance(15);
  q.malformed_stats = Chance(10);
  q.empty_output = Chance(15);
  q.ghost_removes = Chance(10);
  q.no_data_change = Chance(25);
  q.half_truth = Chance(50);
  if (q.read_version == RV::kHonest)
    q.read_version = Pick<RV>({{4, RV::kHonest}, {1, RV::kAbsent}, {3, RV::kStale}});
  q.duplicate_add = Chance(10);
  q.readd_elsewhere = q.readd_elsewhere || Chance(15);
  q.dv_update_elsewhere = q.dv_update_elsewhere || Chance(10);
  return q;
}

// How a history's writers set their flags: all alike, every allowed case on (the documented
// matrix's "with RLC" cells need both writers of a pair so: drawn case by case, one pair in
// thousands would be), or each case drawn for each writer alone (the mixes the cases must also
// survive: one writer's case on against another's off).
enum class FlagMode { kEveryAllowed, kDrawn };

conflict::Flags GenFlags(const conflict::Flags& allowed, FlagMode mode) {
  conflict::Flags f;
  for (const conflict::CaseEntry& c : conflict::kCases) {
    const bool on = mode == FlagMode::kEveryAllowed || Chance(50);
    f.SetCase(c.case_id, allowed.On(c.case_id) && on);
    if (c.case_id == conflict::CaseId::kValueExact && f.On(c.case_id) && Chance(10)) {
      f.value_exact_max_bytes = Between(1, 64);  // a budget rows may exceed
    }
  }
  return f;
}

void DrawPartStrings(Shape& shape) {
  if ((shape.part != model::ColumnType::kString && shape.part2 != model::ColumnType::kString) ||
      !Chance(30))
    return;
  shape.part_strings = Pick<std::array<std::string, 2>>(
      {{1, {"p 0", "p:1/é%="}}, {1, {"a%20b", "a b"}}, {1, {"[x]#?", "x\\y^{z}"}}});
}

// A partition column's type: one of the types Delta partitions by (a binary never:
// formats.md); long or string only where the swarm leaves typed columns out.
model::ColumnType PartitionType(const Swarm& swarm) {
  using T = model::ColumnType;
  if (!swarm.typed_columns) return Chance(60) ? T::kLong : T::kString;
  return Pick<T>({{9, T::kLong},
                  {5, T::kString},
                  {4, T::kTimestamp},
                  {1, T::kDate},
                  {2, T::kDouble},
                  {1, T::kBoolean},
                  {1, T::kByte},
                  {1, T::kShort},
                  {1, T::kInteger},
                  {1, T::kFloat},
                  {2, T::kDecimal},
                  {2, T::kTimestampNtz}});
}

// The table's typed columns: zero, one or two partition columns, a data column `x` of any type.
void GenTypedColumns(scenario::TableSpec& t, Shape& shape, const Swarm& swarm) {
  using T = model::ColumnType;
  t.partitioned = swarm.partitioned || Chance(25);
  if (t.partitioned) {
    shape.part = t.partition_type = PartitionType(swarm);
    if (Chance(30)) {
      shape.part2 = PartitionType(swarm);
      t.more_partition_types = {*shape.part2};
    }
  }
  DrawPartStrings(shape);
  if (!swarm.typed_columns) return;
  // A collated `value` (Spark's UTF8_LCASE): no statistics bounds, comparisons by lowercase.
  if (Chance(8)) {
    t.value_collation = model::Collation::kUtf8Lcase;
    shape.value_lcase = true;
  }
  // Floats weigh most: their bounds are written as digits that name another double than the
  // float (1.1 for 1.100000023841858), the commonest way for a tier to misread a bound.
  if (Chance(25)) {
    t.typed_column = Pick<T>({{2, T::kTimestamp},
                              {1, T::kDate},
                              {2, T::kDouble},
                              {1, T::kBoolean},
                              {1, T::kByte},
                              {1, T::kShort},
                              {1, T::kInteger},
                              {4, T::kFloat},
                              {2, T::kDecimal},
                              {1, T::kBinary},
                              {2, T::kTimestampNtz}});
  }
  shape.x = t.typed_column;
  // Now and then `x` was narrower when the table was created (Delta's type widening): the first
  // files, data and statistics, are of the old type (a float's bounds as the float's digits,
  // which read as doubles fall short of the float's value), every later one of the wider type.
  if (t.typed_column && Chance(30)) {
    if (*t.typed_column == T::kDouble) t.x_widened_from = T::kFloat;
    if (*t.typed_column == T::kShort) t.x_widened_from = T::kByte;
    if (*t.typed_column == T::kInteger) t.x_widened_from = Chance(50) ? T::kByte : T::kShort;
  }
  shape.x_created = t.x_widened_from;
}

// Checkpoints every 1 to 3 commits, their layouts taken in turn: classic, multi-part, V2 with
// sidecars (on a table that takes the v2Checkpoint feature, which GenHistory's setup then gives
// it half the time), and a multi-part one a writer left without its last part, which every
// reader must skip.
void GenCheckpoints(scenario::TableSpec& t) {
  using L = parquet::CheckpointLayout::Kind;
  t.checkpoint_interval = static_cast<int>(Between(1, 3));
  t.checkpoint_layouts = Pick<std::vector<L>>(
      {{2, {L::kClassic}},
       {1, {L::kMultiPart}},
       {1, {L::kSidecars}},
       {1, {L::kMultiPartIncomplete, L::kClassic}},
       {2, {L::kMultiPart, L::kSidecars, L::kMultiPartIncomplete, L::kClassic}}});
}

// The table: its shape, properties, the checker's access to it, and its rows. Returns the rows.
int64_t GenTable(scenario::TableSpec& t, Shape& shape, const Swarm& swarm) {
  using T = model::ColumnType;
  GenTypedColumns(t, shape, swarm);
  // The writers' session zone: UTC, either side of it by up to the 14 hours zones reach, and the
  // half- and three-quarter-hour ones. Timestamp partition values are written in it (Spark) or
  // with a Z (other engines).
  const bool timestamp_partition = shape.part == T::kTimestamp || shape.part2 == T::kTimestamp;
  if (timestamp_partition || shape.x == T::kTimestamp) {
    t.session_offset_minutes = Pick<int>({{4, 0},
                                          {2, -8 * 60},
                                          {1, -5 * 60},
                                          {1, 5 * 60 + 30},
                                          {1, 9 * 60},
                                          {1, 14 * 60},
                                          {1, -12 * 60},
                                          {1, 5 * 60 + 45}});
    t.zoned_partition_timestamps = timestamp_partition && Chance(25);
  }
  // Column mapping (name mode, as Delta Spark enables it): statistics, partition values, data
  // files and directories name each column by a physical name only the schema ties to it.
  t.column_mapping = Chance(20);
  t.files = static_cast<int>(Between(1, 3));
  t.statistics = !Chance(15);
  t.deletion_vectors = Pick<scenario::DeletionVectors>({{18, scenario::DeletionVectors::kOn},
                                                        {1, scenario::DeletionVectors::kOff},
                                                        {1, scenario::DeletionVectors::kAbsent}});
  t.merge_on_read = !Chance(15);
  t.isolation =
      Chance(50) ? model::IsolationLevel::kWriteSerializable : model::IsolationLevel::kSerializable;
  t.optimize_target = Between(3, 10);
  // Sometimes the checker cannot read the files' rows (as with Parquet it cannot read): the
  // cases then stand on statistics and counts, the paths a real table takes.
  t.rows_readable = !Chance(20);
  // A file written before a widening keeps its old type's statistics, and where the checker
  // cannot read its rows they alone decide: half the widened tables are of that kind.
  if (t.x_widened_from && Chance(40)) t.rows_readable = false;
  // Sometimes the checker's store is flaky: it must abort where it cannot read or write.
  if (Chance(15)) t.checker_faults = static_cast<int>(Between(2, 4));
  // Now and then a checkpoint every 1 to 3 commits: a writer that reads the log afresh starts
  // from it, and the run ends reading every version through it as through the JSON. Rarely: a
  // history with checkpoints costs about thirty without (Arrow's fixed cost per column of the
  // checkpoint schema, written and read back), so one history in ten tripled the explorer's time
  // per history (bench/README.md); one in a hundred still draws thousands a nightly campaign.
  if (Chance(1)) GenCheckpoints(t);
  // A plain store: statistics and DVs as the cases need them, and no fault (the conjunctions a
  // case's guards answer are rare enough without a doubt that aborts first). Whether rows are
  // readable stays drawn: without them the statistics tier decides alone.
  if (swarm.plain_store) {
    t.column_mapping = false;
    t.statistics = t.merge_on_read = true;
    t.deletion_vectors = scenario::DeletionVectors::kOn;
    t.checker_faults = 0;
  }
  const int64_t rows = Between(2, 10);
  Shape created = shape;  // the table's rows are written before any widening of x
  if (t.x_widened_from) created.x = t.x_widened_from;
  for (int64_t id = 1; id <= rows; ++id) {
    const char* v = shape.value_lcase && Chance(40) ? "V" : "v";
    t.rows.push_back(NewRow(id, created,
                            Chance(8)    ? std::string()
                            : Chance(12) ? LongValue(id)
                                         : v + std::to_string(id)));
    if (std::get<std::string>(t.rows.back()[1]).empty()) t.rows.back()[1] = model::Value{};
  }
  return rows;
}

// Whether the checker reads the rows of every file: the table's rows are readable, and no
// partition value may be a range or unknown to it.
bool RowsReadable(const scenario::TableSpec& t) {
  using T = model::ColumnType;
  // Nor any row of a table with a decimal or binary data column (parquet_table_files.h).
  const bool unread_column = t.typed_column == T::kDecimal || t.typed_column == T::kBinary;
  // Nor of a table with a collated column (no comparison rlc reads rows by).
  if (!t.rows_readable || unread_column || t.value_collation != model::Collation::kUtf8Binary)
    return false;
  for (const T type : t.PartitionTypes()) {
    // A zone-less timestamp is a range to the checker, NaN unknown, and impl reads a decimal
    // partition value as not NULL, nothing more (partition_value.h).
    if (type == T::kTimestamp && !t.zoned_partition_timestamps) return false;
    if (type == T::kDouble || type == T::kFloat || type == T::kDecimal) return false;
  }
  return true;
}

// `kind`: the operation's kind when a plot gives it one (AimedKinds).
scenario::TxnSpec GenTxn(int i, int64_t rows, const Shape& shape, bool rows_readable,
                         const GeneratorOptions& options, FlagMode flags, const Swarm& swarm,
                         std::optional<int> kind) {
  scenario::TxnSpec txn;
  txn.name = "T" + std::to_string(i + 1);
  txn.operation =
      kind ? OperationOfKind(*kind, rows, shape) : GenOperation(rows, shape, false, swarm);
  txn.flags = GenFlags(options.allowed_flags, flags);
  txn.writer = GenWriter(swarm);
  // A writer that lies field by field is another engine, which runs none of rlc's cases: what its
  // lies cost is what the honest writers that read its commit make of them. (A case carrying a
  // loser's own lie into its commit is that engine's doing, not the case's.)
  if (!txn.writer.field_lies.empty()) txn.flags = conflict::Flags{};
  // Without rows (or past a loser's row budget), a DML written as dataChange=false within one
  // partition looks like a relocation by every count and bound: the one lie rlc trusts (the
  // README says so). The checker reads no rows of a file whose partition value is no one value
  // either: a timestamp written without a zone, a NaN (formats.md#partition-values).
  if (!rows_readable) txn.writer.no_data_change = false;
  const bool optimize = std::holds_alternative<model::Optimize>(*txn.operation);
  // Reads beyond the operation's own (an engine that also read other rows, or the whole table):
  // its reads then differ from its writes, as a real statement's often do.
  if (!optimize && Chance(20)) {
    if (Chance(25)) {
      txn.reads_whole_table = true;
    } else {
      txn.extra_reads.push_back(Where(rows, shape));
    }
  }
  // A writer that states an older snapshot than it read matters where it read what came after:
  // it often read everything (the rows of a blind append it claims to precede included).
  if (!optimize && txn.writer.read_version == simulator::WriterQuirks::ReadVersion::kStale &&
      Chance(50))
    txn.reads_whole_table = true;
  // A change of the table's protocol or metadata often reads every row (a CHECK constraint is
  // validated against the table): it may depend on a blind append it saw.
  const bool table_change = std::holds_alternative<model::ProtocolChange>(*txn.operation) ||
                            std::holds_alternative<model::MetadataChange>(*txn.operation);
  if (table_change && Chance(50)) txn.reads_whole_table = true;
  if (optimize) {
    txn.optimize.layout =
        Pick<simulator::OptimizeLayout>({{7, simulator::OptimizeLayout::kBinPack},
                                         {1, simulator::OptimizeLayout::kInterleave},
                                         {1, simulator::OptimizeLayout::kSplit},
                                         {1, simulator::OptimizeLayout::kRepartition}});
    txn.optimize.capture = !Chance(10);
  }
  return txn;
}

// An aimed history's plot: the order its winners run in. Free: drawn. The carrier follows the
// witness: a guard must see that a winner after a passed append may depend on it. The carrier
// leads: it commits before the witness, so only the follower (often a change of the table) can
// pin the append before the loser; the carrier is then a DML, since the explorer rightly files
// what a lone OPTIMIZE carried as Delta's own.
enum class Plot { kFree, kCarrierFollows, kCarrierLeads };

// An aimed history (one in five) casts roles instead of drawing every operation freely: T1 the
// loser; T2 a carrier, a winner some case may reconcile against it (an OPTIMIZE, a DML); and
// sometimes T3 a witness, what a guard of the cases must notice past the carrier (a blind append,
// an idempotent write, a table change, a DML); and sometimes T4 a follower, a winner that may
// have read the witness's rows (a table change, an idempotent write, a DML). The classes those
// guards answer need the loser carried past the carrier, often with a witness (a blind append
// its claim or its partition values lie about) and its follower, and no other winner that aborts
// the loser first; drawn freely among nine kinds, up to five writers in any interleaving meet so
// about once in 10^5 histories.
//
// In two in five aimed histories of three writers or more, the carrier follows the witness: a
// DML that commits after the blind append and may have read it, as a reconciled winner the loser
// is ordered after (the guards of WriteSerializable's passed appends answer that plot).
std::vector<std::optional<int>> AimedKinds(bool aimed, int writers, Plot plot) {
  std::vector<std::optional<int>> kinds(static_cast<size_t>(writers));
  if (!aimed) return kinds;
  const bool dml_carrier = plot != Plot::kFree;
  kinds[0] = Pick<int>({{3, kInsertSelect}, {3, kMerge}, {1, kDelete}, {1, kUpdate}});
  kinds[1] = plot == Plot::kCarrierLeads ? Pick<int>({{3, kDelete}, {1, kUpdate}, {1, kMerge}})
             : dml_carrier               ? Pick<int>({{2, kDelete}, {2, kUpdate}, {1, kMerge}})
                           : Pick<int>({{2, kOptimize}, {2, kDelete}, {1, kUpdate}, {1, kMerge}});
  if (writers < 3) return kinds;
  kinds[2] = dml_carrier ? Pick<int>({{3, kBlindInsert}, {1, kIdempotentWrite}})
                         : Pick<int>({{3, kBlindInsert},
                                      {1, kIdempotentWrite},
                                      {1, kMetadataChange},
                                      {1, kProtocolChange},
                                      {1, kDelete},
                                      {1, kUpdate}});
  if (writers < 4) return kinds;
  // After a leading carrier, the follower mostly writes no row: a protocol change (one the
  // loser's writer supports; a metadata change aborts every loser) or an application's
  // transaction, whose dependence on the append a guard must see without a row it wrote.
  kinds[3] = plot == Plot::kCarrierLeads
                 ? Pick<int>({{4, kProtocolChange}, {2, kIdempotentWrite}, {1, kInsertSelect}})
                 : Pick<int>({{2, kMetadataChange},
                              {2, kProtocolChange},
                              {1, kIdempotentWrite},
                              {1, kInsertSelect},
                              {1, kDelete},
                              {1, kUpdate}});
  return kinds;
}

// In an aimed history the witness often moves a file to another partition (a re-add, a DV update
// under other values) and the loser's engine now and then tells a half truth about its own DV
// updates: the lies the carried loser's guards answer (where the swarm lets writers lie). A
// writer whose lies are field by field (another engine, flagless) keeps what it drew.
// Where a DML carries the loser, the loser is mostly honest: a quirky loser keeps its flags when
// the explorer asks whether a liar fooled Delta's own rules (DeltaFooledByALiar), so what its
// cases did wrong would be filed as its own lie's doing.
void AimLies(std::vector<scenario::TxnSpec>& txns, const Swarm& swarm, Plot plot) {
  if (plot != Plot::kFree && txns[0].writer.field_lies.empty() && Chance(75))
    txns[0].writer = simulator::WriterQuirks{};
  if (!swarm.writer_lies) return;
  if (txns.size() > 2 && txns[2].writer.field_lies.empty()) {
    simulator::WriterQuirks& witness = txns[2].writer;
    witness.readd_elsewhere = witness.readd_elsewhere || Chance(plot == Plot::kFree ? 35 : 50);
    witness.readd_which = static_cast<uint8_t>(Between(0, 5));  // often a file the loser skipped
    witness.dv_update_elsewhere = witness.dv_update_elsewhere || Chance(25);
    // A move the loser's own quirks stand beside is filed as the loser's lie's doing: the
    // loser that meets a moved file is honest half the time.
    if ((witness.readd_elsewhere || witness.dv_update_elsewhere) &&
        txns[0].writer.field_lies.empty() && Chance(50))
      txns[0].writer = simulator::WriterQuirks{};
  }
  simulator::WriterQuirks& loser = txns[0].writer;
  if (loser.field_lies.empty()) loser.half_truth = loser.half_truth || Chance(15);
}

// An aimed loser often reads across files (every other key, or a range from the first keys): a
// compaction's sources are then the loser's too, several at once. On a partitioned table it
// often reads one partition only: a file another writer moves into it is one it never read.
void AimLoserRows(scenario::TxnSpec& loser, int64_t max_id, const Shape& shape, Plot plot) {
  // After a leading carrier, a witness that moves a file into the one partition the loser read
  // is what a refuted blind-append claim hides: there, most losers read one partition.
  const int draw = plot == Plot::kCarrierLeads && shape.part
                       ? Pick<int>({{2, 0}, {1, 1}, {6, 2}, {1, 3}})
                       : Pick<int>({{4, 0}, {2, 1}, {2, 2}, {1, 3}});
  if (draw == 0) return;
  Predicate wide = Chance(50) ? Predicate::CompareRemainder("id", 2, Op::kEq, Between(0, 1))
                              : Predicate::Compare("id", Op::kGe, Between(1, 3));
  if (draw == 2 && shape.part) {
    // One partition, or the keys from one on within it: a carrier may then change that
    // partition's other rows, a file the loser read, and no row it read.
    const int64_t e = Between(1, max_id);
    wide = Predicate::Compare("part", Op::kEq, PartValue(shape, e));
    if (shape.part2 && Chance(60)) {
      wide = Predicate::And(
          {std::move(wide), Predicate::Compare("part2", Op::kEq, Part2Value(shape, e))});
    }
    if (Chance(plot == Plot::kCarrierLeads ? 70 : 50))
      wide = Predicate::And({std::move(wide), Predicate::Compare("id", Op::kGe, Between(2, 4))});
  }
  // A typed column's values, often those of the type the column was created with: where the
  // tiers may read a file's bounds or rows two ways.
  if (draw == 3 && shape.x) {
    const model::ColumnType near = shape.x_created && Chance(60) ? *shape.x_created : *shape.x;
    wide = TypedCompare("x", near, 6);
  }
  if (auto* d = std::get_if<model::Delete>(&*loser.operation)) d->where = std::move(wide);
  if (auto* u = std::get_if<model::Update>(&*loser.operation)) u->where = std::move(wide);
  if (auto* i = std::get_if<model::InsertSelect>(&*loser.operation)) i->source = std::move(wide);
}

// A carrier a case can reconcile: in an aimed history a DML carrier often changes only rows the
// loser did not read (the complement of its condition, or for a MERGE a key its source does not
// name), so that Delta aborts the loser on it and a case (the rows tier, a DV union) carries the
// loser on. The guards after the carrier then decide alone: a carrier only an OPTIMIZE is, the
// explorer rightly files as Delta's own anomaly (DeltasOwnWithoutOptimizes), and a carrier that
// conflicts aborts the loser before any guard is asked.
std::optional<Predicate> LoserRead(const model::Operation& loser) {
  if (const auto* d = std::get_if<model::Delete>(&loser)) return d->where;
  if (const auto* u = std::get_if<model::Update>(&loser)) return u->where;
  if (const auto* i = std::get_if<model::InsertSelect>(&loser)) return i->source;
  return std::nullopt;
}

Predicate OutsideTheMerge(const model::Merge& merge, int64_t max_id) {
  for (const model::MergeClause& c : merge.clauses) {
    if (c.kind == model::MergeClause::Kind::kMatchedUpdate && Chance(50) &&
        c.condition.kind != Predicate::Kind::kTrue)
      return Predicate::Not(c.condition);
  }
  std::vector<model::Value> keys;
  for (const std::vector<model::Value>& row : merge.source_rows) keys.push_back(row[0]);
  int64_t k = Between(1, max_id);
  for (int i = 0; i < 6 && std::find(keys.begin(), keys.end(), model::Value{k}) != keys.end(); ++i)
    k = Between(1, max_id);
  return Predicate::Compare("id", Op::kEq, k);
}

// A carrier that follows the witness often read its rows (every row, or what it names) and now
// and then states a snapshot older than the append's.
void AimFollowingCarrier(scenario::TxnSpec& carrier, const Swarm& swarm) {
  if (Chance(50)) carrier.reads_whole_table = true;
  if (swarm.writer_lies && carrier.writer.field_lies.empty() && Chance(35))
    carrier.writer.read_version = simulator::WriterQuirks::ReadVersion::kStale;
}

void AimCarrier(std::vector<scenario::TxnSpec>& txns, int64_t max_id, Plot plot,
                const Swarm& swarm) {
  if (txns.size() < 2) return;
  if (plot == Plot::kCarrierFollows) AimFollowingCarrier(txns[1], swarm);
  // A follower after a leading carrier often read every row, the append's among them.
  if (plot == Plot::kCarrierLeads && txns.size() > 3) {
    if (Chance(50)) txns[3].reads_whole_table = true;
    if (auto* change = std::get_if<model::ProtocolChange>(&*txns[3].operation);
        change && Chance(75))
      change->add_feature = "v2Checkpoint";
  }
  if (!Chance(plot != Plot::kFree ? 85 : 60)) return;
  const model::Operation& loser = *txns[0].operation;
  Predicate outside = Predicate::True();
  if (const auto* merge = std::get_if<model::Merge>(&loser)) {
    outside = OutsideTheMerge(*merge, max_id);
  } else if (std::optional<Predicate> read = LoserRead(loser)) {
    if (read->kind == Predicate::Kind::kTrue) return;
    // A read that is a conjunction (one partition, the keys from one on): often the rows of its
    // first conjunct the rest rules out, in the files the loser read and no other.
    if (read->kind == Predicate::Kind::kAnd && read->children.size() == 2 && Chance(60)) {
      outside = Predicate::And({read->children[0], Predicate::Not(read->children[1])});
    } else {
      outside = Predicate::Not(std::move(*read));
    }
  }
  if (auto* d = std::get_if<model::Delete>(&*txns[1].operation)) d->where = std::move(outside);
  if (auto* u = std::get_if<model::Update>(&*txns[1].operation)) u->where = std::move(outside);
}

// The witness of a plot that has a DML carrier is often a true blind append (no read beyond its
// rows: an extra read makes Delta's isBlindAppend false and the WriteSerializable guards moot)
// whose first row is one the loser's read selects: the row the loser must not miss.
void AimWitness(std::vector<scenario::TxnSpec>& txns, const scenario::TableSpec& table,
                int64_t max_id, const Shape& shape, Plot plot) {
  if (plot == Plot::kFree || txns.size() < 3) return;
  scenario::TxnSpec& witness = txns[2];
  if (Chance(80)) {
    witness.reads_whole_table = false;
    witness.extra_reads.clear();
  }
  const std::optional<Predicate> read = LoserRead(*txns[0].operation);
  model::BlindInsert* insert = std::get_if<model::BlindInsert>(&*witness.operation);
  if (auto* idempotent = std::get_if<model::IdempotentWrite>(&*witness.operation))
    insert = &idempotent->insert;
  if (!read || insert == nullptr || insert->rows.empty() || !Chance(70)) return;
  model::LogicalTable schema = model::MakeTable(table.PartitionTypes(), table.typed_column);
  schema.schema[1].collation = table.value_collation;
  const std::string value = std::get<std::string>(insert->rows.front()[1]);
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::vector<model::Value> row = NewRow(NewKey(shape, 1, max_id + 3, 30), shape, value);
    if (model::Qualifies(*read, schema, model::Row{0, row})) {
      insert->rows.front() = std::move(row);
      return;
    }
  }
}

// An aimed MERGE on a partitioned table is often scoped to one partition by a condition that
// also names a data column, and names the hot key twice: its scan counts the key's matches in
// every partition, so a witness's insert of that key elsewhere decides whether it fails
// (checker.cc CheckMergeScan).
void AimMerge(scenario::TxnSpec& loser, int64_t max_id, const Shape& shape) {
  auto* merge = std::get_if<model::Merge>(&*loser.operation);
  if (merge == nullptr || !shape.part || !Chance(65)) return;
  const int64_t e = Between(1, max_id);
  merge->clauses.front().condition =
      Predicate::And({Predicate::Compare("part", Op::kEq, PartValue(shape, e)),
                      Predicate::Compare("id", Op::kGe, Between(1, e))});
  merge->source_rows.push_back(NewRow(e, shape, "m"));
  if (shape.hot_key && Chance(60)) {
    merge->source_rows.push_back(NewRow(*shape.hot_key, shape, "m"));
    merge->source_rows.push_back(NewRow(*shape.hot_key, shape, "m"));
  }
}

// The interleaving: a random order of each writer's steps. Writer i (T(i+1)) starts the first
// time it appears and commits the last; in between it rebases (a commit attempt that loses its
// race again: its check goes on later). In an aimed history T1, the loser, starts first and
// commits last: every other writer's commit is one it must be checked against.
// Under Plot::kCarrierFollows the witness (T3) runs whole first, then the carrier and the
// follower in a drawn order, each whole; under Plot::kCarrierLeads the carrier, the witness and
// the follower run whole in that order.
void GenSteps(scenario::Scenario& s, int writers, bool aimed, Plot plot) {
  std::vector<int> tokens;
  std::vector<int> appearances(static_cast<size_t>(writers), 0);
  for (int i = 0; i < writers; ++i) {
    const int rebases = Chance(35) ? static_cast<int>(Between(1, 2)) : 0;
    appearances[static_cast<size_t>(i)] = 2 + rebases;
    tokens.insert(tokens.end(), static_cast<size_t>(aimed && i == 0 ? rebases : 2 + rebases), i);
  }
  std::vector<int> order;
  if (aimed) order.push_back(0);
  // Half the aimed histories run each winner whole, one after another, in a drawn order (the
  // witness commits before its follower starts, the carrier before or after both).
  if (aimed && (plot != Plot::kFree || Chance(50))) {
    std::vector<std::vector<int>> blocks;  // a winner's steps together; each rebase of T1 alone
    for (int i = 1; i < writers; ++i)
      blocks.emplace_back(static_cast<size_t>(appearances[static_cast<size_t>(i)]), i);
    for (int r = 2; r < appearances[0]; ++r) blocks.push_back({0});
    tokens.clear();
    if (plot == Plot::kCarrierFollows) {
      order.insert(order.end(), blocks[1].begin(), blocks[1].end());
      blocks.erase(blocks.begin() + 1);
    }
    if (plot == Plot::kCarrierLeads) {
      const size_t lead = std::min<size_t>(3, static_cast<size_t>(writers - 1));
      for (size_t b = 0; b < lead; ++b)
        order.insert(order.end(), blocks[b].begin(), blocks[b].end());
      blocks.erase(blocks.begin(), blocks.begin() + static_cast<std::ptrdiff_t>(lead));
    }
    while (!blocks.empty()) {
      const auto at = static_cast<size_t>(Between(0, static_cast<int64_t>(blocks.size()) - 1));
      order.insert(order.end(), blocks[at].begin(), blocks[at].end());
      blocks.erase(blocks.begin() + static_cast<std::ptrdiff_t>(at));
    }
  }
  while (!tokens.empty()) {  // draw the next step among those left (shrinks towards T1 first)
    const auto at = static_cast<size_t>(Between(0, static_cast<int64_t>(tokens.size()) - 1));
    order.push_back(tokens[at]);
    tokens.erase(tokens.begin() + static_cast<std::ptrdiff_t>(at));
  }
  if (aimed) order.push_back(0);
  std::vector<int> seen(static_cast<size_t>(writers), 0);
  for (int i : order) {
    const int k = ++seen[static_cast<size_t>(i)];
    const scenario::Step::Kind kind = k == 1 ? scenario::Step::Kind::kStart
                                      : k == appearances[static_cast<size_t>(i)]
                                          ? scenario::Step::Kind::kCommit
                                          : scenario::Step::Kind::kRebase;
    s.steps.push_back({kind, s.txns[static_cast<size_t>(i)].name, 0});
  }
}

}  // namespace

rc::Gen<scenario::Scenario> GenHistory(const GeneratorOptions& options) {
  return rc::gen::exec([options] {
    scenario::Scenario s;
    Shape shape;
    Swarm swarm = GenSwarm();
    const int low = std::max(1, options.min_writers);
    const int high = std::max(low, options.max_writers);
    // An aimed history casts two to four writers (AimedKinds): no other winner stands between
    // the loser and the roles its guards must get right. Its table is often partitioned, where
    // a witness may move a file's rows to another partition.
    const bool aimed = low <= 4 && high >= 2 && Chance(20);
    swarm.partitioned = swarm.partitioned || (aimed && Chance(50));
    const int64_t rows = GenTable(s.table, shape, swarm);
    if (Chance(40)) shape.hot_key = rows + 1;
    const int64_t setups = Pick<int64_t>({{3, 0}, {2, 1}, {1, 2}});
    if (s.table.checkpoint_interval > 0 && Chance(50))
      s.setup.push_back({model::ProtocolChange{"v2Checkpoint"}, 0});
    for (int64_t i = 0; i < setups; ++i) s.setup.push_back({GenOperation(rows, shape, true), 0});
    const int writers = aimed ? static_cast<int>(Between(std::max(low, 2), std::min(high, 4)))
                              : static_cast<int>(Between(low, high));
    if (aimed && Chance(60)) shape.hot_key = rows + 1;
    const FlagMode flags =
        swarm.every_flag || Chance(aimed ? 60 : 30) ? FlagMode::kEveryAllowed : FlagMode::kDrawn;
    const Plot plot =
        aimed && writers >= 3
            ? Pick<Plot>({{3, Plot::kCarrierFollows}, {3, Plot::kCarrierLeads}, {4, Plot::kFree}})
            : Plot::kFree;
    // The guards a leading carrier reaches are WriteSerializable's.
    if (plot == Plot::kCarrierLeads && Chance(50))
      s.table.isolation = model::IsolationLevel::kWriteSerializable;
    const std::vector<std::optional<int>> kinds = AimedKinds(aimed, writers, plot);
    for (int i = 0; i < writers; ++i) {
      s.txns.push_back(GenTxn(i, rows, shape, RowsReadable(s.table), options, flags, swarm,
                              kinds[static_cast<size_t>(i)]));
    }
    if (aimed) {
      AimLies(s.txns, swarm, plot);
      AimLoserRows(s.txns[0], rows, shape, plot);
      AimMerge(s.txns[0], rows, shape);
      AimCarrier(s.txns, rows, plot, swarm);
      AimWitness(s.txns, s.table, rows, shape, plot);
    }
    // A small row budget makes the same trusted lie possible (see GenTxn).
    const bool small_budget =
        std::any_of(s.txns.begin(), s.txns.end(), [](const scenario::TxnSpec& txn) {
          return txn.flags.value_exact_max_bytes != conflict::Flags{}.value_exact_max_bytes;
        });
    if (small_budget) {
      for (scenario::TxnSpec& txn : s.txns) txn.writer.no_data_change = false;
    }
    GenSteps(s, writers, aimed, plot);
    return s;
  });
}

}  // namespace rlc::explorer
