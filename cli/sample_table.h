// The sample table `rlc verify` writes and reads back: a small partitioned table with DVs of
// every storage type the writer supports ('u' with and without a prefix, several DVs in one
// file, inline), array, run and bitset containers, a whole-file removal and an append.
//
// Concern: write the table through impl/'s writers and remember, per version, what each file's
// DV must decode to. The expectations come from the in-memory bitmaps the writer started from,
// not from reading anything back.
//
// Thread-safety: stateless functions.
#ifndef RLC_CLI_SAMPLE_TABLE_H_
#define RLC_CLI_SAMPLE_TABLE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "impl/base/status.h"
#include "impl/dv/row_bitmap.h"
#include "impl/storage/storage.h"

namespace rlc::cli {

struct ExpectedFile {
  int64_t num_records = 0;
  dv::RowBitmap deleted;
};

struct ExpectedVersion {
  int64_t version = 0;
  std::map<std::string, ExpectedFile> files;  // path as written -> expectation
  int64_t LiveRows() const;
};

// Writes the table under `table_root` (which must not hold a _delta_log yet).
Result<std::vector<ExpectedVersion>> WriteSampleTable(storage::Storage& storage,
                                                      const std::string& table_root);

}  // namespace rlc::cli

#endif  // RLC_CLI_SAMPLE_TABLE_H_
