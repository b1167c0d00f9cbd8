#include "cli/predicates_command.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <vector>

#include "impl/base/status.h"
#include "impl/predicate/bind.h"
#include "impl/predicate/datetime.h"
#include "impl/predicate/parser.h"
#include "impl/predicate/row_evaluator.h"
#include "impl/predicate/schema.h"

namespace rlc::cli {
namespace {

using predicate::ColumnType;
using predicate::Literal;

Status CellError(const std::string& where, const std::string& text, const char* want) {
  return Status::InvalidArgument(where + ": '" + text + "' is not " + want);
}

Result<Literal> NumberCell(ColumnType type, const std::string& text, const std::string& where) {
  if (predicate::IsIntegral(type)) {
    int64_t v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
      return CellError(where, text, "an integer");
    return Literal::Long(v);
  }
  const double inf = std::numeric_limits<double>::infinity();
  double v = 0;
  if (text == "NaN") {
    v = std::nan("");
  } else if (text == "Infinity" || text == "-Infinity") {
    v = text[0] == '-' ? -inf : inf;
  } else {
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
      return CellError(where, text, "a number");
  }
  if (type == ColumnType::kFloat) v = static_cast<double>(static_cast<float>(v));
  return Literal::Double(v);
}

// A cell's value in its column's type (see the header).
Result<Literal> Cell(ColumnType type, const nlohmann::json& cell, const std::string& where) {
  if (cell.is_null()) return Literal::Null();
  if (!cell.is_string()) return Status::InvalidArgument(where + ": expected null or a string");
  const std::string text = cell.get<std::string>();
  switch (type) {
    case ColumnType::kString:
      return Literal::String(text);
    case ColumnType::kBoolean:
      if (text != "true" && text != "false") return CellError(where, text, "true or false");
      return Literal::Bool(text == "true");
    case ColumnType::kDate: {
      const std::optional<int64_t> days = predicate::ParseDate(text);
      if (!days) return CellError(where, text, "a date");
      return Literal::Date(*days);
    }
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampNtz: {
      const auto ts = predicate::ParseTimestamp(text);
      const bool zoned = type == ColumnType::kTimestamp;
      if (!ts || ts->has_zone != zoned)
        return CellError(where, text, zoned ? "a timestamp with a zone" : "a zone-less timestamp");
      return Literal::Timestamp(ts->micros);
    }
    default:
      if (predicate::CategoryOf(type) != predicate::ValueCategory::kNumeric ||
          type == ColumnType::kDecimal) {
        return Status::InvalidArgument(where + ": a column of type " +
                                       std::string(predicate::ColumnTypeName(type)) +
                                       " has no row value here");
      }
      return NumberCell(type, text, where);
  }
}

// One case's answers, or why its rows or schema cannot be read.
Result<nlohmann::ordered_json> Answer(const nlohmann::json& c, const std::string& where) {
  if (!c.is_object() || !c.contains("schema") || !c["schema"].is_string() || !c.contains("rows") ||
      !c["rows"].is_array() || !c.contains("predicates") || !c["predicates"].is_array()) {
    return Status::InvalidArgument(where + ": expected schema, rows and predicates");
  }
  RLC_ASSIGN_OR_RETURN(predicate::TableSchema schema,
                       predicate::TableSchema::Parse(c["schema"].get<std::string>(),
                                                     predicate::ColumnMappingMode::kNone, {}));
  const auto& fields = schema.fields();
  std::vector<predicate::RowValues> rows;
  for (size_t r = 0; r < c["rows"].size(); ++r) {
    const nlohmann::json& cells = c["rows"][r];
    const std::string at = where + ".rows[" + std::to_string(r) + "]";
    if (!cells.is_array() || cells.size() != fields.size())
      return Status::InvalidArgument(at + ": expected one cell per column");
    predicate::RowValues row;
    for (size_t i = 0; i < fields.size(); ++i) {
      RLC_ASSIGN_OR_RETURN(Literal v,
                           Cell(fields[i].type, cells[i], at + "[" + std::to_string(i) + "]"));
      row[{fields[i].name}] = std::move(v);
    }
    rows.push_back(std::move(row));
  }
  nlohmann::ordered_json out;
  out["id"] = c.value("id", "");
  out["answers"] = nlohmann::ordered_json::array();
  out["refused"] = nlohmann::ordered_json::array();
  for (const nlohmann::json& text : c["predicates"]) {
    nlohmann::ordered_json answers = nlohmann::ordered_json::array();
    Result<predicate::Expr> parsed = predicate::ParsePredicate(text.get<std::string>());
    Result<predicate::BoundExpr> bound = parsed.ok()
                                             ? predicate::Bind(*parsed, schema)
                                             : Result<predicate::BoundExpr>(parsed.status());
    if (!bound.ok()) {
      out["answers"].push_back(answers);
      out["refused"].push_back(bound.status().ToString());
      continue;
    }
    for (const predicate::RowValues& row : rows) {
      Result<predicate::Truth> t = predicate::EvaluateRow(*bound, row);
      answers.push_back(t.ok() ? predicate::TruthName(*t) : "ERROR: " + t.status().ToString());
    }
    out["answers"].push_back(answers);
    out["refused"].push_back(nullptr);
  }
  return out;
}

}  // namespace

int RunPredicates(const PredicatesOptions& options, std::ostream& out, std::ostream& err) {
  std::ifstream file;
  if (options.cases_file != "-") {
    file.open(options.cases_file);
    if (!file) {
      err << "rlc predicates: " << options.cases_file << ": cannot be opened\n";
      return 2;
    }
  }
  std::istream& in = options.cases_file == "-" ? std::cin : file;
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = options.cases_file + ":" + std::to_string(number);
    const nlohmann::json c = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (c.is_discarded()) {
      err << "rlc predicates: " << where << ": not a JSON document\n";
      return 2;
    }
    Result<nlohmann::ordered_json> answer = Answer(c, where);
    if (!answer.ok()) {
      err << "rlc predicates: " << answer.status().ToString() << "\n";
      return 2;
    }
    out << answer->dump() << "\n";
  }
  return 0;
}

}  // namespace rlc::cli
