#include "fuzz/simulator/engine.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "fuzz/simulator/row_file.h"
#include "impl/base/mutants.h"
#include "impl/conflict/baseline_rules.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/conflict/checker.h"
#include "impl/conflict/composition_capture.h"
#include "impl/conflict/dv_writer.h"
#include "impl/conflict/isolation_level.h"
#include "impl/conflict/partition_filter.h"
#include "impl/conflict/rewrite_inputs.h"
#include "impl/delta/checkpoint.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/composition_tags.h"
#include "impl/delta/deletion_vector_loader.h"
#include "impl/delta/file_key.h"
#include "impl/delta/json_writer.h"
#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"
#include "impl/delta/stats.h"
#include "impl/parquet/checkpoint_actions.h"
#include "impl/parquet/checkpoint_writer.h"
#include "impl/parquet/parquet_rows.h"
#include "impl/parquet/parquet_table_files.h"
#include "impl/predicate/schema.h"

namespace rlc::simulator {
namespace {

constexpr char kRowIdColumn[] = "_rid";
constexpr int64_t kTimestamp = 1700000000000;
constexpr size_t kStatsPrefix = 32;  // Delta's dataSkippingStringPrefixLength (ASCII values here)
// The protocol versions of a table with table features (reader 3, writer 7): the features are
// then listed by name, as every table the simulator writes does.
constexpr int32_t kFeaturesReaderVersion = 3;
constexpr int32_t kFeaturesWriterVersion = 7;
constexpr char kEnableTypeWidening[] = "delta.enableTypeWidening";
// How often an OPTIMIZE starts over (docs/baseline.md#b5) before it gives up, and how many
// versions a commit tries before it reports the log as unwritable: bounds no simulated history
// reaches (a history has at most a few dozen commits), so that a bug loops no further.
constexpr int kMaxOptimizeRetries = 100;
constexpr int kMaxCommitAttempts = 1000;
// How many snapshots a simulator keeps decoded, and how many decoded files beyond twice the live
// ones: a history's few versions all stay; a long race's memory stays bounded.
constexpr size_t kCachedSnapshots = 16;
constexpr size_t kCachedFilesSlack = 64;

// Another engine's Parquet data file has no _rid column. Its rows get identities of their own: the
// top bit set (simulators count theirs up from row_id_base, far below it), the path's hash and the
// row's position, so every simulator reading the file gives its rows the same identities. Two
// paths whose hashes meet would give two rows one identity: ReadSnapshot refuses that.
constexpr model::RowId kForeignRowIdBit = model::RowId{1} << 63;
constexpr int kForeignPositionBits = 24;

bool IsForeignRowId(model::RowId id) { return (id & kForeignRowIdBit) != 0; }

Result<RowFile> DecodeWithIdentities(const std::string& path, std::string_view bytes,
                                     const std::vector<RowFileColumn>& columns,
                                     const std::vector<std::string>& partition_columns,
                                     const delta::StringMap& partition_values,
                                     int session_offset_minutes) {
  if (!path.ends_with(".parquet"))
    return DecodeDataFile(path, bytes, columns, partition_columns, partition_values);
  RLC_ASSIGN_OR_RETURN(const parquet::ParquetFileFacts facts,
                       parquet::ReadParquetFacts(path, bytes));
  for (const std::vector<std::string>& leaf : facts.leaf_paths) {
    if (leaf.size() == 1 && leaf[0] == kRowIdColumn)
      return DecodeDataFile(path, bytes, columns, partition_columns, partition_values,
                            session_offset_minutes);
  }
  if (facts.num_rows >= (int64_t{1} << kForeignPositionBits)) {
    return Status::Unsupported(path + ": another engine's file of " +
                               std::to_string(facts.num_rows) +
                               " rows, more than the simulator numbers");
  }
  const std::vector<RowFileColumn> schema(columns.begin() + 1, columns.end());
  RLC_ASSIGN_OR_RETURN(RowFile file, DecodeDataFile(path, bytes, schema, partition_columns,
                                                    partition_values, session_offset_minutes));
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (const char c : path) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  const model::RowId base =
      kForeignRowIdBit | ((hash >> (kForeignPositionBits + 1)) << kForeignPositionBits);
  file.columns = columns;
  for (size_t position = 0; position < file.rows.size(); ++position) {
    file.rows[position].insert(file.rows[position].begin(),
                               RowFileValue{static_cast<int64_t>(base | position)});
  }
  return file;
}

RowFileValue ToRowFileValue(const model::Value& v) {
  if (model::IsNull(v)) return std::nullopt;
  if (const auto* n = std::get_if<int64_t>(&v)) return *n;
  if (const auto* t = std::get_if<model::Timestamp>(&v)) return t->micros;
  if (const auto* t = std::get_if<model::TimestampNtz>(&v)) return t->micros;
  if (const auto* d = std::get_if<model::Date>(&v)) return int64_t{d->days};
  if (const auto* x = std::get_if<model::Double>(&v)) return x->value;
  if (const auto* b = std::get_if<model::Boolean>(&v)) return int64_t{b->value};
  if (const auto* d = std::get_if<model::Decimal>(&v)) return d->unscaled;  // at the column's scale
  if (const auto* b = std::get_if<model::Binary>(&v)) return b->bytes;
  return std::get<std::string>(v);
}

model::Value ToModelValue(model::ColumnType type, const RowFileValue& v) {
  using T = model::ColumnType;
  if (!v.has_value()) return model::Value{};
  if (const auto* x = std::get_if<double>(&*v)) return model::Double{*x};
  if (const auto* text = std::get_if<std::string>(&*v)) {
    if (type == T::kBinary) return model::Binary{*text};
    return *text;
  }
  const int64_t n = std::get<int64_t>(*v);
  switch (type) {
    case T::kTimestamp:
      return model::Timestamp{n};
    case T::kTimestampNtz:
      return model::TimestampNtz{n};
    case T::kDate:
      return model::Date{static_cast<int32_t>(n)};
    case T::kBoolean:
      return model::Boolean{n != 0};
    case T::kDecimal:
      return model::Decimal{n, model::kDecimalScale};
    default:
      return n;
  }
}

RowFileColumn::Type RowFileType(model::ColumnType type) {
  using T = model::ColumnType;
  using R = RowFileColumn::Type;
  static constexpr std::pair<T, R> kTypes[] = {
      {T::kLong, R::kLong},
      {T::kString, R::kString},
      {T::kTimestamp, R::kTimestamp},
      {T::kDate, R::kDate},
      {T::kDouble, R::kDouble},
      {T::kBoolean, R::kBoolean},
      {T::kByte, R::kByte},
      {T::kShort, R::kShort},
      {T::kInteger, R::kInteger},
      {T::kFloat, R::kFloat},
      {T::kDecimal, R::kDecimal},
      {T::kBinary, R::kBinary},
      {T::kTimestampNtz, R::kTimestampNtz},
  };
  for (const auto& [from, to] : kTypes) {
    if (from == type) return to;
  }
  return R::kLong;
}

// The table features readers must support too (Delta's reader-writer features); every other
// feature (rowTracking, domainMetadata, appendOnly, ...) is a writer feature only, and a
// protocol that lists one among its readerFeatures is invalid (delta-rs refuses to read it).
// Each partition column's value (its schema index, the value) as Delta readers read it: from the
// add's partitionValues, not from the file. A dataChange=false re-add may name a file under other
// values than it was written with, and its rows then are where the log puts them.
Result<std::vector<std::pair<size_t, model::Value>>> LoggedPartition(
    const std::string& path, const delta::AddFile& add, const model::LogicalTable& table,
    const std::vector<std::string>& physical_names) {
  std::vector<std::pair<size_t, model::Value>> out;
  for (size_t i = 0; i < table.schema.size(); ++i) {
    const model::Column& c = table.schema[i];
    if (!c.is_partition) continue;
    RLC_ASSIGN_OR_RETURN(
        const RowFileValue value,
        LoggedPartitionValue({physical_names[i], RowFileType(c.type)}, add.partition_values, path,
                             table.session_offset_minutes));
    out.emplace_back(i, ToModelValue(c.type, value));
  }
  return out;
}

// The physical name of the schema's i-th column under column mapping: "col-" and a UUID, as
// Delta Spark names one (fixed here, so that a history replays alike).
std::string PhysicalName(size_t i) {
  char name[48];
  std::snprintf(name, sizeof(name), "col-5e1f0c3a-7d42-4b9e-a1c8-%012zx", i + 1);
  return name;
}

bool IsReaderWriterFeature(const std::string& feature) {
  static const std::set<std::string> kReaderWriter = {
      "columnMapping",       "deletionVectors",      "timestampNtz",
      "typeWidening",        "typeWidening-preview", "v2Checkpoint",
      "vacuumProtocolCheck", "variantType",          "variantType-preview"};
  return kReaderWriter.count(feature) > 0;
}

// `features` as a protocol at reader 3 / writer 7 lists them, with the features they require
// (rowTracking and clustering need domainMetadata: Delta refuses a protocol without it): all as
// writer features, the reader-writer ones as reader features too.
void SetFeatures(std::set<std::string> features, delta::Protocol& protocol) {
  if (features.count("rowTracking") > 0 || features.count("clustering") > 0)
    features.insert("domainMetadata");
  protocol.reader_features.emplace();
  protocol.writer_features = std::vector<std::string>(features.begin(), features.end());
  for (const std::string& f : features) {
    if (IsReaderWriterFeature(f)) protocol.reader_features->push_back(f);
  }
}

delta::CommitInfo Info(const std::string& operation, int64_t read_version, bool blind) {
  delta::CommitInfo info;
  info.timestamp_ms = kTimestamp;
  info.operation = operation;
  info.read_version = read_version;
  info.is_blind_append = blind;
  return info;
}

// The simulator's writer writes deletion vectors, and honours nothing else a writer feature may
// demand (no row tracking, no change data feed, ...); the features that ask nothing of a data
// commit it supports as any writer does.
bool SupportsWriterFeature(const std::string& feature) {
  for (std::string_view f : conflict::kCommitNeutralWriterFeatures) {
    if (f == feature) return true;
  }
  return false;
}

// Another engine's habits: the commit's adds before its removes, and a tag of its own on each
// remove beside any composition tags (readers must ignore both differences).
void WriteLikeAnotherEngine(std::vector<delta::Action>& actions) {
  std::stable_partition(actions.begin(), actions.end(), [](const delta::Action& a) {
    return !std::holds_alternative<delta::RemoveFile>(a);
  });
  for (delta::Action& a : actions) {
    if (auto* remove = std::get_if<delta::RemoveFile>(&a)) {
      if (!remove->tags) remove->tags.emplace();
      remove->tags->push_back({"writer", std::string("foreign-engine")});
    }
  }
}

// Statistics that claim other rows than the file holds: every bound moved past every value a
// generated table holds (longs by 1000, strings after '~'), or one physical row more.
std::optional<delta::StatsJson> LyingStats(const std::optional<delta::StatsJson>& stats,
                                           WriterQuirks::RemoveStats lie) {
  if (!stats.has_value()) return stats;
  nlohmann::json j = nlohmann::json::parse(stats->Json(), nullptr, false);
  if (!j.is_object()) return stats;
  if (lie == WriterQuirks::RemoveStats::kLyingCount) {
    if (j.contains("numRecords") && j["numRecords"].is_number_integer())
      j["numRecords"] = j["numRecords"].get<int64_t>() + 1;
    return j.dump();
  }
  for (const char* side : {"minValues", "maxValues"}) {
    if (!j.contains(side) || !j[side].is_object()) continue;
    for (auto& [column, value] : j[side].items()) {
      if (value.is_number_integer()) value = value.get<int64_t>() + 1000;
      if (value.is_string()) value = "~" + value.get<std::string>();
    }
  }
  return j.dump();
}

// Of each output's first two tagged sources (by offset), the first claims one more physical row
// and the second starts one row later with one fewer: the runs still tile the output.
void MiscountTags(std::vector<delta::Action>& actions) {
  std::map<std::string, std::vector<std::pair<delta::CompositionTag, delta::RemoveFile*>>>
      by_output;
  for (delta::Action& a : actions) {
    auto* r = std::get_if<delta::RemoveFile>(&a);
    if (r == nullptr || !r->tags.has_value()) continue;
    if (const auto tag = delta::ParseCompositionTags(*r->tags))
      by_output[tag->output_path].push_back({*tag, r});
  }
  for (auto& [output, sources] : by_output) {
    if (sources.size() < 2) continue;
    std::sort(sources.begin(), sources.end(), [](const auto& a, const auto& b) {
      return a.first.row_offset_in_target < b.first.row_offset_in_target;
    });
    sources[0].first.source_num_physical_records += 1;
    sources[1].first.row_offset_in_target += 1;
    sources[1].first.source_num_physical_records -= 1;
    for (int i = 0; i < 2; ++i)
      delta::WriteCompositionTags(sources[i].first, &*sources[i].second->tags);
  }
}

// WriterQuirks::half_truth: of the DV updates (a remove and an add of one path with a DV) of a
// commit that updates two or more paths, the last path's are marked dataChange=false.
void TellAHalfTruth(std::vector<delta::Action>& actions) {
  std::map<std::string, int> touched;  // path -> 1 remove, 2 add with a DV, 3 both
  for (const delta::Action& a : actions) {
    if (const auto* r = std::get_if<delta::RemoveFile>(&a)) touched[r->path] |= 1;
    if (const auto* add = std::get_if<delta::AddFile>(&a); add && add->deletion_vector)
      touched[add->path] |= 2;
  }
  std::vector<std::string> updated;
  for (const auto& [path, bits] : touched) {
    if (bits == 3) updated.push_back(path);
  }
  if (updated.size() < 2) return;
  for (delta::Action& a : actions) {
    if (auto* r = std::get_if<delta::RemoveFile>(&a); r && r->path == updated.back())
      r->data_change = false;
    if (auto* add = std::get_if<delta::AddFile>(&a); add && add->path == updated.back())
      add->data_change = false;
  }
}

// The first tagged tombstone's compactionInfo names no run (a field of the wrong type).
void MalformTags(std::vector<delta::Action>& actions) {
  for (delta::Action& a : actions) {
    auto* r = std::get_if<delta::RemoveFile>(&a);
    if (r == nullptr || !r->tags.has_value()) continue;
    for (auto& [key, value] : *r->tags) {
      if (key == delta::kCompactionInfoTag) {
        value = R"([{"rowOffsetInTarget":"first","sourceNumPhysicalRecords":1}])";
        return;
      }
    }
  }
}

// WriterQuirks::ghost_removes: one more remove, of a path the table never held (Delta's replay
// ignores it), with the dataChange of the commit's first file action.
void AddAGhostRemove(std::vector<delta::Action>& actions) {
  bool data_change = true;
  for (const delta::Action& a : actions) {
    if (const auto* add = std::get_if<delta::AddFile>(&a)) data_change = add->data_change;
    if (const auto* r = std::get_if<delta::RemoveFile>(&a)) data_change = r->data_change;
    if (std::holds_alternative<delta::AddFile>(a) || std::holds_alternative<delta::RemoveFile>(a))
      break;
  }
  delta::RemoveFile ghost;
  ghost.path = "ghost-of-a-file.rows";
  ghost.deletion_timestamp_ms = kTimestamp;
  ghost.data_change = data_change;
  ghost.stats = R"({"numRecords":1})";
  actions.push_back(std::move(ghost));
}

void StateReadVersion(WriterQuirks::ReadVersion claim, delta::CommitInfo& info) {
  using RV = WriterQuirks::ReadVersion;
  if (claim == RV::kAbsent) info.read_version.reset();
  if (claim == RV::kStale && info.read_version.has_value() && *info.read_version > 0)
    --*info.read_version;
}

// WriterQuirks::duplicate_add: the commit's first add with a DV once more, right after it and
// without the DV (two active versions of the path, which readers that key files by path and DV
// both keep); with no such add, its first add once more as it is.
void DuplicateAnAdd(std::vector<delta::Action>& actions) {
  const auto is_add = [](const delta::Action& a) {
    return std::holds_alternative<delta::AddFile>(a);
  };
  auto chosen = std::find_if(actions.begin(), actions.end(), [](const delta::Action& a) {
    const auto* add = std::get_if<delta::AddFile>(&a);
    return add != nullptr && add->deletion_vector.has_value();
  });
  if (chosen == actions.end()) chosen = std::find_if(actions.begin(), actions.end(), is_add);
  if (chosen == actions.end()) return;
  delta::AddFile copy = std::get<delta::AddFile>(*chosen);
  copy.deletion_vector.reset();
  actions.insert(chosen + 1, delta::Action(std::move(copy)));
}

void ApplyWriterQuirks(const WriterQuirks& q, std::vector<delta::Action>& actions) {
  if (q.ghost_removes) AddAGhostRemove(actions);
  if (q.duplicate_add) DuplicateAnAdd(actions);
  if (q.miscounted_tags) MiscountTags(actions);
  if (q.malformed_tags) MalformTags(actions);
  for (delta::Action& a : actions) {
    if (auto* remove = std::get_if<delta::RemoveFile>(&a)) {
      if (q.no_data_change) remove->data_change = false;
      switch (q.remove_stats) {
        case WriterQuirks::RemoveStats::kCopied:
          break;
        case WriterQuirks::RemoveStats::kAbsent:
          remove->stats.reset();
          remove->partition_values.reset();
          remove->size_bytes.reset();
          remove->extended_file_metadata = false;
          break;
        case WriterQuirks::RemoveStats::kLyingBounds:
        case WriterQuirks::RemoveStats::kLyingCount:
          remove->stats = LyingStats(remove->stats, q.remove_stats);
          break;
      }
    } else if (auto* add = std::get_if<delta::AddFile>(&a)) {
      if (q.no_data_change) add->data_change = false;
    } else if (auto* info = std::get_if<delta::CommitInfo>(&a)) {
      StateReadVersion(q.read_version, *info);
    }
  }
  if (q.adds_first) {
    std::stable_partition(actions.begin(), actions.end(), [](const delta::Action& a) {
      return !std::holds_alternative<delta::RemoveFile>(a);
    });
  }
}

// WriterQuirks::dv_update_elsewhere: the first add of `actions` with a DV, of a path active in
// `read`, takes the partition values of the first active file (in path order) whose values
// differ; nothing when there is no such add or no other partition.
void MoveADvUpdate(const delta::Snapshot& read, std::vector<delta::Action>& actions) {
  std::map<std::string, const delta::AddFile*> active;  // by path, for one order in every run
  for (const auto& [key, add] : read.files) active[add.path] = &add;
  for (delta::Action& a : actions) {
    auto* add = std::get_if<delta::AddFile>(&a);
    if (add == nullptr || !add->deletion_vector.has_value() || active.count(add->path) == 0 ||
        add->partition_values.empty())
      continue;
    for (const auto& [path, other] : active) {
      if (other->partition_values.empty() || other->partition_values == add->partition_values)
        continue;
      add->partition_values = other->partition_values;
      return;
    }
    return;
  }
}

// WriterQuirks::readd_elsewhere: a dataChange=false re-add of a file active in `read` that
// `actions` leave alone (the `which`-th such file in path order, counting round), under the
// partition values of the first other active file whose values differ; nullopt when the table
// has no two such partitions.
std::optional<delta::AddFile> ReAddElsewhere(const delta::Snapshot& read,
                                             const std::vector<delta::Action>& actions,
                                             size_t which) {
  std::set<std::string> touched;
  for (const delta::Action& a : actions) {
    if (const auto* add = std::get_if<delta::AddFile>(&a)) touched.insert(add->path);
    if (const auto* remove = std::get_if<delta::RemoveFile>(&a)) touched.insert(remove->path);
  }
  std::map<std::string, const delta::AddFile*> active;  // by path, for one order in every run
  for (const auto& [key, add] : read.files) {
    if (touched.count(add.path) == 0 && !add.partition_values.empty()) active[add.path] = &add;
  }
  std::vector<delta::AddFile> candidates;
  for (const auto& [path, add] : active) {
    for (const auto& [other_path, other] : active) {
      if (other->partition_values == add->partition_values) continue;
      delta::AddFile moved = *add;
      moved.partition_values = other->partition_values;
      moved.data_change = false;
      moved.modification_time_ms = kTimestamp;
      candidates.push_back(std::move(moved));
      break;
    }
  }
  if (candidates.empty()) return std::nullopt;
  return candidates[which % candidates.size()];
}

// TableOptions::winner_bytes: the commit files the check reads, altered; all else as stored.
class AlteredWinners final : public storage::Storage {
 public:
  AlteredWinners(const storage::Storage& inner, std::string log_dir,
                 const std::function<std::string(int64_t, std::string)>& alter)
      : inner_(inner), log_dir_(std::move(log_dir) + "/"), alter_(alter) {}
  Result<std::string> ReadFile(const std::string& path) const override {
    RLC_ASSIGN_OR_RETURN(std::string bytes, inner_.ReadFile(path));
    const std::optional<int64_t> version = CommitVersionOf(path);
    return version ? alter_(*version, std::move(bytes)) : bytes;
  }
  Result<std::string> ReadRange(const std::string& path, uint64_t offset,
                                uint64_t length) const override {
    if (!CommitVersionOf(path)) return inner_.ReadRange(path, offset, length);
    RLC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
    if (offset > bytes.size()) return Status::InvalidArgument(path + ": range past the end");
    return bytes.substr(offset, length);
  }
  Result<uint64_t> FileSize(const std::string& path) const override {
    if (!CommitVersionOf(path)) return inner_.FileSize(path);
    RLC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
    return static_cast<uint64_t>(bytes.size());
  }
  Result<std::vector<std::string>> List(const std::string& dir) const override {
    return inner_.List(dir);
  }
  Status PutIfAbsent(const std::string&, std::string_view) override {
    return Status::InvalidArgument("the check's view of the winners is read-only");
  }
  Status Replace(const std::string&, std::string_view) override {
    return Status::InvalidArgument("the check's view of the winners is read-only");
  }

