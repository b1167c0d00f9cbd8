// Scenario: one concurrent history written down as a readable text file, in the spirit of
// sqllogictest; what `rlc scenario` runs and what the explorer saves as a counterexample.
//
// Concern: the file format (documented in full in fuzz/scenario/README.md), its parser and its
// writer. Running a scenario is scenario_runner.h's job. Lines, one statement each ('#' starts a
// comment line; blank lines separate nothing):
//   scenario <title>
//   table [partitioned] [partition-type T | partition-types T1,T2,...] [files N] [statistics
//   on|off] [deletion-vectors on|off|absent]
//         [writes merge-on-read|copy-on-write] [isolation Serializable|WriteSerializable]
//         [optimize-target N] [rows readable|unreadable] [faults N]
//   rows (v, ...), ...                     rows of the starting table, schema (id, value[, x][,
//   part...]) setup <operation>                      committed in order before any transaction
//   starts txn <NAME> <operation>                 a labelled transaction (operation_text.h grammar)
//   txn <NAME> raw                         raw Delta actions: the following '{...}' lines
//   flags <NAME> all | none | <flag>[=<value>] ...
//   optimize <NAME> [layout bin-pack|interleave|split|repartition] [target N] [capture on|off]
//   reads <NAME> whole-table | where <predicate>
//   writer <NAME> [adds-first] [remove-stats copied|absent|lying-bounds|lying-count]
//                 [tags miscounted|malformed] [stats malformed] [empty-output on] [removes ghost]
//                 [data-change false] [half-truth]   how its engine writes
//                                                                     (simulator::WriterQuirks)
//   <NAME> starts | <NAME> rebases | <NAME> commits   the interleaving, in order
//   expect <NAME> commits | aborts [<ExceptionName>] | refuses | skips | any
//   expect <NAME> event <event name> | no-events | retries <N> | data-change true|false
//   expect rows (v, ...), ... | expect rows none | expect row-count <N> | expect files <N>
//   expect dv-cardinalities <n> ...        per active file, ascending, 0 for no DV
//   expect dv <id>: <position> ...         the DV of the file that holds live row <id>
//   expect missed-reconcile                the contract check (d) must report one (else it fails)
// Errors: kInvalidArgument "<file>:<line>: <what>", for the first malformed line; a name used
// before its txn line, a commit before a start, a txn that starts twice, are errors too.
//
// Thread-safety: plain values and stateless functions.
#ifndef RLC_FUZZ_SCENARIO_SCENARIO_H_
#define RLC_FUZZ_SCENARIO_SCENARIO_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/simulator/engine.h"
#include "impl/base/status.h"
#include "impl/conflict/flags.h"
#include "impl/delta/actions.h"
#include "model/semantics/operation.h"
#include "model/semantics/table.h"

