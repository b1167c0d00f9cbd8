#include "impl/parquet/parquet_writer.h"

#include <arrow/api.h>
#include <arrow/io/memory.h>
#include <parquet/arrow/writer.h>
#include <parquet/exception.h>

#include <algorithm>
#include <memory>
#include <set>
#include <utility>

namespace rlc::parquet {
namespace {

using predicate::Literal;

Status Failed(const ::arrow::Status& s) {
  return Status::IoError("writing a parquet file: " + s.ToString());
}

// One column's values as an Arrow array; a value of another kind is kInvalidArgument.
Result<std::shared_ptr<::arrow::Array>> ColumnArray(const WrittenColumn& column, size_t index,
                                                    const std::vector<std::vector<Literal>>& rows) {
  const bool is_long = column.type == WrittenColumn::Type::kLong;
  ::arrow::Int64Builder longs;
  ::arrow::StringBuilder strings;
  ::arrow::ArrayBuilder& builder = is_long ? static_cast<::arrow::ArrayBuilder&>(longs) : strings;
  if (auto s = builder.Reserve(static_cast<int64_t>(rows.size())); !s.ok()) return Failed(s);
  for (size_t r = 0; r < rows.size(); ++r) {
    const Literal& v = rows[r][index];
    ::arrow::Status s;
    if (v.kind == Literal::Kind::kNull) {
      s = builder.AppendNull();
    } else if (is_long && v.kind == Literal::Kind::kLong) {
      s = longs.Append(v.int_value);
    } else if (!is_long && v.kind == Literal::Kind::kString) {
      s = strings.Append(v.string_value);
    } else {
      return Status::InvalidArgument("row " + std::to_string(r) + ": column " + column.name +
                                     " holds a value of another type");
    }
    if (!s.ok()) return Failed(s);
  }
  std::shared_ptr<::arrow::Array> array;
  if (auto s = builder.Finish(&array); !s.ok()) return Failed(s);
  return array;
}

}  // namespace

Result<std::string> WriteParquetRows(const std::vector<WrittenColumn>& columns,
                                     const std::vector<std::vector<Literal>>& rows,
                                     const ParquetWriteOptions& options) {
  std::set<std::string> names;
  std::vector<std::shared_ptr<::arrow::Field>> fields;
  for (const WrittenColumn& c : columns) {
    if (!names.insert(c.name).second)
      return Status::InvalidArgument("column " + c.name + " is named twice");
    fields.push_back(::arrow::field(
        c.name, c.type == WrittenColumn::Type::kLong ? ::arrow::int64() : ::arrow::utf8()));
  }
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() != columns.size()) {
      return Status::InvalidArgument("row " + std::to_string(r) + " has " +
                                     std::to_string(rows[r].size()) + " values for " +
                                     std::to_string(columns.size()) + " columns");
    }
  }
  std::vector<std::shared_ptr<::arrow::Array>> arrays;
  for (size_t i = 0; i < columns.size(); ++i) {
    RLC_ASSIGN_OR_RETURN(std::shared_ptr<::arrow::Array> array, ColumnArray(columns[i], i, rows));
    arrays.push_back(std::move(array));
  }
  const std::shared_ptr<::arrow::Table> table = ::arrow::Table::Make(
      ::arrow::schema(std::move(fields)), arrays, static_cast<int64_t>(rows.size()));
  try {
    auto sink = ::arrow::io::BufferOutputStream::Create();
    if (!sink.ok()) return Failed(sink.status());
    const ::arrow::Status written =
        ::parquet::arrow::WriteTable(*table, ::arrow::default_memory_pool(), *sink,
                                     std::max<int64_t>(options.row_group_rows, 1));
    if (!written.ok()) return Failed(written);
    auto buffer = (*sink)->Finish();
    if (!buffer.ok()) return Failed(buffer.status());
    return (*buffer)->ToString();
  } catch (const ::parquet::ParquetException& e) {
    return Status::IoError(std::string("writing a parquet file: ") + e.what());
  }
}

}  // namespace rlc::parquet
