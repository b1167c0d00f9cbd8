// Another engine in `rlc race`: real Delta Spark processes on the table rlc's processes race on.
//
// Concern: the engine's side of the race protocol, all through files in the race's folder
// (_race/), so neither side links the other:
//   - plan-P.jsonl: the statements engine process P runs, one per line ({"txnId", "op": the
//     operation in the scenario language, "sql": model::SparkSql with {table} for the table}),
//     written before it starts; process numbers P continue after rlc's (procs .. procs+n-1);
//   - the racer command (RaceOptions::engine_racer, e.g. tests/engines/delta_spark_racer.py) is
//     started as `RACER race TABLE RACE_DIR P`, its output in engine-P.log; it writes
//     engine/ready-P once its session is up, and waits for engine/start (the deadline in epoch
//     milliseconds), which StartEngine writes when every engine process is ready;
//   - it journals like rlc's processes (journal-P.jsonl: intent, then outcome, keyed by txnId,
//     which its commits carry in commitInfo.userMetadata) and before each statement replaces
//     engine/go-P with the statement's number and how long its last statement took;
//   - rlc's processes pace themselves by that duration (EngineStatementMillis): each waits a
//     random part of it between its read and its commit, so that their windows overlap the
//     engine's both ways (rlc winning against the engine's statement, and losing to it);
//   - at the end `RACER read TABLE OUT EVERY` reads every version (with EVERY > 1, its multiples
//     and the latest) as the engine reads it: the live rows' count and a digest, the sum of crc32
//     of "<id>:<value>" over them ("\0" for a null value), and CompareEngineReads holds the
//     oracle's own read of each such version to it.
//
// Thread-safety: StartEngine forks; call it from a single-threaded process.
#ifndef RLC_FUZZ_RACE_ENGINE_RACE_H_
#define RLC_FUZZ_RACE_ENGINE_RACE_H_

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz/race/race.h"
#include "fuzz/race/race_ops.h"
#include "impl/base/status.h"

namespace rlc::race {

// The engine's processes (their pids, in the order of their process numbers).
struct EngineProcesses {
  std::vector<pid_t> pids;
};

// Writes the plans, starts the racer commands and waits until every one is ready (an engine that
// exits first, or is not ready within `ready_timeout`, is an error naming its log).
Result<EngineProcesses> StartEngine(const RaceOptions& options, const RaceShape& shape,
                                    std::chrono::seconds ready_timeout);

// Lets the engine's processes go, racing until `deadline`.
Status SignalStart(const RaceOptions& options, std::chrono::system_clock::time_point deadline);

// How long the engine's last statements took (the longest over its processes), milliseconds; a
// default until one has run.
int64_t EngineStatementMillis(const RaceOptions& options);

// The engine's read of every version against the oracle's: summary.engine_read_versions and
// engine_read_differences, each difference a problem.
Status CompareEngineReads(const RaceOptions& options, RaceSummary& summary);

}  // namespace rlc::race

#endif  // RLC_FUZZ_RACE_ENGINE_RACE_H_
