#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "impl/storage/storage.h"

namespace rlc::storage {
namespace {

Status ErrnoStatus(const std::string& what, const std::string& path, int error) {
  std::string message = what + " " + path + ": " + std::strerror(error);
  if (error == ENOENT) return Status::NotFound(message);
  if (error == EEXIST) return Status::AlreadyExists(message);
  return Status::IoError(message);
}

// Closes a descriptor on every path out of a function.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

Status ReadAt(int fd, const std::string& path, uint64_t offset, uint64_t size, std::string* out) {
  out->resize(size);
  uint64_t done = 0;
  while (done < size) {
    ssize_t n = ::pread(fd, out->data() + done, size - done, off_t(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoStatus("read", path, errno);
    }
    if (n == 0) break;
    done += uint64_t(n);
  }
  out->resize(done);
  return Status::Ok();
}

class LocalStorage final : public Storage {
 public:
  Result<std::string> ReadFile(const std::string& path) const override {
    RLC_ASSIGN_OR_RETURN(uint64_t size, FileSize(path));
    return ReadRange(path, 0, size);
  }

  Result<std::string> ReadRange(const std::string& path, uint64_t offset,
                                uint64_t size) const override {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus("open", path, errno);
    FdCloser closer(fd);
    struct stat st;
    if (::fstat(fd, &st) != 0) return ErrnoStatus("stat", path, errno);
    if (S_ISDIR(st.st_mode)) return Status::IoError(path + " is a directory, not a file");
    const uint64_t file_size = uint64_t(st.st_size);
    if (offset > file_size) {
      return Status::Corrupt(path + ": offset " + std::to_string(offset) + " is past the end (" +
                             std::to_string(file_size) + " bytes)");
    }
    std::string bytes;
    RLC_RETURN_IF_ERROR(ReadAt(fd, path, offset, std::min(size, file_size - offset), &bytes));
    return bytes;
  }

  Result<uint64_t> FileSize(const std::string& path) const override {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return ErrnoStatus("stat", path, errno);
    if (S_ISDIR(st.st_mode)) return Status::IoError(path + " is a directory, not a file");
    return uint64_t(st.st_size);
  }

  Result<std::vector<std::string>> List(const std::string& dir) const override {
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec);
    if (ec) {
      if (ec == std::errc::no_such_file_or_directory) {
        return Status::NotFound("directory not found: " + dir);
      }
      return Status::IoError("list " + dir + ": " + ec.message());
    }
    std::vector<std::string> names;
    for (const auto& entry : it) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  Status PutIfAbsent(const std::string& path, std::string_view bytes) override {
    return WriteThenPlace(path, bytes, /*replace=*/false);
  }

  Status Replace(const std::string& path, std::string_view bytes) override {
    return WriteThenPlace(path, bytes, /*replace=*/true);
  }

 private:
  // A temporary file, written and synced, then linked into place (fails if `path` exists) or,
  // with `replace`, renamed over it.
  static Status WriteThenPlace(const std::string& path, std::string_view bytes, bool replace) {
    std::error_code ec;
    std::filesystem::path target(path);
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) return Status::IoError("create directory for " + path + ": " + ec.message());
    static std::atomic<uint64_t> counter{0};
    const std::string temp =
        path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
    int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoStatus("create", temp, errno);
    Status written = WriteAll(fd, temp, bytes);
    if (written.ok() && ::fsync(fd) != 0) written = ErrnoStatus("fsync", temp, errno);
    ::close(fd);
    if (written.ok() && replace) {
      if (::rename(temp.c_str(), path.c_str()) != 0) written = ErrnoStatus("replace", path, errno);
      if (written.ok()) return written;
    } else if (written.ok() && ::link(temp.c_str(), path.c_str()) != 0) {
      written = ErrnoStatus("commit", path, errno);
    }
    ::unlink(temp.c_str());
    return written;
  }

  static Status WriteAll(int fd, const std::string& path, std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::write(fd, bytes.data(), bytes.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return ErrnoStatus("write", path, errno);
      }
      bytes.remove_prefix(size_t(n));
    }
    return Status::Ok();
  }
};

}  // namespace

std::unique_ptr<Storage> NewLocalStorage() { return std::make_unique<LocalStorage>(); }

}  // namespace rlc::storage
