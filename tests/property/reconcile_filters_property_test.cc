// Properties of the filtering cases (Case 3, Case 1 with its exact tier, 1b), on generated tables
// whose rows the generator knows:
//
//   Monotonicity (docs/decisions.md#independence): turning any of the
//   flags on never turns a commit into an abort, and where the flags-off check commits, the
//   actions are unchanged.
//
//   Soundness against the rows: where the flags-off check aborts and the flags-on check commits
//   a loser that changes data, the loser's reads still hold after all the winners. Each row
//   carries a hidden logical id that a relocation keeps; the winners' effect is the set of rows
//   that appear, disappear or change value between the read snapshot and the last winner. It
//   must hold no row that satisfies a read predicate (before or after the change), and be empty
//   when the loser read without predicates. Rows a blind append created under WriteSerializable
//   are left out (that append may be serialized after the loser). The predicates are evaluated
//   here, on the generator's own structure, not through impl/predicate.
//
// The generator draws a read snapshot of 1-4 files (ids 0..19, some with DVs, statistics tight,
// partial or absent), a loser (0-2 predicates, the read files an engine would record, a DELETE by
// DV, a copy-on-write DELETE, an INSERT ... SELECT or an OPTIMIZE) and 1-2 winners: appends,
// DV deletes (some crafted to revive a row), full deletes, OPTIMIZEs (some dropping a row under
// dataChange=false), statistics-only re-adds, dataChange=false adds of new rows and UPDATEs. Its
// DVs are real inline DVs; the rows reach the checker through InMemoryTableFiles.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/checker.h"
#include "impl/conflict/table_files.h"
#include "impl/delta/commit_writer.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/z85.h"
#include "tests/support/replay_refuses.h"

namespace {

namespace delta = rlc::delta;
namespace conflict = rlc::conflict;
using delta::Action;

template <typename T>
T Uniform(T min, T max) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max));
}
bool Chance(int percent) { return Uniform(0, 100) < percent; }

// ---- the generator's world ---------------------------------------------------------------------

struct Row {
  int64_t rid = 0;  // logical identity, kept by relocation
  int64_t id = 0;
};

enum class StatsKind { kTight, kCountOnly, kNone };

struct DataFile {
  std::string path;
  std::string part;       // "a" or "b" (the partition value when partitioned)
  std::vector<Row> rows;  // physical rows, by position
  std::set<uint64_t> dv;  // deleted positions
  StatsKind stats = StatsKind::kTight;
};

// A read predicate: `id <op> k`, optionally `part = '<p>' AND ...`.
struct Predicate {
  char op = '>';  // '>', '<', '='
  int64_t k = 0;
  std::optional<std::string> part;

  std::string Text() const {
    const std::string id =
        "id " + std::string(op == '=' ? "=" : std::string(1, op)) + " " + std::to_string(k);
    return part ? "part = '" + *part + "' AND " + id : id;
  }
  bool Matches(const std::string& row_part, int64_t id) const {
    if (part && *part != row_part) return false;
    return op == '>' ? id > k : op == '<' ? id < k : id == k;
  }
};

using LiveRows = std::map<int64_t, std::pair<std::string, int64_t>>;  // rid -> (part, id)

struct Table {
  bool partitioned = false;
  std::map<std::string, DataFile> files;  // active, by path
  int next_rid = 0;
  int next_file = 0;

  LiveRows Live() const {
    LiveRows live;
    for (const auto& [path, f] : files) {
      for (size_t i = 0; i < f.rows.size(); ++i) {
        if (f.dv.count(i) == 0) live[f.rows[i].rid] = {f.part, f.rows[i].id};
      }
    }
    return live;
  }
};

delta::Metadata TableMetadata(bool partitioned, const std::string& level) {
  delta::Metadata m;
  m.id = "t";
  m.schema_string =
      R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
      R"({"name":"part","type":"string","nullable":true,"metadata":{}}]})";
  if (partitioned) m.partition_columns = {"part"};
  m.configuration = {{"delta.enableDeletionVectors", "true"}};
  if (!level.empty()) m.configuration.emplace_back("delta.isolationLevel", level);
  return m;
}

