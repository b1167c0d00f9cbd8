// ConcreteDomain: the production instantiation of the kernels' ValueDomain
// (impl/kernel/value_domain.h): booleans, 128-bit integers, RowBitmaps and statistics values.
//
// Concern: the checker runs the very kernel text the proofs check, on these values. Integers are
// 128-bit so that sums of 64-bit row counts over one commit cannot overflow (the kernels assume
// mathematical integers). Insert and Contains take a row index; an Int outside [0, kRowIndexMax]
// is not a row: Insert refuses it (RLC_ASSERT, a kernel bug) and Contains answers false.
// ValueLe compares two statistics values: numbers by value (a long against a double exactly, as
// predicate/value_order.h), strings as unsigned bytes, booleans FALSE < TRUE; values of different
// kinds, NULLs and NaN compare as false, which in every kernel only refuses a reconcile.
//
// Thread-safety: stateless.
#ifndef RLC_IMPL_CONFLICT_CONCRETE_DOMAIN_H_
#define RLC_IMPL_CONFLICT_CONCRETE_DOMAIN_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "impl/base/assert.h"
#include "impl/base/limits.h"
#include "impl/delta/stats.h"
#include "impl/dv/row_bitmap.h"
#include "impl/kernel/concrete_scalars.h"

namespace rlc::conflict {

__extension__ typedef __int128 Int128;

struct ConcreteDomain : kernel::ConcreteScalars<Int128> {
  using Set = dv::RowBitmap;
  using Value = delta::StatValue;

  Set EmptySet() const { return Set(); }
  Set Insert(const Set& s, Int row) const;
  Bool Contains(const Set& s, Int row) const;
  Set Union(const Set& s, const Set& t) const { return s.Union(t); }
  Set Intersect(const Set& s, const Set& t) const { return s.Intersect(t); }
  Set Difference(const Set& s, const Set& t) const { return s.Difference(t); }
  Int Cardinality(const Set& s) const { return static_cast<Int128>(s.Cardinality()); }
  Int Rank(const Set& s, Int below) const;  // members < below
  Bool IsEmpty(const Set& s) const { return s.IsEmpty(); }
  Bool IsSubset(const Set& s, const Set& t) const { return s.IsSubsetOf(t); }
  Bool Equal(const Set& s, const Set& t) const { return s == t; }
  Set IteSet(Bool c, const Set& s, const Set& t) const { return c ? s : t; }
  Bool UnionTestingMeet(const Set& s, const Set& t, const Set& meet, Set& joined) const {
    return s.UnionTestingMeet(t, meet, &joined);
  }
  Bool DifferenceTestingSubset(const Set& s, const Set& t, Set& rest) const {
    return s.DifferenceTestingSubset(t, &rest);
  }

  // Rank by a cursor over the members, sorted once: ascending queries advance it (amortized O(1)),
  // others binary-search. Holds a copy of the members, so the set may change afterwards.
  class RankCursor {
   public:
    explicit RankCursor(const Set& s);
    Int Below(Int row) const;

   private:
    std::vector<uint64_t> members_;  // ascending, then UINT64_MAX: no row reaches it
    mutable size_t next_ = 0;        // members_[0..next_) are below the last row asked
    mutable Int last_ = 0;
  };
  RankCursor Ranker(const Set& s) const { return RankCursor(s); }
  void InsertWhen(Set& s, Int row, Bool when) const {
    if (!when) return;
    RLC_ASSERT(row >= 0 && row <= static_cast<Int128>(kRowIndexMax));
    s.Add(static_cast<uint64_t>(row));
  }
  // Visits the members in ascending order, each with present = true. Its own loop rather than
  // RowBitmap::ForEach with a second lambda: that nesting made the remap 15% slower
  // (bench/dv_merge_bench.cc, 10^7 rows).
  template <typename F>
  void ForEachMember(const Set& s, F&& visit) const {
    std::vector<uint32_t> lows;
    for (const Set::Bucket& b : s.buckets()) {
      lows.resize(b.low.cardinality());
      b.low.toUint32Array(lows.data());
      const uint64_t high = uint64_t{b.high_key} << 32;
      for (uint32_t low : lows) visit(static_cast<Int>(high | low), true);
    }
  }

  Bool ValueLe(const Value& a, const Value& b) const;
};

// Inline: the remap asks once per deleted row, and the cursor's state then stays in registers.
inline ConcreteDomain::Int ConcreteDomain::RankCursor::Below(Int row) const {
  if (row <= 0) return 0;
  const uint64_t bound =
      row > static_cast<Int128>(kRowIndexMax) ? kRowIndexMax + 1 : static_cast<uint64_t>(row);
  if (row < last_) next_ = 0;  // a query going backwards restarts the walk
  last_ = row;
  // Two steps without a branch cover the usual gap between successive deleted rows (the sentinel
  // stops them); a wider gap walks a few more, then jumps by binary search.
  next_ += members_[next_] < bound;
  next_ += members_[next_] < bound;
  if (members_[next_] < bound) {
    const size_t limit = std::min(members_.size() - 1, next_ + 16);
    while (next_ < limit && members_[next_] < bound) ++next_;
    if (members_[next_] < bound) {
      next_ = static_cast<size_t>(
          std::lower_bound(members_.begin() + static_cast<std::ptrdiff_t>(next_),
                           members_.end() - 1, bound) -
          members_.begin());
    }
  }
  return static_cast<Int>(next_);
}

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_CONCRETE_DOMAIN_H_
