// Simulator: runs model operations the way an engine does, against a real Delta table (a
// directory, or memory), so the checker is driven exactly as it would be in production.
//
// Concern: the engine side of one transaction. Prepare reads a snapshot through impl/ (log
// replay, the simulator's row files, DVs), lets the model compute the operation's row-level
// effect on it (model/semantics/serial.h), and turns that effect into Delta actions and files:
//   - deleted and updated rows: a DV (merge-on-read: the file's new DV is the old one plus the
//     rows' positions; a file left without live rows is removed) or, copy-on-write, the file
//     rewritten without them;
//   - inserted rows and updated rows' new images: new row files, one per partition value, with
//     statistics (numRecords, min/max/nullCount per column, or none when statistics are off);
//   - OPTIMIZE: bins of consecutive files (per partition) up to a target row count, each
//     compacted into one output whose writer reports the runs it wrote to the capture builder
//     (impl/conflict/composition_capture.h), so its tombstones are tagged when the gate passes;
//     ZORDER sorts the rows first, which interleaves sources (the gate then leaves them untagged);
//   - metadata and protocol changes as metaData / protocol actions.
// The pending transaction records what the model says the operation read: its predicates as text
// (a TRUE predicate is a whole-table read) and the files holding the rows they matched.
// Commit writes the next version with put-if-absent; when another commit won, it runs the
// checker against the winners (with the transaction's flags, DVs and rows through the table's
// storage), commits the rebased actions at the next free version, or aborts. The checker reads
// the winners from the log's bytes; snapshots apply the simulator's own commits from the actions
// it wrote (an engine's snapshot after its own commit) and read every other commit from the log.
// Both give the same snapshot: the writer and parser round-trip every action the simulator writes
// (TableOptions::verify_own_commits checks it; scenario files and tests run with it on).
//
// Rows carry their model identity in a hidden `_rid` column of the row files, so a snapshot maps
// back onto the model's rows; new identities come from one counter per simulator, so concurrent
// transactions never reuse one. A Parquet file another engine wrote (Delta Spark racing the
// simulator, fuzz/race) has no `_rid`: its rows get identities from the file's path and their
// positions, with the top bit set, the same in every simulator that reads the file.
//
// Thread-safety: one simulator per thread; the table may be shared with other processes.
#ifndef RLC_FUZZ_SIMULATOR_ENGINE_H_
#define RLC_FUZZ_SIMULATOR_ENGINE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/simulator/field_lies.h"
#include "fuzz/simulator/row_file.h"
#include "impl/base/status.h"
#include "impl/conflict/dv_writer.h"
#include "impl/conflict/flags.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/conflict/verdict.h"
#include "impl/delta/actions.h"
#include "impl/delta/snapshot.h"
#include "impl/parquet/checkpoint_writer.h"
#include "impl/storage/storage.h"
#include "model/semantics/operation.h"
#include "model/semantics/serial.h"
#include "model/semantics/table.h"

