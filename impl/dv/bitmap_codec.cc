#include "impl/dv/bitmap_codec.h"

#include <roaring/roaring.h>

#include <vector>

#include "impl/base/bytes.h"
#include "impl/base/limits.h"

namespace rlc::dv {
namespace {

// 32-bit Roaring portable format constants (RoaringFormatSpec).
constexpr uint32_t kCookieNoRuns = 12346;
constexpr uint32_t kCookieWithRuns = 12347;
constexpr uint32_t kNoOffsetThreshold = 4;  // with runs, offsets exist only from 4 containers on
constexpr uint32_t kArrayCardinalityMax = 4096;
constexpr uint32_t kContainersMax = 65536;
constexpr size_t kBitsetBytes = 8192;

Status CorruptAt(size_t offset, const std::string& what) {
  return Status::Corrupt("DV bitmap byte " + std::to_string(offset) + ": " + what);
}

// Validates one 32-bit portable Roaring bitmap starting at bytes[start]. On success sets
// *extent to its length in bytes and *cardinality to its number of values.
Status ValidateRoaring32(const uint8_t* bytes, size_t size, size_t start, size_t* extent,
                         uint64_t* cardinality) {
  const uint8_t* p = bytes + start;
  const size_t avail = size - start;
  size_t pos = 0;
  auto need = [&](size_t n, const char* what) -> Status {
    if (avail - pos < n) {
      return CorruptAt(start + pos, std::string("truncated ") + what + ": needs " + std::to_string(n) +
                                        " bytes, " + std::to_string(avail - pos) + " left");
    }
    return Status::Ok();
  };
  RLC_RETURN_IF_ERROR(need(4, "Roaring cookie"));
  uint32_t cookie = LoadLe32(p);
  uint32_t containers = 0;
  const uint8_t* run_flags = nullptr;
  bool has_offsets = true;
  if ((cookie & 0xFFFF) == kCookieWithRuns) {
    containers = (cookie >> 16) + 1;
    pos = 4;
    size_t flag_bytes = (containers + 7) / 8;
    RLC_RETURN_IF_ERROR(need(flag_bytes, "run-container flags"));
    run_flags = p + pos;
    pos += flag_bytes;
    has_offsets = containers >= kNoOffsetThreshold;
  } else if (cookie == kCookieNoRuns) {
    RLC_RETURN_IF_ERROR(need(8, "container count"));
    containers = LoadLe32(p + 4);
    pos = 8;
    if (containers > kContainersMax) {
      return CorruptAt(start + 4, "container count " + std::to_string(containers) + " exceeds 65536");
    }
  } else {
    return CorruptAt(start, "unknown Roaring cookie " + std::to_string(cookie));
  }
  const size_t header_pos = pos;
  RLC_RETURN_IF_ERROR(need(size_t{4} * containers, "container headers"));
  pos += size_t{4} * containers;
  const size_t offsets_pos = pos;
  if (has_offsets) {
    RLC_RETURN_IF_ERROR(need(size_t{4} * containers, "offset header"));
    pos += size_t{4} * containers;
  }
  uint64_t total = 0;
  int32_t previous_key = -1;
  for (uint32_t c = 0; c < containers; ++c) {
    const uint16_t key = LoadLe16(p + header_pos + 4 * c);
    const uint32_t card = uint32_t(LoadLe16(p + header_pos + 4 * c + 2)) + 1;
    const std::string label = "container " + std::to_string(c) + " (key " + std::to_string(key) + ")";
    if (int32_t(key) <= previous_key) {
      return CorruptAt(start + header_pos + 4 * c, label + ": container keys not strictly ascending");
    }
    previous_key = key;
    if (has_offsets && LoadLe32(p + offsets_pos + 4 * c) != pos) {
      return CorruptAt(start + offsets_pos + 4 * c,
                       label + ": offset " + std::to_string(LoadLe32(p + offsets_pos + 4 * c)) +
                           " does not point at its data (" + std::to_string(pos) + ")");
    }
    const bool is_run = run_flags != nullptr && (run_flags[c / 8] >> (c % 8)) & 1;
    if (is_run) {
      RLC_RETURN_IF_ERROR(need(2, "run count"));
      const uint32_t runs = LoadLe16(p + pos);
      pos += 2;
      if (runs == 0) return CorruptAt(start + pos - 2, label + ": run container with no runs");
      RLC_RETURN_IF_ERROR(need(size_t{4} * runs, "runs"));
      uint64_t run_total = 0;
      int64_t previous_end = -1;  // inclusive end of the previous run
      for (uint32_t r = 0; r < runs; ++r) {
        const uint32_t run_start = LoadLe16(p + pos + 4 * r);
        const uint32_t run_end = run_start + LoadLe16(p + pos + 4 * r + 2);
        if (int64_t(run_start) <= previous_end) {
          return CorruptAt(start + pos + 4 * r, label + ": runs overlap or are out of order");
        }
        if (run_end > 0xFFFF) {
          return CorruptAt(start + pos + 4 * r, label + ": run ends past 65535");
        }
        previous_end = run_end;
        run_total += run_end - run_start + 1;
      }
      if (run_total != card) {
        return CorruptAt(start + pos, label + ": runs hold " + std::to_string(run_total) +
                                          " values, header says " + std::to_string(card));
      }
      pos += size_t{4} * runs;
    } else if (card > kArrayCardinalityMax) {
      RLC_RETURN_IF_ERROR(need(kBitsetBytes, "bitset container"));
      uint64_t bits = 0;
      for (size_t w = 0; w < kBitsetBytes / 8; ++w) {
        bits += uint64_t(__builtin_popcountll(LoadLe64(p + pos + 8 * w)));
      }
      if (bits != card) {
        return CorruptAt(start + pos, label + ": bitset holds " + std::to_string(bits) +
                                          " values, header says " + std::to_string(card));
      }
      pos += kBitsetBytes;
    } else {
      RLC_RETURN_IF_ERROR(need(size_t{2} * card, "array container"));
      uint32_t previous = LoadLe16(p + pos);
      for (uint32_t i = 1; i < card; ++i) {
        uint32_t value = LoadLe16(p + pos + 2 * i);
        if (value <= previous) {
          return CorruptAt(start + pos + 2 * i, label + ": array values not strictly ascending");
        }
        previous = value;
      }
      pos += size_t{2} * card;
    }
    total += card;
  }
  *extent = pos;
  *cardinality = total;
  return Status::Ok();
}

struct BucketExtent {
  uint32_t high_key;
  size_t start;
  size_t size;
  uint64_t cardinality;
};

// Walks the outer layer and validates every bucket; fills `extents` with the non-empty ones.
Status ValidateOuter(std::string_view bytes, std::vector<BucketExtent>* extents) {
  const uint8_t* p = AsBytes(bytes.data());
  const size_t size = bytes.size();
  if (size > kDvSizeBytesMax) {
    return Status::OverLimit("DV bitmap of " + std::to_string(size) + " bytes exceeds the limit");
  }
  if (size < 12) {
    return CorruptAt(0, "a DV bitmap needs at least 12 bytes (magic, bucket count), got " +
                            std::to_string(size));
  }
  const uint32_t magic = LoadLe32(p);
  if (magic == kNativeBitmapMagic) {
    return Status::Unsupported("DV bitmap byte 0: native RoaringBitmapArray magic 1681511376; "
                               "rlc decodes only the portable format (1681511377)");
  }
  if (magic != kPortableBitmapMagic) {
    return CorruptAt(0, "bad magic " + std::to_string(magic) + " (expected 1681511377)");
  }
  const uint64_t buckets = LoadLe64(p + 4);
  // Each bucket takes at least 12 bytes: a 4-byte key and an 8-byte empty bitmap.
  if (buckets > (size - 12) / 12) {
    return CorruptAt(4, "bucket count " + std::to_string(buckets) + " cannot fit in " +
                            std::to_string(size) + " bytes");
  }
  size_t pos = 12;
  int64_t previous_key = -1;
  for (uint64_t b = 0; b < buckets; ++b) {
    if (size - pos < 4) return CorruptAt(pos, "truncated bucket key");
    const uint32_t key = LoadLe32(p + pos);
    if (key >= (uint32_t{1} << 31)) {
      return CorruptAt(pos, "bucket key " + std::to_string(key) + " has its top bit set");
    }
    if (int64_t(key) <= previous_key) {
      return CorruptAt(pos, "bucket keys not strictly ascending (" + std::to_string(key) +
                                " after " + std::to_string(previous_key) + ")");
    }
    previous_key = key;
    pos += 4;
    size_t extent = 0;
    uint64_t card = 0;
    RLC_RETURN_IF_ERROR(ValidateRoaring32(p, size, pos, &extent, &card));
    if (card > 0) extents->push_back(BucketExtent{key, pos, extent, card});
    pos += extent;
  }
  if (pos != size) {
    return CorruptAt(pos, std::to_string(size - pos) + " trailing bytes after the last bucket");
  }
  return Status::Ok();
}

}  // namespace

Result<uint64_t> ValidateBitmapBytes(std::string_view bytes) {
  std::vector<BucketExtent> extents;
  RLC_RETURN_IF_ERROR(ValidateOuter(bytes, &extents));
  uint64_t total = 0;
  for (const BucketExtent& e : extents) total += e.cardinality;
  return total;
}

Result<RowBitmap> DecodeBitmap(std::string_view bytes) {
  std::vector<BucketExtent> extents;
  RLC_RETURN_IF_ERROR(ValidateOuter(bytes, &extents));
  std::vector<RowBitmap::Bucket> buckets;
  buckets.reserve(extents.size());
  for (const BucketExtent& e : extents) {
    // Safe now: every header, count, order, offset and cardinality was checked above.
    roaring_bitmap_t* raw = roaring_bitmap_portable_deserialize_safe(bytes.data() + e.start, e.size);
    if (raw == nullptr) {
      return CorruptAt(e.start, "CRoaring refused a bitmap that passed validation");
    }
    Roaring low(raw);  // takes ownership
    if (low.cardinality() != e.cardinality) {
      return CorruptAt(e.start, "CRoaring's cardinality disagrees with the validated one");
    }
    buckets.push_back(RowBitmap::Bucket{e.high_key, std::move(low)});
  }
  if (!buckets.empty()) {
    const RowBitmap::Bucket& last = buckets.back();
    uint64_t max_row = (uint64_t(last.high_key) << 32) | last.low.maximum();
    if (max_row > kRowIndexMax) {
      return Status::Corrupt("DV bitmap: row index " + std::to_string(max_row) +
                             " exceeds the largest Delta row index");
    }
  }
  return RowBitmap::FromValidatedBuckets(std::move(buckets));
}

std::string EncodeBitmap(const RowBitmap& bitmap) {
  RLC_ASSERT(bitmap.Validate().ok());
  std::string out;
  AppendLe32(&out, kPortableBitmapMagic);
  AppendLe64(&out, bitmap.buckets().size());
  std::string scratch;
  for (const RowBitmap::Bucket& b : bitmap.buckets()) {
    AppendLe32(&out, b.high_key);
    // Serialize into a separate buffer: CRoaring 0.2.66 stores through unaligned pointers.
    scratch.resize(b.low.getSizeInBytes(/*portable=*/true));
    size_t written = b.low.write(scratch.data(), /*portable=*/true);
    RLC_ASSERT(written == scratch.size());
    out += scratch;
  }
  return out;
}

}  // namespace rlc::dv
