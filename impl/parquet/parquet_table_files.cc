#include "impl/parquet/parquet_table_files.h"

#include <utility>

#include "impl/delta/file_key.h"
#include "impl/delta/log.h"
#include "impl/predicate/partition_value.h"

namespace rlc::parquet {
namespace {

using predicate::ColumnType;
using predicate::Literal;

bool Readable(ColumnType type) {
  switch (type) {
    case ColumnType::kByte:
    case ColumnType::kShort:
    case ColumnType::kInteger:
    case ColumnType::kLong:
    case ColumnType::kFloat:
    case ColumnType::kDouble:
    case ColumnType::kString:
    case ColumnType::kBoolean:
    case ColumnType::kDate:
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampNtz:
      return true;
    default:
      return false;
  }
}

// A partition value as its column's single value (partition_value.h, the reading the statistics
// tier shares): nullopt with `why` when the text gives no single value.
std::optional<Literal> PartitionLiteral(ColumnType type, const std::optional<std::string>& text,
                                        const char** why) {
  const predicate::PartitionValue p = predicate::ReadPartitionValue(type, text);
  if (p.kind == predicate::PartitionValue::Kind::kNull) return Literal::Null();
  if (p.kind != predicate::PartitionValue::Kind::kExact) {
    *why = p.why;
    return std::nullopt;
  }
  Literal v;
  v.kind = p.lower.kind;
  v.int_value = p.lower.int_value;
  v.double_value = p.lower.double_value;
  v.string_value = std::string(p.lower.string_value);
  return v;
}

}  // namespace

Result<std::vector<TableColumn>> ReadableColumns(const delta::Metadata& metadata) {
  RLC_ASSIGN_OR_RETURN(predicate::TableSchema schema,
                       predicate::TableSchema::FromMetadata(metadata));
  std::vector<TableColumn> columns;
  for (const predicate::SchemaField& field : schema.fields()) {
    if (!Readable(field.type)) {
      return Status::Unsupported("column " + field.name + " has type " + field.type_text +
                                 ", which rlc does not read from data files");
    }
    RLC_ASSIGN_OR_RETURN(predicate::ResolvedColumn resolved, schema.Resolve({field.name}));
    TableColumn c;
    c.logical_path = resolved.logical_path;
    c.type = resolved.type;
    c.is_partition = resolved.is_partition;
    // A partition column's partitionValues key is its physical name under column mapping.
    if (!resolved.physical_path.has_value()) {
      return Status::Unsupported("column " + field.name + " has no physical name in the schema");
    }
    c.in_file.path = *resolved.physical_path;
    c.in_file.field_ids = resolved.field_ids;
    if (!c.is_partition && schema.mapping_mode() == predicate::ColumnMappingMode::kId &&
        c.in_file.field_ids.empty()) {
      return Status::Unsupported("column " + field.name +
                                 " has no field id under column mapping id");
    }
    columns.push_back(std::move(c));
  }
  return columns;
}

ParquetTableFiles::ParquetTableFiles(const storage::Storage& storage, std::string table_root,
                                     const delta::Metadata& metadata, delta::DvLoadOptions options)
    : StorageTableFiles(storage, std::move(table_root), std::move(options)),
      columns_(ReadableColumns(metadata)) {}

void ParquetTableFiles::AddDataFile(const delta::AddFile& add) {
  const std::string decoded = delta::DecodedPath(add.path);
  const delta::StringMap* known = PartitionValuesOf(add.path, decoded);
  if (known != nullptr && *known != add.partition_values) moved_.insert(decoded);
  partition_values_[add.path] = add.partition_values;
}

void ParquetTableFiles::AddSnapshotFiles(const delta::FileTable& files) {
  read_files_ = files;
  for (const auto& [path, values] : partition_values_) {
    const std::string decoded = delta::DecodedPath(path);
    const auto read = read_files_.find(decoded);
    if (read != read_files_.end() && read->second.partition_values != values)
      moved_.insert(decoded);
  }
}

const delta::StringMap* ParquetTableFiles::PartitionValuesOf(const std::string& path,
                                                             const std::string& decoded) const {
  const auto added = partition_values_.find(path);
  if (added != partition_values_.end()) return &added->second;
  const auto read = read_files_.find(decoded);
  return read == read_files_.end() ? nullptr : &read->second.partition_values;
}

Status ParquetTableFiles::ScanValues(const std::string& path, const ValuesVisitor& visit) const {
  if (!columns_.ok()) return columns_.status().WithContext(path);
  const std::string decoded = delta::DecodedPath(path);
  const delta::StringMap* partition_values = PartitionValuesOf(path, decoded);
  if (partition_values == nullptr) {
    return Status::Unsupported("data file " + path + ": no add of the log names it here");
  }
  if (moved_.count(decoded) != 0) {
    return Status::Unsupported("data file " + path +
                               ": the log names it under different partition values");
  }
  if (decoded.size() < 8 || decoded.substr(decoded.size() - 8) != ".parquet") {
    return Status::Unsupported("data file " + path + ": not a Parquet file");
  }
  const bool absolute = decoded.front() == '/' || decoded.find(':') != std::string::npos;
  if (absolute) return Status::Unsupported("data file " + path + ": an absolute path");
  // The row's values in columns() order: partition values first known, file columns filled per row.
  std::vector<Literal> values(columns_->size());
  std::vector<FileColumn> in_file;
  std::vector<size_t> slot;  // in_file[k] fills values[slot[k]]
  for (size_t i = 0; i < columns_->size(); ++i) {
    const TableColumn& c = (*columns_)[i];
    if (!c.is_partition) {
      in_file.push_back(c.in_file);
      slot.push_back(i);
      continue;
    }
    std::optional<std::string> text;
    for (const auto& [name, value] : *partition_values) {
      if (name == c.in_file.path[0]) text = value;
    }
    const char* why = "";
    const std::optional<Literal> v = PartitionLiteral(c.type, text, &why);
    if (!v) {
      return Status::Unsupported("data file " + path + ": partition value '" + text.value_or("") +
                                 "' of " + c.logical_path[0] + " is not one value: " + why);
    }
    values[i] = *v;
  }
  RLC_ASSIGN_OR_RETURN(std::string bytes, storage().ReadFile(table_root() + "/" + decoded));
  return ScanParquetRows(decoded, bytes, in_file,
                         [&](uint64_t position, const std::vector<Literal>& row) {
                           for (size_t k = 0; k < row.size(); ++k) values[slot[k]] = row[k];
                           return visit(position, values);
                         });
}

Status ParquetTableFiles::ScanRows(const std::string& path,
                                   const conflict::RowVisitor& visit) const {
  return ScanValues(path, [&](uint64_t position, const std::vector<Literal>& values) {
    const predicate::RowLookup lookup =
        [&](const predicate::ColumnPath& column) -> std::optional<Literal> {
      for (size_t i = 0; i < columns_->size(); ++i) {
        if ((*columns_)[i].logical_path == column) return values[i];
      }
      return std::nullopt;
    };
    return visit(position, lookup);
  });
}

Result<std::unique_ptr<ParquetTableFiles>> ParquetTableFilesFor(const storage::Storage& storage,
                                                                const std::string& table_root,
                                                                const delta::Snapshot& read,
                                                                delta::DvLoadOptions options) {
  if (!read.metadata.has_value()) {
    return Status::Corrupt(table_root + ": the snapshot at version " +
                           std::to_string(read.version) + " has no metaData");
  }
  RLC_ASSIGN_OR_RETURN(const delta::LogListing listing, delta::ListLog(storage, table_root));
  auto files = std::make_unique<ParquetTableFiles>(storage, table_root, *read.metadata, options);
  files->AddSnapshotFiles(read.files);
  for (int64_t v : listing.commit_versions) {
    if (v <= read.version) continue;
    Result<delta::Commit> winner = delta::ReadCommit(storage, table_root, v);
    if (!winner.ok()) break;
    for (const delta::Action& a : winner->actions) {
      if (const auto* add = std::get_if<delta::AddFile>(&a)) files->AddDataFile(*add);
    }
  }
  return files;
}

}  // namespace rlc::parquet