namespace rlc::simulator {

// Whether Delta's type widening changes a column of type `from` to `to` in place: byte, short and
// integer to a wider integral type, float to double (the widenings whose values and statistics
// every reader here reads alike; Delta allows a few more).
bool Widens(model::ColumnType from, model::ColumnType to);

struct TableOptions {
  bool merge_on_read = true;  // DVs for deletes and updates; false: copy-on-write
  bool statistics = true;
  int64_t optimize_target_rows = 8;  // an OPTIMIZE bin holds up to this many live rows
  // Several simulators writing one table (separate processes) need disjoint names and identities.
  std::string file_prefix;   // before every data file name
  uint64_t row_id_base = 0;  // new rows' identities start above this
  // Write like another engine: in each commit, adds before removes; DV files in a folder of
  // their own (absolute 'p' descriptors); an extra tag beside the composition tags.
  bool foreign = false;
  // Timestamp partition values as text with a Z (UTC), as some engines write them; false: as
  // Spark writes them, the wall clock in the table's session zone without a zone
  // (model::LogicalTable::session_offset_minutes), which the log does not record.
  bool zoned_partition_timestamps = false;
  // Column mapping in name mode (delta.columnMapping.mode = name), as Delta Spark writes it: each
  // column has a physical name ("col-" and a UUID) that keys its statistics and partition values,
  // names it in the data files and names its partition directories; the logical name is the
  // schema's only.
  bool column_mapping = false;
  // A column that had another type when the table was created (Delta's type widening): version 0
  // declares it with `from` and writes its files (their data and statistics) under that type;
  // version 1 widens it to its schema type (the typeWidening feature, `delta.typeChanges` in the
  // field's metadata), and every later file is written under the wider type. Files are never
  // rewritten by the change. REQUIRES: Widens(from, the column's type); every row's value held
  // by `from` (model::HoldsValueOf).
  struct TypeWidening {
    std::string column;
    model::ColumnType from = model::ColumnType::kInteger;
  };
  std::optional<TypeWidening> type_widening;
  // Snapshots apply the simulator's own commits from the actions it wrote. With this on, each is
  // also read back from the log and must parse to exactly those actions (kCorrupt otherwise):
  // the round trip that makes the shortcut sound, checked wherever speed does not matter.
  bool verify_own_commits = false;
  // The checker reads the data files' rows (the simulator's row files); false: DVs only, as for
  // files it cannot read.
  bool checker_reads_rows = true;
  // The data files' format: Parquet for tables other engines read; row files where only the
  // simulator and the oracle do and speed matters (the in-memory explorer).
  DataFileFormat data_files = DataFileFormat::kRowFile;
  // > 0: after each commit whose version is a multiple of it, the simulator writes a Parquet
  // checkpoint of that version (impl/parquet/checkpoint_writer.h), as Delta writes one every 10
  // commits. A simulator that reads the log afresh starts from the newest complete checkpoint.
  int checkpoint_interval = 0;
  // The checkpoints' layouts: each checkpoint takes the next in turn (one: every one alike). A
  // multi-part one has 2 or 3 parts, a V2 one 1 or 2 sidecars (by its version), and a V2 one's
  // UUID is made from its version, so runs repeat.
  std::vector<parquet::CheckpointLayout::Kind> checkpoint_layouts = {
      parquet::CheckpointLayout::Kind::kClassic};
  // 0: the checker's reads and writes succeed. n > 0: some fail with an I/O error, as on a flaky
  // store: the first DV it writes and every n-th after it, and about one in n + 1 of the DVs and
  // data files it reads (a pseudo-random draw per read, numbered over the simulator's life from
  // an offset the starting table's size gives, so a run repeats exactly and histories meet their
  // failures in different places). The checker
  // must then abort on doubt; the table itself is intact (the oracle reads it whole).
  int checker_faults = 0;
  // Each commit's outcome says why the cases declined (CommitOutcome::declines): for the race,
  // whose aborts are to be explained; off where millions of checks run (the explorer).
  bool explain_declines = false;
  // What the conflict check reads of each winner's commit file, given its version and bytes: a
  // test that alters one claim of every winner sees which verdicts turn on it
  // (tests/scenario/trust_ledger_test.cc). Unset: the bytes as written. The table, its replay
  // and the oracle keep the bytes as written.
  std::function<std::string(int64_t version, std::string bytes)> winner_bytes;
};

// How one OPTIMIZE writes its bins. Every layout but kBinPack breaks the capture gate on purpose
// (the writer reports what it really wrote), so its tombstones stay untagged.
enum class OptimizeLayout {
  kBinPack,      // each bin's sources one after another into one output
  kInterleave,   // one output, rows taken from the bin's sources in turn
  kSplit,        // each bin written as two outputs, split in the middle
  kRepartition,  // each bin's rows spread over two outputs by row identity (a shuffle)
};

struct OptimizeOptions {
  OptimizeLayout layout = OptimizeLayout::kBinPack;
  int64_t target_rows = 0;  // 0: the table's optimize_target_rows
  bool capture = true;      // false: the writer records no composition even with the flags on
};

// How one transaction's engine encodes its commit, beyond what an honest engine writes: the
// habits of another engine, a buggy engine's omissions, a dishonest engine's lies. The rows it
// commits stay the operation's (so the oracle still judges them against the model), but for
// the lies changes_rows() names, whose commits the oracle judges by the rows it reads back; what
// the log says about them changes, as the commit file is written: the engine's own conflict check
// still judges what it did (a loser that lies to its own check is the loser's engine's fault, not
// a case's). A reconcile case may decline another writer's such commit, never be misled by it.
struct WriterQuirks {
  enum class RemoveStats {
    kCopied,       // each remove carries its add's statistics (Delta's "remove from")
    kAbsent,       // removes carry no statistics, partition values or size
    kLyingBounds,  // removes' statistics claim bounds that hold none of the file's rows
    kLyingCount,   // removes' statistics claim one physical row more than the file has
  };
  RemoveStats remove_stats = RemoveStats::kCopied;
  bool adds_first = false;       // the commit's adds before its removes (legal)
  bool miscounted_tags = false;  // OPTIMIZE: of each output's first two sources, one row moves
                                 // from the second's run to the first's (the runs still tile)
  bool malformed_tags = false;   // OPTIMIZE: one tombstone's compactionInfo is not a run
  bool malformed_stats = false;  // its adds' statistics do not parse (cut short): what its own
                                 // check sees too
  bool empty_output = false;     // OPTIMIZE: also writes an empty file (no row, dataChange=false)
  bool ghost_removes = false;    // one more remove, of a path the table never held
  bool no_data_change = false;   // every file action dataChange=false (a DML passed off as a
                                 // relocation)
  // Not in the log alone: the engine itself takes its DV update of one file (the last path of a
  // commit that updates two or more) for no data change, and records it dataChange=false in the
  // actions its own conflict check judges. Its other actions keep dataChange=true, so its commit
  // keeps the table's isolation level.
  bool half_truth = false;
  // commitInfo.readVersion: as read, left out, or stale (one version before the one it read: a
  // writer that states an older snapshot than it read, which no reader of the log can refute).
  enum class ReadVersion { kHonest, kAbsent, kStale };
  ReadVersion read_version = ReadVersion::kHonest;
  // One of its adds written twice in the commit: an add with a DV again without it (so readers
  // that key files by path and DV keep both, and the rows the DV deletes come back), else its
  // first add again as it is. A commit the protocol forbids, which log replay refuses (one
  // reading, impl/delta/commit_rules.h); judged by its rows (changes_rows).
  bool duplicate_add = false;
  // Also a dataChange=false re-add, unasked, of a file active at its read version that it did
  // not touch, under the partition values of another of the table's partitions: readers take a
  // file's partition values from its add, so the file's rows move partition. The rows are then
  // not its operation's: its commit is judged by its rows (changes_rows).
  bool readd_elsewhere = false;
  uint8_t readd_which = 0;  // which file it re-adds: the candidates in path order, counting round
  // Its first DV update (an add with a DV of a file active at its read version) written under
  // the partition values of another of the table's partitions: the file's rows, and the
  // deletions, move partition. Judged by its rows (changes_rows).
  bool dv_update_elsewhere = false;
  // Field by field (field_lies.h): any field of any of its actions left out, stale or
  // contradicting the log, in the actions the engine makes (its own check sees them too).
  // Judged by its rows (changes_rows), since some lies move rows.
  std::vector<FieldLie> field_lies;

