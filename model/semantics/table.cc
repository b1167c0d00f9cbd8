#include "model/semantics/table.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace rlc::model {

std::optional<size_t> LogicalTable::ColumnIndex(const std::string& column) const {
  for (size_t i = 0; i < schema.size(); ++i) {
    if (schema[i].name == column) return i;
  }
  return std::nullopt;
}

RowId LogicalTable::Insert(std::vector<Value> values) {
  const RowId id = next_row_id++;
  rows[id] = Row{id, std::move(values)};
  return id;
}

std::vector<std::vector<Value>> LogicalTable::SortedContents() const {
  std::vector<std::vector<Value>> contents;
  for (const auto& [id, row] : rows) contents.push_back(row.values);
  std::sort(contents.begin(), contents.end());
  return contents;
}

const char* TypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kLong:
      return "long";
    case ColumnType::kString:
      return "string";
    case ColumnType::kTimestamp:
      return "timestamp";
    case ColumnType::kDate:
      return "date";
    case ColumnType::kDouble:
      return "double";
    case ColumnType::kBoolean:
      return "boolean";
    case ColumnType::kByte:
      return "byte";
    case ColumnType::kShort:
      return "short";
    case ColumnType::kInteger:
      return "integer";
    case ColumnType::kFloat:
      return "float";
    case ColumnType::kDecimal:
      return "decimal(10,2)";
    case ColumnType::kBinary:
      return "binary";
    case ColumnType::kTimestampNtz:
      return "timestamp_ntz";
  }
  return "long";
}

std::optional<ColumnType> ColumnTypeNamed(const std::string& name) {
  for (ColumnType t : kColumnTypes) {
    if (name == TypeName(t)) return t;
  }
  return std::nullopt;
}

namespace {

bool Within(const Value& v, int64_t low, int64_t high) {
  const auto* n = std::get_if<int64_t>(&v);
  return n != nullptr && *n >= low && *n <= high;
}

}  // namespace

bool HoldsValueOf(ColumnType type, const Value& v) {
  if (IsNull(v)) return true;
  switch (type) {
    case ColumnType::kLong:
      return std::holds_alternative<int64_t>(v);
    case ColumnType::kInteger:
      return Within(v, INT32_MIN, INT32_MAX);
    case ColumnType::kShort:
      return Within(v, INT16_MIN, INT16_MAX);
    case ColumnType::kByte:
      return Within(v, INT8_MIN, INT8_MAX);
    case ColumnType::kString:
      return std::holds_alternative<std::string>(v);
    case ColumnType::kTimestamp:
      return std::holds_alternative<Timestamp>(v);
    case ColumnType::kTimestampNtz:
      return std::holds_alternative<TimestampNtz>(v);
    case ColumnType::kDate:
      return std::holds_alternative<Date>(v);
    case ColumnType::kDouble:
      return std::holds_alternative<Double>(v);
    case ColumnType::kFloat: {
      const auto* d = std::get_if<Double>(&v);
      return d != nullptr && (std::isnan(d->value) ||
                              static_cast<double>(static_cast<float>(d->value)) == d->value);
    }
    case ColumnType::kBoolean:
      return std::holds_alternative<Boolean>(v);
    case ColumnType::kDecimal: {
      const auto* d = std::get_if<Decimal>(&v);
      constexpr int64_t kLimit = 10'000'000'000;  // 10^kDecimalPrecision
      return d != nullptr && d->scale == kDecimalScale && d->unscaled > -kLimit &&
             d->unscaled < kLimit;
    }
    case ColumnType::kBinary:
      return std::holds_alternative<Binary>(v);
  }
  return false;
}

bool ComparableTypes(ColumnType a, ColumnType b) {
  const auto family = [](ColumnType t) {
    switch (t) {
      case ColumnType::kByte:
      case ColumnType::kShort:
      case ColumnType::kInteger:
        return ColumnType::kLong;
      case ColumnType::kFloat:
        return ColumnType::kDouble;
      default:
        return t;
    }
  };
  return family(a) == family(b);
}

const char* CollationName(Collation collation) {
  return collation == Collation::kUtf8Lcase ? "UTF8_LCASE" : "UTF8_BINARY";
}

std::optional<Collation> CollationNamed(const std::string& name) {
  if (name == "UTF8_BINARY") return Collation::kUtf8Binary;
  if (name == "UTF8_LCASE") return Collation::kUtf8Lcase;
  return std::nullopt;
}

std::string PartitionColumnName(size_t i) {
  return i == 0 ? "part" : "part" + std::to_string(i + 1);
}

LogicalTable MakeTable(const std::vector<ColumnType>& partition_types,
                       std::optional<ColumnType> typed_column) {
  LogicalTable t;
  t.schema = {{"id", ColumnType::kLong, false}, {"value", ColumnType::kString, false}};
  if (typed_column.has_value()) t.schema.push_back({"x", *typed_column, false});
  for (size_t i = 0; i < partition_types.size(); ++i) {
    t.schema.push_back({PartitionColumnName(i), partition_types[i], true});
  }
  t.protocol_features = {"deletionVectors"};
  return t;
}

LogicalTable MakeTable(bool partitioned, ColumnType partition_type,
                       std::optional<ColumnType> typed_column) {
  return MakeTable(
      partitioned ? std::vector<ColumnType>{partition_type} : std::vector<ColumnType>{},
      typed_column);
}

}  // namespace rlc::model
