#include "impl/dv/container_ops.h"

#include <roaring/containers/containers.h>
#include <roaring/roaring_version.h>

#include <cstdint>

#include "impl/base/assert.h"

namespace rlc::dv {
namespace {

static_assert(ROARING_VERSION_MAJOR == 0 && ROARING_VERSION_MINOR == 2,
              "container_ops reads CRoaring 0.2's container layout; check it against the new one");

// One container of a bitmap, seen through any copy-on-write wrapper.
struct Slot {
  const void* container;
  uint8_t type;
};

Slot SlotAt(const roaring_array_t& ra, int32_t i) {
  uint8_t type = ra.typecodes[i];
  const void* c = container_unwrap_shared(ra.containers[i], &type);
  return {c, type};
}

const array_container_t* AsArray(const Slot& s) {
  return s.type == ARRAY_CONTAINER_TYPE_CODE ? static_cast<const array_container_t*>(s.container)
                                             : nullptr;
}

void Append(roaring_array_t& out, uint16_t key, void* container, uint8_t type) {
  RLC_ASSERT(container != nullptr);  // CRoaring returns null only when allocation fails
  if (!container_nonzero_cardinality(container, type)) {
    container_free(container, type);
    return;
  }
  ra_append(&out, key, container, type);
}

void AppendCopy(roaring_array_t& out, uint16_t key, const Slot& s) {
  Append(out, key, container_clone(s.container, s.type), s.type);
}

// a ∪ b into a new array container, and whether a ∩ b equals `meet` (null: empty). The loop has
// no data-dependent branch but the rare equal pair, so random rows cost no mispredictions.
// REQUIRES: |a| + |b| <= DEFAULT_MAX_SIZE.
array_container_t* ArrayUnionTestingMeet(const array_container_t& a, const array_container_t& b,
                                         const array_container_t* meet, bool& meet_holds) {
  array_container_t* out = array_container_create_given_capacity(a.cardinality + b.cardinality);
  RLC_ASSERT(out != nullptr);
  const uint16_t* x = a.array;
  const uint16_t* y = b.array;
  const uint16_t* m = meet == nullptr ? nullptr : meet->array;
  const int32_t nx = a.cardinality, ny = b.cardinality,
                nm = meet == nullptr ? 0 : meet->cardinality;
  uint16_t* o = out->array;
  int32_t i = 0, j = 0, k = 0, p = 0;
  bool holds = true;
  while (i < nx && j < ny) {
    const uint16_t u = x[i], v = y[j];
    o[p++] = u < v ? u : v;
    if (u == v) {
      holds = holds && k < nm && m[k] == u;
      ++k;
    }
    i += u <= v;
    j += v <= u;
  }
  while (i < nx) o[p++] = x[i++];
  while (j < ny) o[p++] = y[j++];
  out->cardinality = p;
  meet_holds = holds && k == nm;
  return out;
}

// a \ b into a new array container, and whether b ⊆ a. b's values are set as bits first, so
// that the pass over a has no loop-carried comparison (a merge waits on each load before it knows
// which side to advance): each value of a is kept or dropped by a bit test, and b ⊆ a exactly
// when all |b| of b's values were met in a. The bits are cleared again afterwards.
array_container_t* ArrayDifferenceTestingSubset(const array_container_t& a,
                                                const array_container_t& b, bool& subset_holds) {
  thread_local uint64_t in_b[(uint32_t{1} << 16) / 64] = {};
  array_container_t* out = array_container_create_given_capacity(a.cardinality);
  RLC_ASSERT(out != nullptr);
  const uint16_t* x = a.array;
  const uint16_t* y = b.array;
  const int32_t nx = a.cardinality, ny = b.cardinality;
  for (int32_t k = 0; k < ny; ++k) in_b[y[k] >> 6] |= uint64_t{1} << (y[k] & 63);
  uint16_t* o = out->array;
  int32_t p = 0, met = 0;
  for (int32_t i = 0; i < nx; ++i) {
    const uint16_t u = x[i];
    const auto bit = static_cast<int32_t>((in_b[u >> 6] >> (u & 63)) & 1);
    o[p] = u;
    p += 1 - bit;
    met += bit;
  }
  for (int32_t k = 0; k < ny; ++k) in_b[y[k] >> 6] = 0;
  out->cardinality = p;
  subset_holds = met == ny;
  return out;
}

}  // namespace

bool UnionTestingMeet(const Roaring& a_bitmap, const Roaring& b_bitmap, const Roaring& meet_bitmap,
                      Roaring& out_bitmap) {
  const roaring_array_t& a = a_bitmap.roaring.high_low_container;
  const roaring_array_t& b = b_bitmap.roaring.high_low_container;
  const roaring_array_t& m = meet_bitmap.roaring.high_low_container;
  roaring_array_t& out = out_bitmap.roaring.high_low_container;
  RLC_ASSERT(out.size == 0);
  bool holds = true;
  int32_t i = 0, j = 0, k = 0;
  while (i < a.size || j < b.size) {
    const bool in_a = i < a.size && (j == b.size || a.keys[i] <= b.keys[j]);
    const bool in_b = j < b.size && (i == a.size || b.keys[j] <= a.keys[i]);
    const uint16_t key = in_a ? a.keys[i] : b.keys[j];
    // A meet container below this key lies outside a ∪ b, so outside a ∩ b.
    while (k < m.size && m.keys[k] < key) {
      holds = false;
      ++k;
    }
    const bool in_meet = k < m.size && m.keys[k] == key;
    const Slot meet = in_meet ? SlotAt(m, k) : Slot{nullptr, 0};
    if (in_meet) ++k;
    if (in_a && in_b) {
      const Slot x = SlotAt(a, i++), y = SlotAt(b, j++);
      const array_container_t* xa = AsArray(x);
      const array_container_t* ya = AsArray(y);
      const bool meet_is_array = !in_meet || meet.type == ARRAY_CONTAINER_TYPE_CODE;
      if (xa != nullptr && ya != nullptr && meet_is_array &&
          xa->cardinality + ya->cardinality <= DEFAULT_MAX_SIZE) {
        bool meet_holds = false;
        array_container_t* u = ArrayUnionTestingMeet(*xa, *ya, AsArray(meet), meet_holds);
        holds = holds && meet_holds;
        Append(out, key, u, ARRAY_CONTAINER_TYPE_CODE);
        continue;
      }
      uint8_t and_type = 0;
      void* both = container_and(x.container, x.type, y.container, y.type, &and_type);
      RLC_ASSERT(both != nullptr);
      const bool both_empty = !container_nonzero_cardinality(both, and_type);
      holds = holds &&
              (in_meet ? !both_empty && container_equals(both, and_type, meet.container, meet.type)
                       : both_empty);
      container_free(both, and_type);
      uint8_t or_type = 0;
      void* joined =
          container_or(x.container, x.type, y.container, y.type, &or_type);  // sets or_type first
      Append(out, key, joined, or_type);
      continue;
    }
    // One side only: nothing of a ∩ b lives under this key.
    holds = holds && !in_meet;
    if (in_a) {
      AppendCopy(out, key, SlotAt(a, i++));
    } else {
      AppendCopy(out, key, SlotAt(b, j++));
    }
  }
  return holds && k == m.size;
}

bool DifferenceTestingSubset(const Roaring& a_bitmap, const Roaring& b_bitmap,
                             Roaring& out_bitmap) {
  const roaring_array_t& a = a_bitmap.roaring.high_low_container;
  const roaring_array_t& b = b_bitmap.roaring.high_low_container;
  roaring_array_t& out = out_bitmap.roaring.high_low_container;
  RLC_ASSERT(out.size == 0);
  bool holds = true;
  int32_t i = 0, j = 0;
  while (i < a.size) {
    const uint16_t key = a.keys[i];
    // A container of b under a key a lacks: b holds values outside a.
    while (j < b.size && b.keys[j] < key) {
      holds = false;
      ++j;
    }
    const Slot x = SlotAt(a, i++);
    if (j == b.size || b.keys[j] != key) {
      AppendCopy(out, key, x);
      continue;
    }
    const Slot y = SlotAt(b, j++);
    const array_container_t* xa = AsArray(x);
    const array_container_t* ya = AsArray(y);
    if (xa != nullptr && ya != nullptr) {
      bool subset_holds = false;
      array_container_t* d = ArrayDifferenceTestingSubset(*xa, *ya, subset_holds);
      holds = holds && subset_holds;
      Append(out, key, d, ARRAY_CONTAINER_TYPE_CODE);
      continue;
    }
    holds = holds && container_is_subset(y.container, y.type, x.container, x.type);
    uint8_t type = 0;
    void* rest =
        container_andnot(x.container, x.type, y.container, y.type, &type);  // sets type first
    Append(out, key, rest, type);
  }
  return holds && j == b.size;
}

}  // namespace rlc::dv
