// Tests for impl/dv/row_bitmap.h: the set algebra, checked on hand-picked rows (many around the
// 2^32 bucket boundary) and against std::set<uint64_t> as the reference model.
#include "impl/dv/row_bitmap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <set>
#include <utility>
#include <vector>

#include "impl/base/limits.h"

namespace rlc::dv {
namespace {

constexpr uint64_t k2Pow32 = uint64_t{1} << 32;

using RowSet = std::set<uint64_t>;

RowBitmap FromSet(const RowSet& rows) {
  RowBitmap b;
  for (uint64_t r : rows) b.Add(r);
  return b;
}

std::vector<uint64_t> Vec(const RowSet& rows) { return {rows.begin(), rows.end()}; }

RowSet SetUnion(const RowSet& a, const RowSet& b) {
  RowSet out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}
RowSet SetIntersect(const RowSet& a, const RowSet& b) {
  RowSet out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}
RowSet SetDifference(const RowSet& a, const RowSet& b) {
  RowSet out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(out, out.end()));
  return out;
}

// Checks every query of `b` against the model `rows`, probing the given rows and their neighbours.
void ExpectMatches(const RowBitmap& b, const RowSet& rows, const std::vector<uint64_t>& probes) {
  ASSERT_TRUE(b.Validate().ok()) << b.Validate().ToString();
  EXPECT_EQ(b.ToVector(), Vec(rows));
  EXPECT_EQ(b.Cardinality(), rows.size());
  EXPECT_EQ(b.IsEmpty(), rows.empty());
  if (!rows.empty()) {
    EXPECT_EQ(b.Maximum(), *rows.rbegin());
  }
  for (uint64_t p : probes) {
    for (uint64_t q : {p - 1, p, p + 1}) {
      EXPECT_EQ(b.Contains(q), rows.count(q) == 1) << q;
      const uint64_t rank = uint64_t(std::distance(rows.begin(), rows.upper_bound(q)));
      EXPECT_EQ(b.Rank(q), rank) << q;
    }
  }
}

// Hand-picked sets, most around bucket boundaries.
const RowSet kA = {0, 1, 7, 65535, 65536, k2Pow32 - 1, k2Pow32, k2Pow32 + 5, 3 * k2Pow32 + 9};
const RowSet kB = {1, 8, 65536, k2Pow32 - 2, k2Pow32, 2 * k2Pow32, 3 * k2Pow32 + 9, kRowIndexMax};
const RowSet kC = {k2Pow32 + 5};                   // inside kA's bucket 1 only
const RowSet kD = {2 * k2Pow32 + 1, 5 * k2Pow32};  // buckets kA lacks

std::vector<uint64_t> Probes() {
  std::vector<uint64_t> p = {1,           7,           65535,       65536,           k2Pow32 - 1,
                             k2Pow32,     k2Pow32 + 5, 2 * k2Pow32, 3 * k2Pow32 + 9, 5 * k2Pow32,
                             kRowIndexMax};
  return p;
}

// ---------------------------------------------------------------------------------------------
// Basics

TEST(RowBitmapTest, EmptyBitmap) {
  RowBitmap b;
  EXPECT_TRUE(b.IsEmpty());
  EXPECT_EQ(b.Cardinality(), 0u);
  EXPECT_FALSE(b.Contains(0));
  EXPECT_FALSE(b.Contains(kRowIndexMax));
  EXPECT_EQ(b.Rank(0), 0u);
  EXPECT_EQ(b.Rank(~uint64_t{0}), 0u);
  EXPECT_TRUE(b.ToVector().empty());
  EXPECT_TRUE(b.buckets().empty());
  EXPECT_TRUE(b.Validate().ok());
  int visits = 0;
  b.ForEach([&visits](uint64_t) { ++visits; });
  EXPECT_EQ(visits, 0);
}

TEST(RowBitmapTest, AddAndContainsAcrossBucketBoundary) {
  RowBitmap b;
  b.Add(k2Pow32 - 1);  // high 0, low 0xFFFFFFFF
  b.Add(k2Pow32);      // high 1, low 0
  EXPECT_TRUE(b.Contains(k2Pow32 - 1));
  EXPECT_TRUE(b.Contains(k2Pow32));
  EXPECT_FALSE(b.Contains(k2Pow32 - 2));
  EXPECT_FALSE(b.Contains(k2Pow32 + 1));
  EXPECT_FALSE(b.Contains(0));  // same low half as 2^32, other bucket
  EXPECT_FALSE(b.Contains(0xFFFFFFFF + 2 * k2Pow32));
  ASSERT_EQ(b.buckets().size(), 2u);
  EXPECT_EQ(b.buckets()[0].high_key, 0u);
  EXPECT_EQ(b.buckets()[1].high_key, 1u);
  EXPECT_EQ(b.Cardinality(), 2u);
  EXPECT_EQ(b.Maximum(), k2Pow32);
  ExpectMatches(b, {k2Pow32 - 1, k2Pow32}, Probes());
}

TEST(RowBitmapTest, BucketsStaySortedWhateverTheInsertionOrder) {
  RowBitmap b;
  for (uint64_t r : {5 * k2Pow32, uint64_t{3}, 2 * k2Pow32 + 1, k2Pow32, uint64_t{0}}) b.Add(r);
  ASSERT_EQ(b.buckets().size(), 4u);
  EXPECT_EQ(b.buckets()[0].high_key, 0u);
  EXPECT_EQ(b.buckets()[1].high_key, 1u);
  EXPECT_EQ(b.buckets()[2].high_key, 2u);
  EXPECT_EQ(b.buckets()[3].high_key, 5u);
  EXPECT_EQ(b.ToVector(), (std::vector<uint64_t>{0, 3, k2Pow32, 2 * k2Pow32 + 1, 5 * k2Pow32}));
}

TEST(RowBitmapTest, AddIsIdempotent) {
  RowBitmap b{7, 7, 7};
  b.Add(7);
  EXPECT_EQ(b.Cardinality(), 1u);
  EXPECT_EQ(b, RowBitmap{7});
}

TEST(RowBitmapTest, LargestRowIndex) {
  RowBitmap b{kRowIndexMax};
  EXPECT_TRUE(b.Contains(kRowIndexMax));
  EXPECT_FALSE(b.Contains(kRowIndexMax - 1));
  EXPECT_FALSE(b.Contains(kRowIndexMax + 1));
  EXPECT_EQ(b.Maximum(), kRowIndexMax);
  ASSERT_EQ(b.buckets().size(), 1u);
  EXPECT_EQ(b.buckets()[0].high_key, 0x7FFFFFFEu);
  EXPECT_TRUE(b.Validate().ok());
  // Contains on a row beyond every bucket (even one with the top bit set) is simply false.
  EXPECT_FALSE(b.Contains(~uint64_t{0}));
}

TEST(RowBitmapTest, InitializerListAndFromSortedAgree) {
  RowBitmap list{0, 5, k2Pow32 + 7};
  RowBitmap sorted = RowBitmap::FromSorted({0, 5, k2Pow32 + 7});
  EXPECT_EQ(list, sorted);
  ExpectMatches(sorted, {0, 5, k2Pow32 + 7}, Probes());
}

TEST(RowBitmapTest, FromSortedAcceptsAnyOrderAndDuplicates) {
  // Bucket 0, then 1, then 0 again: the third run of rows must join the existing bucket 0.
  RowBitmap b = RowBitmap::FromSorted({9, 3, k2Pow32 + 1, 4, 3, k2Pow32 + 1, 2 * k2Pow32});
  ExpectMatches(b, {3, 4, 9, k2Pow32 + 1, 2 * k2Pow32}, Probes());
  EXPECT_EQ(b.buckets().size(), 3u);
  EXPECT_TRUE(RowBitmap::FromSorted({}).IsEmpty());
}

TEST(RowBitmapTest, ForEachVisitsInAscendingOrder) {
  RowBitmap b{3 * k2Pow32 + 9, 0, k2Pow32 - 1, k2Pow32, 65536};
  std::vector<uint64_t> seen;
  b.ForEach([&seen](uint64_t r) { seen.push_back(r); });
  EXPECT_EQ(seen, (std::vector<uint64_t>{0, 65536, k2Pow32 - 1, k2Pow32, 3 * k2Pow32 + 9}));
}

// ---------------------------------------------------------------------------------------------
// AddRange

TEST(RowBitmapTest, AddRangeWithinOneBucket) {
  RowBitmap b;
  b.AddRange(10, 20);
  RowSet want;
  for (uint64_t r = 10; r < 20; ++r) want.insert(r);
  ExpectMatches(b, want, {10, 19, 20});
}

TEST(RowBitmapTest, AddRangeEmptyIsANoOp) {
  RowBitmap b;
  b.AddRange(5, 5);
  b.AddRange(k2Pow32, k2Pow32);
  EXPECT_TRUE(b.IsEmpty());
  EXPECT_TRUE(b.buckets().empty());  // no empty bucket was created
}

TEST(RowBitmapTest, AddRangeAcrossTheBucketBoundary) {
  RowBitmap b;
  b.AddRange(k2Pow32 - 3, k2Pow32 + 2);  // 2^32-3 .. 2^32+1
  ExpectMatches(b, {k2Pow32 - 3, k2Pow32 - 2, k2Pow32 - 1, k2Pow32, k2Pow32 + 1},
                {k2Pow32 - 3, k2Pow32, k2Pow32 + 2});
  ASSERT_EQ(b.buckets().size(), 2u);
  EXPECT_EQ(b.buckets()[0].low.cardinality(), 3u);
  EXPECT_EQ(b.buckets()[1].low.cardinality(), 2u);
}

TEST(RowBitmapTest, AddRangeEndingExactlyAtTheBoundary) {
  RowBitmap b;
  b.AddRange(k2Pow32 - 2, k2Pow32);  // stays in bucket 0
  EXPECT_EQ(b.ToVector(), (std::vector<uint64_t>{k2Pow32 - 2, k2Pow32 - 1}));
  ASSERT_EQ(b.buckets().size(), 1u);
  b.AddRange(k2Pow32, k2Pow32 + 1);  // starts exactly at bucket 1
  EXPECT_EQ(b.ToVector(), (std::vector<uint64_t>{k2Pow32 - 2, k2Pow32 - 1, k2Pow32}));
  EXPECT_EQ(b.buckets().size(), 2u);
}

TEST(RowBitmapTest, AddRangeCoveringAWholeBucket) {
  RowBitmap b;
  b.AddRange(k2Pow32 - 1, 2 * k2Pow32 + 1);  // 1 row, a full bucket of 2^32 rows, 1 row
  ASSERT_EQ(b.buckets().size(), 3u);
  EXPECT_EQ(b.Cardinality(), k2Pow32 + 2);
  EXPECT_TRUE(b.Contains(k2Pow32 - 1));
  EXPECT_TRUE(b.Contains(k2Pow32 + 0x12345678));
  EXPECT_TRUE(b.Contains(2 * k2Pow32 - 1));
  EXPECT_TRUE(b.Contains(2 * k2Pow32));
  EXPECT_FALSE(b.Contains(2 * k2Pow32 + 1));
  EXPECT_FALSE(b.Contains(k2Pow32 - 2));
  EXPECT_EQ(b.Rank(k2Pow32 - 1), 1u);
  EXPECT_EQ(b.Rank(k2Pow32 + 9), 11u);
  EXPECT_EQ(b.Rank(2 * k2Pow32 - 1), k2Pow32 + 1);
  EXPECT_EQ(b.Rank(~uint64_t{0}), k2Pow32 + 2);
  EXPECT_EQ(b.Maximum(), 2 * k2Pow32);
  EXPECT_TRUE(b.Validate().ok());
}

TEST(RowBitmapTest, AddRangeUpToTheLargestRowIndex) {
  RowBitmap b;
  b.AddRange(kRowIndexMax - 2, kRowIndexMax + 1);
  EXPECT_EQ(b.ToVector(),
            (std::vector<uint64_t>{kRowIndexMax - 2, kRowIndexMax - 1, kRowIndexMax}));
  EXPECT_EQ(b.Maximum(), kRowIndexMax);
  EXPECT_TRUE(b.Validate().ok());
}

TEST(RowBitmapTest, AddRangeMergesWithExistingRows) {
  RowBitmap b{3, k2Pow32 + 100};
  b.AddRange(1, 5);
  ExpectMatches(b, {1, 2, 3, 4, k2Pow32 + 100}, {1, 4, 5, k2Pow32 + 100});
}

// ---------------------------------------------------------------------------------------------
// Rank and Maximum by hand

TEST(RowBitmapTest, RankCountsRowsAtOrBelow) {
  RowBitmap b{0, 5, k2Pow32 + 7, 3 * k2Pow32};
  EXPECT_EQ(b.Rank(0), 1u);
  EXPECT_EQ(b.Rank(4), 1u);
  EXPECT_EQ(b.Rank(5), 2u);
  EXPECT_EQ(b.Rank(k2Pow32 - 1), 2u);  // end of bucket 0
  EXPECT_EQ(b.Rank(k2Pow32), 2u);      // bucket 1, below 7
  EXPECT_EQ(b.Rank(k2Pow32 + 7), 3u);
  EXPECT_EQ(b.Rank(2 * k2Pow32 + 50), 3u);  // a bucket that does not exist
  EXPECT_EQ(b.Rank(3 * k2Pow32), 4u);
  EXPECT_EQ(b.Rank(kRowIndexMax), 4u);
}

TEST(RowBitmapTest, MaximumIsInTheLastBucket) {
  EXPECT_EQ((RowBitmap{0}).Maximum(), 0u);
  EXPECT_EQ((RowBitmap{5, k2Pow32 - 1}).Maximum(), k2Pow32 - 1);
  EXPECT_EQ((RowBitmap{k2Pow32 + 7, 5, 0xFFFFFFFF}).Maximum(), k2Pow32 + 7);
}

// ---------------------------------------------------------------------------------------------
// Set algebra against std::set

TEST(RowBitmapTest, UnionMatchesModel) {
  for (const auto& [a, b] : std::vector<std::pair<RowSet, RowSet>>{
           {kA, kB}, {kB, kA}, {kA, kC}, {kA, kD}, {kA, {}}, {{}, kA}, {{}, {}}, {kA, kA}}) {
    RowBitmap u = FromSet(a).Union(FromSet(b));
    ExpectMatches(u, SetUnion(a, b), Probes());
  }
}

TEST(RowBitmapTest, IntersectMatchesModel) {
  for (const auto& [a, b] : std::vector<std::pair<RowSet, RowSet>>{
           {kA, kB}, {kB, kA}, {kA, kC}, {kA, kD}, {kA, {}}, {{}, kA}, {kA, kA}}) {
    RowBitmap i = FromSet(a).Intersect(FromSet(b));
    ExpectMatches(i, SetIntersect(a, b), Probes());
  }
  // By hand: kA ∩ kB = {1, 65536, 2^32, 3*2^32+9}.
  EXPECT_EQ(FromSet(kA).Intersect(FromSet(kB)).ToVector(),
            (std::vector<uint64_t>{1, 65536, k2Pow32, 3 * k2Pow32 + 9}));
}

TEST(RowBitmapTest, DifferenceMatchesModel) {
  for (const auto& [a, b] : std::vector<std::pair<RowSet, RowSet>>{
           {kA, kB}, {kB, kA}, {kA, kC}, {kC, kA}, {kA, kD}, {kA, {}}, {{}, kA}, {kA, kA}}) {
    RowBitmap d = FromSet(a).Difference(FromSet(b));
    ExpectMatches(d, SetDifference(a, b), Probes());
  }
  // By hand: kA \ kB = {0, 7, 65535, 2^32-1, 2^32+5}.
  EXPECT_EQ(FromSet(kA).Difference(FromSet(kB)).ToVector(),
            (std::vector<uint64_t>{0, 7, 65535, k2Pow32 - 1, k2Pow32 + 5}));
}

TEST(RowBitmapTest, IntersectAndDifferenceDropEmptiedBuckets) {
  // Removing both rows of bucket 1 must drop the bucket, not keep it empty.
  RowBitmap a{0, k2Pow32, k2Pow32 + 5};
  RowBitmap d = a.Difference(RowBitmap{k2Pow32, k2Pow32 + 5});
  ASSERT_EQ(d.buckets().size(), 1u);
  EXPECT_EQ(d.buckets()[0].high_key, 0u);
  EXPECT_TRUE(d.Validate().ok());
  EXPECT_EQ(d, RowBitmap{0});
  // Same high keys, disjoint lows: the intersection has no bucket at all.
  RowBitmap i = RowBitmap{1, k2Pow32 + 1}.Intersect(RowBitmap{2, k2Pow32 + 2});
  EXPECT_TRUE(i.IsEmpty());
  EXPECT_TRUE(i.buckets().empty());
  EXPECT_TRUE(i.Validate().ok());
}

TEST(RowBitmapTest, IntersectsMatchesModel) {
  for (const auto& [a, b] : std::vector<std::pair<RowSet, RowSet>>{
           {kA, kB}, {kB, kA}, {kA, kC}, {kA, kD}, {kD, kA}, {kA, {}}, {{}, {}}, {kC, kD}}) {
    EXPECT_EQ(FromSet(a).Intersects(FromSet(b)), !SetIntersect(a, b).empty());
  }
  // Same bucket, different lows: no intersection.
  EXPECT_FALSE((RowBitmap{k2Pow32 + 1}).Intersects(RowBitmap{k2Pow32 + 2}));
  // Same low half, different buckets: no intersection.
  EXPECT_FALSE((RowBitmap{7}).Intersects(RowBitmap{k2Pow32 + 7}));
  // Only the last shared bucket intersects.
  EXPECT_TRUE((RowBitmap{1, k2Pow32 + 1, 4 * k2Pow32 + 3})
                  .Intersects(RowBitmap{2, k2Pow32 + 2, 4 * k2Pow32 + 3}));
}

TEST(RowBitmapTest, IsSubsetOfMatchesModel) {
  for (const auto& [a, b] : std::vector<std::pair<RowSet, RowSet>>{{kA, kB},
                                                                   {kC, kA},
                                                                   {kA, kC},
                                                                   {kD, kA},
                                                                   {{}, kA},
                                                                   {{}, {}},
                                                                   {kA, kA},
                                                                   {SetIntersect(kA, kB), kB},
                                                                   {kA, SetUnion(kA, kD)}}) {
    EXPECT_EQ(FromSet(a).IsSubsetOf(FromSet(b)),
              std::includes(b.begin(), b.end(), a.begin(), a.end()));
  }
  EXPECT_TRUE((RowBitmap{k2Pow32 + 5}).IsSubsetOf(FromSet(kA)));
  EXPECT_FALSE((RowBitmap{k2Pow32 + 6}).IsSubsetOf(FromSet(kA)));
  EXPECT_FALSE((RowBitmap{7}).IsSubsetOf(RowBitmap{k2Pow32 + 7}));
}

TEST(RowBitmapTest, AlgebraMatchesModelOnGeneratedSets) {
  // Deterministic xorshift rows packed around the 2^32 and 2*2^32 boundaries and within a few
  // containers, so the operations meet overlapping and disjoint buckets and containers.
  uint64_t x = 88172645463325252ull;
  auto next = [&x] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  for (int round = 0; round < 20; ++round) {
    RowSet a, b;
    for (int i = 0; i < 300; ++i) {
      const uint64_t base = (next() % 3 + 1) * k2Pow32;
      const uint64_t row = base - 150000 + next() % 300000;
      (next() % 2 == 0 ? a : b).insert(row);
    }
    const RowBitmap ba = FromSet(a);
    const RowBitmap bb = FromSet(b);
    std::vector<uint64_t> probes(a.begin(), a.end());
    probes.insert(probes.end(), b.begin(), b.end());
    ExpectMatches(ba.Union(bb), SetUnion(a, b), probes);
    ExpectMatches(ba.Intersect(bb), SetIntersect(a, b), probes);
    ExpectMatches(ba.Difference(bb), SetDifference(a, b), probes);
    ExpectMatches(bb.Difference(ba), SetDifference(b, a), probes);
    EXPECT_EQ(ba.Intersects(bb), !SetIntersect(a, b).empty());
    EXPECT_EQ(ba.IsSubsetOf(bb), std::includes(b.begin(), b.end(), a.begin(), a.end()));
    EXPECT_TRUE(ba.Intersect(bb).IsSubsetOf(ba));
    EXPECT_TRUE(ba.IsSubsetOf(ba.Union(bb)));
  }
}

// ---------------------------------------------------------------------------------------------
// Equality, RunOptimize, Validate

TEST(RowBitmapTest, EqualityIsBySetContents) {
  RowBitmap a{0, 5, k2Pow32 + 7};
  RowBitmap b;
  b.Add(k2Pow32 + 7);
  b.Add(5);
  b.Add(0);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == RowBitmap({0, 5}));
  EXPECT_FALSE(a == RowBitmap({0, 5, 7}));  // same lows, other bucket
  EXPECT_FALSE(a == RowBitmap({0, 5, 2 * k2Pow32 + 7}));
  EXPECT_TRUE(RowBitmap() == RowBitmap());
  EXPECT_FALSE(RowBitmap() == RowBitmap({0}));
  // A bitmap whose bucket was emptied by Difference equals one that never had it.
  EXPECT_TRUE(a.Difference(RowBitmap{k2Pow32 + 7}) == RowBitmap({0, 5}));
}