 private:
  std::optional<int64_t> CommitVersionOf(const std::string& path) const {
    if (path.size() != log_dir_.size() + 25 || path.compare(0, log_dir_.size(), log_dir_) != 0 ||
        path.compare(path.size() - 5, 5, ".json") != 0)
      return std::nullopt;
    int64_t v = 0;
    const char* first = path.data() + log_dir_.size();
    const auto [end, error] = std::from_chars(first, first + 20, v);
    if (error != std::errc() || end != first + 20) return std::nullopt;
    return v;
  }

  const storage::Storage& inner_;
  std::string log_dir_;
  const std::function<std::string(int64_t, std::string)>& alter_;
};

// TableOptions::checker_faults: what the checker reads fails for one name in `n`.
class FaultyTableFiles final : public conflict::TableFiles {
 public:
  // `reads` counts across the simulator's checks, so that each check meets its failures elsewhere.
  FaultyTableFiles(const conflict::TableFiles& inner, int n, int& reads)
      : inner_(inner), n_(n), reads_(reads) {}
  // Every n-th read fails: the reads come in the same order in every run of a history.
  Result<dv::RowBitmap> ReadDeletionVector(const dv::DvDescriptor& descriptor) const override {
    if (Fails()) return Status::IoError(descriptor.UniqueId() + ": injected read failure");
    return inner_.ReadDeletionVector(descriptor);
  }
  Status ScanRows(const std::string& path, const conflict::RowVisitor& visit) const override {
    if (Fails()) return Status::IoError(path + ": injected read failure");
    return inner_.ScanRows(path, visit);
  }

