#include "impl/delta/commit_rules.h"

#include <unordered_map>
#include <unordered_set>

#include "impl/delta/file_key.h"
#include "impl/delta/snapshot.h"
#include "impl/delta/stats.h"

namespace rlc::delta {
namespace {

Status CommitError(int64_t version, const std::string& path, const std::string& what) {
  return Status::Corrupt("version " + std::to_string(version) + ", path '" + path + "': " + what);
}

// The decoded path; a path without an escape is its own (no decoding, no error).
Result<std::string> Decoded(int64_t version, const std::string& path) {
  if (!HasEscape(path)) return path;
  Result<std::string> decoded = dv::UrlDecode(path);
  if (!decoded.ok()) return CommitError(version, path, decoded.status().message());
  return decoded;
}

// Rule 5: what the add says of its rows must be read one way: numRecords a count, and present
// where a DV names rows of the file.
Status CheckAddRows(int64_t version, const std::string& path, const AddFile& add) {
  std::optional<int64_t> num_records;
  if (add.stats.has_value()) {
    Result<std::optional<int64_t>> n = ParseNumRecords(*add.stats);
    if (!n.ok()) return CommitError(version, path, n.status().message());
    num_records = *n;
  }
  if (add.deletion_vector.has_value() && !num_records.has_value())
    return CommitError(version, path, "a file with a deletion vector must have stats.numRecords");
  return Status::Ok();
}

std::string DvId(const std::optional<dv::DvDescriptor>& dv) {
  return dv.has_value() ? dv->UniqueId() : std::string();
}

}  // namespace

Status CheckCommitFiles(int64_t version, std::span<const AddFile* const> adds,
                        std::span<const RemoveFile* const> removes, const ActiveAddLookup& active) {
  // Decoded path -> the DV id the commit removes there (rule 2 keeps it to one).
  std::unordered_map<std::string, std::string> removed;
  removed.reserve(removes.size());
  for (const RemoveFile* remove : removes) {
    RLC_ASSIGN_OR_RETURN(std::string path, Decoded(version, remove->path));
    if (!removed.emplace(path, DvId(remove->deletion_vector)).second)
      return CommitError(version, path, "removed twice in one commit");
  }
  std::unordered_set<std::string> added;
  added.reserve(adds.size());
  for (const AddFile* add : adds) {
    RLC_ASSIGN_OR_RETURN(std::string path, Decoded(version, add->path));
    if (!added.insert(path).second) return CommitError(version, path, "added twice in one commit");
    RLC_RETURN_IF_ERROR(CheckAddRows(version, path, *add));
    const std::string dv = DvId(add->deletion_vector);
    if (const auto it = removed.find(path); it != removed.end() && it->second == dv)
      return CommitError(version, path,
                         "added and removed with the same deletion vector in one commit");
    if (active) {
      const AddFile* before = active(path);
      const std::string before_dv = before != nullptr ? DvId(before->deletion_vector) : dv;
      const auto it = removed.find(path);
      const bool removes_it = it != removed.end() && it->second == before_dv;
      if (before_dv != dv && !removes_it) {
        return CommitError(version, path,
                           "two active versions: deletion vector '" + before_dv +
                               "' is still active and the commit adds '" + dv +
                               "' without removing it");
      }
    }
  }
  return Status::Ok();
}

}  // namespace rlc::delta
