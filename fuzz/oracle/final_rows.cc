#include "fuzz/oracle/final_rows.h"

#include <algorithm>

#include "fuzz/oracle/json_reader.h"

namespace rlc::oracle {

std::optional<std::vector<std::vector<model::Value>>> ReferenceContents(const ReferenceSnapshot& snapshot,
                                                                        const std::vector<model::Column>& schema,
                                                                        std::string* why) {
  std::vector<std::vector<model::Value>> rows;
  for (const std::string& text : LiveRows(snapshot)) {
    std::string parse_error;
    const std::optional<json::Value> row = json::Parse(text, &parse_error);
    std::vector<model::Value> values;
    for (const model::Column& c : schema) {
      const json::Value* v = row ? row->Find(c.name) : nullptr;
      if (v == nullptr) return *why = "a row lacks column " + c.name + ": " + text, std::nullopt;
      if (v->is_null()) {
        values.emplace_back();
      } else if (c.type == model::ColumnType::kLong && v->Int()) {
        values.emplace_back(*v->Int());
      } else if (c.type == model::ColumnType::kString && v->is_string()) {
        values.emplace_back(v->text);
      } else {
        return *why = "column " + c.name + " holds a value of another type: " + text, std::nullopt;
      }
    }
    rows.push_back(std::move(values));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

FinalRowsReport CheckFinalRowsOfTable(const std::string& table_dir, const model::CommittedHistory& history,
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
