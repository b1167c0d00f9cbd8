#include "fuzz/oracle/reference_parquet.h"

#include <arrow/io/memory.h>
#include <parquet/column_reader.h>
#include <parquet/exception.h>
#include <parquet/file_reader.h>
#include <parquet/metadata.h>
#include <parquet/schema.h>
#include <parquet/types.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

namespace rlc::oracle {
namespace {

constexpr int64_t kBatch = 1024;
// More rows than any simulated table holds: a footer that claims more is refused before the
// rows are allocated.
constexpr int64_t kMaxRows = int64_t{1} << 24;

json::Value Number(int64_t n) {
  json::Value v;
  v.kind = json::Value::Kind::kNumber;
  v.text = std::to_string(n);
  return v;
}

// A double as text the oracle's value reading takes back (final_rows.cc): the shortest digits, or
// a string for NaN and the infinities.
json::Value DoubleValue(double d) {
  json::Value v;
  if (std::isnan(d) || std::isinf(d)) {
    v.kind = json::Value::Kind::kString;
    v.text = std::isnan(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity");
    return v;
  }
  char digits[32];
  v.kind = json::Value::Kind::kNumber;
  v.text.assign(digits, std::to_chars(digits, digits + sizeof(digits), d).ptr);
  return v;
}

json::Value Text(const ::parquet::ByteArray& bytes) {
  json::Value v;
  v.kind = json::Value::Kind::kString;
  v.text.assign(reinterpret_cast<const char*>(bytes.ptr), bytes.len);
  return v;
}

// A binary's bytes as the row file holds them: lowercase hexadecimal.
json::Value HexText(const ::parquet::ByteArray& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  json::Value v;
  v.kind = json::Value::Kind::kString;
  for (uint32_t i = 0; i < bytes.len; ++i)
    v.text += {kHex[bytes.ptr[i] >> 4], kHex[bytes.ptr[i] & 15]};
  return v;
}

json::Value Boolean(bool b) {
  json::Value v;
  v.kind = b ? json::Value::Kind::kTrue : json::Value::Kind::kFalse;
  return v;
}

// A decimal stored in a fixed-length big-endian two's complement array, as its unscaled integer;
// a string (which no decimal column takes) when it does not fit 64 bits.
json::Value Unscaled(const uint8_t* bytes, int length) {
  if (length < 1 || length > 16) return Text({0, nullptr});
  // The value fits 64 bits when every byte above the last eight repeats the sign.
  const uint8_t sign = (bytes[0] & 0x80) != 0 ? 0xFF : 0x00;
  for (int i = 0; i + 8 < length; ++i) {
    if (bytes[i] != sign) return Text({0, nullptr});
  }
  uint64_t bits = sign == 0xFF ? ~uint64_t{0} : 0;
  for (int i = std::max(0, length - 8); i < length; ++i) bits = (bits << 8) | bytes[i];
  return Number(static_cast<int64_t>(bits));
}

// Appends column `c` of one row group to rows[first..]: values where the definition level says
// a value is there, NULL elsewhere.
template <typename Reader, typename Convert>
bool ReadColumn(Reader& reader, int16_t max_def, std::vector<json::Value>& rows, size_t first,
                Convert convert, std::string* why) {
  using T = typename Reader::T;
  // An array, not a vector: a vector<bool> (a BOOLEAN column's) has no data().
  const std::unique_ptr<T[]> values(new T[kBatch]);
  std::vector<int16_t> defs(kBatch);
  size_t row = first;
  while (reader.HasNext()) {
    int64_t read_values = 0;
    const int64_t levels =
        reader.ReadBatch(kBatch, defs.data(), nullptr, values.get(), &read_values);
    int64_t next_value = 0;
    for (int64_t i = 0; i < levels; ++i, ++row) {
      if (row >= rows.size()) return *why = "a column holds more values than its row group", false;
      const bool present = max_def == 0 || defs[static_cast<size_t>(i)] == max_def;
      rows[row].items.push_back(present ? convert(values[next_value++]) : json::Value{});
    }
  }
  if (row != rows.size()) return *why = "a column holds fewer values than its row group", false;
  return true;
}

bool ReadRowGroup(::parquet::RowGroupReader& group, const ::parquet::SchemaDescriptor& schema,
                  std::vector<json::Value>& rows, size_t first, std::string* why) {
  for (int c = 0; c < schema.num_columns(); ++c) {
    const ::parquet::ColumnDescriptor* d = schema.Column(c);
    const std::shared_ptr<::parquet::ColumnReader> column = group.Column(c);
    const int16_t max_def = d->max_definition_level();
    bool ok = false;
    if (d->physical_type() == ::parquet::Type::INT64) {
      ok = ReadColumn(
          static_cast<::parquet::Int64Reader&>(*column), max_def, rows, first,
          [](int64_t n) { return Number(n); }, why);
    } else if (d->physical_type() == ::parquet::Type::INT32) {
      ok = ReadColumn(
          static_cast<::parquet::Int32Reader&>(*column), max_def, rows, first,
          [](int32_t n) { return Number(n); }, why);
    } else if (d->physical_type() == ::parquet::Type::DOUBLE) {
      ok = ReadColumn(static_cast<::parquet::DoubleReader&>(*column), max_def, rows, first,
                      DoubleValue, why);
    } else if (d->physical_type() == ::parquet::Type::FLOAT) {
      ok = ReadColumn(
          static_cast<::parquet::FloatReader&>(*column), max_def, rows, first,
          [](float f) { return DoubleValue(f); }, why);
    } else if (d->physical_type() == ::parquet::Type::BOOLEAN) {
      ok = ReadColumn(static_cast<::parquet::BoolReader&>(*column), max_def, rows, first, Boolean,
                      why);
    } else if (d->physical_type() == ::parquet::Type::FIXED_LEN_BYTE_ARRAY) {
      const int length = d->type_length();
      ok = ReadColumn(
          static_cast<::parquet::FixedLenByteArrayReader&>(*column), max_def, rows, first,
          [length](const ::parquet::FixedLenByteArray& a) { return Unscaled(a.ptr, length); }, why);
    } else if (d->logical_type() == nullptr || !d->logical_type()->is_string()) {
      ok = ReadColumn(static_cast<::parquet::ByteArrayReader&>(*column), max_def, rows, first,
                      HexText, why);
    } else {
      ok = ReadColumn(static_cast<::parquet::ByteArrayReader&>(*column), max_def, rows, first, Text,
                      why);
    }
    if (!ok) return *why = "column " + d->name() + ": " + *why, false;
  }
  return true;
}

// The columns, or false when one is not flat, or of a type the oracle does not read.
bool Columns(const ::parquet::SchemaDescriptor& schema, std::vector<std::string>* names,
             std::string* why) {
  for (int c = 0; c < schema.num_columns(); ++c) {
    const ::parquet::ColumnDescriptor* d = schema.Column(c);
    const bool is_string = d->physical_type() == ::parquet::Type::BYTE_ARRAY &&
                           d->logical_type() != nullptr && d->logical_type()->is_string();
    // A plain signed integer: no logical type, or a signed Int (not a date, time, timestamp or
    // decimal stored in integers, which are other values).
    const std::shared_ptr<const ::parquet::LogicalType>& logical = d->logical_type();
    const bool plain =
        logical == nullptr || logical->is_none() ||
        (logical->is_int() && static_cast<const ::parquet::IntLogicalType&>(*logical).is_signed());
    const bool is_integer = plain && (d->physical_type() == ::parquet::Type::INT64 ||
                                      d->physical_type() == ::parquet::Type::INT32);
    // Values the simulator writes in integers: an instant in microseconds (UTC-adjusted, as
    // Delta's `timestamp`), a date in days; both read as their integer. Any other unit or a
    // wall-clock timestamp is another value.
    const bool is_instant =
        logical != nullptr && logical->is_timestamp() &&
        d->physical_type() == ::parquet::Type::INT64 &&
        static_cast<const ::parquet::TimestampLogicalType&>(*logical).is_adjusted_to_utc() &&
        static_cast<const ::parquet::TimestampLogicalType&>(*logical).time_unit() ==
            ::parquet::LogicalType::TimeUnit::MICROS;
    const bool is_date =
        logical != nullptr && logical->is_date() && d->physical_type() == ::parquet::Type::INT32;
    const bool is_double =
        d->physical_type() == ::parquet::Type::DOUBLE && (logical == nullptr || logical->is_none());
    // And the rest of Delta's primitive types as Spark writes them: a float, a boolean, a wall
    // clock (timestamp_ntz: microseconds not adjusted to UTC), bytes without a string annotation
    // (binary, read as hexadecimal), and a decimal(10,2) in a fixed-length array (its unscaled
    // value; any other precision or scale is another type).
    const bool is_float =
        d->physical_type() == ::parquet::Type::FLOAT && (logical == nullptr || logical->is_none());
    const bool is_boolean = d->physical_type() == ::parquet::Type::BOOLEAN;
    const bool is_wall_clock =
        logical != nullptr && logical->is_timestamp() &&
        d->physical_type() == ::parquet::Type::INT64 &&
        !static_cast<const ::parquet::TimestampLogicalType&>(*logical).is_adjusted_to_utc() &&
        static_cast<const ::parquet::TimestampLogicalType&>(*logical).time_unit() ==
            ::parquet::LogicalType::TimeUnit::MICROS;
    const bool is_binary = d->physical_type() == ::parquet::Type::BYTE_ARRAY &&
                           (logical == nullptr || logical->is_none());
    const bool is_decimal =
        logical != nullptr && logical->is_decimal() &&
        d->physical_type() == ::parquet::Type::FIXED_LEN_BYTE_ARRAY &&
        static_cast<const ::parquet::DecimalLogicalType&>(*logical).precision() == 10 &&
        static_cast<const ::parquet::DecimalLogicalType&>(*logical).scale() == 2;
    if (d->max_repetition_level() != 0 || d->max_definition_level() > 1 ||
        d->path()->ToDotVector().size() != 1) {
      return *why = "column " + d->path()->ToDotString() + " is not a flat column", false;
    }
    if (!is_string && !is_integer && !is_instant && !is_date && !is_double && !is_float &&
        !is_boolean && !is_wall_clock && !is_binary && !is_decimal)
      return *why = "column " + d->name() + " is of a type the oracle does not read", false;
    names->push_back(d->name());
  }
  return true;
}

}  // namespace

bool ReadParquetRows(const std::string& path, const std::string& bytes, ParquetColumnsAndRows* out,
                     std::string* why) {
  try {
    auto buffer = std::make_shared<::arrow::Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                    static_cast<int64_t>(bytes.size()));
    const std::unique_ptr<::parquet::ParquetFileReader> reader =
        ::parquet::ParquetFileReader::Open(std::make_shared<::arrow::io::BufferReader>(buffer));
    const std::shared_ptr<::parquet::FileMetaData> meta = reader->metadata();
    if (!Columns(*meta->schema(), &out->columns, why)) {
      out->columns.clear();
      out->unsupported_column = true;
      return true;
    }
    for (int g = 0; g < meta->num_row_groups(); ++g) {
      const std::shared_ptr<::parquet::RowGroupReader> group = reader->RowGroup(g);
      const size_t first = out->rows.size();
      const int64_t group_rows = group->metadata()->num_rows();
      if (group_rows < 0 || group_rows > kMaxRows - static_cast<int64_t>(first)) {
        return *why = path + ", row group " + std::to_string(g) + ": claims " +
                      std::to_string(group_rows) + " rows",
               false;
      }
      json::Value empty_row;
      empty_row.kind = json::Value::Kind::kArray;
      out->rows.resize(first + static_cast<size_t>(group_rows), empty_row);
      if (!ReadRowGroup(*group, *meta->schema(), out->rows, first, why)) {
        return *why = path + ", row group " + std::to_string(g) + ": " + *why, false;
      }
    }
    return true;
  } catch (const std::exception& e) {
    return *why = path + ": not a readable parquet file: " + e.what(), false;
  }
}

}  // namespace rlc::oracle
