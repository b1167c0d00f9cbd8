#include "fuzz/oracle/final_rows.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "fuzz/oracle/json_reader.h"

namespace rlc::oracle {

namespace {

// Digits at text[at, at + n), or -1.
int64_t Digits(std::string_view text, size_t at, size_t n) {
  if (at + n > text.size()) return -1;
  int64_t v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    v = v * 10 + (text[i] - '0');
  }
  return v;
}

// "YYYY-MM-DD" at the start of text: days since 1970-01-01.
std::optional<int64_t> DateAt(std::string_view text) {
  const int64_t y = Digits(text, 0, 4), m = Digits(text, 5, 2), d = Digits(text, 8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > 31 || text[4] != '-' || text[7] != '-')
    return std::nullopt;
  const int64_t days = model::DaysFromCivil({y, static_cast<int>(m), static_cast<int>(d)});
  if (model::DateText(days) != text.substr(0, 10)) return std::nullopt;  // 02-30 and the like
  return days;
}

// A timestamp partition value as Delta's writers write one: "YYYY-MM-DD HH:MM:SS", a fraction
// of up to six digits, then "Z", an offset "+HH:MM", or nothing: the wall clock in the session
// zone (`session_offset_minutes`). Microseconds since the epoch.
std::optional<int64_t> TimestampOf(std::string_view text, int session_offset_minutes) {
  if (text.size() < 19 || (text[10] != ' ' && text[10] != 'T') || text[13] != ':' ||
      text[16] != ':')
    return std::nullopt;
  const std::optional<int64_t> days = DateAt(text);
  const int64_t h = Digits(text, 11, 2), mi = Digits(text, 14, 2), sec = Digits(text, 17, 2);
  if (!days || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59) return std::nullopt;
  int64_t micros = ((*days * 24 + h) * 60 + mi) * 60 * 1000000 + sec * 1000000;
  size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    size_t n = 0;
    int64_t fraction = 0;
    while (at + 1 + n < text.size() && n < 6 && Digits(text, at + 1 + n, 1) >= 0)
      fraction = fraction * 10 + Digits(text, at + 1 + n, 1), ++n;
    if (n == 0) return std::nullopt;
    for (size_t k = n; k < 6; ++k) fraction *= 10;
    micros += fraction;
    at += 1 + n;
  }
  const std::string_view zone = text.substr(at);
  if (zone.empty()) return micros - int64_t{session_offset_minutes} * 60 * 1000000;
  if (zone == "Z") return micros;
  const int64_t zh = Digits(zone, 1, 2), zm = Digits(zone, 4, 2);
  if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' || zh < 0 || zm < 0)
    return std::nullopt;
  const int64_t offset = (zh * 60 + zm) * 60 * 1000000;
  return zone[0] == '+' ? micros - offset : micros + offset;
}

// A double written as text: digits as JSON or Java write them, or NaN and the infinities.
std::optional<double> DoubleOf(std::string_view text) {
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (text == "Infinity") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  double v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// An integral value of `type` (byte, short, integer, long) within its range.
std::optional<model::Value> Integral(model::ColumnType type, std::optional<int64_t> n) {
  if (!n) return std::nullopt;
  const model::Value v{*n};
  if (!model::HoldsValueOf(type, v)) return std::nullopt;
  return v;
}

// "-12.5", "7", "0.05" as a decimal(10,2): the oracle's own reading of the text Spark writes.
std::optional<model::Value> DecimalOf(std::string_view text) {
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) text.remove_prefix(1);
  const size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? "" : text.substr(point + 1);
  if (whole.empty() || fraction.size() > 2) return std::nullopt;
  int64_t unscaled = 0;
  for (char c :
       std::string(whole) + std::string(fraction) + std::string(2 - fraction.size(), '0')) {
    if (c < '0' || c > '9' || unscaled > INT64_MAX / 100) return std::nullopt;
    unscaled = unscaled * 10 + (c - '0');
  }
  const model::Value v = model::Decimal{negative ? -unscaled : unscaled, model::kDecimalScale};
  if (!model::HoldsValueOf(model::ColumnType::kDecimal, v)) return std::nullopt;
  return v;
}

// A float as its column holds it: the text read as a float (rounded once, to the float, as every
// reader's parse gives it), widened.
std::optional<model::Value> FloatOf(std::string_view text) {
  if (const auto d = DoubleOf(text); d && !std::isfinite(*d)) return model::Double{*d};
  float f = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), f);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return model::Double{static_cast<double>(f)};
}

