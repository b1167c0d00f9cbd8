#include "impl/conflict/dv_writer.h"

#include <random>

#include "impl/dv/bitmap_codec.h"
#include "impl/dv/dv_file.h"

namespace rlc::conflict {
namespace {

// One read of the system's entropy per thread (it costs a system call); each writer then draws
// its own seed from that stream, so writers made in a loop never share UUIDs.
uint64_t FreshSeed() {
  thread_local std::mt19937_64 seeds(std::random_device{}());
  return seeds();
}

}  // namespace

StorageDvWriter::StorageDvWriter(storage::Storage& storage, std::string dir, std::string table_root,
                                 std::optional<uint64_t> seed)
    : storage_(storage),
      dir_(std::move(dir)),
      table_root_(std::move(table_root)),
      random_state_(seed.has_value() ? *seed : FreshSeed()) {}

uint64_t StorageDvWriter::NextRandom() {
  uint64_t z = (random_state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::string StorageDvWriter::NextUuid() {
  static constexpr char kHex[] = "0123456789abcdef";
  const uint64_t high = (NextRandom() & ~uint64_t{0xF000}) | 0x4000;  // version 4
  const uint64_t low =
      (NextRandom() & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // variant 10
  // 8-4-4-4-12 hex digits: high's 64 bits, then low's.
  std::string text(36, '-');
  size_t at = 0;
  const auto put = [&](uint64_t bits, int digits) {
    for (int i = digits - 1; i >= 0; --i) text[at++] = kHex[(bits >> (4 * i)) & 0xF];
  };
  put(high >> 32, 8);
  ++at;
  put(high >> 16, 4);
  ++at;
  put(high, 4);
  ++at;
  put(low >> 48, 4);
  ++at;
  put(low, 12);
  return text;
}

Result<dv::DvDescriptor> StorageDvWriter::Write(const dv::RowBitmap& rows) {
  if (rows.IsEmpty()) return Status::InvalidArgument("a DV must delete at least one row");
  dv::RowBitmap compact = rows;
  compact.RunOptimize();
  const std::string payload = dv::EncodeBitmap(compact);
  std::vector<uint32_t> offsets;
  const std::string file = dv::EncodeDvFile({payload}, &offsets);
  dv::DvDescriptor d;
  d.offset = static_cast<int32_t>(offsets[0]);
  d.size_bytes = static_cast<int32_t>(payload.size());
  d.cardinality = static_cast<int64_t>(rows.Cardinality());
  std::string path;
  // A name another writer took is drawn again: two seeded writers of one table (the same seed)
  // draw the same names, and a random UUID may, very rarely, be drawn twice.
  constexpr int kNameAttempts = 64;
  for (int attempt = 1;; ++attempt) {
    const std::string uuid = NextUuid();
    if (dir_ == table_root_) {
      d.storage_type = 'u';
      RLC_ASSIGN_OR_RETURN(d.path_or_inline_dv, dv::UuidPathOrInlineDv("", uuid));
      RLC_ASSIGN_OR_RETURN(path, dv::ResolveDvFilePath(d, table_root_));
    } else {
      d.storage_type = 'p';
      path = dir_ + "/deletion_vector_" + uuid + ".bin";
      d.path_or_inline_dv = "file:" + path;
    }
    const Status put = storage_.PutIfAbsent(path, file);
    if (put.ok()) break;
    if (put.code() != StatusCode::kAlreadyExists || attempt == kNameAttempts) return put;
  }
  written_files_.push_back(path);
  return d;
}

}  // namespace rlc::conflict