std::optional<std::string> StatsJson(const DataFile& f) {
  if (f.stats == StatsKind::kNone) return std::nullopt;
  std::string json = R"({"numRecords":)" + std::to_string(f.rows.size());
  if (f.stats == StatsKind::kTight && !f.rows.empty()) {
    int64_t lo = f.rows[0].id, hi = f.rows[0].id;
    for (const Row& r : f.rows) lo = std::min(lo, r.id), hi = std::max(hi, r.id);
    json += R"(,"minValues":{"id":)" + std::to_string(lo) + R"(},"maxValues":{"id":)" +
            std::to_string(hi) + R"(},"nullCount":{"id":0})";
  }
  return json + "}";
}

std::optional<rlc::dv::DvDescriptor> Dv(const std::set<uint64_t>& rows) {
  if (rows.empty()) return std::nullopt;
  return rlc::dv::InlineDescriptor(rlc::dv::RowBitmap::FromSorted({rows.begin(), rows.end()}));
}

delta::AddFile AddOf(const Table& t, const DataFile& f, bool data_change) {
  delta::AddFile a;
  a.path = f.path;
  if (t.partitioned) a.partition_values = {{"part", f.part}};
  a.size_bytes = 10 * static_cast<int64_t>(f.rows.size());
  a.data_change = data_change;
  a.stats = StatsJson(f);
  a.deletion_vector = Dv(f.dv);
  return a;
}

delta::RemoveFile RemoveOf(const Table& t, const DataFile& f, bool data_change) {
  delta::RemoveFile r;
  r.path = f.path;
  r.data_change = data_change;
  if (t.partitioned) r.partition_values = delta::StringMap{{"part", f.part}};
  if (Chance(70)) r.stats = StatsJson(f);
  r.deletion_vector = Dv(f.dv);
  return r;
}

delta::CommitInfo Info(const std::string& operation, bool blind) {
  delta::CommitInfo c;
  c.operation = operation;
  c.is_blind_append = blind;
  return c;
}

StatsKind GenStatsKind() {
  return Chance(80) ? StatsKind::kTight : Chance(50) ? StatsKind::kCountOnly : StatsKind::kNone;
}

DataFile NewFile(Table& t, const std::string& part, const std::vector<int64_t>& ids) {
  DataFile f;
  f.path = "part-" + std::to_string(t.next_file++) + ".parquet";
  if (t.partitioned) f.path = "part=" + part + "/" + f.path;
  f.part = part;
  for (int64_t id : ids) f.rows.push_back({t.next_rid++, id});
  f.stats = GenStatsKind();
  return f;
}

std::vector<int64_t> GenIds(int min_rows, int max_rows) {
  std::vector<int64_t> ids;
  const int n = Uniform(min_rows, max_rows + 1);
  for (int i = 0; i < n; ++i) ids.push_back(Uniform<int64_t>(0, 20));
  return ids;
}

std::string GenPart() { return Chance(50) ? "a" : "b"; }

std::vector<uint64_t> LivePositions(const DataFile& f) {
  std::vector<uint64_t> live;
  for (uint64_t i = 0; i < f.rows.size(); ++i) {
    if (f.dv.count(i) == 0) live.push_back(i);
  }
  return live;
}

const DataFile* PickFile(const Table& t) {
  if (t.files.empty()) return nullptr;
  auto it = t.files.begin();
  std::advance(it, Uniform<size_t>(0, t.files.size()));
  return &it->second;
}

// ---- winners -----------------------------------------------------------------------------------

struct Winner {
  std::vector<Action> actions;
  bool blind = false;
};

// An OPTIMIZE of `picked` and sometimes another file of its partition, sometimes losing a row
// under dataChange=false.
void OptimizeWinner(Table& t, std::map<std::string, DataFile>& physical, const DataFile* picked,
                    Winner& w) {
  std::vector<DataFile> sources = {*picked};
  if (const DataFile* other = PickFile(t); other != nullptr && other->path != picked->path &&
                                           other->part == picked->part && Chance(50)) {
    sources.push_back(*other);
  }
  DataFile out = NewFile(t, picked->part, {});
  out.rows.clear();
  w.actions = {Info("OPTIMIZE", false)};
  for (const DataFile& s : sources) {
    w.actions.push_back(RemoveOf(t, s, false));
    for (uint64_t p : LivePositions(s)) out.rows.push_back(s.rows[p]);
    t.files.erase(s.path);
  }
  if (!out.rows.empty() && Chance(15)) out.rows.pop_back();
  w.actions.push_back(AddOf(t, out, false));
  physical[out.path] = out;
  t.files[out.path] = out;
}