  bool any() const {
    return remove_stats != RemoveStats::kCopied || adds_first || miscounted_tags ||
           malformed_tags || malformed_stats || empty_output || ghost_removes || no_data_change ||
           half_truth || read_version != ReadVersion::kHonest || duplicate_add || readd_elsewhere ||
           dv_update_elsewhere || !field_lies.empty();
  }
  // Whether the rows its commit leaves may differ from its operation's.
  bool changes_rows() const {
    return readd_elsewhere || duplicate_add || dv_update_elsewhere || !field_lies.empty();
  }
  friend bool operator==(const WriterQuirks&, const WriterQuirks&) = default;
};

struct CommitProgress;  // engine.cc: a commit under way (its conflict check, its rebased actions)

struct Transaction {
  model::Operation operation;
  int64_t read_version = 0;
  model::OperationEffect effect;         // the model's effect on the snapshot
  conflict::PendingTransaction pending;  // read set, actions and flags, as the checker sees them
  // The model skipped the operation or it failed, or a DELETE, UPDATE or MERGE changed no row
  // (Delta commits those only when needed).
  bool commits_nothing = false;
  // A DELETE, UPDATE, MERGE or INSERT ... SELECT the model ran that changes no row: it commits
  // nothing, or under WriteSerializable its commitInfo alone (Delta's commitIfNeeded).
  bool changes_no_row = false;
  bool raw_actions = false;  // pending.actions were given, not derived from `operation`
  std::string refused;       // why the engine does not write at all (commits_nothing)
  // A MERGE the model fails (several source rows match a target row): what Delta's own MERGE
  // does with it, "fails" or "commits: <why>". The model fails every such MERGE; Delta counts
  // matches only over the files its scan keeps and only for some clause shapes
  // (DeltaMergeVerdict in engine.cc). Judged against Delta Spark by tests/engines.
  std::string delta_merge_verdict;
  // How the commit is written to the log (Prepare's quirks, less a lie that would be the truth);
  // pending holds what the engine did, which its own conflict check judges.
  WriterQuirks quirks;
  // OPTIMIZE: the (path, DV unique id) of every source it compacted, for its own retry (B5).
  std::vector<std::pair<std::string, std::string>> compacted;
  // Set by the first Rebase or lost race: the conflict check goes on from there (a copy of the
  // transaction shares it).
  std::shared_ptr<CommitProgress> progress;
};

struct CommitOutcome {
  bool committed = false;
  int64_t version = -1;                  // the version written, when committed
  std::optional<conflict::Abort> abort;  // why not, when aborted
  // Why not, when its check refused a winner that log replay refuses (kCorrupt: a path added
  // twice, two active versions): the engine commits nothing on a log it cannot read.
  std::string refused;
  std::vector<conflict::Event> events;  // the reconcile events of every check on the way
  conflict::DeclineLog declines;  // why the cases declined, in the last check (explain_declines)
  std::vector<delta::Action> actions;    // what was committed (rebased when a case ran)
  int optimize_retries = 0;              // B5 retries of an OPTIMIZE's pre-built actions
  int64_t checked_through_version = -1;  // the last commit its check has seen (-1: none yet)
};

class Simulator {
 public:
  // `table` gives the schema (model::MakeTable's), the properties and the protocol features.
  Simulator(storage::Storage& storage, std::string root, model::LogicalTable table,
            TableOptions options = {});
  ~Simulator();

