// Tests for impl/dv/container_ops.h and the RowBitmap operations built on it: each fused answer
// must equal what CRoaring's separate operations give, on generated bitmaps that mix array,
// bitmap and run containers, copy-on-write shared containers, and several 2^32 buckets.
#include "impl/dv/container_ops.h"

#include <gtest/gtest.h>
#include <roaring/containers/containers.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "impl/dv/row_bitmap.h"

namespace rlc::dv {
namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : x_(seed * 2654435761u + 88172645463325252ull) {}
  uint64_t Next() {
    x_ ^= x_ << 13;
    x_ ^= x_ >> 7;
    x_ ^= x_ << 17;
    return x_;
  }
  uint64_t Below(uint64_t n) { return Next() % n; }

 private:
  uint64_t x_;
};

// A 32-bit bitmap over a few 2^16 chunks, each chunk drawn as sparse (an array), dense (a
// bitmap) or as ranges (runs once run-optimized).
Roaring RandomRoaring(Rng& rng) {
  Roaring r;
  const int chunks = static_cast<int>(rng.Below(4)) + 1;
  for (int c = 0; c < chunks; ++c) {
    const uint32_t base = static_cast<uint32_t>(rng.Below(6)) << 16;
    switch (rng.Below(4)) {
      case 0:  // sparse
        for (uint64_t n = rng.Below(40); n > 0; --n)
          r.add(base + static_cast<uint32_t>(rng.Below(200)));
        break;
      case 1:  // near an array's limit of 4096 values
        for (uint64_t n = 2000 + rng.Below(2500); n > 0; --n)
          r.add(base + static_cast<uint32_t>(rng.Below(65536)));
        break;
      case 2: {  // dense
        for (uint64_t n = 6000; n > 0; --n) r.add(base + static_cast<uint32_t>(rng.Below(9000)));
        break;
      }
      default: {  // ranges
        const uint32_t start = base + static_cast<uint32_t>(rng.Below(100));
        r.addRange(start, start + 1 + rng.Below(5000));
        break;
      }
    }
  }
  if (rng.Below(2) == 0) r.runOptimize();
  return r;
}

// A bitmap related to `from`: a copy with some values dropped and some added, so that pairs
// meet often and the subset relation holds sometimes.
Roaring Neighbour(const Roaring& from, Rng& rng) {
  Roaring r = from;
  const uint64_t card = from.cardinality();
  if (card > 0 && rng.Below(2) == 0) {
    for (uint64_t n = rng.Below(4); n > 0; --n) {
      uint32_t v = 0;
      from.select(static_cast<uint32_t>(rng.Below(card)), &v);
      r.remove(v);
    }
  }
  if (rng.Below(2) == 0) {
    for (uint64_t n = rng.Below(4); n > 0; --n) r.add(static_cast<uint32_t>(rng.Below(6 << 16)));
  }
  if (rng.Below(3) == 0) r.runOptimize();
  return r;
}

// A copy whose containers are copy-on-write shared with a kept twin (the twin must outlive it).
Roaring Shared(const Roaring& r, Roaring& twin) {
  twin = r;
  twin.setCopyOnWrite(true);
  Roaring copy = twin;
  return copy;
}

// CRoaring's own invariants, which its other operations rely on: keys strictly ascending, no
// empty container, an array container holds 1 to 4096 strictly ascending values.
void ExpectCroaringInvariants(const Roaring& r) {
  const roaring_array_t& ra = r.roaring.high_low_container;
  for (int32_t i = 0; i < ra.size; ++i) {
    if (i > 0) {
      EXPECT_LT(ra.keys[i - 1], ra.keys[i]);
    }
    uint8_t type = ra.typecodes[i];
    const void* c = container_unwrap_shared(ra.containers[i], &type);
    EXPECT_TRUE(container_nonzero_cardinality(c, type)) << "container " << i;
    if (type != ARRAY_CONTAINER_TYPE_CODE) continue;
    const auto* array = static_cast<const array_container_t*>(c);
    EXPECT_LE(array->cardinality, DEFAULT_MAX_SIZE) << "container " << i;
    for (int32_t k = 1; k < array->cardinality; ++k)
      ASSERT_LT(array->array[k - 1], array->array[k]);
  }
}

TEST(ContainerOpsTest, UnionTestingMeetAgreesWithCroaring) {
  Rng rng(1);
  int held = 0, failed = 0;
  for (int round = 0; round < 600; ++round) {
    const Roaring a = RandomRoaring(rng);
    Roaring twin;
    const Roaring b = rng.Below(4) == 0 ? Shared(Neighbour(a, rng), twin) : Neighbour(a, rng);
    const Roaring meet_exact = a & b;
    // The true meet, a neighbour of it (usually not the meet), and an unrelated bitmap.
    for (const Roaring& meet :
         {meet_exact, Neighbour(meet_exact, rng), RandomRoaring(rng), Roaring()}) {
      Roaring joined;
      const bool holds = UnionTestingMeet(a, b, meet, joined);
      EXPECT_EQ(holds, meet_exact == meet) << "round " << round;
      EXPECT_TRUE(joined == (a | b)) << "round " << round;
      ExpectCroaringInvariants(joined);
      (holds ? held : failed)++;
    }
  }
  // Both answers were exercised, many times.
  EXPECT_GT(held, 600);
  EXPECT_GT(failed, 600);
}