// An UPDATE: a DV on the old rows, their new image in a new file.
void UpdateWinner(Table& t, std::map<std::string, DataFile>& physical, const DataFile* picked,
                  Winner& w) {
  DataFile f = *picked;
  const delta::RemoveFile before = RemoveOf(t, f, true);
  std::vector<int64_t> image;
  DataFile out = NewFile(t, f.part, {});
  for (uint64_t p : LivePositions(f)) {
    if (!Chance(50)) continue;
    f.dv.insert(p);
    out.rows.push_back({f.rows[p].rid, Chance(50) ? f.rows[p].id + 1 : Uniform<int64_t>(0, 20)});
  }
  w.actions = {Info("UPDATE", false), before, AddOf(t, f, true)};
  t.files[f.path] = f;
  if (!out.rows.empty()) {
    w.actions.push_back(AddOf(t, out, true));
    physical[out.path] = out;
    t.files[out.path] = out;
  }
}

// Draws one winner, applies it to `t`, and records the physical rows of every file it writes.
// `reads` biases some deletes towards rows the loser's reads do not select (the rows 1b clears).
Winner GenWinner(Table& t, std::map<std::string, DataFile>& physical,
                 const std::vector<Predicate>& reads) {
  Winner w;
  const DataFile* picked = PickFile(t);
  int kind = Uniform(0, 9);
  if (kind == 8) kind = 1;  // DV deletes twice as often: they exercise 1b
  if (picked == nullptr) kind = 0;
  switch (kind) {
    case 0: {  // append
      DataFile f = NewFile(t, GenPart(), GenIds(1, 4));
      w.blind = Chance(40);
      w.actions = {Info("WRITE", w.blind), AddOf(t, f, true)};
      physical[f.path] = f;
      t.files[f.path] = f;
      break;
    }
    case 1: {  // DV delete, some crafted to revive a deleted row
      DataFile f = *picked;
      const delta::RemoveFile before = RemoveOf(t, f, true);
      const bool spare_selected_rows = Chance(50);
      for (uint64_t p : LivePositions(f)) {
        bool selected = false;
        for (const Predicate& r : reads) selected = selected || r.Matches(f.part, f.rows[p].id);
        if (Chance(40) && !(spare_selected_rows && selected)) f.dv.insert(p);
      }
      if (!picked->dv.empty() && Chance(15)) f.dv.erase(*picked->dv.begin());
      w.actions = {Info("DELETE", false), before, AddOf(t, f, true)};
      t.files[f.path] = f;
      break;
    }
    case 2: {  // full delete
      w.actions = {Info("DELETE", false), RemoveOf(t, *picked, true)};
      t.files.erase(picked->path);
      break;
    }
    case 3: {  // OPTIMIZE of one or two files, sometimes losing a row under dataChange=false
      OptimizeWinner(t, physical, picked, w);
      break;
    }
    case 4: {  // statistics-only re-add
      DataFile f = *picked;
      f.stats = StatsKind::kTight;
      w.actions = {Info("COMPUTE STATS", false), AddOf(t, f, false)};
      t.files[f.path] = f;
      break;
    }
    case 5: {  // a dataChange=false add of new rows (a writer breaking the protocol)
      DataFile f = NewFile(t, GenPart(), GenIds(1, 3));
      w.actions = {Info("OPTIMIZE", false), AddOf(t, f, false)};
      physical[f.path] = f;
      t.files[f.path] = f;
      break;
    }
    default: {  // UPDATE: DV on the old rows, their new image in a new file
      UpdateWinner(t, physical, picked, w);
      break;
    }
  }
  return w;
}

// ---- the scenario ------------------------------------------------------------------------------

struct Scenario {
  std::string level;
  Table read;  // the loser's read snapshot
  std::map<std::string, DataFile>
      physical;  // every data file written (its rows; the DV is the log's)
  std::vector<Predicate> predicates;
  conflict::PendingTransaction loser;
  std::vector<Winner> winners;
  std::vector<LiveRows> live_after;  // after each winner
};

Predicate GenPredicate(bool partitioned) {
  Predicate p;
  p.op = "><="[Uniform(0, 3)];
  p.k = Uniform<int64_t>(0, 20);
  if (partitioned && Chance(40)) p.part = GenPart();
  return p;
}

