// Operations on CRoaring's containers that its API lacks: two answers from one merge per
// container pair, and an append for ascending rows.
//
// Concern: the reconcile kernels ask, of the same two DVs, for a union and an intersection test
// (Case 2), or for a difference and a subset test (Case 4's remap). Done as separate CRoaring
// calls that is two or three merges of the same arrays; these functions walk each pair of array
// containers once. Every other container pair (bitmap, run, or a union past an array's 4096
// values) takes CRoaring's own container operations, so the code here only ever merges sorted
// uint16 arrays. A remap inserts its output rows in ascending order; AppendAscending puts such
// a value at the end of the last array container without CRoaring's general insertion.
//
// Contracts (RowBitmap's UnionTestingMeet / DifferenceTestingSubset / Add build on them):
//   UnionTestingMeet(a, b, meet, out):  out receives a ∪ b; returns a ∩ b == meet.
//   DifferenceTestingSubset(a, b, out): out receives a \ b; returns b ⊆ a.
//   AppendAscending(r, v): adds v and returns true when v lands past r's largest value in r's
//     last container and that container is an array with room; otherwise leaves r unchanged and
//     returns false (the caller adds v the general way).
// `out` must be empty on entry; it never shares containers with the inputs (copy-on-write
// shared containers of the inputs are read through, never handed out). Each answer equals the
// one the separate CRoaring operations give (impl/dv/container_ops_test.cc checks this on
// generated bitmaps of every container kind).
//
// This reads CRoaring 0.2.66's container layout (roaring_array_t, array_container_t), which the
// Debian 12 package exports; a static_assert on the version keeps an upgrade from compiling
// silently against another layout.
//
// Thread-safety: the inputs are only read; `out` and `r` are written. The difference uses a
// thread-local scratch bitset.
#ifndef RLC_IMPL_DV_CONTAINER_OPS_H_
#define RLC_IMPL_DV_CONTAINER_OPS_H_

// roaring.hh first: it includes the container headers inside extern "C", which they lack.
#include <roaring/roaring.hh>

#include <roaring/containers/containers.h>  // after roaring.hh (see above)

#include <cstdint>

namespace rlc::dv {

bool UnionTestingMeet(const Roaring& a, const Roaring& b, const Roaring& meet, Roaring& out);
bool DifferenceTestingSubset(const Roaring& a, const Roaring& b, Roaring& out);

// Inline: a remap calls it once per output row, from RowBitmap::Add.
inline bool AppendAscending(Roaring& r, uint32_t v) {
  roaring_array_t& ra = r.roaring.high_low_container;
  if (ra.size == 0 || ra.keys[ra.size - 1] != (v >> 16) ||
      ra.typecodes[ra.size - 1] != ARRAY_CONTAINER_TYPE_CODE) {
    return false;
  }
  auto* last = static_cast<array_container_t*>(ra.containers[ra.size - 1]);
  const auto low = static_cast<uint16_t>(v & 0xFFFF);
  // An array holds at most DEFAULT_MAX_SIZE values: past that CRoaring makes it a bitmap.
  if (last->cardinality == 0 || last->cardinality >= last->capacity ||
      last->cardinality >= DEFAULT_MAX_SIZE || last->array[last->cardinality - 1] >= low) {
    return false;
  }
  last->array[last->cardinality++] = low;
  return true;
}

}  // namespace rlc::dv

#endif  // RLC_IMPL_DV_CONTAINER_OPS_H_