  // Version 0: protocol, metadata, and the table's rows spread over `files` row files.
  Status Create(int files);
  // The column's type in the files written now: its type before a widening not yet written.
  model::ColumnType WrittenType(size_t column) const;
  // Version 1 of a table created before a type widening: the widening (TableOptions).
  Status WriteTypeWidening();
  // The table at `version` as the model sees it (rows with their identities), read through impl/.
  Result<model::LogicalTable> Read(int64_t version) const;
  Result<int64_t> LatestVersion() const;

  // `optimize` applies when the operation is an OPTIMIZE; `quirks`: how its engine writes.
  Result<Transaction> Prepare(const model::Operation& operation, int64_t read_version,
                              const conflict::Flags& flags, const OptimizeOptions& optimize = {},
                              const WriterQuirks& quirks = {});
  // Adds reads to a prepared transaction, as if its operation had also read these predicates on
  // its snapshot (TRUE: the whole table): their text, and the files holding the rows they match.
  // The transaction stops being a blind append.
  Status AddReads(Transaction& transaction, const std::vector<model::Predicate>& reads) const;
  // Commits at the next free version through the checker. An OPTIMIZE the checker aborts retries
  // its pre-built actions on the latest version while every source it compacted, with the same
  // DV, is still active there (docs/baseline.md#b5), as Delta's OPTIMIZE does. After a lost race
  // the check goes on (conflict::ConflictCheck) from where the last one stopped, never from a new
  // read version: the loser keeps what it read.
  Result<CommitOutcome> Commit(Transaction& transaction);
  // A commit attempt that loses its race to whatever commits next: the check against every
  // commit since the last one checked, its rebased actions kept for the next Commit or Rebase,
  // nothing written. The outcome is not committed; it carries the abort when the check aborted
  // (a later Commit then returns it again).
  Result<CommitOutcome> Rebase(Transaction& transaction);

