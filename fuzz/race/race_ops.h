// What each racer of `rlc race` runs: the table's shape and the operation stream of every process.
//
// Concern: the operations only (race.h has the race). A table of 64 rows keeps the shape the CI
// races have always used (16 files, 4 for case 2; copies under ids from 1000; case 1's inserts from
// 100000); a larger table has files of 10,000 rows, copies and inserts far above its ids, and the
// DML of the row-level cases aims at its first 5,000 ids (half its first file), so that two meet in
// one file often enough for Cases 2 and 4 to happen (and the oracle models only the rows the
// operations can reach: Reachable). Another engine's statements (`EngineOpFor`)
// are model operations too: the oracle replays them, and model::SparkSql gives them to the engine.
//
// Thread-safety: pure functions of their arguments (the random generator is the caller's).
#ifndef RLC_FUZZ_RACE_RACE_OPS_H_
#define RLC_FUZZ_RACE_RACE_OPS_H_

#include <cstdint>
#include <random>

#include "fuzz/race/race.h"
#include "model/semantics/operation.h"
#include "model/semantics/table.h"

namespace rlc::race {

struct RaceShape {
  int64_t rows = 64;
  int files = 16;
  int64_t hot_ids = 64;              // row-level DML picks ids in [1, hot_ids]
  int64_t copy_base = 1000;          // INSERT ... SELECT copies rows under ids from here
  int64_t insert_base = 100000;      // case 1's blind inserts use ids from here
  int64_t optimize_target_rows = 0;  // an OPTIMIZE bin's rows; 0: the simulator's default
};

RaceShape ShapeOf(const RaceOptions& options);

// The table every process starts from: ids 1..rows with values "v<id>", at `options.isolation`.
model::LogicalTable StartingTable(const RaceOptions& options, const RaceShape& shape);
model::LogicalTable TableOfIds(const RaceOptions& options, int64_t rows);

// The rows an operation of the race can read or write: ids up to hot_ids, and the copies' and
// inserts' ids. No operation's predicate matches another row, so the oracle's model of a large
// table holds only these (ModelTable: a million-row table would cost the model one copy per
// version), and the race checks that every other row is still there, unchanged.
bool Reachable(const RaceShape& shape, int64_t id);
model::LogicalTable ModelTable(const RaceOptions& options, const RaceShape& shape);

// The next operation of rlc's process `proc` (of `options.procs`).
model::Operation RlcOpFor(const RaceOptions& options, const RaceShape& shape, int proc, int64_t seq,
                          std::mt19937_64& rng);

// The next statement of the other engine's process `engine_proc` (0-based among them).
model::Operation EngineOpFor(const RaceOptions& options, const RaceShape& shape, int engine_proc,
                             int64_t seq, std::mt19937_64& rng);

}  // namespace rlc::race

#endif  // RLC_FUZZ_RACE_RACE_OPS_H_
