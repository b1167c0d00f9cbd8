// Generated commit files for the benchmarks: many adds and removes with statistics, 20% of them
// with deletion vectors, as large Delta commits (OPTIMIZE, MERGE) look.
//
// Concern: one generator, so every benchmark measures the same shape of bytes. Deterministic for
// given arguments.
#ifndef RLC_BENCH_COMMIT_FIXTURE_H_
#define RLC_BENCH_COMMIT_FIXTURE_H_

#include <string>

#include "impl/conflict/checker.h"

namespace rlc::bench {

struct CommitShape {
  std::string operation = "OPTIMIZE";
  std::string isolation_level = "SnapshotIsolation";
  bool data_change = false;
  int partitions = 0;      // 0: unpartitioned; else files spread over part=p1..pN
  bool adds_only = false;  // every file action an add (else adds and removes alternate)
};

// A unique file name: <prefix><100000 + i>-<uuid>.c000.snappy.parquet
std::string BenchFilePath(const char* prefix, int i);

// The table the checker benchmarks read: columns id long, name string, ts timestamp (and, when
// partitioned, part string as the partition column); DVs enabled; WriteSerializable.
conflict::ReadTable BenchReadTable(bool partitioned);

// A commit of `actions` lines: commitInfo, then adds and removes alternating (or adds only).
// Statistics: id within [0, 2000), name within ["alpha", "omega"], ts within 2024.
std::string MakeFileActionsCommit(int actions, const CommitShape& shape);

// checker_bench.cc's winner: a 100,000-action MERGE in partitions p1..p50, WriteSerializable.
std::string BenchWinner();
// checker_bench.cc's loser: a DELETE that read `part = 'p0' AND id > 100` and the 10,000 files
// BenchLoserReadFile(0..9999) of p0, removing the first 5,000 and adding 4,999 rewritten files.
conflict::PendingTransaction BenchLoser();
std::string BenchLoserReadFile(int i);

}  // namespace rlc::bench

#endif  // RLC_BENCH_COMMIT_FIXTURE_H_
