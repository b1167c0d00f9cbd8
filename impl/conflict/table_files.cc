#include "impl/conflict/table_files.h"

#include "impl/predicate/schema.h"

namespace rlc::conflict {

StorageTableFiles::StorageTableFiles(const storage::Storage& storage, std::string table_root,
                                     delta::DvLoadOptions options)
    : storage_(storage), table_root_(std::move(table_root)), options_(std::move(options)) {}

Result<dv::RowBitmap> StorageTableFiles::ReadDeletionVector(
    const dv::DvDescriptor& descriptor) const {
  return delta::LoadDeletionVector(storage_, table_root_, descriptor, options_);
}

Status StorageTableFiles::ScanRows(const std::string& path, const RowVisitor&) const {
  return Status::Unsupported(table_root_ + "/" + path +
                             ": no reader for the data file's rows (Parquet)");
}

void InMemoryTableFiles::PutRows(const std::string& path, std::vector<predicate::RowValues> rows) {
  rows_[path] = std::move(rows);
}

Status InMemoryTableFiles::ScanRows(const std::string& path, const RowVisitor& visit) const {
  auto it = rows_.find(path);
  if (it == rows_.end()) return StorageTableFiles::ScanRows(path, visit);
  uint64_t position = 0;
  for (const predicate::RowValues& values : it->second) {
    const predicate::RowLookup lookup =
        [&values](const predicate::ColumnPath& column) -> std::optional<predicate::Literal> {
      auto found = values.find(column);
      if (found == values.end()) return std::nullopt;
      return found->second;
    };
    if (!visit(position++, lookup)) break;
  }
  return Status::Ok();
}

std::vector<predicate::ColumnPath> TableColumns(const delta::Metadata& metadata) {
  std::vector<predicate::ColumnPath> columns;
  Result<predicate::TableSchema> schema = predicate::TableSchema::FromMetadata(metadata);
  if (!schema.ok()) return columns;
  for (const predicate::SchemaField& f : schema->fields()) columns.push_back({f.name});
  return columns;
}

Result<std::vector<RowTuple>> ReadRows(const TableFiles& files, const std::string& path,
                                       const dv::RowBitmap& skip,
                                       const std::vector<predicate::ColumnPath>& columns) {
  std::vector<RowTuple> rows;
  uint64_t next = 0;
  bool in_order = true;
  RLC_RETURN_IF_ERROR(files.ScanRows(path, [&](uint64_t position, const predicate::RowLookup& row) {
    if (position != next++) {
      in_order = false;
      return false;
    }
    if (skip.Contains(position)) return true;
    RowTuple tuple;
    tuple.reserve(columns.size());
    for (const predicate::ColumnPath& c : columns) tuple.push_back(row(c));
    rows.push_back(std::move(tuple));
    return true;
  }));
  if (!in_order) return Status::Corrupt(path + ": rows are not visited in position order");
  return rows;
}

}  // namespace rlc::conflict