// The loser's writes: a DV DELETE of the matching rows of one read file, a copy-on-write DELETE,
// an INSERT ... SELECT or an OPTIMIZE. `after_loser` numbers the files it writes.
void GenLoserWrites(Scenario& s, Table& t, Table& after_loser) {
  conflict::PendingTransaction& l = s.loser;
  const DataFile* target = nullptr;
  if (!l.read_files.empty())
    target = &t.files.at(l.read_files[Uniform<size_t>(0, l.read_files.size())]);
  const int kind = target == nullptr || Chance(35) ? 2 : Uniform(0, 4);
  if (kind == 0) {  // DELETE by DV of the matching rows of one read file
    DataFile f = *target;
    l.actions = {Info("DELETE", false), RemoveOf(t, f, true)};
    for (uint64_t p : LivePositions(f)) {
      for (const Predicate& pr : s.predicates) {
        if (pr.Matches(f.part, f.rows[p].id)) f.dv.insert(p);
      }
    }
    l.actions.push_back(AddOf(t, f, true));
  } else if (kind == 1) {  // copy-on-write DELETE
    DataFile rest = NewFile(after_loser, target->part, {});
    for (uint64_t p : LivePositions(*target)) {
      if (Chance(50)) rest.rows.push_back(target->rows[p]);
    }
    l.actions = {Info("DELETE", false), RemoveOf(t, *target, true), AddOf(t, rest, true)};
  } else if (kind == 2) {  // INSERT ... SELECT (append-only)
    l.actions = {Info("WRITE", false),
                 AddOf(t, NewFile(after_loser, GenPart(), GenIds(1, 3)), true)};
  } else {  // OPTIMIZE (SnapshotIsolation)
    DataFile out = NewFile(after_loser, target->part, {});
    for (uint64_t p : LivePositions(*target)) out.rows.push_back(target->rows[p]);
    l.actions = {Info("OPTIMIZE", false), RemoveOf(t, *target, false), AddOf(t, out, false)};
  }
}

rc::Gen<Scenario> GenScenario() {
  return rc::gen::exec([] {
    Scenario s;
    s.level = Chance(50) ? "WriteSerializable" : "";
    Table& t = s.read;
    t.partitioned = Chance(35);
    const int files = Uniform(1, 5);
    for (int i = 0; i < files; ++i) {
      DataFile f = NewFile(t, GenPart(), GenIds(1, 6));
      for (uint64_t p = 0; p < f.rows.size(); ++p) {
        if (Chance(15)) f.dv.insert(p);
      }
      s.physical[f.path] = f;
      t.files[f.path] = f;
    }
    // The loser: its reads, then its writes.
    conflict::PendingTransaction& l = s.loser;
    l.read_version = 0;
    const int predicates = Uniform(0, 3);
    for (int i = 0; i < predicates; ++i) s.predicates.push_back(GenPredicate(t.partitioned));
    for (const Predicate& p : s.predicates) l.read_predicates.push_back(p.Text());
    l.read_whole_table = Chance(8);
    for (const auto& [path, f] : t.files) {
      bool read = s.predicates.empty() || l.read_whole_table;
      for (uint64_t pos : LivePositions(f)) {
        for (const Predicate& p : s.predicates) read = read || p.Matches(f.part, f.rows[pos].id);
      }
      if (read) l.read_files.push_back(path);
    }
    Table after_loser = t;  // the loser's own file names come from the same counter
    GenLoserWrites(s, t, after_loser);
    // Flags: any subset of the three, with a byte budget that sometimes bites.
    l.flags.SetCase(rlc::conflict::CaseId::kExcludeNoDataChange, Chance(60));
    l.flags.SetCase(rlc::conflict::CaseId::kDataSkipping, Chance(60));
    l.flags.SetCase(rlc::conflict::CaseId::kValueExact, Chance(60));
    l.flags.value_exact_max_bytes = Chance(20) ? 30 : Chance(50) ? 0 : int64_t{1} << 30;
    // Winners, on a table that continues from the read snapshot.
    Table current = t;
    current.next_file = after_loser.next_file;
    const int winners = Uniform(1, 3);
    for (int i = 0; i < winners; ++i) {
      s.winners.push_back(GenWinner(current, s.physical, s.predicates));
      s.live_after.push_back(current.Live());
    }
    return s;
  });
}

// ---- running -----------------------------------------------------------------------------------

struct CheckRun {
  conflict::Verdict verdict;
  std::string error;
};

// The read snapshot's adds, by path.
delta::FileTable ReadFilesOf(const Scenario& s) {
  delta::FileTable files;
  for (const auto& [path, f] : s.read.files) files[path] = AddOf(s.read, f, true);
  return files;
}

