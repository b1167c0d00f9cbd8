// The _delta_log directory: which versions exist, and reading one commit.
//
// Concern: file names and listing. A commit is `<20-digit version>.json`; a classic checkpoint
// is `<version>.checkpoint.parquet` (multi-part and V2 checkpoints have longer names); other
// files (.crc, _last_checkpoint, temporary files) are ignored.
//
// Thread-safety: stateless functions over a Storage.
#ifndef RLC_IMPL_DELTA_LOG_H_
#define RLC_IMPL_DELTA_LOG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/actions.h"
#include "impl/storage/storage.h"

namespace rlc::delta {

struct LogListing {
  std::vector<int64_t> commit_versions;      // ascending
  std::vector<int64_t> checkpoint_versions;  // ascending, any checkpoint kind

  int64_t latest_version() const { return commit_versions.empty() ? -1 : commit_versions.back(); }
};

// "00000000000000000007.json"
std::string CommitFileName(int64_t version);
// The version of a commit file name, or nullopt for any other name.
std::optional<int64_t> ParseCommitFileName(std::string_view name);
// The version of a checkpoint file name (any kind), or nullopt.
std::optional<int64_t> ParseCheckpointFileName(std::string_view name);

std::string LogDir(std::string_view table_root);

// Lists <table_root>/_delta_log. kNotFound when the directory does not exist.
Result<LogListing> ListLog(const storage::Storage& storage, std::string_view table_root);

// Reads and parses one commit. Errors name the file.
Result<Commit> ReadCommit(const storage::Storage& storage, std::string_view table_root,
                          int64_t version);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_LOG_H_
