// ParquetTableFiles: the conflict checker's window onto a real table (impl/conflict/table_files.h):
// DVs through the table's Storage, as StorageTableFiles reads them, and the rows of its Parquet
// data files through parquet_rows.h.
//
// Concern: which columns a data file holds and where (docs/formats.md#parquet-rows). The table's
// schema names the columns; every leaf of a primitive type is read by its physical path, or by
// its field ids under column mapping `id`. Partition columns are not in the file: their values
// come from the partitionValues of the add that wrote it, read as partition_value.h reads them. The
// checker names a file by its path alone, so the caller makes each file readable with
// AddSnapshotFiles (the read snapshot's adds) and AddDataFile (every winner's).
//
// ScanRows is kUnsupported (the checker then keeps its conflict) for a path no AddDataFile named,
// a path the read snapshot and the winners' adds name under different partition values (its rows
// are in one partition in one version and another in the next: a path alone cannot say which),
// a file that does not end in .parquet, a table whose schema has a column rlc cannot read
// (decimal, binary, a list, a map, or a struct at the top level, which a row comparison would need
// whole) or a partition value that is not one value of its column's type (a zone-less timestamp,
// text that does not parse: impl/predicate/partition_value.h, the statistics tier's reading);
// errors reading the file are those of parquet_rows.h and Storage, each naming the file.
//
// Thread-safety: AddDataFile before checking; ScanRows only reads.
#ifndef RLC_IMPL_PARQUET_PARQUET_TABLE_FILES_H_
#define RLC_IMPL_PARQUET_PARQUET_TABLE_FILES_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "impl/conflict/table_files.h"
#include "impl/delta/actions.h"
#include "impl/delta/file_table.h"
#include "impl/delta/snapshot.h"
#include "impl/parquet/parquet_rows.h"
#include "impl/predicate/schema.h"

namespace rlc::parquet {

// A column of the table as a data file's rows answer for it.
struct TableColumn {
  predicate::ColumnPath logical_path;
  predicate::ColumnType type = predicate::ColumnType::kOther;
  bool is_partition = false;
  FileColumn in_file;  // where it is in the file; a partition column: its partitionValues key
};

// The table's top-level columns in schema order. kUnsupported names a column
// of a type rlc cannot read (see above); kCorrupt a schema that does not parse.
Result<std::vector<TableColumn>> ReadableColumns(const delta::Metadata& metadata);

class ParquetTableFiles : public conflict::StorageTableFiles {
 public:
  // `storage` must outlive this object; `table_root` has no trailing slash.
  ParquetTableFiles(const storage::Storage& storage, std::string table_root,
                    const delta::Metadata& metadata, delta::DvLoadOptions options = {});

  // Makes the data file `add` wrote readable (the last add of a path wins).
  void AddDataFile(const delta::AddFile& add);
  // Makes every file of a snapshot readable (kept as the snapshot keeps them, not copied one by
  // one: a snapshot may hold a million); AddDataFile's files win over these.
  void AddSnapshotFiles(const delta::FileTable& files);

  Status ScanRows(const std::string& path, const conflict::RowVisitor& visit) const override;

  // The same rows as values of `columns()`, in that order.
  using ValuesVisitor =
      std::function<bool(uint64_t position, const std::vector<predicate::Literal>& values)>;
  Status ScanValues(const std::string& path, const ValuesVisitor& visit) const;
  // The columns ScanValues answers, or the reason none can be read.
  const Result<std::vector<TableColumn>>& columns() const { return columns_; }

 private:
  // The partition values of the add that names `path` (`decoded`: the same path decoded).
  const delta::StringMap* PartitionValuesOf(const std::string& path,
                                            const std::string& decoded) const;

  Result<std::vector<TableColumn>> columns_;
  std::map<std::string, delta::StringMap> partition_values_;  // by path as the log writes it
  delta::FileTable read_files_;                               // by decoded path
  std::set<std::string> moved_;  // decoded paths named under different partition values
};

// The files a conflict check of a transaction that read `read` may open: the read snapshot's
// adds and those of every commit after it in the log up to the first that cannot be read (the
// check itself reports that one). kCorrupt when `read` has no metaData; listing errors as
// delta/log.h.
Result<std::unique_ptr<ParquetTableFiles>> ParquetTableFilesFor(const storage::Storage& storage,
                                                                const std::string& table_root,
                                                                const delta::Snapshot& read,
                                                                delta::DvLoadOptions options = {});

}  // namespace rlc::parquet

#endif  // RLC_IMPL_PARQUET_PARQUET_TABLE_FILES_H_