CheckRun Check(const Scenario& s, const conflict::Flags& flags) {
  rlc::storage::InMemoryStorage storage;
  conflict::InMemoryTableFiles files(storage, "/t");
  for (const auto& [path, f] : s.physical) {
    std::vector<rlc::predicate::RowValues> values;
    for (const Row& r : f.rows) {
      values.push_back({{{"id"}, rlc::predicate::Literal::Long(r.id)},
                        {{"part"}, rlc::predicate::Literal::String(f.part)}});
    }
    files.PutRows(path, std::move(values));
  }
  conflict::ReadTable read_table{TableMetadata(s.read.partitioned, s.level), {}};
  read_table.protocol.min_reader_version = 3;
  read_table.protocol.min_writer_version = 7;
  read_table.protocol.reader_features = std::vector<std::string>{"deletionVectors"};
  read_table.protocol.writer_features = std::vector<std::string>{"deletionVectors"};
  read_table.files = ReadFilesOf(s);
  std::vector<conflict::WinningCommit> winners;
  for (size_t i = 0; i < s.winners.size(); ++i) {
    winners.push_back({int64_t(i) + 1, delta::WriteCommitFile(s.winners[i].actions),
                       "v" + std::to_string(i + 1)});
  }
  conflict::PendingTransaction loser = s.loser;
  loser.flags = flags;
  conflict::CheckEnvironment env;
  env.files = &files;
  rlc::Result<conflict::Verdict> v = conflict::CheckConflicts(loser, read_table, winners, env);
  // One reading of a commit: a winner replay refuses is refused by the check too, never judged
  // into a commit.
  std::vector<std::vector<delta::Action>> winner_actions;
  for (const auto& w : s.winners) winner_actions.push_back(w.actions);
  if (!rlc::testing::ReplayRefuses(read_table.files, winner_actions).ok()) {
    // (An abort at an earlier winner ends the check before it reads the refused one.)
    const bool refused_or_aborted =
        v.ok() ? !v->commits() : v.status().code() == rlc::StatusCode::kCorrupt;
    RC_ASSERT(refused_or_aborted);
    RC_DISCARD("a winner log replay refuses, which the check refused or never reached");
  }
  if (!v.ok()) return {{}, v.status().ToString()};
  return {*v, ""};
}

std::string Describe(const Scenario& s) {
  std::ostringstream out;
  out << "partitioned " << s.read.partitioned << ", level '" << s.level << "'\nread snapshot:\n";
  for (const auto& [path, f] : s.read.files) {
    out << "  " << path << " part " << f.part << " rows";
    for (size_t i = 0; i < f.rows.size(); ++i)
      out << " " << f.rows[i].id << (f.dv.count(i) ? "(deleted)" : "");
    out << "\n";
  }
  out << "loser: predicates [";
  for (const std::string& p : s.loser.read_predicates) out << p << "; ";
  out << "] files [";
  for (const std::string& f : s.loser.read_files) out << f << " ";
  out << "] wholeTable " << s.loser.read_whole_table << "\n"
      << delta::WriteCommitFile(s.loser.actions);
  for (const std::string& f : s.loser.flags.ToAssignments()) out << "  " << f << "\n";
  for (size_t i = 0; i < s.winners.size(); ++i)
    out << "winner " << i + 1 << ":\n" << delta::WriteCommitFile(s.winners[i].actions);
  return out.str();
}

std::string Show(const conflict::Verdict& v) {
  return v.commits() ? "commit" : conflict::Describe(*v.abort);
}

// The rows touched between two states: present on one side only, or with another value.
std::vector<std::pair<int64_t, std::pair<std::string, int64_t>>> Effect(const LiveRows& before,
                                                                        const LiveRows& after) {
  std::vector<std::pair<int64_t, std::pair<std::string, int64_t>>> touched;
  for (const auto& [rid, value] : before) {
    auto it = after.find(rid);
    if (it == after.end() || it->second != value) touched.push_back({rid, value});
  }
  for (const auto& [rid, value] : after) {
    auto it = before.find(rid);
    if (it == before.end() || it->second != value) touched.push_back({rid, value});
  }
  return touched;
}

