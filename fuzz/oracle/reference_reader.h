// ReferenceReader: the oracle's own reader of a Delta table, written for the oracle alone.
//
// Concern: what a reader sees at one version (active files, each with the rows its DV deletes),
// computed without impl/'s replay, DV codec, Z85 or CRoaring, so that a bug an impl/ encoder and
// decoder share cannot hide from the oracle (docs/decisions.md#independence). It implements
// only what the oracle reads, straight from Delta's PROTOCOL.md:
//   - log replay from version 0 over JSON commits; a file's key is (URL-decoded path, DV unique
//     id); a remove cancels the add with its key; the last add of a key wins;
//   - DV descriptors 'i' (Z85 inline), 'u' (Z85 UUID, optional random prefix, under the table
//     root, with an optional test file-name prefix) and 'p' (absolute, file: URL); the DV file's
//     big-endian size and CRC-32 at the descriptor's offset;
//   - the portable RoaringBitmapArray: magic 1681511377, bucket count, then per bucket its high
//     key and a standard portable 32-bit Roaring bitmap (array, bitset and run containers, with
//     or without the run flag bitmap and the offset header).
// Anything else, or anything malformed, is an error string naming the version, path or offset.
//
// Where bytes come from: a ByteSource. LocalFiles() reads the file system with the standard
// library; a caller whose table lives elsewhere (the explorer's in-memory tables) passes its own.
// Only whole files' bytes cross that seam: every format above is decoded here.
//
// Thread-safety: stateless functions; a ByteSource is only read.
#ifndef RLC_FUZZ_ORACLE_REFERENCE_READER_H_
#define RLC_FUZZ_ORACLE_REFERENCE_READER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fuzz/oracle/json_reader.h"

namespace rlc::oracle {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // The whole file at `path` ('/'-separated), or nullopt when it is missing or unreadable.
  virtual std::optional<std::string> Read(const std::string& path) const = 0;
};
const ByteSource& LocalFiles();

struct ReferenceFile {
  std::string path;  // URL-decoded, as the key
  std::map<std::string, std::optional<std::string>> partition_values;
  std::optional<int64_t> num_records;
  std::set<uint64_t> deleted;  // rows the DV deletes
  // For a simulator data file (a row file, ".rows", fuzz/simulator/row_file.h, parsed here; or a
  // Parquet file, ".parquet", read by reference_parquet.h), read on the oracle's own: the file's
  // column names (distinct), and every physical row as an array of values in that order (RowText
  // writes one as text). A Parquet file has no partition columns: partition_values stands for
  // them. Empty for other files.
  std::vector<std::string> columns;
  std::vector<json::Value> physical_values;
  // A Parquet file with a column of a type the oracle does not read (a real table's): why its
  // rows are unknown here. Empty otherwise.
  std::string rows_unknown;
};

// Physical row `position` of `file` as a JSON object with the columns in name order, e.g.
// {"id":3,"part":"a"}: one text per row content (json::AppendCanonical).
std::string RowText(const ReferenceFile& file, size_t position);

struct ReferenceSnapshot {
  int64_t version = -1;
  std::vector<ReferenceFile> files;  // by path
  // Under column mapping, each column's physical name (the name in the files, statistics and
  // partition values) by its logical name, from the latest metaData; empty without mapping.
  std::map<std::string, std::string> physical_names;
  // The name `column` has in the files: its physical name, or itself without mapping.
  const std::string& NameInFiles(const std::string& column) const {
    const auto it = physical_names.find(column);
    return it == physical_names.end() ? column : it->second;
  }
};

struct ReferenceResult {
  std::optional<ReferenceSnapshot> snapshot;
  std::string error;  // set when snapshot is empty
};

struct ReferenceLog;  // reference_log.h
struct ReferenceDv;

// version < 0: the latest. dv_file_prefix: put before "deletion_vector_<uuid>.bin" ('u' DVs).
// A row file whose row count disagrees with the add's numRecords is an error.
ReferenceResult ReadReferenceSnapshot(const std::string& table_dir, int64_t version,
                                      const std::string& dv_file_prefix = "",
                                      const ByteSource& files = LocalFiles());
// The same, at the last version of a log already read (reference_log.h).
ReferenceResult SnapshotOfLog(const ReferenceLog& log, const std::string& table_dir,
                              const std::string& dv_file_prefix = "",
                              const ByteSource& files = LocalFiles());

// The rows a DV descriptor deletes; nullopt (and why) when they cannot be read: an unknown
// storage type, a missing or short DV file, a size, checksum or cardinality that disagrees.
std::optional<std::set<uint64_t>> ReadReferenceDv(const std::string& table_dir,
                                                  const ReferenceDv& dv,
                                                  const std::string& dv_file_prefix,
                                                  std::string* why,
                                                  const ByteSource& files = LocalFiles());

// The physical rows of the data file (row file or Parquet) at `table_dir`/`path` (URL-decoded),
// each as RowText (its hidden identity column included, a Parquet file's partition columns not);
// nullopt (and why) when it is no such file, is malformed, or has rows the oracle cannot read.
std::optional<std::vector<std::string>> ReadReferenceRows(const std::string& table_dir,
                                                          const std::string& path, std::string* why,
                                                          const ByteSource& files = LocalFiles());

// The portable RoaringBitmapArray bytes -> rows; nullopt (and why) when malformed. Exposed for
// tests.
std::optional<std::set<uint64_t>> DecodeReferenceBitmap(const std::string& bytes, std::string* why);

// The live rows of a snapshot's data files (physical rows minus each file's DV), sorted: what a
// reader of the table sees (files whose rows are unknown, rows_unknown, contribute none).
std::vector<std::string> LiveRows(const ReferenceSnapshot& snapshot);

}  // namespace rlc::oracle

#endif  // RLC_FUZZ_ORACLE_REFERENCE_READER_H_