TEST(RowBitmapTest, RunOptimizeKeepsContents) {
  RowBitmap b;
  b.AddRange(100, 5000);
  b.AddRange(k2Pow32 - 10, k2Pow32 + 10);
  b.Add(3 * k2Pow32 + 1);
  const std::vector<uint64_t> before = b.ToVector();
  RowBitmap copy = b;
  b.RunOptimize();
  EXPECT_EQ(b.ToVector(), before);
  EXPECT_TRUE(b == copy);
  EXPECT_TRUE(b.Validate().ok());
}

TEST(RowBitmapTest, BuiltThroughTheApiIsAlwaysValid) {
  RowBitmap b = FromSet(kA).Union(FromSet(kB)).Difference(FromSet(kC)).Intersect(FromSet(kA));
  EXPECT_TRUE(b.Validate().ok());
  EXPECT_TRUE(RowBitmap::FromValidatedBuckets({}).Validate().ok());
}

TEST(RowBitmapTest, FromValidatedBucketsKeepsBuckets) {
  std::vector<RowBitmap::Bucket> buckets;
  buckets.push_back(RowBitmap::Bucket{0, Roaring::bitmapOf(2, 1u, 9u)});
  buckets.push_back(RowBitmap::Bucket{4, Roaring::bitmapOf(1, 3u)});
  RowBitmap b = RowBitmap::FromValidatedBuckets(std::move(buckets));
  EXPECT_EQ(b.ToVector(), (std::vector<uint64_t>{1, 9, 4 * k2Pow32 + 3}));
}

