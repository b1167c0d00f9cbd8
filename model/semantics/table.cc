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

LogicalTable MakeTable(bool partitioned, ColumnType partition_type) {
  LogicalTable t;
  t.schema = {{"id", ColumnType::kLong, false}, {"value", ColumnType::kString, false}};
  if (partitioned) t.schema.push_back({"part", partition_type, true});
  t.protocol_features = {"deletionVectors"};
  return t;
}

}  // namespace rlc::model
