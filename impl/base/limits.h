// Every bound that impl/ enforces on input, in one place.
//
// Concern: hostile or broken input must hit a named limit and get a kOverLimit or kCorrupt Status,
// never exhaust memory. Each constant says why it has its value.
//
// Invariants (checked by the static_asserts below):
//   1. A row index fits the Delta bitmap's value space: high key < 2^31.
//   2. Any DV that fits kDvSizeBytesMax can be held in memory by one process.
#ifndef RLC_IMPL_BASE_LIMITS_H_
#define RLC_IMPL_BASE_LIMITS_H_

#include <cstdint>

namespace rlc {

// The largest row index Delta's RoaringBitmapArray can hold: high key 2^31-2, low 0x80000000
// (docs/formats.md#a5). Row indexes are 0-based positions in a data file.
inline constexpr uint64_t kRowIndexMax = (uint64_t{0x7FFFFFFE} << 32) | 0x80000000u;

// A serialized DV larger than this is refused. Delta stores sizeInBytes as a 32-bit int; a
// bitmap of every row of a 2^31-row file is below 300 MiB in run or bitset form.
inline constexpr uint64_t kDvSizeBytesMax = uint64_t{1} << 30;

// Buckets (distinct high 32-bit keys) in one DV: each needs at least 8 bytes on disk, so this is
// implied by kDvSizeBytesMax; it is named so that a count read from the bytes is checked first.
inline constexpr uint64_t kDvBucketCountMax = kDvSizeBytesMax / 8;

// A commit file larger than this is refused before it is read (Delta commits are usually KBs;
// a 100,000-action OPTIMIZE is ~50 MB).
inline constexpr uint64_t kCommitFileBytesMax = uint64_t{4} << 30;

// Actions per commit: bounds the memory a replay can be asked for.
inline constexpr uint64_t kActionsPerCommitMax = 50'000'000;

// Versions one replay reads.
inline constexpr uint64_t kLogVersionsMax = 10'000'000;

// A Delta log file name is 20 decimal digits.
inline constexpr int kVersionDigits = 20;

// JSON nesting accepted inside a stats object (the schema's nesting).
inline constexpr int kStatsNestingMax = 64;

static_assert(kRowIndexMax >> 32 < (uint64_t{1} << 31), "high key must keep its top bit clear");
static_assert(kDvSizeBytesMax < (uint64_t{1} << 31), "sizeInBytes is a 32-bit int in Delta");

// Predicate text accepted by the parser (impl/predicate/). Predicates come from a test, a scenario
// file or a commit's read predicates; real ones are a few hundred bytes, 64 KiB leaves ample room
// and bounds the token vector the lexer builds.
inline constexpr uint64_t kPredicateTextBytesMax = uint64_t{64} << 10;

// Nesting of a predicate: parentheses and NOT each add a level. The parser, the binder and both
// evaluators recurse once per level (a few frames each), so this bounds their stack use; AND and
// OR chains are flat and do not count.
inline constexpr int kPredicateNestingMax = 100;

static_assert(uint64_t{kPredicateNestingMax} < kPredicateTextBytesMax,
              "each nesting level needs a character of text");

}  // namespace rlc

#endif  // RLC_IMPL_BASE_LIMITS_H_