RC_GTEST_PROP(ReconcileFilters, FlagsAreMonotoneAndSoundAgainstTheRows, ()) {
  const Scenario s = *GenScenario();
  RC_LOG() << Describe(s);
  const CheckRun off = Check(s, conflict::Flags{});
  const CheckRun on = Check(s, s.loser.flags);
  RC_ASSERT(off.error.empty());
  RC_ASSERT(on.error.empty());
  RC_LOG() << "flags off: " << Show(off.verdict) << "\nflags on: " << Show(on.verdict) << "\n";
  RC_TAG(off.verdict.commits()  ? "baseline commits"
         : on.verdict.commits() ? "a case reconciles"
                                : "both abort");
  if (off.verdict.commits()) {
    RC_ASSERT(on.verdict.commits());
    RC_ASSERT(on.verdict.actions == off.verdict.actions);
    return;
  }
  if (!on.verdict.commits()) return;
  RC_ASSERT(on.verdict.actions == s.loser.actions);
  // A loser that changes no data commits under SnapshotIsolation: its reads are not protected
  // (only its writes, which no filtering case touches), so there is nothing more to check.
  if (!s.loser.ChangesData()) return;
  // Soundness: the loser's reads hold after all the winners (it is serialized after them), except
  // for rows a blind append created under WriteSerializable: that append may be serialized after
  // the loser, so its rows need not be visible to it (nor their later changes).
  const bool write_serializable = s.level == "WriteSerializable";
  std::set<int64_t> invisible;
  LiveRows before = s.read.Live();
  for (size_t i = 0; i < s.winners.size(); ++i) {
    if (write_serializable && s.winners[i].blind) {
      for (const auto& [rid, value] : s.live_after[i]) {
        if (before.count(rid) == 0) invisible.insert(rid);
      }
    }
    before = s.live_after[i];
  }
  const bool everything = s.predicates.empty() || s.loser.read_whole_table;
  for (const auto& [rid, value] : Effect(s.read.Live(), s.live_after.back())) {
    if (invisible.count(rid) != 0) continue;
    const auto& [part, id] = value;
    bool selected = everything;
    for (const Predicate& p : s.predicates) selected = selected || p.Matches(part, id);
    RC_LOG() << "the winners touched a row (part " << part << ", id " << id << ")"
             << (selected ? " that the loser's reads select" : "") << "\n";
    RC_ASSERT(!selected);
  }
}

// The generator reaches reconciles by every case (a fixed-seed count, so a generator change that
// starves one shows up).
TEST(ReconcileFiltersCoverage, EveryCaseReconcilesSometimes) {
  std::map<std::string, int> counts;
  const rc::Gen<Scenario> gen = GenScenario();
  for (uint64_t seed = 1; seed <= 4000; ++seed) {
    const Scenario s = gen(rc::Random(seed), rc::kNominalSize).value();
    // Winners replay refuses are the check's to refuse (the properties hold that), not to count.
    std::vector<std::vector<delta::Action>> winner_actions;
    for (const auto& w : s.winners) winner_actions.push_back(w.actions);
    if (!rlc::testing::ReplayRefuses(ReadFilesOf(s), winner_actions).ok()) continue;
    const CheckRun off = Check(s, conflict::Flags{});
    const CheckRun on = Check(s, s.loser.flags);
    ASSERT_TRUE(off.error.empty() && on.error.empty()) << off.error << on.error;
    if (off.verdict.commits() || !on.verdict.commits()) continue;
    // Which flags does the reconcile need? Try each alone (the exact tier needs skipping).
    const auto with = [&](bool nodc, bool skip, bool exact) {
      conflict::Flags f = s.loser.flags;
      f.SetCase(rlc::conflict::CaseId::kExcludeNoDataChange, nodc);
      f.SetCase(rlc::conflict::CaseId::kDataSkipping, skip);
      f.SetCase(rlc::conflict::CaseId::kValueExact, exact);
      return Check(s, f).verdict.commits();
    };
    if (with(true, false, false)) ++counts["Case 3 alone"];
    if (with(false, true, false)) ++counts["Case 1 statistics alone"];
    if (with(false, true, true) && !with(false, true, false))
      ++counts["needs the exact tier or 1b"];
    for (const conflict::Event& e : on.verdict.events) {
      ++counts[e.name + (e.data.count("arm") ? " arm=" + e.data.at("arm") : "")];
    }
  }
  std::string report;
  for (const auto& [k, n] : counts) report += "  " + k + ": " + std::to_string(n) + "\n";
  std::cout << "reconciles over 4000 scenarios:\n" << report;
  for (const char* key : {"Case 3 alone", "Case 1 statistics alone", "needs the exact tier or 1b",
                          "delta.conflictDetection.dataSkipping.filesSkipped",
                          "delta.conflictDetection.dataSkipping.filesSkipped arm=deleteRead"}) {
    EXPECT_GE(counts[key], 10) << "the generator rarely reaches: " << key << "\n" << report;
  }
}

}  // namespace