std::optional<std::string> Unhex(std::string_view text) {
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

// A partition value as the log writes it (text, or null), as its column's value. Delta's
// protocol: null or an empty string is NULL, for every type.
std::optional<model::Value> PartitionValue(const model::Column& column,
                                           const std::optional<std::string>& text,
                                           int session_offset_minutes) {
  using T = model::ColumnType;
  if (!text.has_value() || text->empty()) return model::Value{};
  json::Value number;
  number.kind = json::Value::Kind::kNumber;
  number.text = *text;
  switch (column.type) {
    case T::kString:
      return model::Value{*text};
    case T::kLong:
    case T::kInteger:
    case T::kShort:
    case T::kByte:
      return Integral(column.type, number.Int());
    case T::kTimestamp:
      if (const auto t = TimestampOf(*text, session_offset_minutes)) return model::Timestamp{*t};
      return std::nullopt;
    case T::kTimestampNtz:  // a wall clock: read in UTC, which shifts it by nothing
      if (text->find_first_of("Z+-", 10) != std::string::npos) return std::nullopt;
      if (const auto t = TimestampOf(*text, 0)) return model::TimestampNtz{*t};
      return std::nullopt;
    case T::kDate:
      if (text->size() != 10) return std::nullopt;
      if (const auto d = DateAt(*text)) return model::Date{static_cast<int32_t>(*d)};
      return std::nullopt;
    case T::kDouble:
      if (const auto d = DoubleOf(*text)) return model::Double{*d};
      return std::nullopt;
    case T::kFloat:
      return FloatOf(*text);
    case T::kBoolean:
      if (*text == "true" || *text == "false") return model::Boolean{*text == "true"};
      return std::nullopt;
    case T::kDecimal:
      return DecimalOf(*text);
    case T::kBinary:  // the model writes no binary partition
      return std::nullopt;
  }
  return std::nullopt;
}

// A data file's value (JSON, from a row file or the oracle's Parquet reading) as its column's:
// integers for the integral types, timestamps and timestamp_ntz (microseconds), dates (days) and
// decimals (unscaled); numbers or the three words for floats and doubles; true and false; strings
// for strings, hexadecimal for binaries.
std::optional<model::Value> FileValue(const model::Column& column, const json::Value& v) {
  using T = model::ColumnType;
  if (v.is_null()) return model::Value{};
  const bool is_number = v.kind == json::Value::Kind::kNumber;
  switch (column.type) {
    case T::kString:
      if (v.is_string()) return model::Value{v.text};
      break;
    case T::kLong:
    case T::kInteger:
    case T::kShort:
    case T::kByte:
      return Integral(column.type, v.Int());
    case T::kTimestamp:
      if (v.Int()) return model::Timestamp{*v.Int()};
      break;
    case T::kTimestampNtz:
      if (v.Int()) return model::TimestampNtz{*v.Int()};
      break;
    case T::kDate:
      if (v.Int() && *v.Int() >= INT32_MIN && *v.Int() <= INT32_MAX)
        return model::Date{static_cast<int32_t>(*v.Int())};
      break;
    case T::kDouble:
    case T::kFloat:
      if (is_number || v.is_string()) {
        const auto d = DoubleOf(v.text);
        const model::Value value = model::Double{d.value_or(0)};
        if (d && model::HoldsValueOf(column.type, value)) return value;
      }
      break;
    case T::kBoolean:
      if (v.kind == json::Value::Kind::kTrue || v.kind == json::Value::Kind::kFalse)
        return model::Boolean{v.kind == json::Value::Kind::kTrue};
      break;
    case T::kDecimal:
      if (v.Int()) {
        const model::Value value = model::Decimal{*v.Int(), model::kDecimalScale};
        if (model::HoldsValueOf(column.type, value)) return value;
      }
      break;
    case T::kBinary:
      if (v.is_string()) {
        if (auto bytes = Unhex(v.text)) return model::Binary{std::move(*bytes)};
      }
      break;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<std::vector<model::Value>>> ReferenceContents(
    const ReferenceSnapshot& snapshot, const model::LogicalTable& table, std::string* why) {
  const std::vector<model::Column>& schema = table.schema;
  std::vector<std::vector<model::Value>> rows;
  for (const ReferenceFile& f : snapshot.files) {
    if (!f.rows_unknown.empty()) return *why = f.rows_unknown, std::nullopt;
    // Each schema column's position among the file's columns (the last of a name, as Find).
    std::vector<std::optional<size_t>> position(schema.size());
    for (size_t c = 0; c < schema.size(); ++c) {
      for (size_t k = 0; k < f.columns.size(); ++k) {
        if (f.columns[k] == snapshot.NameInFiles(schema[c].name)) position[c] = k;
      }
    }
    // A partition column's value is the add's partitionValues, as every Delta reader takes it:
    // a Parquet file leaves the column out, and a row file's own copy of it yields to the log
    // (a commit that re-adds a file under other values moves its rows). A key the add leaves out
    // reads as NULL, as Delta Spark reads it (and the invariants too).
    std::vector<std::optional<model::Value>> logged(schema.size());
    for (size_t c = 0; c < schema.size(); ++c) {
      if (!schema[c].is_partition) continue;
      const auto value = f.partition_values.find(snapshot.NameInFiles(schema[c].name));
      const std::optional<std::string> text =
          value == f.partition_values.end() ? std::nullopt : value->second;
      logged[c] = PartitionValue(schema[c], text, table.session_offset_minutes);
      if (!logged[c])
        return *why = f.path + ": partition value of " + schema[c].name + " is not a " +
                      model::TypeName(schema[c].type),
               std::nullopt;
    }
    for (size_t r = 0; r < f.physical_values.size(); ++r) {
      if (f.deleted.count(r) != 0) continue;
      const json::Value& row = f.physical_values[r];
      std::vector<model::Value> values;
      values.reserve(schema.size());
      for (size_t c = 0; c < schema.size(); ++c) {
        if (logged[c]) {
          values.push_back(*logged[c]);
          continue;
        }
        if (!position[c])
          return *why = "a row lacks column " + schema[c].name + ": " + RowText(f, r), std::nullopt;
        std::optional<model::Value> v = FileValue(schema[c], row.items[*position[c]]);
        if (!v)
          return *why = "column " + schema[c].name +
                        " holds a value of another type: " + RowText(f, r),
                 std::nullopt;
        values.push_back(std::move(*v));
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
      ReferenceContents(*read.snapshot, history.initial, &report.error);
  if (!actual) return report;
  report.actual = *actual;
  const model::ObservedHistory observed = model::Observe(history);
  report.result = model::CheckFinalRows(history, observed, level, report.actual, max_orders);
  return report;
}

}  // namespace rlc::oracle
