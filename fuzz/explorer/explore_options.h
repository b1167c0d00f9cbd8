// What a generated history may contain, and how an exploration runs.
//
// Thread-safety: plain values.
#ifndef RLC_FUZZ_EXPLORER_EXPLORE_OPTIONS_H_
#define RLC_FUZZ_EXPLORER_EXPLORE_OPTIONS_H_

#include <cstdint>
#include <string>

#include "impl/conflict/flags.h"

namespace rlc::explorer {

struct GeneratorOptions {
  int min_writers = 2;  // min_writers..max_writers concurrent transactions
  int max_writers = 5;
  // The flags a transaction may draw (each on or off with even odds); the others stay off.
  conflict::Flags allowed_flags = AllFlags();

  static conflict::Flags AllFlags() { return conflict::Flags::Every(); }
};

struct ExploreOptions {
  int64_t runs = 0;    // histories to run in this shard (0: until `seconds`)
  double seconds = 0;  // time budget (0: until `runs`)
  uint64_t seed = 1;
  int shard_index = 0;  // this shard runs the histories i with i % shard_count == shard_index
  int shard_count = 1;
  int jobs = 1;          // worker threads
  std::string out_dir;   // counterexamples go here as scenario files (empty: not saved)
  std::string work_dir;  // scratch tables on disk, one folder per worker (empty: in memory)
  GeneratorOptions generator;
  bool progress = false;        // a progress line on stderr
  int determinism_sample = 50;  // re-run every Nth history and compare its outcome (0: never)
  bool stop_at_first = false;   // stop at the first counterexample (the mutant table)
  // With stop_at_first: stop too at the first violation filed as Delta's own anomaly that a case
  // reached by carrying a loser (Summary::case_reached_examples). The guards of
  // WriteSerializable's blind appends promise there are none; the mutant table asks whether the
  // same history holds without the mutant.
  bool stop_at_case_reached = false;
  // The exhaustive small scope (exhaustive.h) instead of generated histories: history i of the
  // campaign is number (i * kExhaustiveStride) mod the scope's size, so any prefix is a spread-out
  // slice and the whole campaign covers the scope exactly once.
  bool exhaustive = false;
  int exhaustive_writers = 3;  // 2 or 3
  // How many serial orders the oracle tries before its verdict on a history's rows is
  // inconclusive (0: the oracle's default, oracle::kDefaultMaxOrders).
  size_t oracle_max_orders = 0;
};

}  // namespace rlc::explorer

#endif  // RLC_FUZZ_EXPLORER_EXPLORE_OPTIONS_H_
