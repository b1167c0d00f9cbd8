// libFuzzer target: the fused set operations the reconcile kernels ask of RowBitmap
// (impl/dv/container_ops.h), differentially against the plain ones.
//
// Input: a program building three RowBitmaps X[0..2], 6 bytes per step (at most 64 steps):
//   op, slot, lo, lo, hi, hi   with value = (op >> 4 & 3) << 32 | (hi & 7) << 16 | lo
//   op % 6 == 0: X[slot] += {value}
//   op % 6 == 1: X[slot] += [value, value + (hi >> 3) + 1)   (may cross 2^16 containers)
//   op % 6 == 2: X[slot] = X[hi % 3]                          (shared structure)
//   op % 6 == 3: X[slot] = X[slot] ∩ X[hi % 3]               (so meets and subsets hold often)
//   op % 6 == 4: RunOptimize X[slot]                          (run containers)
//   op % 6 == 5: X[slot] = X[slot] \ {value}
// Ranges reach bitmap containers, optimizing reaches run containers, buckets 0-3 reach the
// bucket walk. Checks, for every ordered pair (a, b) of the three and every m of them and a ∩ b:
// UnionTestingMeet gives a ∪ b and answers a ∩ b == m; DifferenceTestingSubset gives a \ b and
// answers b ⊆ a; every result passes Validate() and CRoaring's own container invariants.
#include <roaring/roaring.hh>

#include <roaring/containers/containers.h>  // after roaring.hh: it wraps them in extern "C"

#include <cstddef>
#include <cstdint>
#include <utility>

#include "fuzz/targets/fuzz_check.h"
#include "impl/dv/row_bitmap.h"

namespace {

using rlc::dv::RowBitmap;

constexpr size_t kStepBytes = 6;
constexpr size_t kStepsMax = 64;

// Keys ascend, no container is empty, an array holds 1..4096 ascending values.
void CheckCroaringInvariants(const RowBitmap& bitmap) {
  FUZZ_CHECK(bitmap.Validate().ok());
  for (const RowBitmap::Bucket& bucket : bitmap.buckets()) {
    const roaring_array_t& ra = bucket.low.roaring.high_low_container;
    for (int32_t i = 0; i < ra.size; ++i) {
      FUZZ_CHECK(i == 0 || ra.keys[i - 1] < ra.keys[i]);
      uint8_t type = ra.typecodes[i];
      const void* c = container_unwrap_shared(ra.containers[i], &type);
      FUZZ_CHECK(type >= BITSET_CONTAINER_TYPE_CODE && type <= RUN_CONTAINER_TYPE_CODE);
      FUZZ_CHECK(container_nonzero_cardinality(c, type));
      if (type != ARRAY_CONTAINER_TYPE_CODE) continue;
      const auto* array = static_cast<const array_container_t*>(c);
      FUZZ_CHECK(array->cardinality <= DEFAULT_MAX_SIZE);
      for (int32_t k = 1; k < array->cardinality; ++k)
        FUZZ_CHECK(array->array[k - 1] < array->array[k]);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  RowBitmap x[3];
  for (size_t step = 0; step < kStepsMax && (step + 1) * kStepBytes <= size; ++step) {
    const uint8_t* s = data + step * kStepBytes;
    const uint8_t op = s[0];
    RowBitmap& target = x[s[1] % 3];
    const uint32_t lo = uint32_t{s[2]} | uint32_t{s[3]} << 8;
    const uint32_t hi = uint32_t{s[4]} | uint32_t{s[5]} << 8;
    const uint64_t value = uint64_t{(op >> 4) & 3u} << 32 | uint64_t{hi & 7u} << 16 | lo;
    const RowBitmap& other = x[hi % 3];
    switch (op % 6) {
      case 0:
        target.Add(value);
        break;
      case 1:
        target.AddRange(value, value + (hi >> 3) + 1);
        break;
      case 2:
        if (&target != &other) target = other;
        break;
      case 3:
        target = target.Intersect(other);
        break;
      case 4:
        target.RunOptimize();
        break;
      default:
        target = target.Difference(RowBitmap{value});
        break;
    }
  }
  for (const RowBitmap& a : x) {
    for (const RowBitmap& b : x) {
      const RowBitmap meet = a.Intersect(b);
      const RowBitmap plain_union = a.Union(b);
      for (const RowBitmap* m :
           {&std::as_const(x[0]), &std::as_const(x[1]), &std::as_const(x[2]), &meet}) {
        RowBitmap joined;
        FUZZ_CHECK(a.UnionTestingMeet(b, *m, &joined) == (meet == *m));
        FUZZ_CHECK(joined == plain_union);
        CheckCroaringInvariants(joined);
      }
      RowBitmap rest;
      FUZZ_CHECK(a.DifferenceTestingSubset(b, &rest) == b.IsSubsetOf(a));
      FUZZ_CHECK(rest == a.Difference(b));
      CheckCroaringInvariants(rest);
    }
  }
  return 0;
}
