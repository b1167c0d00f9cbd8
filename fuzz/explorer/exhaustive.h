// The exhaustive small scope: every history of a small, fixed shape, numbered so that any slice of
// the numbers can run on its own (a CI slice, or shards of a nightly run).
//
// Concern: the enumeration. A history is: a table of `files` files (1 or 2) of 4 rows each
// (ids 1..4·files, merge-on-read, statistics on, WriteSerializable); 2 or 3 writers, each running
// one of 29 operations: DELETE, merge-on-read UPDATE, INSERT ... SELECT and MERGE matched-delete,
// each with `id = k`, `id < k` and `id >= k` for k in {2, 4·files - 1} (one row of each file),
// a blind INSERT, an OPTIMIZE, a MERGE that reads two keys (a not-matched insert) but deletes one,
// a DELETE of one row that also reads the whole table, and a protocol upgrade to row tracking;
// every interleaving of their starts and commits (a start before its commit), with or without
// T1's commit attempt losing its race again right after the first commit it races (a `rebases`
// step); T2 written honestly, by an engine that lies about the files it removes and the runs it
// compacted, or by one that writes its DML dataChange=false; and one subset of the six flags for
// every writer (64 subsets). History numbers are a mixed-radix reading of those choices.
// 2 writers: 2 x 2 x 3 x 29^2 x 6 x 64 = 3,875,328 histories; 3 writers: 2 x 2 x 3 x 29^3 x 90
// x 64 = 1,685,767,680.
//
// Thread-safety: stateless functions.
#ifndef RLC_FUZZ_EXPLORER_EXHAUSTIVE_H_
#define RLC_FUZZ_EXPLORER_EXHAUSTIVE_H_

#include <cstdint>

#include "fuzz/scenario/scenario.h"

namespace rlc::explorer {

// Histories with 2..max_writers writers (max_writers 2 or 3).
uint64_t ExhaustiveCount(int max_writers);
// REQUIRES: index < ExhaustiveCount(max_writers).
scenario::Scenario ExhaustiveHistory(int max_writers, uint64_t index);

}  // namespace rlc::explorer

#endif  // RLC_FUZZ_EXPLORER_EXHAUSTIVE_H_