TEST(ContainerOpsTest, DifferenceTestingSubsetAgreesWithCroaring) {
  Rng rng(2);
  int held = 0, failed = 0;
  for (int round = 0; round < 600; ++round) {
    const Roaring a = RandomRoaring(rng);
    Roaring twin;
    const Roaring near = Neighbour(a, rng);
    const Roaring within = a & near;  // a subset of a
    for (const Roaring& b : {near, within, Shared(within, twin), RandomRoaring(rng), Roaring()}) {
      Roaring rest;
      const bool holds = DifferenceTestingSubset(a, b, rest);
      EXPECT_EQ(holds, b.isSubset(a)) << "round " << round;
      EXPECT_TRUE(rest == (a - b)) << "round " << round;
      ExpectCroaringInvariants(rest);
      (holds ? held : failed)++;
    }
  }
  EXPECT_GT(held, 600);
  EXPECT_GT(failed, 300);
}

TEST(ContainerOpsTest, OutputSharesNoContainerWithItsInputs) {
  Rng rng(3);
  Roaring a = RandomRoaring(rng);
  Roaring b = Neighbour(a, rng);
  Roaring joined, rest;
  UnionTestingMeet(a, b, a & b, joined);
  DifferenceTestingSubset(a, b, rest);
  const Roaring joined_before = joined, rest_before = rest;
  // Changing the inputs leaves the outputs as they were.
  a.addRange(0, 70000);
  b.addRange(0, 70000);
  EXPECT_TRUE(joined == joined_before);
  EXPECT_TRUE(rest == rest_before);
}

TEST(ContainerOpsTest, AppendAscendingOnlyAppendsPastTheLastArrayValue) {
  Roaring r;
  EXPECT_FALSE(AppendAscending(r, 5));  // no container yet
  r.add(5);
  EXPECT_FALSE(AppendAscending(r, 5));  // not past the largest value
  EXPECT_FALSE(AppendAscending(r, 4));
  EXPECT_FALSE(AppendAscending(r, 70000));  // another container
  r.add(70000);
  EXPECT_FALSE(AppendAscending(r, 6));  // 6 is in the first container, not the last
  int appended = 0;
  for (uint32_t v = 70001; v < 70001 + 5000; ++v) {
    if (AppendAscending(r, v)) {
      ++appended;
    } else {
      r.add(v);
    }
  }
  EXPECT_GT(appended, 3000);
  Roaring expected;
  expected.add(5);
  expected.addRange(70000, 70001 + 5000);
  EXPECT_TRUE(r == expected);
  ExpectCroaringInvariants(r);  // past 4096 values the container became a bitmap, not a long array
}

TEST(ContainerOpsTest, RowBitmapAddInAscendingOrderMatchesAnyOrder) {
  Rng rng(4);
  for (int round = 0; round < 20; ++round) {
    std::vector<uint64_t> rows;
    for (int i = 0; i < 9000; ++i) rows.push_back((rng.Below(3) << 32) + rng.Below(200000));
    RowBitmap shuffled;
    for (uint64_t row : rows) shuffled.Add(row);
    std::sort(rows.begin(), rows.end());
    RowBitmap ascending;
    for (uint64_t row : rows) ascending.Add(row);
    EXPECT_TRUE(ascending == shuffled);
    EXPECT_TRUE(ascending.Validate().ok());
    for (const RowBitmap::Bucket& b : ascending.buckets()) ExpectCroaringInvariants(b.low);
  }
}

// Over RowBitmaps: the bucket walk around the container walk (buckets on one side only, meets
// with buckets of their own).
RowBitmap RandomRows(Rng& rng) {
  std::vector<RowBitmap::Bucket> buckets;
  for (uint32_t key = 0; key < 4; ++key) {
    if (rng.Below(3) == 0) continue;
    Roaring low = RandomRoaring(rng);
    if (!low.isEmpty()) buckets.push_back({key, std::move(low)});
  }
  return RowBitmap::FromValidatedBuckets(std::move(buckets));
}

TEST(ContainerOpsTest, RowBitmapFusedOperationsAgreeWithThePlainOnes) {
  Rng rng(5);
  for (int round = 0; round < 300; ++round) {
    const RowBitmap a = RandomRows(rng);
    const RowBitmap b =
        rng.Below(2) == 0 ? RandomRows(rng) : a.Intersect(RandomRows(rng)).Union(RowBitmap{7});
    const RowBitmap meet = a.Intersect(b);
    for (const RowBitmap& m :
         {meet, meet.Union(RowBitmap{uint64_t{3} << 32}), RowBitmap(), RandomRows(rng)}) {
      RowBitmap joined;
      EXPECT_EQ(a.UnionTestingMeet(b, m, &joined), meet == m) << "round " << round;
      EXPECT_TRUE(joined == a.Union(b));
      EXPECT_TRUE(joined.Validate().ok());
    }
    for (const RowBitmap& c : {b, meet, RowBitmap()}) {
      RowBitmap rest;
      EXPECT_EQ(a.DifferenceTestingSubset(c, &rest), c.IsSubsetOf(a)) << "round " << round;
      EXPECT_TRUE(rest == a.Difference(c));
      EXPECT_TRUE(rest.Validate().ok());
    }
  }
}

}  // namespace
}  // namespace rlc::dv
