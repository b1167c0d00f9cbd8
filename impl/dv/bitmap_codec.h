// The serialized deletion-vector bitmap: Delta's "RoaringBitmapArray" portable format.
//
// Concern: bytes <-> RowBitmap, with every byte validated before any of it reaches CRoaring,
// because CRoaring 0.2.66's deserializers are unsafe on hostile input
// (docs/toolchain.md#croaring-unsafe).
//
// Layout (all little-endian; FORMAT.md beside this file gives a worked example):
//   u32 magic = 1681511377 ("portable"), u64 bucket count, then per bucket in strictly ascending
//   key order: u32 high key (< 2^31) and a standard 32-bit portable Roaring bitmap of the low
//   halves. The native magic 1681511376 is refused as Unsupported: rlc does not decode it.
//
// Decoding checks, in order: the magic; the bucket count against the bytes left; each key's
// order and top bit; each 32-bit bitmap's cookie, container count (<= 65536), container keys
// (strictly ascending), offset header (each offset equal to the container's real position),
// arrays (strictly ascending, cardinality <= 4096), bitsets (popcount equal to the cardinality,
// cardinality > 4096), runs (non-overlapping, inside 0..65535, lengths summing to the
// cardinality); no trailing bytes; the largest row <= kRowIndexMax. Only then is CRoaring asked
// to build the bitmap, and its cardinality is compared once more. Empty buckets are accepted
// (Delta's writer emits them) and dropped.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_DV_BITMAP_CODEC_H_
#define RLC_IMPL_DV_BITMAP_CODEC_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "impl/base/status.h"
#include "impl/dv/row_bitmap.h"

namespace rlc::dv {

inline constexpr uint32_t kPortableBitmapMagic = 1681511377;
inline constexpr uint32_t kNativeBitmapMagic = 1681511376;

// Decodes and validates. Errors are kCorrupt (or kUnsupported for the native magic) and name the
// byte offset, relative to the start of `bytes`.
Result<RowBitmap> DecodeBitmap(std::string_view bytes);

// Validates the bytes exactly as DecodeBitmap does without building CRoaring bitmaps; returns
// the cardinality. Used where only the count is needed.
Result<uint64_t> ValidateBitmapBytes(std::string_view bytes);

// Serializes in the portable format: no empty buckets, containers as CRoaring holds them (call
// RowBitmap::RunOptimize first for the smallest form). REQUIRES: bitmap.Validate().ok()
std::string EncodeBitmap(const RowBitmap& bitmap);

}  // namespace rlc::dv

#endif  // RLC_IMPL_DV_BITMAP_CODEC_H_
