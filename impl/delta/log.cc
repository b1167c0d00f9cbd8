#include "impl/delta/log.h"

#include <algorithm>

#include "impl/base/limits.h"
#include "impl/delta/commit_parser.h"

namespace rlc::delta {
namespace {

std::optional<int64_t> ParseDigits(std::string_view digits) {
  if (digits.size() != size_t(kVersionDigits)) return std::nullopt;
  int64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    if (v > (INT64_MAX - 9) / 10) return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

}  // namespace

std::string CommitFileName(int64_t version) {
  std::string digits = std::to_string(version);
  return std::string(size_t(kVersionDigits) - std::min(digits.size(), size_t(kVersionDigits)),
                     '0') +
         digits + ".json";
}

std::optional<int64_t> ParseCommitFileName(std::string_view name) {
  if (name.size() != size_t(kVersionDigits) + 5 || name.substr(kVersionDigits) != ".json") {
    return std::nullopt;
  }
  return ParseDigits(name.substr(0, kVersionDigits));
}

std::optional<int64_t> ParseCheckpointFileName(std::string_view name) {
  if (name.size() < size_t(kVersionDigits) + 12) return std::nullopt;
  if (name.substr(kVersionDigits, 12) != ".checkpoint.") return std::nullopt;
  return ParseDigits(name.substr(0, kVersionDigits));
}

std::string LogDir(std::string_view table_root) { return std::string(table_root) + "/_delta_log"; }

Result<LogListing> ListLog(const storage::Storage& storage, std::string_view table_root) {
  RLC_ASSIGN_OR_RETURN(std::vector<std::string> names, storage.List(LogDir(table_root)));
  LogListing listing;
  for (const std::string& name : names) {
    if (auto v = ParseCommitFileName(name)) {
      listing.commit_versions.push_back(*v);
    } else if (auto c = ParseCheckpointFileName(name)) {
      if (listing.checkpoint_versions.empty() || listing.checkpoint_versions.back() != *c) {
        listing.checkpoint_versions.push_back(*c);
      }
    }
  }
  std::sort(listing.commit_versions.begin(), listing.commit_versions.end());
  std::sort(listing.checkpoint_versions.begin(), listing.checkpoint_versions.end());
  if (listing.commit_versions.size() > kLogVersionsMax) {
    return Status::OverLimit(LogDir(table_root) + ": more than " + std::to_string(kLogVersionsMax) +
                             " commits");
  }
  return listing;
}

Result<Commit> ReadCommit(const storage::Storage& storage, std::string_view table_root,
                          int64_t version) {
  const std::string path = LogDir(table_root) + "/" + CommitFileName(version);
  RLC_ASSIGN_OR_RETURN(uint64_t size, storage.FileSize(path));
  if (size > kCommitFileBytesMax) {
    return Status::OverLimit(path + ": " + std::to_string(size) +
                             " bytes exceeds the commit size limit");
  }
  RLC_ASSIGN_OR_RETURN(std::string bytes, storage.ReadFile(path));
  return ParseCommit(bytes, version, path);
}

}  // namespace rlc::delta
