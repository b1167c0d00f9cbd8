#include "fuzz/oracle/final_rows.h"

#include <algorithm>

#include "fuzz/oracle/json_reader.h"

namespace rlc::oracle {

namespace {

// A partition value as the log writes it (text, or null), typed by its column, as a JSON value.
// Delta's protocol: null or an empty string is NULL, for every type.
bool PartitionValue(const model::Column& column, const std::optional<std::string>& text,
                    json::Value* out) {
  if (!text.has_value() || text->empty()) return true;  // NULL
  if (column.type == model::ColumnType::kString) {
    out->kind = json::Value::Kind::kString;
    out->text = *text;
    return true;
  }
  out->kind = json::Value::Kind::kNumber;
  out->text = *text;
  return out->Int().has_value();
}

}  // namespace

std::optional<std::vector<std::vector<model::Value>>> ReferenceContents(
    const ReferenceSnapshot& snapshot, const std::vector<model::Column>& schema, std::string* why) {
  std::vector<std::vector<model::Value>> rows;
  for (const ReferenceFile& f : snapshot.files) {
    if (!f.rows_unknown.empty()) return *why = f.rows_unknown, std::nullopt;
    // Each schema column's position among the file's columns (the last of a name, as Find).
    std::vector<std::optional<size_t>> position(schema.size());
    for (size_t c = 0; c < schema.size(); ++c) {
      for (size_t k = 0; k < f.columns.size(); ++k) {
        if (f.columns[k] == schema[c].name) position[c] = k;
      }
    }
    for (size_t r = 0; r < f.physical_values.size(); ++r) {
      if (f.deleted.count(r) != 0) continue;
      const json::Value& row = f.physical_values[r];
      const auto text = [&] { return RowText(f, r); };  // for an error only
      std::vector<model::Value> values;
      values.reserve(schema.size());
      for (size_t c = 0; c < schema.size(); ++c) {
        const model::Column& column = schema[c];
        // A partition column's value is the add's partitionValues, as every Delta reader takes
        // it: a Parquet file leaves the column out, and a row file's own copy of it yields to
        // the log (a commit that re-adds a file under other values moves its rows).
        json::Value from_log;
        const auto value =
            column.is_partition ? f.partition_values.find(column.name) : f.partition_values.end();
        const bool logged = value != f.partition_values.end();
        if (!logged && !position[c])
          return *why = "a row lacks column " + column.name + ": " + text(), std::nullopt;
        if (logged && !PartitionValue(column, value->second, &from_log))
          return *why = f.path + ": partition value of " + column.name + " is not a " +
                        (column.type == model::ColumnType::kLong ? "long" : "string"),
                 std::nullopt;
        const json::Value& v = logged ? from_log : row.items[*position[c]];
        if (v.is_null()) {
          values.emplace_back();
        } else if (column.type == model::ColumnType::kLong && v.Int()) {
          values.emplace_back(*v.Int());
        } else if (column.type == model::ColumnType::kString && v.is_string()) {
          values.emplace_back(v.text);
        } else {
          return *why = "column " + column.name + " holds a value of another type: " + text(),
                 std::nullopt;
        }
      }
      rows.push_back(std::move(values));
    }
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

FinalRowsReport CheckFinalRowsOfTable(const std::string& table_dir,
                                      const model::CommittedHistory& history,
                                      model::IsolationLevel level, size_t max_orders) {
  FinalRowsReport report;
  const ReferenceResult read = ReadReferenceSnapshot(table_dir, -1);
  if (!read.snapshot) {
    report.error = read.error;
    return report;
  }
  std::optional<std::vector<std::vector<model::Value>>> actual =
      ReferenceContents(*read.snapshot, history.initial.schema, &report.error);
  if (!actual) return report;
  report.actual = *actual;
  const model::ObservedHistory observed = model::Observe(history);
  report.result = model::CheckFinalRows(history, observed, level, report.actual, max_orders);
  return report;
}

}  // namespace rlc::oracle