namespace rlc::scenario {

enum class DeletionVectors {
  kOn,
  kOff,
  kAbsent
};  // kOff: property false; kAbsent: no table feature

struct TableSpec {
  bool partitioned = false;
  model::ColumnType partition_type = model::ColumnType::kLong;  // of the partition column `part`
  // The types of `part2`, `part3`, ... after `part`; only when partitioned.
  // Text: `partition-types T1,T2,...` (T1 is `part`'s).
  std::vector<model::ColumnType> more_partition_types;
  // Every partition column's type, in order: {} when unpartitioned.
  std::vector<model::ColumnType> PartitionTypes() const;
  std::optional<model::ColumnType> typed_column;  // a data column `x` of this type
  // The collation of the column `value` (model::Collation): the schema records a UTF8_LCASE one
  // in the field's metadata, as Spark does, and its files keep no bounds of it.
  // Text: `value-collation UTF8_LCASE`.
  model::Collation value_collation = model::Collation::kUtf8Binary;
  // The type `x` had when the table was created, before a type widening to `typed_column`
  // (simulator::TableOptions::type_widening). Text: `column-x-widened-from TYPE`.
  std::optional<model::ColumnType> x_widened_from;
  // The writers' session zone, minutes east of UTC (model::LogicalTable::session_offset_minutes).
  int session_offset_minutes = 0;
  // Timestamp partition values written with a Z, not in the session zone (simulator::TableOptions).
  bool zoned_partition_timestamps = false;
  // Column mapping in name mode: physical names in the files and the log
  // (simulator::TableOptions::column_mapping). Text: `column-mapping name`.
  bool column_mapping = false;
  int files = 2;
  bool statistics = true;
  DeletionVectors deletion_vectors = DeletionVectors::kOn;
  bool merge_on_read = true;
  std::optional<model::IsolationLevel> isolation;  // nullopt: no property (Serializable)
  int64_t optimize_target = 8;
  // unreadable: the checker gets DVs but no data-file rows (a table of files it cannot read, as
  // `rlc check` meets Parquet): the cases then decide on statistics and counts alone.
  bool rows_readable = true;
  // > 0: about one in `checker_faults` of the checker's reads and DV writes fails (a flaky store:
  // simulator::TableOptions::checker_faults).
  int checker_faults = 0;
  // > 0: a checkpoint after every commit whose version is a multiple of it (Delta's default is
  // 10), which the simulator's own reads and the run's final check replay through.
  int checkpoint_interval = 0;
  // The checkpoints' layouts, taken in turn (simulator::TableOptions::checkpoint_layouts).
  std::vector<parquet::CheckpointLayout::Kind> checkpoint_layouts = {
      parquet::CheckpointLayout::Kind::kClassic};
  std::vector<std::vector<model::Value>> rows;
};

struct TxnSpec {
  std::string name;
  int line = 0;
  std::optional<model::Operation> operation;  // nullopt: raw actions
  std::vector<delta::Action> raw_actions;
  conflict::Flags flags;
  simulator::OptimizeOptions optimize;
  bool reads_whole_table = false;
  std::vector<model::Predicate> extra_reads;
  simulator::WriterQuirks writer;  // how its engine encodes the commit (another engine's, a liar's)
  // Raw actions of a foreign engine (`writer NAME foreign`): what they break of the log's
  // invariants is that engine's own (as a quirky writer's), and what commits on top is judged.
  bool foreign = false;
};

struct Step {
  // kRebase: a commit attempt that loses its race to the next commit
  // (simulator::Simulator::Rebase): checked against every commit so far, nothing written.
  enum class Kind { kStart, kRebase, kCommit };
  Kind kind = Kind::kStart;
  std::string txn;
  int line = 0;
};

struct Expectation {
  enum class Kind {
    kCommits,
    kAborts,
    kRefuses,
    kSkips,
    kAny,
    kEvent,
    kNoEvents,
    kRetries,
    kDataChange,
    kRows,
    kRowCount,
    kFiles,
    kDvCardinalities,
    kDv,
    kMissedReconcile,
  };
  Kind kind = Kind::kAny;
  int line = 0;
  std::string text;                             // the line as written, for reports
  std::string txn;                              // per-transaction kinds
  std::string name;                             // kAborts (may be empty: any kind), kEvent
  int64_t number = 0;                           // kRetries, kRowCount, kFiles, kDv (the row id)
  bool flag = false;                            // kDataChange
  std::vector<std::vector<model::Value>> rows;  // kRows
  std::vector<int64_t> numbers;                 // kDvCardinalities, kDv positions
};

struct Scenario {
  std::string file;  // where it was read from, for messages
  std::string title;
  TableSpec table;
  std::vector<std::pair<model::Operation, int>> setup;  // (operation, line)
  std::vector<TxnSpec> txns;
  std::vector<Step> steps;
  std::vector<Expectation> expectations;

  const TxnSpec* Find(const std::string& name) const;
  // The logical starting table (schema, properties, features, rows) the spec describes.
  model::LogicalTable StartingTable() const;
};

Result<Scenario> ParseScenario(std::string_view text, const std::string& file);
// Rows as the format writes them: "(1, 'a'), (2, NULL)"; empty for no rows.
std::string RowsText(const std::vector<std::vector<model::Value>>& rows);

// " adds-first remove-stats absent ...": the `writer` statement's words after the name.
std::string WriterText(const simulator::WriterQuirks& quirks);

// The scenario as text ParseScenario reads back to an equal scenario (comments are not kept).
std::string FormatScenario(const Scenario& scenario);

}  // namespace rlc::scenario

#endif  // RLC_FUZZ_SCENARIO_SCENARIO_H_
