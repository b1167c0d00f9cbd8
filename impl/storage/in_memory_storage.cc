#include <set>

#include "impl/storage/storage.h"

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
  std::set<std::string> names;
  for (auto it = files_.lower_bound(prefix); it != files_.end(); ++it) {
    if (it->first.compare(0, prefix.size(), prefix) != 0) break;
    std::string rest = it->first.substr(prefix.size());
    names.insert(rest.substr(0, rest.find('/')));
  }
  if (names.empty()) return Status::NotFound("directory not found: " + dir);
  return std::vector<std::string>(names.begin(), names.end());
}

Status InMemoryStorage::PutIfAbsent(const std::string& path, std::string_view bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!files_.emplace(path, std::string(bytes)).second) {
    return Status::AlreadyExists("file exists: " + path);
  }
  return Status::Ok();
}

}  // namespace rlc::storage
