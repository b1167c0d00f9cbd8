#include "impl/storage/storage.h"

#include <algorithm>
#include <string_view>

namespace rlc::storage {

Result<std::string> InMemoryStorage::ReadFile(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("file not found: " + path);
  return it->second;
}

Result<std::string> InMemoryStorage::ReadRange(const std::string& path, uint64_t offset,
                                               uint64_t size) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("file not found: " + path);
  if (offset > it->second.size()) {
    return Status::Corrupt(path + ": offset " + std::to_string(offset) + " is past the end (" +
                           std::to_string(it->second.size()) + " bytes)");
  }
  return it->second.substr(offset, size);
}

Result<uint64_t> InMemoryStorage::FileSize(const std::string& path) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("file not found: " + path);
  return uint64_t(it->second.size());
}

Result<std::vector<std::string>> InMemoryStorage::List(const std::string& dir) const {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string prefix = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  // Views into the keys, sorted and deduplicated at the end: one string per name returned.
  std::vector<std::string_view> names;
  for (auto it = files_.lower_bound(prefix); it != files_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    const std::string_view rest = std::string_view(it->first).substr(prefix.size());
    const std::string_view name = rest.substr(0, rest.find('/'));
    if (names.empty() || names.back() != name)
      names.push_back(name);  // a folder's files are adjacent
  }
  if (names.empty()) return Status::NotFound("directory not found: " + dir);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return std::vector<std::string>(names.begin(), names.end());
}

Status InMemoryStorage::PutIfAbsent(const std::string& path, std::string_view bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!files_.emplace(path, std::string(bytes)).second) {
    return Status::AlreadyExists("file exists: " + path);
  }
  return Status::Ok();
}

Status InMemoryStorage::Replace(const std::string& path, std::string_view bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  files_[path] = std::string(bytes);
  return Status::Ok();
}

}  // namespace rlc::storage
