#include "model/semantics/table.h"

#include <algorithm>

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
  }
  return "long";
}

std::optional<ColumnType> ColumnTypeNamed(const std::string& name) {
  for (ColumnType t : {ColumnType::kLong, ColumnType::kString, ColumnType::kTimestamp,
                       ColumnType::kDate, ColumnType::kDouble}) {
    if (name == TypeName(t)) return t;
  }
  return std::nullopt;
}

LogicalTable MakeTable(bool partitioned, ColumnType partition_type,
                       std::optional<ColumnType> typed_column) {
  LogicalTable t;
  t.schema = {{"id", ColumnType::kLong, false}, {"value", ColumnType::kString, false}};
  if (typed_column.has_value()) t.schema.push_back({"x", *typed_column, false});
  if (partitioned) t.schema.push_back({"part", partition_type, true});
  t.protocol_features = {"deletionVectors"};
  return t;
}

}  // namespace rlc::model