 private:
  // A pseudo-random draw per read (SplitMix64 of the read's number): failures fall anywhere,
  // not in a fixed stride that a check's fixed sequence of reads could step over.
  bool Fails() const {
    uint64_t z = static_cast<uint64_t>(++reads_) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (z ^ (z >> 31)) % static_cast<uint64_t>(n_) == 0;
  }
  const conflict::TableFiles& inner_;
  int n_;
  int& reads_;
};

// Every n-th DV the checker writes fails.
class FaultyDvWriter final : public conflict::DvWriter {
 public:
  // `writes` counts across the simulator's checks (one check rarely writes n DVs).
  FaultyDvWriter(conflict::DvWriter& inner, int n, int& writes)
      : inner_(inner), n_(n), writes_(writes) {}
  Result<dv::DvDescriptor> Write(const dv::RowBitmap& rows) override {
    if (writes_++ % n_ == 0) return Status::IoError("injected DV write failure");
    return inner_.Write(rows);
  }

 private:
  conflict::DvWriter& inner_;
  int n_;
  int& writes_;
};

}  // namespace

std::string Simulator::DvDir() const { return options_.foreign ? root_ + "/foreign-dvs" : root_; }

conflict::DvWriter& Simulator::DvWriter() {
  // One writer for the simulator's life: seeding its generator costs more than a small DV. Its
  // DV names are drawn from the simulator's own names (racing simulators on one table have
  // disjoint prefixes and identities), so that a history runs the same every time, wherever its
  // table lives: a refusal names a DV, and the explorer re-runs histories to compare outcomes.
  if (dv_writer_ == nullptr) {
    uint64_t seed = 1469598103934665603ull ^ options_.row_id_base;  // FNV-1a
    for (const char c : options_.file_prefix)
      seed = (seed ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    dv_writer_ = std::make_unique<conflict::StorageDvWriter>(storage_, DvDir(), root_, seed);
  }
  return *dv_writer_;
}

struct Simulator::Snapshot {
  std::shared_ptr<const delta::Snapshot> log;                   // as impl/ replays it
  const delta::FileTable& files() const { return log->files; }  // decoded path -> active add
  model::LogicalTable table;
  std::map<std::string, std::vector<model::RowId>> file_rows;  // physical rows' identities
  std::map<std::string, dv::RowBitmap> file_dvs;
  // Live row -> (its file's decoded path, a key of log->files, and its position there).
  std::map<model::RowId, std::pair<const std::string*, uint64_t>> where;
  bool deletion_vectors_writable =
      false;               // the protocol has the feature and the property allows it
  std::string two_copies;  // non-empty: a row of this engine's is live in two files (why)
};

Simulator::Simulator(storage::Storage& storage, std::string root, model::LogicalTable table,
                     TableOptions options)
    : storage_(storage), root_(std::move(root)), table_(std::move(table)), options_(options) {
  checker_reads_ =
      static_cast<int>(table_.rows.size());  // where the first injected read failure falls
  next_row_id_ = std::max<model::RowId>(table_.next_row_id, options_.row_id_base + 1);
  row_file_columns_.push_back({kRowIdColumn, RowFileColumn::Type::kLong});
  for (size_t i = 0; i < table_.schema.size(); ++i) {
    const model::Column& c = table_.schema[i];
    physical_names_.push_back(options_.column_mapping ? PhysicalName(i) : c.name);
    row_file_columns_.push_back({physical_names_[i], RowFileType(c.type)});
    if (c.is_partition) {
      partition_columns_.push_back(physical_names_[i]);
    } else {
      stats_columns_.push_back(i);  // Delta keeps no statistics of partition columns
    }
  }
  if (options_.column_mapping) table_.protocol_features.insert("columnMapping");
  // Column names are distinct (model::MakeTable's schema), so name order is a total order.
  std::sort(stats_columns_.begin(), stats_columns_.end(),
            [&](size_t a, size_t b) { return physical_names_[a] < physical_names_[b]; });
}

Simulator::PartitionKey Simulator::PartitionOf(const model::Row& row) const {
  PartitionKey key;
  for (size_t i = 0; i < table_.schema.size(); ++i) {
    if (table_.schema[i].is_partition) key.push_back(PartitionText(i, row.values[i]));
  }
  return key;
}

std::string Simulator::PartitionText(size_t column, const model::Value& v) const {
  if (model::IsNull(v)) return "";
  if (const auto* text = std::get_if<std::string>(&v)) return *text;  // never empty: see NewPath
  if (const auto* t = std::get_if<model::Timestamp>(&v)) {
    return options_.zoned_partition_timestamps
               ? model::WallClockText(t->micros, 0) + "Z"
               : model::WallClockText(t->micros, table_.session_offset_minutes);
  }
  if (const auto* t = std::get_if<model::TimestampNtz>(&v))
    return model::WallClockText(t->micros, 0);  // a wall clock, in no zone
  if (const auto* d = std::get_if<model::Date>(&v)) return model::DateText(d->days);
  if (const auto* x = std::get_if<model::Double>(&v)) {  // as Spark casts it to a string
    return table_.schema[column].type == model::ColumnType::kFloat ? FloatText(x->value)
                                                                   : DoubleText(x->value);
  }
  if (const auto* b = std::get_if<model::Boolean>(&v)) return b->value ? "true" : "false";
  if (const auto* d = std::get_if<model::Decimal>(&v))
    return model::DecimalText(d->unscaled, d->scale);
  return model::ToString(v);
}

Simulator::PartitionKey Simulator::KeyOf(const delta::StringMap& logged) const {
  PartitionKey key;
  for (size_t i = 0; i < table_.schema.size(); ++i) {
    if (!table_.schema[i].is_partition) continue;
    std::string text;
    for (const auto& [name, value] : logged) {
      if (name == physical_names_[i]) text = value.value_or("");
    }
    key.push_back(std::move(text));
  }
  return key;
}

namespace {

// `text` with control characters and each of `escaped` as %XX (upper-case hex).
std::string PercentEscaped(const std::string& text, std::string_view escaped) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || escaped.find(c) != std::string_view::npos) {
      char hex[4];
      std::snprintf(hex, sizeof(hex), "%%%02X", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

// A partition value as a directory name, as Spark writes one (Hive's escaping): control
// characters and "#%'*/:=?\{[]^ as %XX. A space and non-ASCII text stay.
std::string DirectoryName(const std::string& value) {
  return PercentEscaped(value, "\"#%'*/:=?\\\x7f{[]^");
}

// A relative path as the log names it: a URI's path, which escapes '%', a space and the
// characters a URI may not hold, and keeps non-ASCII text as it is (as java.net.URI does).
std::string UriPath(const std::string& path) {
  return PercentEscaped(path, "% \"#<>?[\\]^`{|}\x7f");
}

}  // namespace

Simulator::NewFilePath Simulator::NewPath(const PartitionKey& partition, const char* kind) {
  const std::string name = options_.file_prefix + kind + "-" + std::to_string(next_file_++) +
                           DataFileExtension(options_.data_files);
  // Readers take partition values from the log, never from the path; but they find the file by
  // decoding the path, which holds each value twice escaped (as a directory name, then as a
  // URI). One directory level per partition column, in schema order, as Spark nests them.
  std::string stored;
  size_t k = 0;
  for (size_t i = 0; i < table_.schema.size(); ++i) {
    if (!table_.schema[i].is_partition) continue;
    const std::string& value = partition.at(k++);
    stored += physical_names_[i] + "=" +
              (value.empty() ? "__HIVE_DEFAULT_PARTITION__" : DirectoryName(value)) + "/";
  }
  stored += name;
  return {UriPath(stored), stored};
}

delta::Metadata Simulator::MetadataAction() const {
  delta::Metadata m;
  for (const model::Column& c : table_.schema) {
    if (c.is_partition) m.partition_columns.push_back(c.name);
  }
  m.id = "simulated-table";
  // Delta's struct type:
  // {"fields":[{"metadata":{},"name":..,"nullable":true,"type":..},..],"type":"struct"}.
  m.schema_string = "{\"fields\":[";
  for (size_t i = 0; i < table_.schema.size(); ++i) {
    const model::Column& c = table_.schema[i];
    m.schema_string += i == 0 ? "{\"metadata\":{" : ",{\"metadata\":{";
    const size_t keys_from = m.schema_string.size();
    const auto next_key = [&] {
      if (m.schema_string.size() > keys_from) m.schema_string += ",";
    };
    if (options_.column_mapping) {
      m.schema_string += "\"delta.columnMapping.id\":" + std::to_string(i + 1) +
                         ",\"delta.columnMapping.physicalName\":";
      delta::AppendJsonQuoted(physical_names_[i], &m.schema_string);
    }
    const auto& widening = options_.type_widening;
    if (widened_ && widening && widening->column == c.name) {
      next_key();
      m.schema_string += std::string("\"delta.typeChanges\":[{\"fromType\":\"") +
                         model::TypeName(widening->from) + "\",\"toType\":\"" +
                         model::TypeName(c.type) + "\"}]";
    }
    // A collated string records its collation as Spark does: keyed by the field's own (logical)
    // name, as provider.NAME; UTF8_BINARY, the default, is never written.
    if (c.collation != model::Collation::kUtf8Binary) {
      next_key();
      m.schema_string += "\"__COLLATIONS\":{";
      delta::AppendJsonQuoted(c.name, &m.schema_string);
      m.schema_string += std::string(":\"spark.") + model::CollationName(c.collation) + "\"}";
    }
    m.schema_string += "},\"name\":";
    delta::AppendJsonQuoted(c.name, &m.schema_string);
    m.schema_string += ",\"nullable\":true,\"type\":\"";
    m.schema_string += model::TypeName(WrittenType(i));
    m.schema_string += "\"}";
  }
  m.schema_string += "],\"type\":\"struct\"}";
  if (options_.column_mapping) {
    m.configuration.emplace_back("delta.columnMapping.mode", "name");
    m.configuration.emplace_back("delta.columnMapping.maxColumnId",
                                 std::to_string(table_.schema.size()));
  }
  m.configuration.emplace_back("delta.enableDeletionVectors",
                               table_.properties.deletion_vectors_enabled ? "true" : "false");
  const model::IsolationLevel level = table_.properties.isolation_level;
  if (level == model::IsolationLevel::kWriteSerializable)
    m.configuration.emplace_back("delta.isolationLevel", "WriteSerializable");
  for (const auto& [k, v] : table_.properties.other) {
    if (k == kEnableTypeWidening && options_.type_widening && !widened_) continue;
    m.configuration.emplace_back(k, v);
  }
  m.created_time_ms = kTimestamp;
  return m;
}

namespace {

// A timestamp's statistic as Delta Spark writes it: cut to milliseconds (toward the past: a
// maximum then lies below the column's true maximum, which readers allow for), in the writer's
// session zone with its offset: "2024-03-10T01:02:03.004+05:30", or "...Z" at UTC.
std::string StatsTimestampText(int64_t micros, int offset_minutes) {
  const int64_t millis_floor = micros - (((micros % 1000) + 1000) % 1000);
  std::string text = model::WallClockText(millis_floor, offset_minutes);
  text[10] = 'T';
  text.resize(text.size() - 3);  // ".ffffff" to ".fff"
  if (offset_minutes == 0) return text + "Z";
  const int magnitude = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char zone[24];
  std::snprintf(zone, sizeof(zone), "%c%02d:%02d", offset_minutes < 0 ? '-' : '+', magnitude / 60,
                magnitude % 60);
  return text + zone;
}

// Statistics of one data column over a file's rows.
struct ColumnStats {
  const model::Value* min = nullptr;
  const model::Value* max = nullptr;
  int64_t nulls = 0;
  bool is_float = false;  // a float's bound is written as the float's digits, not the double's
};

// A timestamp_ntz's statistic as Delta Spark writes it: its wall clock cut to milliseconds,
// without a zone: "2024-03-10T01:02:03.004".
std::string StatsTimestampNtzText(int64_t micros) {
  const int64_t millis_floor = micros - (((micros % 1000) + 1000) % 1000);
  std::string text = model::WallClockText(millis_floor, 0);
  text[10] = 'T';
  text.resize(text.size() - 3);
  return text;
}

// An add's statistics as Delta's writers lay them out: the members in name order, as a JSON
// object's dump orders them; a column without a value (all NULL, or no rows) is left out of
// minValues and maxValues. Without column statistics, numRecords alone.
std::string StatisticsJson(const std::vector<std::string>& names,
                           const std::vector<size_t>& stats_columns,
                           const std::vector<ColumnStats>& stats_of, int64_t rows,
                           bool with_columns, int session_offset_minutes) {
  std::string stats = "{";
  char digits[24];
  const auto append_int = [&](int64_t n) {
    stats.append(digits, std::to_chars(digits, digits + sizeof(digits), n).ptr);
  };
  // Strings as Delta's writer keeps them: their first kStatsPrefix characters; a maximum cut
  // short gets U+FFFF after the prefix, so that it still bounds every value from above.
  const auto append_value = [&](const model::Value& v, bool is_max, bool is_float) {
    if (const auto* n = std::get_if<int64_t>(&v)) return append_int(*n);
    if (const auto* t = std::get_if<model::Timestamp>(&v))
      return delta::AppendJsonQuoted(StatsTimestampText(t->micros, session_offset_minutes), &stats);
    if (const auto* t = std::get_if<model::TimestampNtz>(&v))
      return delta::AppendJsonQuoted(StatsTimestampNtzText(t->micros), &stats);
    if (const auto* d = std::get_if<model::Decimal>(&v))
      return void(stats += model::DecimalText(d->unscaled, d->scale));
    if (const auto* d = std::get_if<model::Date>(&v))
      return delta::AppendJsonQuoted(model::DateText(d->days), &stats);
    if (const auto* x = std::get_if<model::Double>(&v)) {
      if (is_float) return AppendJsonFloat(x->value, &stats);
      return AppendJsonDouble(x->value, &stats);
    }
    const std::string& text = std::get<std::string>(v);
    if (text.size() <= kStatsPrefix) return delta::AppendJsonQuoted(text, &stats);
    delta::AppendJsonQuoted(text.substr(0, kStatsPrefix) + (is_max ? "\xEF\xBF\xBF" : ""), &stats);
  };
  const auto object = [&](const char* name, auto has_value, auto append) {
    stats += '"';
    stats += name;
    stats += "\":{";
    bool first = true;
    for (size_t i : stats_columns) {
      if (!has_value(stats_of[i])) continue;
      if (!first) stats += ',';
      first = false;
      delta::AppendJsonQuoted(names[i], &stats);
      stats += ':';
      append(stats_of[i]);
    }
    stats += "},";
  };
  if (with_columns) {
    object(
        "maxValues", [](const ColumnStats& st) { return st.max != nullptr; },
        [&](const ColumnStats& st) { append_value(*st.max, true, st.is_float); });
    object(
        "minValues", [](const ColumnStats& st) { return st.min != nullptr; },
        [&](const ColumnStats& st) { append_value(*st.min, false, st.is_float); });
    object(
        "nullCount", [&](const ColumnStats&) { return rows > 0; },
        [&](const ColumnStats& st) { append_int(st.nulls); });
  }
  stats += "\"numRecords\":";
  append_int(rows);
  stats += '}';
  return stats;
}

}  // namespace

Result<delta::AddFile> Simulator::WriteRowFile(const PartitionKey& partition,
                                               const std::vector<model::Row>& rows) {
  RowFile file;
  file.columns = row_file_columns_;
  for (size_t i = 0; i < table_.schema.size(); ++i)
    file.columns[i + 1].type = RowFileType(WrittenType(i));  // after the row identity
  std::vector<ColumnStats> stats_of(table_.schema.size());   // by schema position
  file.rows.reserve(rows.size());
  for (const model::Row& row : rows) {
    std::vector<RowFileValue> values;
    values.reserve(table_.schema.size() + 1);
    values.push_back(static_cast<int64_t>(row.id));
    for (size_t i = 0; i < table_.schema.size(); ++i) {
      values.push_back(ToRowFileValue(row.values[i]));
      if (table_.schema[i].is_partition) continue;
      ColumnStats& st = stats_of[i];
      const model::Value& v = row.values[i];
      st.is_float = WrittenType(i) == model::ColumnType::kFloat;
      if (model::IsNull(v)) {
        ++st.nulls;
        continue;
      }
      // Delta's writers keep no bounds of booleans and binaries, nor (Delta Spark 4.0) of a
      // collated string, only their NULL counts.
      if (std::holds_alternative<model::Boolean>(v) || std::holds_alternative<model::Binary>(v) ||
          table_.schema[i].collation != model::Collation::kUtf8Binary)
        continue;
      // Values of one column share its type, so the variant's order is the value order.
      if (st.min == nullptr || v < *st.min) st.min = &v;
      if (st.max == nullptr || *st.max < v) st.max = &v;
    }
    file.rows.push_back(std::move(values));
  }
  const NewFilePath path = NewPath(partition, "part");
  RLC_ASSIGN_OR_RETURN(const std::string bytes,
                       EncodeDataFile(file, options_.data_files, partition_columns_));
  RLC_RETURN_IF_ERROR(storage_.PutIfAbsent(root_ + "/" + path.stored, bytes));
  delta::AddFile add;
  add.path = path.logged;
  for (size_t i = 0, k = 0; i < table_.schema.size(); ++i) {
    if (!table_.schema[i].is_partition) continue;
    const std::string& value = partition.at(k++);
    add.partition_values.emplace_back(physical_names_[i],
                                      value.empty() ? std::nullopt : std::optional(value));
  }
  add.size_bytes = static_cast<int64_t>(bytes.size());
  add.modification_time_ms = kTimestamp;
  add.stats =
      StatisticsJson(physical_names_, stats_columns_, stats_of, static_cast<int64_t>(rows.size()),
                     options_.statistics, table_.session_offset_minutes);
  row_files_.emplace(path.stored, std::move(file));  // the simulator reads its own files here
  return add;
}

Status Simulator::Create(int files) {
  std::vector<delta::Action> actions;
  delta::Protocol protocol;
  protocol.min_reader_version = kFeaturesReaderVersion;
  protocol.min_writer_version = kFeaturesWriterVersion;
  // A table widened at version 1 takes typeWidening (and the property enabling it) there.
  std::set<std::string> features = table_.protocol_features;
  if (options_.type_widening) features.erase("typeWidening");
  SetFeatures(features, protocol);
  actions.push_back(Info("CREATE TABLE", -1, false));
  actions.push_back(protocol);
  actions.push_back(MetadataAction());
  // The rows, in identity order, split into `files` files per partition value.
  std::map<PartitionKey, std::vector<model::Row>> by_partition;
  for (const auto& [id, row] : table_.rows) by_partition[PartitionOf(row)].push_back(row);
  for (const auto& [partition, rows] : by_partition) {
    const size_t per_file = std::max<size_t>(1, (rows.size() + files - 1) / std::max(files, 1));
    for (size_t start = 0; start < rows.size(); start += per_file) {
      const std::vector<model::Row> chunk(
          rows.begin() + static_cast<std::ptrdiff_t>(start),
          rows.begin() + static_cast<std::ptrdiff_t>(std::min(rows.size(), start + per_file)));
      RLC_ASSIGN_OR_RETURN(delta::AddFile add, WriteRowFile(partition, chunk));
      actions.push_back(add);
    }
  }
  RLC_RETURN_IF_ERROR(storage_.PutIfAbsent(delta::LogDir(root_) + "/" + delta::CommitFileName(0),
                                           delta::WriteCommitFile(actions)));
  own_commits_.emplace(0, delta::Commit{0, std::move(actions)});
  return options_.type_widening ? WriteTypeWidening() : Status::Ok();
}

bool Widens(model::ColumnType from, model::ColumnType to) {
  using T = model::ColumnType;
  const auto rank = [](T t) {
    return t == T::kByte ? 1 : t == T::kShort ? 2 : t == T::kInteger ? 3 : t == T::kLong ? 4 : 0;
  };
  if (from == T::kFloat) return to == T::kDouble;
  return rank(from) > 0 && rank(to) > rank(from);
}

model::ColumnType Simulator::WrittenType(size_t column) const {
  const auto& widening = options_.type_widening;
  const model::Column& c = table_.schema[column];
  return !widened_ && widening && widening->column == c.name ? widening->from : c.type;
}

// ALTER TABLE ... CHANGE COLUMN x TYPE ..., as Delta writes it: the protocol with typeWidening,
// the metadata with the wider type and the change recorded; no file is rewritten.
Status Simulator::WriteTypeWidening() {
  widened_ = true;
  table_.protocol_features.insert("typeWidening");
  table_.properties.other.emplace(kEnableTypeWidening, "true");
  delta::Protocol protocol;
  protocol.min_reader_version = kFeaturesReaderVersion;
  protocol.min_writer_version = kFeaturesWriterVersion;
  SetFeatures(table_.protocol_features, protocol);
  std::vector<delta::Action> actions = {Info("CHANGE COLUMN", 0, false), protocol,
                                        MetadataAction()};
  RLC_RETURN_IF_ERROR(storage_.PutIfAbsent(delta::LogDir(root_) + "/" + delta::CommitFileName(1),
                                           delta::WriteCommitFile(actions)));
  own_commits_.emplace(1, delta::Commit{1, std::move(actions)});
  return Status::Ok();
}

Result<int64_t> Simulator::LatestVersion() const {
  RLC_ASSIGN_OR_RETURN(delta::LogListing listing, delta::ListLog(storage_, root_));
  return listing.latest_version();
}

Simulator::~Simulator() = default;

Result<std::shared_ptr<const delta::Snapshot>> Simulator::LogAt(int64_t version) const {
  if (version < 0) {
    RLC_ASSIGN_OR_RETURN(delta::Snapshot latest,
                         delta::ReplayLogWithCheckpoints(storage_, root_, std::nullopt,
                                                         parquet::ArrowActionReader()));
    return std::make_shared<const delta::Snapshot>(std::move(latest));
  }
  const auto cached = logs_.lower_bound(version);
  if (cached != logs_.end() && cached->first == version) return cached->second;
  // A committed version never changes, so the nearest version read before is extended by the
  // commits after it instead of the log being replayed from version 0. A commit this simulator
  // wrote is applied from the actions it wrote, as an engine updates its snapshot after its own
  // commit; every other commit is read from the log.
  auto log = std::make_shared<delta::Snapshot>();
  int64_t from = 0;
  if (cached != logs_.begin()) {
    const auto& [base_version, base] = *std::prev(cached);
    *log = *base;
    from = base_version + 1;
  } else if (!own_commits_.count(0)) {
    // Read afresh, as an engine does: from the newest checkpoint at or below `version` (the JSON
    // from version 0 when there is none).
    RLC_ASSIGN_OR_RETURN(*log, delta::ReplayLogWithCheckpoints(storage_, root_, version,
                                                               parquet::ArrowActionReader()));
    from = version + 1;
  }
  for (int64_t v = from; v <= version; ++v) {
    const auto own = own_commits_.find(v);
    if (own != own_commits_.end() && !options_.verify_own_commits) {
      RLC_RETURN_IF_ERROR(
          delta::ApplyCommit(own->second, log.get()).WithContext(delta::LogDir(root_)));
      continue;
    }
    RLC_ASSIGN_OR_RETURN(const delta::Commit commit, delta::ReadCommit(storage_, root_, v));
    if (own != own_commits_.end() && commit.actions != own->second.actions) {
      // The simulator's own fault, never the table's: not a log an engine refuses (kCorrupt).
      return Status::InvalidArgument(
          delta::LogDir(root_) + "/" + delta::CommitFileName(v) +
          ": the commit does not parse back to the actions the simulator wrote");
    }
    RLC_RETURN_IF_ERROR(delta::ApplyCommit(commit, log.get()).WithContext(delta::LogDir(root_)));
  }
  logs_.emplace(version, log);
  return std::shared_ptr<const delta::Snapshot>(std::move(log));
}

Result<std::shared_ptr<const Simulator::Snapshot>> Simulator::ReadSnapshot(int64_t version) const {
  if (version >= 0) {
    const auto cached = snapshots_.find(version);
    if (cached != snapshots_.end()) return cached->second;
  }
  auto made = std::make_shared<Snapshot>();
  Snapshot& s = *made;
  RLC_ASSIGN_OR_RETURN(s.log, LogAt(version));
  const delta::Snapshot& log = *s.log;
  // Everything but the rows, which come from the files (copying table_'s rows only to drop them
  // cost more than the rest of the read).
  s.table.schema = table_.schema;
  s.table.properties = table_.properties;
  s.table.protocol_features = table_.protocol_features;
  s.table.next_row_id = table_.next_row_id;
  s.table.version = version;
  // DVs need the table feature in the protocol (writer side) and delta.enableDeletionVectors.
  bool feature = false;
  if (log.protocol.has_value() && log.protocol->writer_features.has_value()) {
    for (const std::string& f : *log.protocol->writer_features)
      feature = feature || f == "deletionVectors";
  }
  s.deletion_vectors_writable = feature && table_.properties.deletion_vectors_enabled;
  // Idempotent writes: the versions each application committed, as the log records them.
  s.table.app_versions.clear();
  for (const auto& [app_id, txn] : log.app_transactions) s.table.app_versions[app_id] = txn.version;
  for (const auto& [path, add] : log.files) {
    auto decoded = row_files_.find(path);
    if (decoded == row_files_.end()) {
      RLC_ASSIGN_OR_RETURN(std::string bytes, storage_.ReadFile(root_ + "/" + path));
      RLC_ASSIGN_OR_RETURN(
          RowFile read, DecodeWithIdentities(path, bytes, row_file_columns_, partition_columns_,
                                             add.partition_values, table_.session_offset_minutes));
      decoded = row_files_.emplace(path, std::move(read)).first;
    }
    const RowFile& file = decoded->second;
    RLC_ASSIGN_OR_RETURN(const auto logged, LoggedPartition(path, add, table_, physical_names_));
    dv::RowBitmap deleted;
    if (add.deletion_vector.has_value()) {
      RLC_ASSIGN_OR_RETURN(deleted,
                           delta::LoadDeletionVector(storage_, root_, *add.deletion_vector));
    }
    std::vector<model::RowId>& ids = s.file_rows[path];
    ids.reserve(file.rows.size());
    for (uint64_t position = 0; position < file.rows.size(); ++position) {
      const auto& values = file.rows[position];
      const auto id = static_cast<model::RowId>(std::get<int64_t>(*values[0]));
      ids.push_back(id);
      if (deleted.Contains(position)) continue;
      model::Row row{id, {}};
      row.values.reserve(values.size() - 1);
      for (size_t i = 1; i < values.size(); ++i)
        row.values.push_back(ToModelValue(table_.schema[i - 1].type, values[i]));
      for (const auto& [i, value] : logged) row.values[i] = value;
      const bool first = s.table.rows.insert_or_assign(id, std::move(row)).second;
      if (!first && IsForeignRowId(id)) {
        return Status::Unsupported(path + ": row " + std::to_string(position) +
                                   " of another engine's file meets another row's identity");
      }
      // Two live copies of one of its own rows: a liar re-added a file that a later commit had
      // already rewritten. The table is valid, but this engine keys rows by identity and would
      // see one copy; it writes nothing on it rather than miss the other.
      if (!first) s.two_copies = path + ": row " + std::to_string(position) + " is live twice";
      s.where[id] = {&path, position};
    }
    s.file_dvs[path] = std::move(deleted);
  }
  if (version >= 0) Remember(version, made);
  return std::shared_ptr<const Snapshot>(std::move(made));
}

void Simulator::Remember(int64_t version, const std::shared_ptr<const Snapshot>& snapshot) const {
  snapshots_.emplace(version, snapshot);
  const delta::FileTable& live = snapshot->log->files;  // the caller's
  // A long race on a large table reads thousands of versions: the oldest snapshots go, and the
  // decoded files no longer live (a transaction keeps the snapshot it read; a later read of an
  // evicted version or file decodes it again).
  while (snapshots_.size() > kCachedSnapshots) snapshots_.erase(snapshots_.begin());
  if (row_files_.size() > 2 * live.size() + kCachedFilesSlack)
    std::erase_if(row_files_, [&](const auto& e) { return live.count(e.first) == 0; });
}

Result<model::LogicalTable> Simulator::Read(int64_t version) const {
  RLC_ASSIGN_OR_RETURN(const std::shared_ptr<const Snapshot> s, ReadSnapshot(version));
  return s->table;
}

Result<Transaction> Simulator::Prepare(const model::Operation& operation, int64_t read_version,
                                       const conflict::Flags& flags,
                                       const OptimizeOptions& optimize_options,
                                       const WriterQuirks& quirks) {
  RLC_ASSIGN_OR_RETURN(Transaction t,
                       PrepareHonestly(operation, read_version, flags, optimize_options));
  if (!quirks.any() || t.commits_nothing) return t;
  WriterQuirks q = quirks;
  // An UPDATE that leaves every value as it was changes no data: written dataChange=false it
  // would tell the truth, not lie. It is written as an honest engine writes it.
  const bool no_value_changes =
      std::all_of(t.effect.writes.begin(), t.effect.writes.end(), [](const model::RowWrite& w) {
        return w.kind == model::RowWrite::Kind::kUpdate && w.before.has_value() &&
               w.after.has_value() && w.before->values == w.after->values;
      });
  if (no_value_changes) q.no_data_change = false;
  // What the engine itself writes (its own check sees it): not lies about another's file.
  if (q.half_truth) TellAHalfTruth(t.pending.actions);
  if (q.malformed_stats) {
    for (delta::Action& a : t.pending.actions) {
      if (auto* add = std::get_if<delta::AddFile>(&a); add && add->stats)
        add->stats = "{\"numRecords\":";  // cut short
    }
  }
  if (q.empty_output && std::holds_alternative<model::Optimize>(operation)) {
    const auto* first_remove = t.pending.actions.size() > 1
                                   ? std::get_if<delta::RemoveFile>(&t.pending.actions[1])
                                   : nullptr;
    const PartitionKey partition =
        KeyOf(first_remove && first_remove->partition_values ? *first_remove->partition_values
                                                             : delta::StringMap{});
    RLC_ASSIGN_OR_RETURN(delta::AddFile empty, WriteRowFile(partition, {}));
    empty.data_change = false;
    t.pending.actions.push_back(std::move(empty));
  }
  if (q.readd_elsewhere || q.dv_update_elsewhere) {
    RLC_ASSIGN_OR_RETURN(const std::shared_ptr<const delta::Snapshot> read, LogAt(read_version));
    if (q.dv_update_elsewhere) MoveADvUpdate(*read, t.pending.actions);
    if (q.readd_elsewhere) {
      if (std::optional<delta::AddFile> moved =
              ReAddElsewhere(*read, t.pending.actions, q.readd_which))
        t.pending.actions.push_back(std::move(*moved));
    }
  }
  // Field lies are in the actions the engine itself made: its own check and any case that
  // rewrites its commit start from them, as from any engine's actions (a case that rewrites a
  // lie into the truth has not been fooled; one that carries it on is the engine's doing).
  ApplyFieldLies(q.field_lies, t.pending.actions);
  q.half_truth = q.malformed_stats = q.empty_output = q.readd_elsewhere = false;
  q.dv_update_elsewhere = false;
  t.quirks = q;  // applied as the commit is written: the engine's own check sees what it did
  return t;
}

// What an OPTIMIZE's bins share: how rows are laid out and ordered, what the capture records.
struct Simulator::BinPlan {
  OptimizeLayout layout = OptimizeLayout::kBinPack;
  bool zorder = false;
  size_t zorder_column = 0;
  conflict::Flags capture_flags;  // the OPTIMIZE's flags, or none when it records no composition
};

namespace {

// Bins of consecutive files (path, live rows) up to `target_rows` live rows each.
std::vector<std::vector<std::string>> Bins(
    const std::vector<std::pair<std::string, int64_t>>& files, int64_t target_rows) {
  std::vector<std::vector<std::string>> bins(1);
  int64_t rows_in_bin = 0;
  for (const auto& [path, live] : files) {
    if (!bins.back().empty() && rows_in_bin + live > target_rows) {
      bins.emplace_back();
      rows_in_bin = 0;
    }
    bins.back().push_back(path);
    rows_in_bin += live;
  }
  return bins;
}

// A bin's rows (with their source path) in the order the writer writes them.
std::vector<std::pair<std::string, model::Row>> RowsInWriteOrder(
    const std::vector<std::vector<std::pair<std::string, model::Row>>>& rows_by_source,
    OptimizeLayout layout) {
  std::vector<std::pair<std::string, model::Row>> rows;
  if (layout == OptimizeLayout::kInterleave) {
    for (size_t k = 0, left = 1; left > 0; ++k) {
      left = 0;
      for (const auto& source_rows : rows_by_source) {
        if (k < source_rows.size()) rows.push_back(source_rows[k]);
        left += k + 1 < source_rows.size() ? 1 : 0;
      }
    }
  } else {
    for (const auto& source_rows : rows_by_source)
      rows.insert(rows.end(), source_rows.begin(), source_rows.end());
  }
  return rows;
}

// Which of a bin's outputs row k goes to: one, or two for a split or a repartition.
int OutputOf(OptimizeLayout layout, size_t k, size_t rows, const model::Row& row) {
  if (layout == OptimizeLayout::kSplit) return k >= (rows + 1) / 2 ? 1 : 0;
  if (layout == OptimizeLayout::kRepartition) return static_cast<int>(row.id % 2);
  return 0;
}

}  // namespace

namespace {

// Whether Delta records a data-changing statement's empty commit on this table: only under
// WriteSerializable (a property that does not parse counts as Serializable here; the checker
// refuses the table all the same).
bool RecordsEmptyCommits(const delta::Snapshot& log) {
  if (!log.metadata.has_value()) return false;
  const Result<conflict::IsolationLevel> level = conflict::TableIsolationLevel(*log.metadata);
  return level.ok() && *level == conflict::IsolationLevel::kWriteSerializable;
}

}  // namespace

namespace {

// A transaction whose engine cannot read its snapshot: it writes nothing, and says why.
Transaction Refused(const model::Operation& operation, int64_t read_version,
                    const conflict::Flags& flags, std::string why, std::string error) {
  Transaction t;
  t.operation = operation;
  t.read_version = t.pending.read_version = read_version;
  t.pending.flags = flags;
  t.commits_nothing = true;
  t.refused = std::move(why);
  t.effect.error = std::move(error);
  return t;
}

}  // namespace

Result<Transaction> Simulator::PrepareHonestly(const model::Operation& operation,
                                               int64_t read_version, const conflict::Flags& flags,
                                               const OptimizeOptions& optimize_options) {
  Result<std::shared_ptr<const Snapshot>> read = ReadSnapshot(read_version);
  // A log replay refuses (a commit the protocol forbids, delta/commit_rules.h), or the table
  // holds two live copies of one row: an engine that cannot read the table writes nothing.
  if (!read.ok() && read.status().code() == StatusCode::kCorrupt) {
    return Refused(operation, read_version, flags, WithoutRoot(read.status().message()),
                   "the table's log cannot be read");
  }
  RLC_RETURN_IF_ERROR(read.status());
  const Snapshot& s = **read;
  if (!s.two_copies.empty()) {
    return Refused(operation, read_version, flags,
                   "this engine cannot tell two live copies of one row apart: " + s.two_copies,
                   "the engine cannot read the table");
  }
  Transaction t;
  t.operation = operation;
  t.read_version = read_version;
  t.effect = model::Apply(s.table, operation, next_row_id_);  // identities are never reused
  next_row_id_ = std::max(next_row_id_, t.effect.after.next_row_id);
  t.pending.read_version = read_version;
  t.pending.flags = flags;
  t.commits_nothing = t.effect.error.has_value() || t.effect.skipped;
  // An engine writes only to a table whose protocol it supports (its writer features).
  if (s.log->protocol.has_value()) {
    for (const std::string& f : conflict::RequiredWriterFeatures(*s.log->protocol)) {
      // It writes physical names where the table maps its columns (TableOptions::column_mapping).
      if (!SupportsWriterFeature(f) && !(f == "columnMapping" && options_.column_mapping)) {
        t.commits_nothing = true;
        t.refused = "the table's protocol needs writer feature '" + f +
                    "', which this writer does not support";
      }
    }
  }
  // A DELETE, UPDATE, MERGE or INSERT ... SELECT that changes no row writes no action, and Delta
  // (commitIfNeeded) records such an empty commit unless its level lets it skip it: under
  // Serializable it does (the commit falls back to SnapshotIsolation); under WriteSerializable a
  // data-changing operation does not, and commits its commitInfo alone (read checks and all).
  const bool writes_rows = std::holds_alternative<model::Delete>(operation) ||
                           std::holds_alternative<model::Update>(operation) ||
                           std::holds_alternative<model::Merge>(operation) ||
                           std::holds_alternative<model::InsertSelect>(operation);
  t.changes_no_row =
      writes_rows && t.effect.writes.empty() && !t.effect.error.has_value() && !t.effect.skipped;
  if (t.changes_no_row && !RecordsEmptyCommits(*s.log)) t.commits_nothing = true;
  if (const auto* merge = std::get_if<model::Merge>(&operation); merge && t.effect.error) {
    RecordReads(s, t);  // Delta's scan, which decides whether Delta's MERGE sees the matches
    t.delta_merge_verdict = DeltaMergeVerdict(s, *merge, t.pending.read_files);
  }
  if (t.commits_nothing) return t;
  RecordReads(s, t);
  t.pending.actions.push_back(
      Info(model::OperationName(operation), read_version, t.effect.is_blind_append));
  if (AppendTableActions(operation, t)) return t;
  if (const auto* optimize = std::get_if<model::Optimize>(&operation)) {
    RLC_RETURN_IF_ERROR(PrepareOptimize(s, *optimize, flags, optimize_options, t));
    // As Delta's OPTIMIZE, which commits only when it wrote a file: nothing compacted, no commit.
    const bool wrote = std::any_of(
        t.pending.actions.begin(), t.pending.actions.end(),
        [](const delta::Action& a) { return std::holds_alternative<delta::AddFile>(a); });
    if (!wrote) t.commits_nothing = true;
  } else {
    RLC_RETURN_IF_ERROR(PrepareRowWrites(s, t));
  }
  if (options_.foreign) WriteLikeAnotherEngine(t.pending.actions);
  return t;
}

namespace {

// What Delta's data skipping can use of a data filter: comparisons of a data column with a
// literal, IS [NOT] NULL, AND, OR, NOT. A partition column has no statistics, so a part on it is
// unknown here (only a filter on partition columns alone prunes by them); a remainder
// (`id % 2 = 1`) is an expression it does not evaluate, though a file's bounds may decide it
// (min = max). Positive: a
// predicate the given one implies; negative (under a NOT): one that implies it. nullopt stands for
// TRUE (positive) or FALSE (negative): nothing to skip by.
std::optional<model::Predicate> DeltaSkippable(const model::Predicate& p,
                                               const std::vector<std::string>& partition_columns,
                                               bool positive) {
  using Kind = model::Predicate::Kind;
  switch (p.kind) {
    case Kind::kCompare:
    case Kind::kIsNull:
    case Kind::kIsNotNull:
      // Data skipping knows statistics only: a partition column has none, and a remainder is
      // an expression it does not evaluate.
      // Nor does it compare two columns.
      if (std::find(partition_columns.begin(), partition_columns.end(), p.column) !=
              partition_columns.end() ||
          p.modulus != 0 || !p.other_column.empty())
        return std::nullopt;
      return p;
    case Kind::kNot: {
      std::optional<model::Predicate> inner =
          DeltaSkippable(p.children.at(0), partition_columns, !positive);
      if (!inner.has_value()) return std::nullopt;
      return model::Predicate::Not(std::move(*inner));
    }
    case Kind::kAnd:
    case Kind::kOr: {
      // A positive AND and a negative OR may leave a part out; a positive OR and a negative AND
      // need every part.
      const bool may_leave_out = (p.kind == Kind::kAnd) == positive;
      std::vector<model::Predicate> kept;
      for (const model::Predicate& c : p.children) {
        std::optional<model::Predicate> q = DeltaSkippable(c, partition_columns, positive);
        if (q.has_value()) {
          kept.push_back(std::move(*q));
        } else if (!may_leave_out) {
          return std::nullopt;
        }
      }
      if (kept.empty()) return std::nullopt;
      if (kept.size() == 1) return kept[0];
      return p.kind == Kind::kAnd ? model::Predicate::And(std::move(kept))
                                  : model::Predicate::Or(std::move(kept));
    }
    default:
      return p;
  }
}

// Whether `p` names partition columns only (Delta's partition filter, which it evaluates whole).
bool OnPartitionColumnsOnly(const model::Predicate& p, const std::vector<std::string>& partition) {
  for (const std::string* column : {&p.column, &p.other_column}) {
    if (!column->empty() &&
        std::find(partition.begin(), partition.end(), *column) == partition.end())
      return false;
  }
  return std::all_of(p.children.begin(), p.children.end(), [&](const model::Predicate& c) {
    return OnPartitionColumnsOnly(c, partition);
  });
}

// The top-level conjuncts of `p`.
void Conjuncts(const model::Predicate& p, std::vector<model::Predicate>& out) {
  if (p.kind != model::Predicate::Kind::kAnd) return out.push_back(p);
  for (const model::Predicate& c : p.children) Conjuncts(c, out);
}

// The files a Delta scan of `filters` reads. Delta sorts the filters one by one: one on partition
// columns alone prunes partitions (evaluated whole); any other is a data filter, of which its
// statistics skipping uses what it can evaluate (DeltaSkippable: never a partition column). A file
// is read unless some filter rules it out; a file without statistics passes every data filter,
// and every file passes `id % 2 = 1` alone. Delta registers these, not the files of the matched
// rows, as the transaction's read files: a winner removing any of them aborts the loser
// (ConcurrentDeleteReadException) even when none of its rows matched.
void AddScannedFiles(const delta::Snapshot& log, const std::vector<model::Predicate>& filters,
                     std::set<std::string>& files) {
  std::vector<conflict::ReadPredicateMatcher> by_partition, by_statistics;
  if (log.metadata.has_value()) {
    const std::vector<std::string>& partition = log.metadata->partition_columns;
    for (const model::Predicate& f : filters) {
      if (OnPartitionColumnsOnly(f, partition)) {
        by_partition.emplace_back(std::vector{model::ToString(f)}, *log.metadata);
      } else if (std::optional<model::Predicate> skippable =
                     DeltaSkippable(f, partition, /*positive=*/true)) {
        by_statistics.emplace_back(std::vector{model::ToString(*skippable)}, *log.metadata);
      }
    }
  }
  for (const auto& [path, add] : log.files) {
    bool read = true;
    for (const conflict::ReadPredicateMatcher& m : by_partition) {
      if (m.bound() && !m.MayMatch(add.partition_values)) read = false;
    }
    std::optional<delta::FileStats> stats;
    if (read && add.stats.has_value() && !by_statistics.empty()) {
      Result<delta::FileStats> parsed = delta::ParseStats(*add.stats);
      if (parsed.ok()) stats = std::move(parsed).value();
    }
    for (const conflict::ReadPredicateMatcher& m : by_statistics) {
      if (read && stats.has_value() && m.bound() && !m.MayMatchFilePerRead(*stats, {}).at(0))
        read = false;
    }
    if (read) files.insert(add.path);
  }
}

// The read predicate Delta's MERGE registers (its search for touched files): the conjuncts of
// the ON condition on the target alone, which this model's ON t.key = s.key has none of, so TRUE;
// but a MERGE of MATCHED clauses only adds the OR of those clauses' target conditions (TRUE when
// a clause has none), and one with a NOT MATCHED BY SOURCE clause scans TRUE whatever its
// clauses. Wider than the rows the MERGE depends on (model::Apply's reads): a winner removing any
// file of an inserting MERGE's table aborts it.
model::Predicate DeltaMergeRead(const model::Merge& merge) {
  using Kind = model::MergeClause::Kind;
  std::vector<model::Predicate> matched;
  for (const model::MergeClause& c : merge.clauses) {
    if (c.kind == Kind::kNotMatchedInsert || c.kind == Kind::kNotMatchedBySourceDelete)
      return model::Predicate::True();
    if (c.condition.kind == model::Predicate::Kind::kTrue) return model::Predicate::True();
    matched.push_back(c.condition);
  }
  if (matched.empty()) return model::Predicate::True();
  return matched.size() == 1 ? matched[0] : model::Predicate::Or(std::move(matched));
}

}  // namespace

// What Delta's own MERGE does with a MERGE the model fails (a target row matched by several
// source rows). Delta counts matches in its search for touched files: it joins the source with
// every live row of the files its scan keeps (`scanned`: the registered predicate's partition
// pruning and data skipping), whatever the clauses' conditions, and fails on a row matched
// twice unless the only MATCHED clause is an unconditional DELETE. A MERGE with no MATCHED clause
// takes Delta's insert-only path, which counts nothing. The model fails all of these: stricter,
// so it can only cost a false alarm, never hide a wrong commit.
std::string Simulator::DeltaMergeVerdict(const Snapshot& s, const model::Merge& merge,
                                         const std::vector<std::string>& scanned) {
  using Kind = model::MergeClause::Kind;
  // The MATCHED clauses Delta is given: none after one without a condition (Spark SQL allows
  // only the last to omit it, model::SparkSql leaves the unreachable rest out).
  std::vector<const model::MergeClause*> matched;
  for (const model::MergeClause& c : merge.clauses) {
    if (c.kind != Kind::kMatchedUpdate && c.kind != Kind::kMatchedDelete) continue;
    matched.push_back(&c);
    if (c.condition.kind == model::Predicate::Kind::kTrue) break;
  }
  if (matched.empty()) return "commits: an insert-only MERGE, which counts no matches";
  if (matched.size() == 1 && matched[0]->kind == Kind::kMatchedDelete &&
      matched[0]->condition.kind == model::Predicate::Kind::kTrue) {
    return "commits: its only MATCHED clause is an unconditional DELETE";
  }
  const size_t key = *s.table.ColumnIndex(merge.key_column);
  for (const auto& [id, row] : s.table.rows) {
    int matches = 0;
    for (const auto& source : merge.source_rows) {
      if (model::Compare(row.values[key], source[key]) == std::optional<int>(0)) ++matches;
    }
    if (matches < 2) continue;
    const std::string& path = s.files().at(*s.where.at(id).first).path;
    if (std::find(scanned.begin(), scanned.end(), path) != scanned.end()) return "fails";
  }
  return "commits: its scan skips every file holding a row matched twice";
}

// What the operation read: the predicates Delta registers for it (a DELETE's or UPDATE's
// condition, an INSERT ... SELECT's filter, a MERGE's as above; TRUE when it read every row, as
// Delta's filterFiles registers it, not readWholeTable, which its DML never sets), and the files
// Delta's scan of them reads (which hold every row they matched).
void Simulator::RecordReads(const Snapshot& s, Transaction& t) const {
  std::vector<model::Predicate> registered;
  if (const auto* merge = std::get_if<model::Merge>(&t.operation)) {
    registered.push_back(DeltaMergeRead(*merge));
  } else {
    for (const model::PredicateRead& read : t.effect.reads) registered.push_back(read.predicate);
  }
  std::set<std::string> read_files;
  // DELETE, UPDATE and the scan of an INSERT ... SELECT pass Delta's scan their condition's
  // conjuncts; a MERGE passes its registered predicate as one filter.
  const bool merge = std::holds_alternative<model::Merge>(t.operation);
  for (const model::Predicate& p : registered) {
    t.pending.read_predicates.push_back(model::ToString(p));
    std::vector<model::Predicate> filters;
    if (merge) {
      filters.push_back(p);
    } else {
      Conjuncts(p, filters);
    }
    AddScannedFiles(*s.log, filters, read_files);
  }
  // Statistics never rule out a matched row's file; kept so that no bug in them narrows reads.
  for (const model::PredicateRead& read : t.effect.reads) {
    for (model::RowId id : read.matched)
      read_files.insert(s.files().at(*s.where.at(id).first).path);
  }
  t.pending.read_files.assign(read_files.begin(), read_files.end());
}

// The actions of an operation on the table rather than its rows: a metadata or protocol change
// (true: nothing else to write), an idempotent write's txn (false: its rows follow).
bool Simulator::AppendTableActions(const model::Operation& operation, Transaction& t) const {
  std::vector<delta::Action>& actions = t.pending.actions;
  if (std::holds_alternative<model::MetadataChange>(operation) ||
      std::holds_alternative<model::ProtocolChange>(operation)) {
    // Delta's commitInfo.isBlindAppend is a fact about the commit: it read no file and every file
    // action is an add. A table change reads none and has none, so Delta writes true.
    for (delta::Action& a : actions) {
      if (auto* info = std::get_if<delta::CommitInfo>(&a)) info->is_blind_append = true;
    }
  }
  if (const auto* change = std::get_if<model::MetadataChange>(&operation)) {
    delta::Metadata m = MetadataAction();
    m.configuration.emplace_back(change->key, change->value);
    actions.push_back(m);
    return true;
  }
  if (const auto* change = std::get_if<model::ProtocolChange>(&operation)) {
    delta::Protocol p;
    p.min_reader_version = kFeaturesReaderVersion;
    p.min_writer_version = kFeaturesWriterVersion;
    std::set<std::string> features = table_.protocol_features;
    features.insert(change->add_feature);
    SetFeatures(features, p);
    actions.push_back(p);
    return true;
  }
  if (const auto* write = std::get_if<model::IdempotentWrite>(&operation)) {
    t.pending.read_app_ids.push_back(write->app_id);  // it read its application's last version
    delta::Txn txn;
    txn.app_id = write->app_id;
    txn.version = write->version;
    txn.last_updated_ms = kTimestamp;
    actions.push_back(txn);
  }
  return false;
}

Status Simulator::PrepareOptimize(const Snapshot& s, const model::Optimize& optimize,
                                  const conflict::Flags& flags,
                                  const OptimizeOptions& optimize_options, Transaction& t) {
  BinPlan plan;
  plan.layout = optimize_options.layout;
  plan.zorder = !optimize.zorder_by.empty();
  plan.capture_flags = flags;
  if (!optimize_options.capture) {
    plan.capture_flags.SetCase(conflict::CaseId::kOptimizeReconcile, false);
    plan.capture_flags.SetCase(conflict::CaseId::kOptimizeReconcileReverse, false);
  }
  if (plan.zorder) {
    plan.zorder_column = *s.table.ColumnIndex(optimize.zorder_by[0]);
    std::get<delta::CommitInfo>(t.pending.actions[0])
        .operation_parameters.push_back(
            {"zOrderBy", nlohmann::json(nlohmann::json(optimize.zorder_by).dump()).dump()});
  }
  const int64_t target_rows = optimize_options.target_rows > 0 ? optimize_options.target_rows
                                                               : options_.optimize_target_rows;
  // The files with live rows, per partition, in path order.
  std::map<PartitionKey, std::vector<std::pair<std::string, int64_t>>> by_partition;
  for (const auto& [path, add] : s.files()) {
    const int64_t live =
        static_cast<int64_t>(s.file_rows.at(path).size() - s.file_dvs.at(path).Cardinality());
    if (live == 0) continue;
    by_partition[KeyOf(add.partition_values)].push_back({path, live});
  }
  for (const auto& [partition, files] : by_partition) {
    for (const std::vector<std::string>& bin : Bins(files, target_rows)) {
      // As Delta's OPTIMIZE: a bin of one file is left alone unless Z-ordering (which rewrites
      // every file of its partition); a lone file's DV stays until a purge.
      if (bin.size() < 2 && !plan.zorder) continue;
      RLC_RETURN_IF_ERROR(CompactBin(s, partition, bin, plan, t));
    }
  }
  return Status::Ok();
}

// One bin: its live rows written to one output (or two), the sources' tombstones with the
// composition the capture recorded.
Status Simulator::CompactBin(const Snapshot& s, const PartitionKey& partition,
                             const std::vector<std::string>& bin, const BinPlan& plan,
                             Transaction& t) {
  std::vector<delta::AddFile> sources;
  std::vector<std::vector<std::pair<std::string, model::Row>>> rows_by_source;
  for (const std::string& path : bin) {
    const delta::AddFile& add = s.files().at(path);
    sources.push_back(add);
    t.compacted.push_back({add.path, add.deletion_vector ? add.deletion_vector->UniqueId() : ""});
    rows_by_source.emplace_back();
    const auto& ids = s.file_rows.at(path);
    for (uint64_t position = 0; position < ids.size(); ++position) {
      if (!s.file_dvs.at(path).Contains(position)) {
        rows_by_source.back().push_back({add.path, s.table.rows.at(ids[position])});
      }
    }
  }
  std::vector<std::pair<std::string, model::Row>> rows =
      RowsInWriteOrder(rows_by_source, plan.layout);
  if (plan.zorder) {
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      const std::optional<int> c =
          model::Compare(a.second.values[plan.zorder_column], b.second.values[plan.zorder_column]);
      return c.has_value() && *c < 0;
    });
  }
  const bool two_outputs =
      plan.layout == OptimizeLayout::kSplit || plan.layout == OptimizeLayout::kRepartition;
  std::vector<model::Row> output_rows[2];
  conflict::CompositionCapture capture(sources);
  for (size_t k = 0; k < rows.size(); ++k) {
    const auto& [path, row] = rows[k];
    capture.ObserveRows(path, 1);  // the writer reports each row it writes
    output_rows[OutputOf(plan.layout, k, rows.size(), row)].push_back(row);
  }
  std::vector<delta::AddFile> outputs;
  std::vector<std::string> output_paths;
  for (const std::vector<model::Row>& written : output_rows) {
    if (written.empty()) continue;
    RLC_ASSIGN_OR_RETURN(delta::AddFile output, WriteRowFile(partition, written));
    output.data_change = false;
    output_paths.push_back(output.path);
    outputs.push_back(std::move(output));
  }
  const conflict::CompositionCapture::Outcome outcome = capture.Finish(
      plan.capture_flags, output_paths, /*tasks=*/two_outputs ? 2 : 1, plan.zorder, kTimestamp);
  for (const delta::RemoveFile& r : outcome.tombstones) t.pending.actions.push_back(r);
  for (const delta::AddFile& output : outputs) t.pending.actions.push_back(output);
  return Status::Ok();
}

// Row-level writes: delete and update rows where they are, write the new images and inserts.
Status Simulator::PrepareRowWrites(const Snapshot& s, Transaction& t) {
  std::map<std::string, std::vector<uint64_t>> deleted;  // path -> positions
  std::map<PartitionKey, std::vector<model::Row>> new_rows;
  for (const model::RowWrite& w : t.effect.writes) {
    if (w.kind != model::RowWrite::Kind::kInsert) {
      const auto& [path, position] = s.where.at(w.row);
      deleted[*path].push_back(position);
    }
    if (w.after.has_value()) new_rows[PartitionOf(*w.after)].push_back(*w.after);
  }
  for (const auto& [path, positions] : deleted) {
    RLC_RETURN_IF_ERROR(DeleteRows(s, path, positions, t.pending.actions));
  }
  for (const auto& [partition, rows] : new_rows) {
    RLC_ASSIGN_OR_RETURN(delta::AddFile add, WriteRowFile(partition, rows));
    t.pending.actions.push_back(add);
  }
  return Status::Ok();
}

// Deletes rows of one file: a DV update (merge-on-read where DVs are writable), the remove
// alone when no row is left, a rewrite of the live rows otherwise.
Status Simulator::DeleteRows(const Snapshot& s, const std::string& path,
                             const std::vector<uint64_t>& positions,
                             std::vector<delta::Action>& actions) {
  const delta::AddFile& add = s.files().at(path);
  actions.push_back(conflict::RemoveFrom(add, kTimestamp, true));
  dv::RowBitmap dv = s.file_dvs.at(path);
  for (uint64_t p : positions) dv.Add(p);
  const auto& ids = s.file_rows.at(path);
  if (dv.Cardinality() == ids.size()) return Status::Ok();  // no live row left: the remove alone
  if (options_.merge_on_read && s.deletion_vectors_writable) {
    RLC_ASSIGN_OR_RETURN(dv::DvDescriptor descriptor, DvWriter().Write(dv));
    std::optional<delta::AddFile> rebased = conflict::WithDeletionVector(add, descriptor);
    if (!rebased) {  // statistics another writer left unparsable or without a count: recounted
      delta::AddFile recounted = add;
      recounted.stats = "{\"numRecords\":" + std::to_string(ids.size()) + ",\"tightBounds\":false}";
      rebased = conflict::WithDeletionVector(recounted, descriptor);
    }
    if (!rebased) return Status::Corrupt(path + ": statistics do not parse");
    rebased->data_change = true;
    actions.push_back(*rebased);
    return Status::Ok();
  }
  std::vector<model::Row> kept;
  for (uint64_t position = 0; position < ids.size(); ++position) {
    if (!dv.Contains(position)) kept.push_back(s.table.rows.at(ids[position]));
  }
  const PartitionKey partition = KeyOf(add.partition_values);
  RLC_ASSIGN_OR_RETURN(delta::AddFile rewritten, WriteRowFile(partition, kept));
  actions.push_back(rewritten);
  return Status::Ok();
}

Status Simulator::AddReads(Transaction& transaction,
                           const std::vector<model::Predicate>& reads) const {
  if (reads.empty()) return Status::Ok();
  RLC_ASSIGN_OR_RETURN(const std::shared_ptr<const Snapshot> snapshot,
                       ReadSnapshot(transaction.read_version));
  const Snapshot& s = *snapshot;
  conflict::PendingTransaction& pending = transaction.pending;
  std::set<std::string> files(pending.read_files.begin(), pending.read_files.end());
  for (const model::Predicate& p : reads) {
    if (p.kind == model::Predicate::Kind::kTrue) {
      pending.read_whole_table = true;
      for (const auto& [path, add] : s.files()) files.insert(add.path);
      continue;
    }
    pending.read_predicates.push_back(model::ToString(p));
    std::vector<model::Predicate> filters;
    Conjuncts(p, filters);  // the judge registers extra reads as conjuncts
    AddScannedFiles(*s.log, filters, files);
    for (const auto& [id, row] : s.table.rows) {
      if (model::Qualifies(p, s.table, row)) files.insert(s.files().at(*s.where.at(id).first).path);
    }
  }
  pending.read_files.assign(files.begin(), files.end());
  for (delta::Action& a : pending.actions) {
    if (auto* info = std::get_if<delta::CommitInfo>(&a)) info->is_blind_append = false;
  }
  return Status::Ok();
}

struct CommitProgress {
  conflict::PendingTransaction pending;          // the actions to write, rebased so far
  std::optional<conflict::ConflictCheck> check;  // the check under way, once a race was lost
  std::vector<conflict::Event> earlier_events;   // of checks an OPTIMIZE's retry (B5) left
  CommitOutcome outcome;

