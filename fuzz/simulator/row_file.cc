#include "fuzz/simulator/row_file.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "impl/delta/json_writer.h"
#include "impl/dv/descriptor.h"

namespace rlc::simulator {
namespace {

using nlohmann::json;

constexpr std::string_view kMagicLine = "rlc-rows 1";

const char* TypeName(RowFileColumn::Type t) {
  return t == RowFileColumn::Type::kLong ? "long" : "string";
}

Status Bad(size_t line, const std::string& why) {
  return Status::Corrupt("row file line " + std::to_string(line) + ": " + why);
}

}  // namespace

std::string EncodeRowFile(const RowFile& file) {
  // Written directly rather than through nlohmann::json: a history writes many small row files,
  // and building a JSON tree per row cost more than the rest of the write. The decoder below
  // (and the oracle's own reader) parse it as JSON.
  std::string out;
  out.reserve(64 + 32 * file.columns.size() + 24 * file.columns.size() * file.rows.size());
  out += kMagicLine;
  out += "\n{\"columns\":[";
  for (size_t i = 0; i < file.columns.size(); ++i) {
    const RowFileColumn& c = file.columns[i];
    out += i == 0 ? "{\"name\":" : ",{\"name\":";
    delta::AppendJsonQuoted(c.name, &out);
    out += ",\"type\":\"";
    out += TypeName(c.type);
    out += "\"}";
  }
  out += "]}\n";
  char digits[24];
  for (const auto& row : file.rows) {
    out += '[';
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) out += ',';
      const RowFileValue& v = row[i];
      if (!v.has_value()) {
        out += "null";
      } else if (const auto* n = std::get_if<int64_t>(&*v)) {
        out.append(digits, std::to_chars(digits, digits + sizeof(digits), *n).ptr);
      } else {
        delta::AppendJsonQuoted(std::get<std::string>(*v), &out);
      }
    }
    out += "]\n";
  }
  return out;
}

Result<RowFile> DecodeRowFile(std::string_view bytes) {
  RowFile file;
  size_t line_number = 0;
  size_t at = 0;
  while (at < bytes.size()) {
    const size_t end = bytes.find('\n', at);
    if (end == std::string_view::npos) return Bad(line_number + 1, "the last line has no newline");
    const std::string_view line = bytes.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (line_number == 1) {
      if (line != kMagicLine) return Bad(1, "expected \"rlc-rows 1\"");
      continue;
    }
    const json parsed = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) return Bad(line_number, "not JSON");
    if (line_number == 2) {
      if (!parsed.is_object() || !parsed.contains("columns") || !parsed.at("columns").is_array()) {
        return Bad(2, "expected {\"columns\": [...]}");
      }
      for (const json& c : parsed.at("columns")) {
        if (!c.is_object() || !c.contains("name") || !c.at("name").is_string() ||
            !c.contains("type")) {
          return Bad(2, "a column needs a name and a type");
        }
        const json& type = c.at("type");
        if (type != "long" && type != "string") return Bad(2, "column types are long or string");
        file.columns.push_back(
            {c.at("name").get<std::string>(),
             type == "long" ? RowFileColumn::Type::kLong : RowFileColumn::Type::kString});
      }
      continue;
    }
    if (!parsed.is_array() || parsed.size() != file.columns.size()) {
      return Bad(line_number,
                 "a row must be an array of " + std::to_string(file.columns.size()) + " values");
    }
    std::vector<RowFileValue> row;
    for (size_t i = 0; i < parsed.size(); ++i) {
      const json& v = parsed[i];
      if (v.is_null()) {
        row.emplace_back(std::nullopt);
      } else if (file.columns[i].type == RowFileColumn::Type::kLong && v.is_number_integer()) {
        row.emplace_back(v.get<int64_t>());
      } else if (file.columns[i].type == RowFileColumn::Type::kString && v.is_string()) {
        row.emplace_back(v.get<std::string>());
      } else {
        return Bad(line_number,
                   "column " + file.columns[i].name + " holds a value of another type");
      }
    }
    file.rows.push_back(std::move(row));
  }
  if (line_number < 2) return Bad(line_number + 1, "missing header");
  return file;
}

Status RowFileTableFiles::ScanRows(const std::string& path,
                                   const conflict::RowVisitor& visit) const {
  const std::string decoded = dv::UrlDecode(path).ok() ? *dv::UrlDecode(path) : path;
  if (decoded.size() < 5 || decoded.substr(decoded.size() - 5) != ".rows")
    return StorageTableFiles::ScanRows(path, visit);
  RLC_ASSIGN_OR_RETURN(std::string bytes, storage().ReadFile(table_root() + "/" + decoded));
  Result<RowFile> file = DecodeRowFile(bytes);
  if (!file.ok()) return file.status().WithContext(decoded);
  uint64_t position = 0;
  for (const auto& row : file->rows) {
    const predicate::RowLookup lookup =
        [&](const predicate::ColumnPath& column) -> std::optional<predicate::Literal> {
      if (column.size() != 1) return std::nullopt;
      for (size_t i = 0; i < file->columns.size(); ++i) {
        if (file->columns[i].name != column[0]) continue;
        if (!row[i].has_value()) return predicate::Literal::Null();
        if (const auto* n = std::get_if<int64_t>(&*row[i])) return predicate::Literal::Long(*n);
        return predicate::Literal::String(std::get<std::string>(*row[i]));
      }
      return std::nullopt;
    };
    if (!visit(position++, lookup)) break;
  }
  return Status::Ok();
}

}  // namespace rlc::simulator
