// Storage: the file operations rlc performs, behind an interface (LevelDB's Env).
//
// Concern: reading whole files and byte ranges, listing a directory, and put-if-absent writes,
// so the same protocol code runs on a local directory, in memory, or under fault injection.
// Paths are absolute, '/'-separated strings; implementations map them to their own namespace.
//
// Errors: kNotFound for a missing file or directory (the message names the path), kIoError for
// an operating-system failure, kCorrupt for a range past the end of a file, kAlreadyExists when
// a put-if-absent target exists.
//
// Thread-safety: implementations are safe for concurrent use.
#ifndef RLC_IMPL_STORAGE_STORAGE_H_
#define RLC_IMPL_STORAGE_STORAGE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"

namespace rlc::storage {

class Storage {
 public:
  virtual ~Storage() = default;

  virtual Result<std::string> ReadFile(const std::string& path) const = 0;
  // Up to `size` bytes from `offset`; fewer when the file ends first (callers check the length).
  // An offset past the end is kCorrupt.
  virtual Result<std::string> ReadRange(const std::string& path, uint64_t offset,
                                        uint64_t size) const = 0;
  virtual Result<uint64_t> FileSize(const std::string& path) const = 0;
  // Names (not paths) of the entries directly inside `dir`, sorted.
  virtual Result<std::vector<std::string>> List(const std::string& dir) const = 0;
  // Creates `path` with `bytes` atomically, or fails with kAlreadyExists. Parent directories
  // are created as needed.
  virtual Status PutIfAbsent(const std::string& path, std::string_view bytes) = 0;
  // Writes `path` with `bytes` atomically, replacing what is there: a reader sees the old bytes
  // or the new ones whole. Only for hints no reader relies on (_last_checkpoint); never a commit.
  virtual Status Replace(const std::string& path, std::string_view bytes) = 0;
};

// The local file system. PutIfAbsent writes a temporary file and links it into place, so a
// reader never sees a partial file and two writers never both succeed.
std::unique_ptr<Storage> NewLocalStorage();

// A map from path to bytes, for tests and the simulator.
class InMemoryStorage final : public Storage {
 public:
  Result<std::string> ReadFile(const std::string& path) const override;
  Result<std::string> ReadRange(const std::string& path, uint64_t offset,
                                uint64_t size) const override;
  Result<uint64_t> FileSize(const std::string& path) const override;
  Result<std::vector<std::string>> List(const std::string& dir) const override;
  Status PutIfAbsent(const std::string& path, std::string_view bytes) override;
  Status Replace(const std::string& path, std::string_view bytes) override;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> files_;
};

}  // namespace rlc::storage

#endif  // RLC_IMPL_STORAGE_STORAGE_H_