// REQUIRES violations stop the process (RLC_ASSERT); these pin that they are checked.
TEST(RowBitmapDeathTest, AddPastLargestRowIndexAsserts) {
  RowBitmap b;
  EXPECT_DEATH(b.Add(kRowIndexMax + 1), "assertion failed: row <= kRowIndexMax");
}

TEST(RowBitmapDeathTest, AddRangePastLargestRowIndexAsserts) {
  RowBitmap b;
  EXPECT_DEATH(b.AddRange(kRowIndexMax, kRowIndexMax + 2), "assertion failed");
  EXPECT_DEATH(b.AddRange(10, 9), "assertion failed: begin <= end");
}

TEST(RowBitmapDeathTest, MaximumOfEmptyAsserts) {
  RowBitmap b;
  EXPECT_DEATH((void)b.Maximum(), "assertion failed");
}

TEST(RowBitmapDeathTest, FromValidatedBucketsRejectsBrokenInvariants) {
  auto make = [](std::vector<std::pair<uint32_t, std::vector<uint32_t>>> spec) {
    std::vector<RowBitmap::Bucket> buckets;
    for (auto& [key, lows] : spec) {
      Roaring low;
      for (uint32_t v : lows) low.add(v);
      buckets.push_back(RowBitmap::Bucket{key, std::move(low)});
    }
    return RowBitmap::FromValidatedBuckets(std::move(buckets));
  };
  // 1. keys not strictly ascending
  EXPECT_DEATH(make({{1, {1}}, {0, {1}}}), "Validate");
  EXPECT_DEATH(make({{1, {1}}, {1, {2}}}), "Validate");
  // 2. an empty bucket
  EXPECT_DEATH(make({{0, {}}}), "Validate");
  // 3. a key with its top bit set
  EXPECT_DEATH(make({{0x80000000u, {0}}}), "Validate");
  // 4. a value above kRowIndexMax
  EXPECT_DEATH(make({{0x7FFFFFFEu, {0x80000001u}}}), "Validate");
  EXPECT_DEATH(make({{0x7FFFFFFFu, {0}}}), "Validate");
}

}  // namespace
}  // namespace rlc::dv
