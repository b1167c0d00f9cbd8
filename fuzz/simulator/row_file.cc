#include "fuzz/simulator/row_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include <nlohmann/json.hpp>

#include "impl/delta/json_writer.h"
#include "impl/dv/descriptor.h"
#include "impl/parquet/parquet_rows.h"
#include "impl/parquet/parquet_writer.h"
#include "impl/predicate/partition_value.h"

namespace rlc::simulator {
namespace {

using nlohmann::json;

constexpr std::string_view kMagicLine = "rlc-rows 1";

using Type = RowFileColumn::Type;

constexpr std::pair<Type, std::string_view> kTypeNames[] = {
    {Type::kLong, "long"},
    {Type::kString, "string"},
    {Type::kTimestamp, "timestamp"},
    {Type::kDate, "date"},
    {Type::kDouble, "double"},
    {Type::kBoolean, "boolean"},
    {Type::kByte, "byte"},
    {Type::kShort, "short"},
    {Type::kInteger, "integer"},
    {Type::kFloat, "float"},
    {Type::kDecimal, "decimal(10,2)"},
    {Type::kBinary, "binary"},
    {Type::kTimestampNtz, "timestamp_ntz"},
};

std::string_view TypeName(Type t) {
  for (const auto& [type, name] : kTypeNames) {
    if (type == t) return name;
  }
  return "long";
}

std::optional<Type> TypeNamed(std::string_view name) {
  for (const auto& [type, n] : kTypeNames) {
    if (n == name) return type;
  }
  return std::nullopt;
}

bool IsInteger(Type t) {
  return t == Type::kLong || t == Type::kInteger || t == Type::kShort || t == Type::kByte ||
         t == Type::kTimestamp || t == Type::kTimestampNtz || t == Type::kDate ||
         t == Type::kDecimal;
}

bool IsFloating(Type t) { return t == Type::kDouble || t == Type::kFloat; }

std::string Hex(const std::string& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (unsigned char c : bytes) text += {kHex[c >> 4], kHex[c & 15]};
  return text;
}

std::optional<std::string> Unhex(const std::string& text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string bytes;
  for (size_t i = 0; i < text.size(); i += 2) {
    unsigned value = 0;
    const auto r = std::from_chars(text.data() + i, text.data() + i + 2, value, 16);
    if (r.ec != std::errc() || r.ptr != text.data() + i + 2) return std::nullopt;
    bytes += static_cast<char>(value);
  }
  return bytes;
}

// A row file's double: a number, or one of the three strings.
std::optional<double> DoubleOf(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (!v.is_string()) return std::nullopt;
  const std::string& text = v.get_ref<const std::string&>();
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (text == "Infinity") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  return std::nullopt;
}

// One value of a column of `type` from a row file's JSON; nullopt for a value of another type.
std::optional<RowFileValue> CellOf(Type type, const json& v) {
  if (v.is_null()) return RowFileValue{};
  if (IsInteger(type) && v.is_number_integer()) return RowFileValue{v.get<int64_t>()};
  if (type == Type::kBoolean && v.is_boolean()) return RowFileValue{int64_t{v.get<bool>()}};
  if (type == Type::kString && v.is_string()) return RowFileValue{v.get<std::string>()};
  if (type == Type::kBinary && v.is_string()) {
    if (std::optional<std::string> bytes = Unhex(v.get<std::string>())) return RowFileValue{*bytes};
  }
  if (IsFloating(type)) {
    if (const std::optional<double> d = DoubleOf(v)) return RowFileValue{*d};
  }
  return std::nullopt;
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
      const Type type = file.columns[i].type;
      if (!v.has_value()) {
        out += "null";
      } else if (type == Type::kBoolean) {
        out += std::get<int64_t>(*v) != 0 ? "true" : "false";
      } else if (type == Type::kBinary) {
        delta::AppendJsonQuoted(Hex(std::get<std::string>(*v)), &out);
      } else if (const auto* n = std::get_if<int64_t>(&*v)) {
        out.append(digits, std::to_chars(digits, digits + sizeof(digits), *n).ptr);
      } else if (const auto* d = std::get_if<double>(&*v)) {
        AppendJsonDouble(*d, &out);
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
        const std::optional<Type> known =
            type.is_string() ? TypeNamed(type.get_ref<const std::string&>()) : std::nullopt;
        if (!known) return Bad(2, "a column's type is not one of Delta's primitive types");
        file.columns.push_back({c.at("name").get<std::string>(), *known});
      }
      continue;
    }
    if (!parsed.is_array() || parsed.size() != file.columns.size()) {
      return Bad(line_number,
                 "a row must be an array of " + std::to_string(file.columns.size()) + " values");
    }
    std::vector<RowFileValue> row;
    for (size_t i = 0; i < parsed.size(); ++i) {
      std::optional<RowFileValue> cell = CellOf(file.columns[i].type, parsed[i]);
      if (!cell) {
        return Bad(line_number,
                   "column " + file.columns[i].name + " holds a value of another type");
      }
      row.push_back(std::move(*cell));
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
  // As rlc's Parquet reader: no rows of a table with a column it cannot read (a row comparison
  // would need it whole), so that a history reconciles alike on row files and on Parquet.
  if (!refused_because_.empty()) return Status::Unsupported(decoded + ": " + refused_because_);
  for (const RowFileColumn& c : file->columns) {
    if (c.type == Type::kDecimal || c.type == Type::kBinary)
      return Status::Unsupported(decoded + ": column " + c.name +
                                 " has a type rlc does not read from data files");
  }
  RLC_RETURN_IF_ERROR(OverlayPartitionValues(decoded, *file));
  uint64_t position = 0;
  for (const auto& row : file->rows) {
    const predicate::RowLookup lookup =
        [&](const predicate::ColumnPath& column) -> std::optional<predicate::Literal> {
      if (column.size() != 1) return std::nullopt;
      const auto mapped = physical_names_.find(column[0]);
      const std::string& name = mapped == physical_names_.end() ? column[0] : mapped->second;
      for (size_t i = 0; i < file->columns.size(); ++i) {
        if (file->columns[i].name != name) continue;
        if (!row[i].has_value()) return predicate::Literal::Null();
        return ToLiteral(file->columns[i].type, *row[i]);
      }
      return std::nullopt;
    };
    if (!visit(position++, lookup)) break;
  }
  return Status::Ok();
}

const delta::StringMap RowFileTableFiles::kMovedFile;

std::string DoubleText(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char digits[32];
  std::string text(digits, std::to_chars(digits, digits + sizeof(digits), v).ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

void AppendJsonDouble(double v, std::string* out) {
  const std::string text = DoubleText(v);
  if (std::isfinite(v)) return void(*out += text);
  *out += '"' + text + '"';
}

predicate::Literal ToLiteral(RowFileColumn::Type type,
                             const std::variant<int64_t, std::string, double>& v) {
  if (const auto* d = std::get_if<double>(&v)) return predicate::Literal::Double(*d);
  if (const auto* text = std::get_if<std::string>(&v)) return predicate::Literal::String(*text);
  const int64_t n = std::get<int64_t>(v);
  if (type == Type::kTimestamp) return predicate::Literal::Timestamp(n);
  if (type == Type::kTimestampNtz) return predicate::Literal::WallClock(n);
  if (type == Type::kDate) return predicate::Literal::Date(n);
  if (type == Type::kBoolean) return predicate::Literal::Bool(n != 0);
  return predicate::Literal::Long(n);
}

namespace {

predicate::ColumnType PredicateType(Type type) {
  using P = predicate::ColumnType;
  static constexpr std::pair<Type, P> kTypes[] = {
      {Type::kLong, P::kLong},
      {Type::kString, P::kString},
      {Type::kTimestamp, P::kTimestamp},
      {Type::kDate, P::kDate},
      {Type::kDouble, P::kDouble},
      {Type::kBoolean, P::kBoolean},
      {Type::kByte, P::kByte},
      {Type::kShort, P::kShort},
      {Type::kInteger, P::kInteger},
      {Type::kFloat, P::kFloat},
      {Type::kDecimal, P::kDecimal},
      {Type::kBinary, P::kBinary},
      {Type::kTimestampNtz, P::kTimestampNtz},
  };
  for (const auto& [from, to] : kTypes) {
    if (from == type) return to;
  }
  return P::kOther;
}

// What an engine reads from a decimal(10,2) partition value: "-12.5", "7", "0.05" at scale 2.
// nullopt for text that is no such decimal (impl's reading gives the checker no decimal value).
std::optional<int64_t> UnscaledDecimal(const std::string& text) {
  const size_t point = text.find('.');
  std::string digits = text.substr(0, point);
  std::string fraction = point == std::string::npos ? "" : text.substr(point + 1);
  if (fraction.size() > 2) return std::nullopt;
  while (fraction.size() < 2) fraction += '0';
  digits += fraction;
  int64_t v = 0;
  const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) return std::nullopt;
  return v;
}

}  // namespace

Result<RowFileValue> LoggedPartitionValue(const RowFileColumn& column,
                                          const delta::StringMap& values, const std::string& file,
                                          std::optional<int> session_offset_minutes) {
  std::optional<std::string> text;
  for (const auto& [name, value] : values) {
    if (name == column.name) text = value;
  }
  if (!text.has_value() || text->empty()) return RowFileValue{};
  if (column.type == Type::kString) return RowFileValue{*text};
  // An engine of the writers' session reads what they wrote: the wall clock in its zone, and
  // NaN (which no bound can hold, so the checker reads it as no one value).
  if (column.type == Type::kTimestamp && session_offset_minutes.has_value()) {
    const std::optional<predicate::ParsedTimestamp> ts = predicate::ParseTimestamp(*text);
    if (ts && !ts->has_zone)
      return RowFileValue{ts->micros - int64_t{*session_offset_minutes} * 60 * 1'000'000};
  }
  if (IsFloating(column.type) && session_offset_minutes.has_value() && *text == "NaN")
    return RowFileValue{std::numeric_limits<double>::quiet_NaN()};
  if (column.type == Type::kDecimal && session_offset_minutes.has_value()) {
    if (const std::optional<int64_t> unscaled = UnscaledDecimal(*text))
      return RowFileValue{*unscaled};
  }
  const predicate::PartitionValue read =
      predicate::ReadPartitionValue(PredicateType(column.type), text);
  if (read.kind == predicate::PartitionValue::Kind::kNull) return RowFileValue{};
  if (read.kind != predicate::PartitionValue::Kind::kExact) {
    return Status::Unsupported(file + ": partition value of " + column.name + " (" + *text +
                               ") is not one " + std::string(TypeName(column.type)) +
                               (read.why != nullptr ? std::string(": ") + read.why : ""));
  }
  if (IsFloating(column.type)) return RowFileValue{read.lower.double_value};
  return RowFileValue{read.lower.int_value};
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

parquet::WrittenColumn::Type WrittenType(Type type) {
  using W = parquet::WrittenColumn::Type;
  static constexpr std::pair<Type, W> kTypes[] = {
      {Type::kLong, W::kLong},
      {Type::kString, W::kString},
      {Type::kTimestamp, W::kTimestamp},
      {Type::kDate, W::kDate},
      {Type::kDouble, W::kDouble},
      {Type::kBoolean, W::kBoolean},
      {Type::kByte, W::kByte},
      {Type::kShort, W::kShort},
      {Type::kInteger, W::kInteger},
      {Type::kFloat, W::kFloat},
      {Type::kDecimal, W::kDecimal},
      {Type::kBinary, W::kBinary},
      {Type::kTimestampNtz, W::kTimestampNtz},
  };
  for (const auto& [from, to] : kTypes) {
    if (from == type) return to;
  }
  return W::kLong;
}
// The row file's value of a literal the Parquet reader gives for a column of `type`; nullopt when
// the literal is of another type.
std::optional<RowFileValue> FromLiteral(Type type, const predicate::Literal& v) {
  using Kind = predicate::Literal::Kind;
  if (v.kind == Kind::kNull) return RowFileValue{};
  Kind expected = Kind::kLong;  // the integral types, and a decimal read as stored
  if (type == Type::kString || type == Type::kBinary) expected = Kind::kString;
  if (IsFloating(type)) expected = Kind::kDouble;
  if (type == Type::kBoolean) expected = Kind::kBool;
  if (type == Type::kDate) expected = Kind::kDate;
  if (type == Type::kTimestamp || type == Type::kTimestampNtz) expected = Kind::kTimestamp;
  if (v.kind != expected) return std::nullopt;
  if (expected == Kind::kString) return RowFileValue{v.string_value};
  if (expected == Kind::kDouble) return RowFileValue{v.double_value};
  return RowFileValue{v.int_value};
}
Result<std::string> EncodeParquet(const RowFile& file,
                                  const std::vector<std::string>& partition_columns) {
  std::vector<parquet::WrittenColumn> columns;
  std::vector<size_t> kept;
  for (size_t i = 0; i < file.columns.size(); ++i) {
    if (IsPartition(partition_columns, file.columns[i].name)) continue;
    kept.push_back(i);
    columns.push_back({file.columns[i].name, WrittenType(file.columns[i].type), 10, 2});
  }
  std::vector<std::vector<predicate::Literal>> rows;
  rows.reserve(file.rows.size());
  for (const auto& row : file.rows) {
    std::vector<predicate::Literal>& values = rows.emplace_back();
    values.reserve(kept.size());
    for (size_t i : kept) {
      const RowFileValue& v = row[i];
      values.push_back(v.has_value() ? ToLiteral(file.columns[i].type, *v)
                                     : predicate::Literal::Null());
    }
  }
  // Small row groups: a DV's positions then cross group boundaries in ordinary histories. A large
  // file (a race's million-row table) gets about eight: thousands of four-row groups would make
  // reading it mostly a matter of parsing their metadata.
  parquet::ParquetWriteOptions options;
  options.row_group_rows = std::max<int64_t>(4, static_cast<int64_t>(rows.size() / 8));
  return parquet::WriteParquetRows(columns, rows, options);
}

Result<RowFile> DecodeParquet(const std::string& path, std::string_view bytes,
                              const std::vector<RowFileColumn>& columns,
                              const std::vector<std::string>& partition_columns,
                              const delta::StringMap& partition_values,
                              int session_offset_minutes) {
  RowFile file;
  file.columns = columns;
  std::vector<parquet::FileColumn> in_file;
  std::vector<std::optional<RowFileValue>> fixed(columns.size());  // partition columns' values
  for (size_t i = 0; i < columns.size(); ++i) {
    if (IsPartition(partition_columns, columns[i].name)) {
      bool named = false;
      for (const auto& entry : partition_values) named = named || entry.first == columns[i].name;
      if (!named)
        return Status::Corrupt(path + ": the add has no partition value of " + columns[i].name);
      RLC_ASSIGN_OR_RETURN(fixed[i], LoggedPartitionValue(columns[i], partition_values, path,
                                                          session_offset_minutes));
    } else {
      in_file.push_back({{columns[i].name}, {}, /*as_stored=*/true});
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
          std::optional<RowFileValue> cell = FromLiteral(columns[i].type, values[next++]);
          if (!cell) {
            bad = Status::Corrupt(path + ": column " + columns[i].name +
                                  " holds a value of another type");
            return false;
          }
          row.push_back(std::move(*cell));
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

std::string FloatText(double v) {
  if (!std::isfinite(v)) return DoubleText(v);
  char digits[32];
  std::string text(digits,
                   std::to_chars(digits, digits + sizeof(digits), static_cast<float>(v)).ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

void AppendJsonFloat(double v, std::string* out) {
  if (!std::isfinite(v)) return AppendJsonDouble(v, out);
  *out += FloatText(v);
}

Result<std::string> EncodeDataFile(const RowFile& file, DataFileFormat format,
                                   const std::vector<std::string>& partition_columns) {
  if (format == DataFileFormat::kRowFile) return EncodeRowFile(file);
  return EncodeParquet(file, partition_columns);
}

Result<RowFile> DecodeDataFile(const std::string& path, std::string_view bytes,
                               const std::vector<RowFileColumn>& columns,
                               const std::vector<std::string>& partition_columns,
                               const delta::StringMap& partition_values,
                               int session_offset_minutes) {
  if (EndsWith(path, ".parquet"))
    return DecodeParquet(path, bytes, columns, partition_columns, partition_values,
                         session_offset_minutes);
  if (!EndsWith(path, ".rows")) return Status::Unsupported(path + ": not a data file rlc writes");
  Result<RowFile> file = DecodeRowFile(bytes);
  if (!file.ok()) return file.status().WithContext(path);
  return file;
}

}  // namespace rlc::simulator