  int64_t NextVersion() const {
    return check.has_value() ? check->checked_through_version() + 1 : pending.read_version + 1;
  }
};

CommitProgress& Simulator::ProgressOf(Transaction& transaction) const {
  if (transaction.progress == nullptr) {
    transaction.progress = std::make_shared<CommitProgress>();
    transaction.progress->pending = transaction.pending;
  }
  return *transaction.progress;
}

// The partition values of each path as Delta readers take them from the log: the last add of
// the path among the winners after `read`, else its add in `read`; a path named under different
// values in those versions is RowFileTableFiles::kMovedFile (its rows stay unread).
RowFileTableFiles::PartitionValuesOf Simulator::LoggedPartitionValues(
    const std::shared_ptr<const delta::Snapshot>& read) const {
  auto winners = std::make_shared<std::map<std::string, delta::StringMap>>();
  auto moved = std::make_shared<std::set<std::string>>();
  const Result<int64_t> latest = LatestVersion();
  for (int64_t v = read->version + 1; latest.ok() && v <= *latest; ++v) {
    const auto own = own_commits_.find(v);
    Result<delta::Commit> read_back = own != own_commits_.end()
                                          ? Result<delta::Commit>(own->second)
                                          : delta::ReadCommit(storage_, root_, v);
    if (!read_back.ok()) break;
    for (const delta::Action& a : read_back->actions) {
      const auto* add = std::get_if<delta::AddFile>(&a);
      if (add == nullptr) continue;
      const std::string decoded = delta::DecodedPath(add->path);
      const auto earlier = winners->find(decoded);
      const auto at_read = read->files.find(decoded);
      if ((earlier != winners->end() && earlier->second != add->partition_values) ||
          (at_read != read->files.end() &&
           at_read->second.partition_values != add->partition_values))
        moved->insert(decoded);
      (*winners)[decoded] = add->partition_values;
    }
  }
  return [read, winners, moved](const std::string& decoded) -> const delta::StringMap* {
    if (moved->count(decoded) != 0) return &RowFileTableFiles::kMovedFile;
    if (const auto w = winners->find(decoded); w != winners->end()) return &w->second;
    const auto r = read->files.find(decoded);
    return r == read->files.end() ? nullptr : &r->second.partition_values;
  };
}

Status Simulator::UseLoggedPartitionValues(int64_t read_version,
                                           RowFileTableFiles& row_files) const {
  if (!options_.checker_reads_rows || options_.data_files != DataFileFormat::kRowFile)
    return Status::Ok();
  RLC_ASSIGN_OR_RETURN(const std::shared_ptr<const delta::Snapshot> read, LogAt(read_version));
  Result<predicate::TableSchema> schema =
      read->metadata.has_value() ? predicate::TableSchema::FromMetadata(*read->metadata)
                                 : Status::NotFound("no metadata");
  // A schema the checker cannot read fails its check; only column mapping needs it here.
  if (!schema.ok() && options_.column_mapping && read->metadata.has_value()) return schema.status();
  if (schema.ok()) {
    std::map<std::string, std::string> physical;
    for (const predicate::SchemaField& field : schema->fields()) {
      // As a reader finds a logical column in a file: by the physical name the schema gives it.
      if (field.physical_name.has_value()) physical.emplace(field.name, *field.physical_name);
      // As rlc's Parquet reader: no rows of a table with a column it has no comparison for (a
      // collated string).
      if (field.type == predicate::ColumnType::kOther)
        row_files.RefuseRows("column " + field.name + " (" + field.type_text +
                             ") has no comparison rlc reads rows by");
    }
    if (options_.column_mapping) row_files.UseColumnMapping(std::move(physical));
  }
  // An unpartitioned table has no partition value to read: no winner need be read for one.
  if (partition_columns_.empty()) return Status::Ok();
  row_files.UsePartitionValues(partition_columns_, LoggedPartitionValues(read));
  return Status::Ok();
}

Status Simulator::CheckRound(const Transaction& transaction, CommitProgress& p) {
  RowFileTableFiles row_files(storage_, root_);
  RLC_RETURN_IF_ERROR(UseLoggedPartitionValues(p.pending.read_version, row_files));
  const conflict::StorageTableFiles dv_files(storage_, root_);
  std::unique_ptr<conflict::TableFiles> parquet_files;
  if (options_.data_files == DataFileFormat::kParquet && options_.checker_reads_rows) {
    // Real Parquet, read as the checker reads any real table's files: the partition values of
    // the read snapshot's and the winners' adds, from the log.
    RLC_ASSIGN_OR_RETURN(const std::shared_ptr<const delta::Snapshot> read,
                         LogAt(p.pending.read_version));
    RLC_ASSIGN_OR_RETURN(parquet_files, parquet::ParquetTableFilesFor(storage_, root_, *read));
  }
  const conflict::TableFiles& files = parquet_files != nullptr ? *parquet_files
                                      : options_.checker_reads_rows
                                          ? static_cast<const conflict::TableFiles&>(row_files)
                                          : dv_files;
  const int faults = options_.checker_faults;
  // Reads fail a little less often than writes: a check reads several DVs before it writes one.
  const FaultyTableFiles faulty_files(files, std::max(faults, 1) + 1, checker_reads_);
  FaultyDvWriter faulty_writer(DvWriter(), std::max(faults, 1), checker_dv_writes_);
  conflict::CheckEnvironment env;
  env.files = faults > 0 ? static_cast<const conflict::TableFiles*>(&faulty_files) : &files;
  env.dv_writer = faults > 0 ? static_cast<conflict::DvWriter*>(&faulty_writer) : &DvWriter();
  env.now_ms = kTimestamp;
  env.explain_declines = options_.explain_declines;
  if (!p.check.has_value()) {
    RLC_ASSIGN_OR_RETURN(const std::shared_ptr<const delta::Snapshot> read,
                         LogAt(p.pending.read_version));
    RLC_ASSIGN_OR_RETURN(conflict::ConflictCheck check,
                         conflict::BeginCheck(p.pending, *read, root_));
    p.check.emplace(std::move(check));
  }
  const AlteredWinners altered(storage_, delta::LogDir(root_), options_.winner_bytes);
  const storage::Storage& winners =
      options_.winner_bytes ? static_cast<const storage::Storage&>(altered) : storage_;
  RLC_ASSIGN_OR_RETURN(const conflict::Verdict verdict,
                       p.check->ContinueAgainstLog(winners, root_, env));
  p.outcome.checked_through_version = verdict.checked_through_version;
  p.outcome.events = p.earlier_events;
  p.outcome.events.insert(p.outcome.events.end(), verdict.events.begin(), verdict.events.end());
  p.outcome.declines = verdict.declines;
  if (!verdict.commits()) {
    // B5 (docs/baseline.md#b5): an OPTIMIZE starts over on the latest version with the same
    // actions while what it compacted is still there, unchanged (and the table's partitioning
    // with it).
    RLC_ASSIGN_OR_RETURN(const bool retry, OptimizeMayRetry(transaction));
    if (!retry || p.outcome.optimize_retries >= kMaxOptimizeRetries) {
      p.outcome.abort = verdict.abort;
      return Status::Ok();
    }
    ++p.outcome.optimize_retries;
    p.earlier_events = p.outcome.events;
    p.check.reset();
    RLC_ASSIGN_OR_RETURN(p.pending.read_version, LatestVersion());
    p.pending.actions = transaction.pending.actions;
    p.pending.read_files = transaction.pending.read_files;
    return Status::Ok();
  }
  p.pending.actions = verdict.actions;
  p.pending.read_files = verdict.read_files;
  if (RLC_MUTANT(
          "recheck-forgets-first-check")) {  // the next round starts over at the version checked
    p.earlier_events = p.outcome.events;
    p.pending.read_version = verdict.checked_through_version;
    p.check.reset();
  }
  return Status::Ok();
}

Result<CommitOutcome> Simulator::Commit(Transaction& transaction) {
  if (transaction.commits_nothing) return CommitOutcome{};
  CommitProgress& p = ProgressOf(transaction);
  for (int attempt = 0; attempt < kMaxCommitAttempts && !p.outcome.abort.has_value(); ++attempt) {
    const int64_t version = p.NextVersion();
    std::vector<delta::Action> written = p.pending.actions;
    if (transaction.quirks.any()) ApplyWriterQuirks(transaction.quirks, written);
    const Status put =
        storage_.PutIfAbsent(delta::LogDir(root_) + "/" + delta::CommitFileName(version),
                             delta::WriteCommitFile(written));
    if (put.ok()) {
      p.outcome.committed = true;
      p.outcome.version = version;
      p.outcome.actions = written;
      own_commits_.emplace(version, delta::Commit{version, std::move(written)});
      RLC_RETURN_IF_ERROR(CheckpointAfter(version));
      return p.outcome;
    }
    if (put.code() != StatusCode::kAlreadyExists) return put;
    // Another commit won: check against every winner since the last version checked.
    const Status checked = CheckRound(transaction, p);
    if (checked.code() == StatusCode::kCorrupt) {
      p.outcome.refused = WithoutRoot(checked.message());
      return p.outcome;
    }
    RLC_RETURN_IF_ERROR(checked);
  }
  if (p.outcome.abort.has_value()) return p.outcome;
  return Status::OverLimit(root_ + ": no free version after " + std::to_string(kMaxCommitAttempts) +
                           " attempts");
}

std::string Simulator::WithoutRoot(std::string message) const {
  const std::string prefix = root_ + "/";
  for (size_t at = message.find(prefix); at != std::string::npos; at = message.find(prefix, at))
    message.erase(at, prefix.size());
  return message;
}

Status Simulator::CheckpointAfter(int64_t version) {
  const int every = options_.checkpoint_interval;
  if (every <= 0 || version <= 0 || version % every != 0) return Status::Ok();
  Result<std::shared_ptr<const delta::Snapshot>> at = LogAt(version);
  // A log replay refuses (a foreign writer's commit the protocol forbids) is no log to
  // checkpoint: the engine leaves it as it is.
  if (!at.ok() && at.status().code() == StatusCode::kCorrupt) return Status::Ok();
  RLC_RETURN_IF_ERROR(at.status());
  const std::vector<parquet::CheckpointLayout::Kind>& layouts = options_.checkpoint_layouts;
  parquet::CheckpointLayout layout;
  if (!layouts.empty()) layout.kind = layouts[checkpoints_written_++ % layouts.size()];
  layout.parts = 2 + static_cast<int>(version % 2);
  char id[64];
  std::snprintf(id, sizeof(id), "00000000-0000-4000-8000-%012lld", static_cast<long long>(version));
  layout.id = id;
  RLC_ASSIGN_OR_RETURN(const std::string name,
                       parquet::WriteCheckpoint(storage_, root_, **at, layout));
  (void)name;
  return Status::Ok();
}

Result<CommitOutcome> Simulator::Rebase(Transaction& transaction) {
  if (transaction.commits_nothing) return CommitOutcome{};
  CommitProgress& p = ProgressOf(transaction);
  if (p.outcome.abort.has_value()) return p.outcome;
  RLC_ASSIGN_OR_RETURN(const int64_t latest, LatestVersion());
  if (latest < p.NextVersion()) return p.outcome;
  const Status checked = CheckRound(transaction, p);
  if (checked.code() == StatusCode::kCorrupt) {
    p.outcome.refused = WithoutRoot(checked.message());
    return p.outcome;
  }
  RLC_RETURN_IF_ERROR(checked);
  return p.outcome;
}

Result<bool> Simulator::OptimizeMayRetry(const Transaction& transaction) const {
  if (transaction.raw_actions || !std::holds_alternative<model::Optimize>(transaction.operation))
    return false;
  RLC_ASSIGN_OR_RETURN(const int64_t latest, LatestVersion());
  Result<std::shared_ptr<const delta::Snapshot>> now = LogAt(latest);
  if (!now.ok() && now.status().code() == StatusCode::kCorrupt) return false;  // no retry on it
  RLC_RETURN_IF_ERROR(now.status());
  RLC_ASSIGN_OR_RETURN(const std::shared_ptr<const delta::Snapshot> then,
                       LogAt(transaction.read_version));
  if (!(*now)->metadata || !then->metadata ||
      (*now)->metadata->partition_columns != then->metadata->partition_columns)
    return false;
  if ((*now)
          ->protocol.has_value()) {  // a new transaction must be able to write the latest protocol
    for (const std::string& f : conflict::RequiredWriterFeatures(*(*now)->protocol)) {
      if (!SupportsWriterFeature(f)) return false;
    }
  }
  // Each source must still be active as it was read: the same DV, and the same partition values
  // (a re-add under others moved its rows out of the bin the plan put them in).
  std::map<std::pair<std::string, std::string>, const delta::StringMap*> active;
  for (const auto& [key, add] : (*now)->files) {
    active[{add.path, add.deletion_vector ? add.deletion_vector->UniqueId() : ""}] =
        &add.partition_values;
  }
  return std::all_of(
      transaction.compacted.begin(), transaction.compacted.end(), [&](const auto& source) {
        const auto it = active.find(source);
        if (it == active.end()) return false;
        const auto was = then->files.find(delta::DecodedPath(source.first));
        return was != then->files.end() && was->second.partition_values == *it->second;
      });
}

}  // namespace rlc::simulator
