#include "fuzz/simulator/row_file.h"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include "impl/delta/json_writer.h"
#include "impl/dv/descriptor.h"
#include "impl/parquet/parquet_rows.h"
#include "impl/parquet/parquet_writer.h"

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
  RLC_RETURN_IF_ERROR(OverlayPartitionValues(decoded, *file));
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

const delta::StringMap RowFileTableFiles::kMovedFile;

Result<RowFileValue> LoggedPartitionValue(const RowFileColumn& column,
                                          const delta::StringMap& values, const std::string& file) {
  std::optional<std::string> text;
  for (const auto& [name, value] : values) {
    if (name == column.name) text = value;
  }
  if (!text.has_value() || text->empty()) return RowFileValue{};
  if (column.type == RowFileColumn::Type::kString) return RowFileValue{*text};
  int64_t n = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (error != std::errc() || end != text->data() + text->size())
    return Status::Unsupported(file + ": partition value of " + column.name + " is not a long");
  return RowFileValue{n};
}

Status RowFileTableFiles::OverlayPartitionValues(const std::string& decoded, RowFile& file) const {
  if (!partition_values_of_ || partition_columns_.empty()) return Status::Ok();
  const delta::StringMap* values = partition_values_of_(decoded);
  // No add of the log names it (the loser's own new file): the writer's copy is the log's to be.
  if (values == nullptr) return Status::Ok();
  if (values == &kMovedFile) {
    return Status::Unsupported("data file " + decoded +
                               ": the log names it under different partition values");
  }
  for (size_t i = 0; i < file.columns.size(); ++i) {
    const RowFileColumn& column = file.columns[i];
    if (std::find(partition_columns_.begin(), partition_columns_.end(), column.name) ==
        partition_columns_.end())
      continue;
    RLC_ASSIGN_OR_RETURN(const RowFileValue value,
                         LoggedPartitionValue(column, *values, "data file " + decoded));
    for (auto& row : file.rows) row[i] = value;
  }
  return Status::Ok();
}

namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool IsPartition(const std::vector<std::string>& partition_columns, const std::string& name) {
  return std::find(partition_columns.begin(), partition_columns.end(), name) !=
         partition_columns.end();
}

Result<std::string> EncodeParquet(const RowFile& file,
                                  const std::vector<std::string>& partition_columns) {
  std::vector<parquet::WrittenColumn> columns;
  std::vector<size_t> kept;
  for (size_t i = 0; i < file.columns.size(); ++i) {
    if (IsPartition(partition_columns, file.columns[i].name)) continue;
    kept.push_back(i);
    columns.push_back({file.columns[i].name, file.columns[i].type == RowFileColumn::Type::kLong
                                                 ? parquet::WrittenColumn::Type::kLong
                                                 : parquet::WrittenColumn::Type::kString});
  }
  std::vector<std::vector<predicate::Literal>> rows;
  rows.reserve(file.rows.size());
  for (const auto& row : file.rows) {
    std::vector<predicate::Literal>& values = rows.emplace_back();
    values.reserve(kept.size());
    for (size_t i : kept) {
      const RowFileValue& v = row[i];
      if (!v.has_value()) {
        values.push_back(predicate::Literal::Null());
      } else if (const auto* n = std::get_if<int64_t>(&*v)) {
        values.push_back(predicate::Literal::Long(*n));
      } else {
        values.push_back(predicate::Literal::String(std::get<std::string>(*v)));
      }
    }
  }
  // Small row groups: a DV's positions then cross group boundaries in ordinary histories. A large
  // file (a race's million-row table) gets about eight: thousands of four-row groups would make
  // reading it mostly a matter of parsing their metadata.
  parquet::ParquetWriteOptions options;
  options.row_group_rows = std::max<int64_t>(4, static_cast<int64_t>(rows.size() / 8));
  return parquet::WriteParquetRows(columns, rows, options);
}

// A partition column's value from the add: NULL, a long's decimal text, or a string as is.
Result<RowFileValue> PartitionValueOf(const std::string& path, const RowFileColumn& column,
                                      const delta::StringMap& partition_values) {
  for (const auto& [name, text] : partition_values) {
    if (name != column.name) continue;
    if (!text.has_value()) return RowFileValue{};
    if (column.type == RowFileColumn::Type::kString) return RowFileValue{*text};
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
    if (ec != std::errc() || end != text->data() + text->size() || text->empty()) {
      return Status::Corrupt(path + ": partition value of " + column.name +
                             " is not a long: " + *text);
    }
    return RowFileValue{n};
  }
  return Status::Corrupt(path + ": the add has no partition value of " + column.name);
}

Result<RowFile> DecodeParquet(const std::string& path, std::string_view bytes,
                              const std::vector<RowFileColumn>& columns,
                              const std::vector<std::string>& partition_columns,
                              const delta::StringMap& partition_values) {
  RowFile file;
  file.columns = columns;
  std::vector<parquet::FileColumn> in_file;
  std::vector<std::optional<RowFileValue>> fixed(columns.size());  // partition columns' values
  for (size_t i = 0; i < columns.size(); ++i) {
    if (IsPartition(partition_columns, columns[i].name)) {
      RLC_ASSIGN_OR_RETURN(fixed[i], PartitionValueOf(path, columns[i], partition_values));
    } else {
      in_file.push_back({{columns[i].name}, {}});
    }
  }
  std::optional<Status> bad;
  const Status scanned = parquet::ScanParquetRows(
      path, bytes, in_file, [&](uint64_t, const std::vector<predicate::Literal>& values) {
        std::vector<RowFileValue>& row = file.rows.emplace_back();
        size_t next = 0;
        for (size_t i = 0; i < columns.size(); ++i) {
          if (fixed[i].has_value()) {
            row.push_back(*fixed[i]);
            continue;
          }
          const predicate::Literal& v = values[next++];
          const bool is_long = columns[i].type == RowFileColumn::Type::kLong;
          if (v.kind == predicate::Literal::Kind::kNull) {
            row.emplace_back();
          } else if (is_long && v.kind == predicate::Literal::Kind::kLong) {
            row.emplace_back(v.int_value);
          } else if (!is_long && v.kind == predicate::Literal::Kind::kString) {
            row.emplace_back(v.string_value);
          } else {
            bad = Status::Corrupt(path + ": column " + columns[i].name +
                                  " holds a value of another type");
            return false;
          }
        }
        return true;
      });
  RLC_RETURN_IF_ERROR(scanned);
  if (bad.has_value()) return *bad;
  return file;
}

}  // namespace

const char* DataFileExtension(DataFileFormat format) {
  return format == DataFileFormat::kParquet ? ".parquet" : ".rows";
}

Result<std::string> EncodeDataFile(const RowFile& file, DataFileFormat format,
                                   const std::vector<std::string>& partition_columns) {
  if (format == DataFileFormat::kRowFile) return EncodeRowFile(file);
  return EncodeParquet(file, partition_columns);
}

Result<RowFile> DecodeDataFile(const std::string& path, std::string_view bytes,
                               const std::vector<RowFileColumn>& columns,
                               const std::vector<std::string>& partition_columns,
                               const delta::StringMap& partition_values) {
  if (EndsWith(path, ".parquet"))
    return DecodeParquet(path, bytes, columns, partition_columns, partition_values);
  if (!EndsWith(path, ".rows")) return Status::Unsupported(path + ": not a data file rlc writes");
  Result<RowFile> file = DecodeRowFile(bytes);
  if (!file.ok()) return file.status().WithContext(path);
  return file;
}

}  // namespace rlc::simulator
