#include "impl/dv/row_bitmap.h"

#include <algorithm>
#include <string>

#include "impl/base/limits.h"
#include "impl/dv/container_ops.h"

namespace rlc::dv {
namespace {

uint32_t High(uint64_t row) { return uint32_t(row >> 32); }
uint32_t Low(uint64_t row) { return uint32_t(row & 0xFFFFFFFFu); }

}  // namespace

RowBitmap::RowBitmap(std::initializer_list<uint64_t> rows) {
  for (uint64_t row : rows) Add(row);
}

RowBitmap RowBitmap::FromSorted(const std::vector<uint64_t>& rows) {
  RowBitmap bitmap;
  size_t i = 0;
  while (i < rows.size()) {
    // Batch the rows of one bucket: add_many is much faster than one add per row.
    uint32_t high = High(rows[i]);
    std::vector<uint32_t> lows;
    while (i < rows.size() && High(rows[i]) == high) {
      RLC_ASSERT(rows[i] <= kRowIndexMax);
      lows.push_back(Low(rows[i]));
      ++i;
    }
    bitmap.BucketFor(high).addMany(lows.size(), lows.data());
  }
  return bitmap;
}

Roaring& RowBitmap::BucketFor(uint32_t high_key) {
  auto it = std::lower_bound(buckets_.begin(), buckets_.end(), high_key,
                             [](const Bucket& b, uint32_t key) { return b.high_key < key; });
  if (it == buckets_.end() || it->high_key != high_key) {
    it = buckets_.insert(it, Bucket{high_key, Roaring()});
  }
  return it->low;
}

void RowBitmap::Add(uint64_t row) {
  RLC_ASSERT(row <= kRowIndexMax);
  // Rows usually arrive in ascending order (a remap's output, a decoded DV): try the last bucket.
  if (!buckets_.empty() && buckets_.back().high_key == High(row)) {
    Roaring& last = buckets_.back().low;
    if (!AppendAscending(last, Low(row))) last.add(Low(row));
    return;
  }
  BucketFor(High(row)).add(Low(row));
}

void RowBitmap::AddRange(uint64_t begin, uint64_t end) {
  RLC_ASSERT(begin <= end);
  if (begin == end) return;
  RLC_ASSERT(end - 1 <= kRowIndexMax);
  while (begin < end) {
    uint64_t bucket_end = std::min<uint64_t>(end, (uint64_t(High(begin)) + 1) << 32);
    BucketFor(High(begin)).addRange(Low(begin), uint64_t(Low(begin)) + (bucket_end - begin));
    begin = bucket_end;
  }
}

bool RowBitmap::Contains(uint64_t row) const {
  auto it = std::lower_bound(buckets_.begin(), buckets_.end(), High(row),
                             [](const Bucket& b, uint32_t key) { return b.high_key < key; });
  return it != buckets_.end() && it->high_key == High(row) && it->low.contains(Low(row));
}

uint64_t RowBitmap::Cardinality() const {
  uint64_t total = 0;
  for (const Bucket& b : buckets_) total += b.low.cardinality();
  return total;
}

uint64_t RowBitmap::Maximum() const {
  RLC_ASSERT(!buckets_.empty());
  const Bucket& last = buckets_.back();
  return (uint64_t(last.high_key) << 32) | last.low.maximum();
}

uint64_t RowBitmap::Rank(uint64_t row) const {
  uint64_t rank = 0;
  for (const Bucket& b : buckets_) {
    if (b.high_key < High(row)) {
      rank += b.low.cardinality();
    } else if (b.high_key == High(row)) {
      rank += b.low.rank(Low(row));
    } else {
      break;
    }
  }
  return rank;
}

template <typename Op>
RowBitmap RowBitmap::Combine(const RowBitmap& other, bool keep_left_only, bool keep_right_only,
                             Op op) const {
  RowBitmap out;
  size_t i = 0, j = 0;
  while (i < buckets_.size() || j < other.buckets_.size()) {
    bool take_left = j == other.buckets_.size() ||
                     (i < buckets_.size() && buckets_[i].high_key < other.buckets_[j].high_key);
    bool take_right = i == buckets_.size() || (j < other.buckets_.size() &&
                                               other.buckets_[j].high_key < buckets_[i].high_key);
    if (take_left) {
      if (keep_left_only) out.buckets_.push_back(buckets_[i]);
      ++i;
    } else if (take_right) {
      if (keep_right_only) out.buckets_.push_back(other.buckets_[j]);
      ++j;
    } else {
      Roaring combined = op(buckets_[i].low, other.buckets_[j].low);
      if (!combined.isEmpty())
        out.buckets_.push_back(Bucket{buckets_[i].high_key, std::move(combined)});
      ++i;
      ++j;
    }
  }
  return out;
}

RowBitmap RowBitmap::Union(const RowBitmap& other) const {
  return Combine(other, true, true, [](const Roaring& a, const Roaring& b) { return a | b; });
}
RowBitmap RowBitmap::Intersect(const RowBitmap& other) const {
  return Combine(other, false, false, [](const Roaring& a, const Roaring& b) { return a & b; });
}
RowBitmap RowBitmap::Difference(const RowBitmap& other) const {
  return Combine(other, true, false, [](const Roaring& a, const Roaring& b) { return a - b; });
}

bool RowBitmap::Intersects(const RowBitmap& other) const {
  size_t i = 0, j = 0;
  while (i < buckets_.size() && j < other.buckets_.size()) {
    if (buckets_[i].high_key < other.buckets_[j].high_key) {
      ++i;
    } else if (other.buckets_[j].high_key < buckets_[i].high_key) {
      ++j;
    } else {
      if (buckets_[i].low.intersect(other.buckets_[j].low)) return true;
      ++i;
      ++j;
    }
  }
  return false;
}

bool RowBitmap::IsSubsetOf(const RowBitmap& other) const {
  // Bucket by bucket, without building the difference.
  auto theirs = other.buckets_.begin();
  for (const Bucket& b : buckets_) {
    while (theirs != other.buckets_.end() && theirs->high_key < b.high_key) ++theirs;
    if (theirs == other.buckets_.end() || theirs->high_key != b.high_key ||
        !b.low.isSubset(theirs->low))
      return false;
  }
  return true;
}

bool RowBitmap::UnionTestingMeet(const RowBitmap& other, const RowBitmap& meet,
                                 RowBitmap* joined) const {
  RLC_ASSERT(joined != this && joined != &other && joined != &meet);
  RowBitmap out;
  bool holds = true;
  size_t i = 0, j = 0, k = 0;
  const std::vector<Bucket>& a = buckets_;
  const std::vector<Bucket>& b = other.buckets_;
  const std::vector<Bucket>& m = meet.buckets_;
  while (i < a.size() || j < b.size()) {
    const bool in_a = i < a.size() && (j == b.size() || a[i].high_key <= b[j].high_key);
    const bool in_b = j < b.size() && (i == a.size() || b[j].high_key <= a[i].high_key);
    const uint32_t key = in_a ? a[i].high_key : b[j].high_key;
    for (; k < m.size() && m[k].high_key < key; ++k) holds = false;  // outside this ∪ other
    const Bucket* in_meet = k < m.size() && m[k].high_key == key ? &m[k++] : nullptr;
    if (in_a && in_b) {
      Bucket joined_bucket{key, Roaring()};
      static const Roaring kNone;
      holds = dv::UnionTestingMeet(a[i].low, b[j].low, in_meet != nullptr ? in_meet->low : kNone,
                                   joined_bucket.low) &&
              holds;
      out.buckets_.push_back(std::move(joined_bucket));
      ++i;
      ++j;
      continue;
    }
    holds = holds && in_meet == nullptr;  // one side only: nothing of the meet here
    out.buckets_.push_back(in_a ? a[i++] : b[j++]);
  }
  *joined = std::move(out);
  return holds && k == m.size();
}

bool RowBitmap::DifferenceTestingSubset(const RowBitmap& other, RowBitmap* rest) const {
  RLC_ASSERT(rest != this && rest != &other);
  RowBitmap out;
  bool holds = true;
  size_t j = 0;
  const std::vector<Bucket>& b = other.buckets_;
  for (const Bucket& x : buckets_) {
    for (; j < b.size() && b[j].high_key < x.high_key; ++j)
      holds = false;  // rows of other outside this
    if (j == b.size() || b[j].high_key != x.high_key) {
      out.buckets_.push_back(x);
      continue;
    }
    Bucket left{x.high_key, Roaring()};
    holds = dv::DifferenceTestingSubset(x.low, b[j].low, left.low) && holds;
    ++j;
    if (!left.low.isEmpty()) out.buckets_.push_back(std::move(left));
  }
  *rest = std::move(out);
  return holds && j == b.size();
}

std::vector<uint64_t> RowBitmap::ToVector() const {
  std::vector<uint64_t> rows;
  rows.reserve(Cardinality());
  ForEach([&rows](uint64_t row) { rows.push_back(row); });
  return rows;
}

void RowBitmap::RunOptimize() {
  for (Bucket& b : buckets_) {
    b.low.runOptimize();
    b.low.shrinkToFit();
  }
}

Status RowBitmap::Validate() const {
  for (size_t i = 0; i < buckets_.size(); ++i) {
    const Bucket& b = buckets_[i];
    auto where = [&] {
      return "bucket " + std::to_string(i) + " (high key " + std::to_string(b.high_key) + ")";
    };
    if (i > 0 && buckets_[i - 1].high_key >= b.high_key) {
      return Status::Corrupt(where() + ": high keys are not strictly ascending");
    }
    if (b.high_key >= (uint32_t{1} << 31)) {
      return Status::Corrupt(where() + ": high key has its top bit set");
    }
    if (b.low.isEmpty()) return Status::Corrupt(where() + ": empty bucket");
  }
  if (!buckets_.empty() && Maximum() > kRowIndexMax) {
    return Status::Corrupt("row index " + std::to_string(Maximum()) +
                           " exceeds the largest Delta row index");
  }
  return Status::Ok();
}

RowBitmap RowBitmap::FromValidatedBuckets(std::vector<Bucket> buckets) {
  RowBitmap bitmap;
  bitmap.buckets_ = std::move(buckets);
  RLC_ASSERT(bitmap.Validate().ok());
  return bitmap;
}

bool operator==(const RowBitmap& a, const RowBitmap& b) {
  if (a.buckets_.size() != b.buckets_.size()) return false;
  for (size_t i = 0; i < a.buckets_.size(); ++i) {
    if (a.buckets_[i].high_key != b.buckets_[i].high_key) return false;
    if (!(a.buckets_[i].low == b.buckets_[i].low)) return false;
  }
  return true;
}

}  // namespace rlc::dv
