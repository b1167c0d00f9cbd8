// The row file: the small on-disk format the simulator writes data files in (it does not write
// Parquet yet), so a simulated table is a real directory two processes can share.
//
// Format (text, UTF-8, '\n'-terminated lines):
//   line 1   rlc-rows 1
//   line 2   {"columns":[{"name":"id","type":"long"},{"name":"part","type":"string"}]}
//   then     one JSON array per physical row, values in column order: an integer (long), a
//            string, or null. The row on line 3 is physical position 0, and so on; a DV names
//            these positions.
// Unlike the Parquet files Delta writes, a row file holds every column, partition columns
// included, so a file alone says what its rows are. Extensions end in ".rows".
//
// RowFileTableFiles serves these files to the conflict checker (impl/conflict/table_files.h),
// so the exact tier and 1b read real rows in simulated tables. The oracle parses the format on
// its own (fuzz/oracle), sharing no code with this one.
//
// Thread-safety: stateless functions; RowFileTableFiles reads through its Storage.
#ifndef RLC_FUZZ_SIMULATOR_ROW_FILE_H_
#define RLC_FUZZ_SIMULATOR_ROW_FILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "impl/conflict/table_files.h"

namespace rlc::simulator {

struct RowFileColumn {
  enum class Type { kLong, kString };
  std::string name;
  Type type = Type::kLong;
  friend bool operator==(const RowFileColumn&, const RowFileColumn&) = default;
};

using RowFileValue = std::optional<std::variant<int64_t, std::string>>;  // nullopt: NULL

struct RowFile {
  std::vector<RowFileColumn> columns;
  std::vector<std::vector<RowFileValue>> rows;
  friend bool operator==(const RowFile&, const RowFile&) = default;
};

std::string EncodeRowFile(const RowFile& file);
// Errors (kCorrupt) name the line: a bad header, a value of the wrong type, a row of the wrong
// width.
Result<RowFile> DecodeRowFile(std::string_view bytes);

class RowFileTableFiles : public conflict::StorageTableFiles {
 public:
  using StorageTableFiles::StorageTableFiles;
  // Rows of `<table_root>/<path>` (URL-decoded) when it is a row file; kUnsupported otherwise.
  Status ScanRows(const std::string& path, const conflict::RowVisitor& visit) const override;
};

}  // namespace rlc::simulator

#endif  // RLC_FUZZ_SIMULATOR_ROW_FILE_H_
