// RowBitmap: a set of 64-bit row indexes, the in-memory form of a deletion vector.
//
// Concern: the set algebra the reconcile cases need (insert, contains, union, intersect,
// difference, rank, cardinality), over CRoaring's 32-bit bitmaps held per high key. rlc keeps
// its own buckets instead of CRoaring 0.2.66's Roaring64Map, which copies whole bitmaps for
// cardinality() and serializes empty buckets (docs/toolchain.md#roaring64map).
//
// Thread-safety: a const RowBitmap may be read from many threads; mutation needs exclusion.
//
// Invariants (Validate() checks all of them and names the first one broken):
//   1. buckets_ is sorted by high key, strictly ascending.
//   2. No bucket is empty.
//   3. Every high key is < 2^31 (Delta's RoaringBitmapArray keeps the key's top bit clear).
//   4. Every value is <= kRowIndexMax.
// Every public mutator keeps these invariants, so a RowBitmap built through this API is always
// valid; the codec validates its input bytes before it builds one.
#ifndef RLC_IMPL_DV_ROW_BITMAP_H_
#define RLC_IMPL_DV_ROW_BITMAP_H_

#include <roaring/roaring.hh>

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "impl/base/status.h"

namespace rlc::dv {

class RowBitmap {
 public:
  // One 32-bit Roaring bitmap holding the low halves of the rows whose high half is high_key.
  struct Bucket {
    uint32_t high_key = 0;
    Roaring low;
  };

  RowBitmap() = default;
  RowBitmap(std::initializer_list<uint64_t> rows);
  static RowBitmap FromSorted(const std::vector<uint64_t>& rows);  // any order is accepted too

  // REQUIRES: row <= kRowIndexMax
  void Add(uint64_t row);
  // Adds [begin, end). REQUIRES: begin <= end, end - 1 <= kRowIndexMax
  void AddRange(uint64_t begin, uint64_t end);
  bool Contains(uint64_t row) const;

  uint64_t Cardinality() const;
  bool IsEmpty() const { return buckets_.empty(); }
  // The largest row. REQUIRES: !IsEmpty()
  uint64_t Maximum() const;
  // Number of rows <= row.
  uint64_t Rank(uint64_t row) const;

  RowBitmap Union(const RowBitmap& other) const;
  RowBitmap Intersect(const RowBitmap& other) const;
  RowBitmap Difference(const RowBitmap& other) const;  // this \ other
  bool Intersects(const RowBitmap& other) const;
  bool IsSubsetOf(const RowBitmap& other) const;

  // Two answers from one pass over the containers (container_ops.h), for the kernels' hot paths:
  // *joined = this ∪ other, and returns whether this ∩ other == meet.
  bool UnionTestingMeet(const RowBitmap& other, const RowBitmap& meet, RowBitmap* joined) const;
  // *rest = this \ other, and returns whether other ⊆ this.
  bool DifferenceTestingSubset(const RowBitmap& other, RowBitmap* rest) const;

  // Calls visit(row) for every row in ascending order.
  template <typename Visit>
  void ForEach(Visit&& visit) const;
  std::vector<uint64_t> ToVector() const;

  // Converts containers to run containers where that is smaller (Delta's writer does the same).
  void RunOptimize();

  Status Validate() const;
  const std::vector<Bucket>& buckets() const { return buckets_; }

  // Used by the codec after it has validated the bytes. REQUIRES: the result passes Validate().
  static RowBitmap FromValidatedBuckets(std::vector<Bucket> buckets);

  friend bool operator==(const RowBitmap& a, const RowBitmap& b);

 private:
  Roaring& BucketFor(uint32_t high_key);  // creates it if absent
  template <typename Op>
  RowBitmap Combine(const RowBitmap& other, bool keep_left_only, bool keep_right_only, Op op) const;

  std::vector<Bucket> buckets_;
};

// A template, so that a hot caller's visit inlines (a remap visits every newly deleted row).
template <typename Visit>
void RowBitmap::ForEach(Visit&& visit) const {
  std::vector<uint32_t> lows;
  for (const Bucket& b : buckets_) {
    lows.resize(b.low.cardinality());
    b.low.toUint32Array(lows.data());
    const uint64_t high = uint64_t{b.high_key} << 32;
    for (uint32_t low : lows) visit(high | low);
  }
}

}  // namespace rlc::dv

#endif  // RLC_IMPL_DV_ROW_BITMAP_H_
