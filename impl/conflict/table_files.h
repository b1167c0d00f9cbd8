// TableFiles: the conflict checker's only window onto the table's data: deletion vectors and,
// where the caller can read them, the rows of data files.
//
// Concern: Case 1's exact tier and 1b decide from rows and DV positions
// (docs/cases.md#c-1-exact, docs/cases.md#c-1b).
// The checker never opens files itself; it asks this interface, and anything the interface cannot
// answer keeps the conflict (docs/decisions.md#case-1: with no row reader every candidate
// is kept).
//   - ReadDeletionVector: the positions a descriptor deletes, validated (kNotFound, kCorrupt, ...
//     as delta/deletion_vector_loader.h).
//   - ScanRows: calls `visit` once per *physical* row of the data file at `path` (as written in
//     the log), in position order from 0, with the row's values by logical column path, partition
//     columns included; the checker applies DVs itself. `visit` returns false to stop early.
//     kUnsupported means "no reader for this file" (StorageTableFiles has none; a real table's
//     Parquet files are read by impl/parquet/parquet_table_files.h).
//
// StorageTableFiles reads DVs through a Storage and has no row reader: every ScanRows is
// kUnsupported. InMemoryTableFiles adds rows held in memory, by path (a simulator's tables).
//
// Thread-safety: implementations are called from the checker's thread only.
#ifndef RLC_IMPL_CONFLICT_TABLE_FILES_H_
#define RLC_IMPL_CONFLICT_TABLE_FILES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/actions.h"
#include "impl/delta/deletion_vector_loader.h"
#include "impl/dv/descriptor.h"
#include "impl/dv/row_bitmap.h"
#include "impl/predicate/row_evaluator.h"
#include "impl/storage/storage.h"

namespace rlc::conflict {

using RowVisitor = std::function<bool(uint64_t position, const predicate::RowLookup& row)>;

class TableFiles {
 public:
  virtual ~TableFiles() = default;
  virtual Result<dv::RowBitmap> ReadDeletionVector(const dv::DvDescriptor& descriptor) const = 0;
  virtual Status ScanRows(const std::string& path, const RowVisitor& visit) const = 0;
};

class StorageTableFiles : public TableFiles {
 public:
  // `storage` must outlive this object. `table_root` has no trailing slash.
  StorageTableFiles(const storage::Storage& storage, std::string table_root,
                    delta::DvLoadOptions options = {});

  Result<dv::RowBitmap> ReadDeletionVector(const dv::DvDescriptor& descriptor) const override;
  Status ScanRows(const std::string& path, const RowVisitor& visit) const override;

 protected:
  const storage::Storage& storage() const { return storage_; }
  const std::string& table_root() const { return table_root_; }

 private:
  const storage::Storage& storage_;
  std::string table_root_;
  delta::DvLoadOptions options_;
};

// DVs through a Storage, rows from memory: PutRows(path, rows) makes `path` readable.
class InMemoryTableFiles : public StorageTableFiles {
 public:
  using StorageTableFiles::StorageTableFiles;

  // The file's physical rows in position order, by logical column path (partition columns too).
  void PutRows(const std::string& path, std::vector<predicate::RowValues> rows);
  Status ScanRows(const std::string& path, const RowVisitor& visit) const override;

 private:
  std::map<std::string, std::vector<predicate::RowValues>> rows_;
};

// A row as the values of some columns, in their order (nullopt: the file has no such column).
using RowTuple = std::vector<std::optional<predicate::Literal>>;

// The top-level columns of the table's schema, partition columns included, by logical path: what
// two files must agree on to hold the same rows. Empty when the schema does not parse.
std::vector<predicate::ColumnPath> TableColumns(const delta::Metadata& metadata);

// The rows of the data file at `path` whose positions are not in `skip`, as tuples over
// `columns`, in position order. kUnsupported: no reader for the file (then nothing is known of
// its rows); kCorrupt: positions out of order; other errors as ScanRows.
Result<std::vector<RowTuple>> ReadRows(const TableFiles& files, const std::string& path,
                                       const dv::RowBitmap& skip,
                                       const std::vector<predicate::ColumnPath>& columns);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_TABLE_FILES_H_