 private:
  struct Snapshot;
  Result<std::shared_ptr<const Snapshot>> ReadSnapshot(int64_t version) const;
  Result<std::shared_ptr<const delta::Snapshot>> LogAt(int64_t version) const;  // < 0: the latest
  Result<Transaction> PrepareHonestly(const model::Operation& operation, int64_t read_version,
                                      const conflict::Flags& flags,
                                      const OptimizeOptions& optimize);
  // PrepareHonestly's phases.
  struct BinPlan;
  using PartitionKey = std::vector<std::string>;  // PartitionOf
  void RecordReads(const Snapshot& s, Transaction& t) const;
  static std::string DeltaMergeVerdict(const Snapshot& s, const model::Merge& merge,
                                       const std::vector<std::string>& scanned);
  bool AppendTableActions(const model::Operation& operation, Transaction& t) const;
  Status PrepareOptimize(const Snapshot& s, const model::Optimize& optimize,
                         const conflict::Flags& flags, const OptimizeOptions& optimize_options,
                         Transaction& t);
  Status CompactBin(const Snapshot& s, const PartitionKey& partition,
                    const std::vector<std::string>& bin, const BinPlan& plan, Transaction& t);
  Status PrepareRowWrites(const Snapshot& s, Transaction& t);
  Status DeleteRows(const Snapshot& s, const std::string& path,
                    const std::vector<uint64_t>& positions, std::vector<delta::Action>& actions);
  Result<bool> OptimizeMayRetry(const Transaction& transaction) const;
  CommitProgress& ProgressOf(Transaction& transaction) const;
  // TableOptions::checkpoint_interval: the checkpoint due after committing `version`, if any.
  Status CheckpointAfter(int64_t version);
  // One check round against the commits since the last one checked; on an abort an OPTIMIZE
  // may start over (B5), else the abort is recorded.
  Status CheckRound(const Transaction& transaction, CommitProgress& progress);
  // A refusal's message with the table's root left out: the same history reads the same in
  // every directory (a campaign's outcome hash compares runs in different ones).
  std::string WithoutRoot(std::string message) const;
  // Where the checker's row files read their partition columns from (row_file.h).
  RowFileTableFiles::PartitionValuesOf LoggedPartitionValues(
      const std::shared_ptr<const delta::Snapshot>& read) const;
  // Has `row_files` read partition columns from the log as of `read_version`, where the checker
  // reads row files.
  Status UseLoggedPartitionValues(int64_t read_version, RowFileTableFiles& row_files) const;
  std::string DvDir() const;  // where new DV files go
  conflict::DvWriter& DvWriter();
  Result<delta::AddFile> WriteRowFile(const PartitionKey& partition,
                                      const std::vector<model::Row>& rows);
  // A new data file of the partition: its path as the log names it (URI-escaped) and as storage
  // names it (decoded).
  struct NewFilePath {
    std::string logged;
    std::string stored;
  };
  NewFilePath NewPath(const PartitionKey& partition, const char* kind);
  delta::Metadata MetadataAction() const;
  // The row's partition, one text per partition column in schema order ("" for NULL: a string
  // partition value is never empty, as Spark writes "" as NULL); {} when unpartitioned.
  PartitionKey PartitionOf(const model::Row& row) const;
  // The text of a value of the schema's column `column` as a partition value.
  std::string PartitionText(size_t column, const model::Value& v) const;
  // The partition an add or remove logs, by the partition columns' physical names ("" for a
  // NULL or absent value).
  PartitionKey KeyOf(const delta::StringMap& logged) const;

  storage::Storage& storage_;
  std::string root_;
  model::LogicalTable table_;  // schema, properties, features, initial rows
  TableOptions options_;
  model::RowId next_row_id_ = 1;
  std::unique_ptr<conflict::DvWriter> dv_writer_;  // made at the first DV
  int64_t next_file_ = 0;
  size_t checkpoints_written_ = 0;  // the next layout: checkpoint_layouts[this % size]
  // Logs replayed and snapshots read so far, by version: a committed version never changes
  // (put-if-absent), so each is read once, however many transactions start from it or check
  // against it, and a later log is replayed from the nearest earlier one.
  mutable std::map<int64_t, std::shared_ptr<const delta::Snapshot>> logs_;
  // The commits this simulator wrote, by version, as it wrote them (the log holds their bytes).
  std::map<int64_t, delta::Commit> own_commits_;
  int checker_dv_writes_ = 0;  // TableOptions::checker_faults: the DVs the checker wrote so far
  int checker_reads_ = 0;      // and the DVs and row files it read
  mutable std::map<int64_t, std::shared_ptr<const Snapshot>> snapshots_;
  // Caches a snapshot read, within bounds (the oldest snapshots and files no longer live go).
  void Remember(int64_t version, const std::shared_ptr<const Snapshot>& snapshot) const;
  std::vector<std::string> physical_names_;  // each schema column's name in files and the log
  bool widened_ = false;                     // TableOptions::type_widening: version 1 is written
  std::vector<RowFileColumn> row_file_columns_;  // every row file's columns: _rid, then the schema
  std::vector<std::string> partition_columns_;   // left out of Parquet data files
  std::vector<size_t> stats_columns_;  // the schema columns with statistics, in name order
  // Row files decoded so far, by path: a data file is written once and never changes.
  mutable std::map<std::string, RowFile> row_files_;
};

}  // namespace rlc::simulator

#endif  // RLC_FUZZ_SIMULATOR_ENGINE_H_
