#include "impl/delta/checkpoint.h"

#include <simdjson.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "impl/delta/commit_parser.h"
#include "impl/delta/file_key.h"
#include "impl/delta/log.h"

namespace rlc::delta {
namespace {

constexpr size_t kVersionDigits = 20;
constexpr std::string_view kInfix = ".checkpoint.";

bool AllDigits(std::string_view s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A multi-part checkpoint's part name: "<part>.<parts>.parquet" (10 digits each).
bool ParsePart(std::string_view rest, int64_t* part, int64_t* parts) {
  if (rest.size() != 10 + 1 + 10 + 8 || rest[10] != '.' || !EndsWith(rest, ".parquet"))
    return false;
  if (!AllDigits(rest.substr(0, 10)) || !AllDigits(rest.substr(11, 10))) return false;
  *part = std::stoll(std::string(rest.substr(0, 10)));
  *parts = std::stoll(std::string(rest.substr(11, 10)));
  return *part >= 1 && *part <= *parts;
}

// The state being built, and what the files said so far: the adds as batches of columns where
// the reader gave them so, else one by one (by decoded path).
struct Builder {
  Snapshot snapshot;
  std::vector<AddColumns> batches;
  std::map<std::string, AddFile> adds;
  int protocols = 0, metadatas = 0;
};

Status Corrupt(const std::string& file, const std::string& what) {
  return Status::Corrupt(file + ": " + what);
}

// The `path` of a sidecar action's line.
Result<std::string> SidecarPath(const std::string& file, const std::string& line) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view path;
  if (parser.parse(line).get(doc) != simdjson::SUCCESS ||
      doc["sidecar"]["path"].get_string().get(path) != simdjson::SUCCESS || path.empty()) {
    return Corrupt(file, "a sidecar action without a path string");
  }
  return std::string(path);
}

// A V2 checkpoint's checkpointMetadata names the version it holds: the one its name says.
Status CheckMetadataVersion(const std::string& file, const std::string& line, int64_t version) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  int64_t said = 0;
  if (parser.parse(line).get(doc) != simdjson::SUCCESS ||
      doc["checkpointMetadata"]["version"].get_int64().get(said) != simdjson::SUCCESS) {
    return Corrupt(file, "checkpointMetadata without an integer version");
  }
  if (said != version) {
    return Corrupt(file, "checkpointMetadata says version " + std::to_string(said) +
                             ", the file name " + std::to_string(version));
  }
  return Status::Ok();
}

Status Apply(const std::string& file, Action action, Builder& b) {
  if (auto* add = std::get_if<AddFile>(&action)) {
    const std::string key = DecodedPath(add->path);
    if (!b.adds.emplace(key, std::move(*add)).second)
      return Corrupt(file, "two adds of path '" + key + "'");
  } else if (auto* p = std::get_if<Protocol>(&action)) {
    if (++b.protocols > 1) return Corrupt(file, "a second protocol action");
    b.snapshot.protocol = std::move(*p);
  } else if (auto* m = std::get_if<Metadata>(&action)) {
    if (++b.metadatas > 1) return Corrupt(file, "a second metaData action");
    b.snapshot.metadata = std::move(*m);
  } else if (auto* t = std::get_if<Txn>(&action)) {
    b.snapshot.app_transactions[t->app_id] = std::move(*t);
  } else if (auto* d = std::get_if<DomainMetadata>(&action)) {
    if (!d->removed) b.snapshot.domains[d->domain] = std::move(*d);
  }
  // Removes are tombstones; commitInfo and cdc carry no state.
  return Status::Ok();
}

// Each action of a checkpoint file, in order: a JSON top level parsed as a commit is, a Parquet
// file through the reader.
Status ForEachFileAction(const storage::Storage& storage, const std::string& path,
                         const ParquetActionReader& reader,
                         const ParquetActionReader::ActionVisitor& visit,
                         const ParquetActionReader::AddBatchVisitor& batches) {
  RLC_ASSIGN_OR_RETURN(std::string bytes, storage.ReadFile(path));
  if (!EndsWith(path, ".json")) {
    return reader.ForEachActionOrAddBatch(
        path, std::make_shared<const std::string>(std::move(bytes)), visit, batches);
  }
  RLC_ASSIGN_OR_RETURN(Commit parsed, ParseCommit(bytes, -1, path));
  for (Action& a : parsed.actions) RLC_RETURN_IF_ERROR(visit(std::move(a)));
  return Status::Ok();
}

// One file's actions into the builder; sidecar actions are read in turn (sidecars hold file
// actions only, so they are followed one level deep).
Status ReadFileInto(const storage::Storage& storage, const std::string& log_dir,
                    const std::string& path, const ParquetActionReader& reader, bool top_level,
                    Builder& b) {
  const auto batches = [&](AddColumns&& batch) {
    b.batches.push_back(std::move(batch));
    return Status::Ok();
  };
  const auto visit = [&](Action&& action) -> Status {
    const auto* unknown = std::get_if<UnknownAction>(&action);
    if (unknown == nullptr) return Apply(path, std::move(action), b);
    if (unknown->key == "sidecar") {
      if (!top_level) return Corrupt(path, "a sidecar names another sidecar");
      RLC_ASSIGN_OR_RETURN(std::string sidecar, SidecarPath(path, unknown->raw_line));
      const std::string sidecar_path = log_dir + "/_sidecars/" + DecodedPath(sidecar);
      Status s = ReadFileInto(storage, log_dir, sidecar_path, reader, false, b);
      if (s.code() == StatusCode::kNotFound) {
        return Status::NotFound(path + ": sidecar " + sidecar_path + " is not there");
      }
      return s;
    }
    if (unknown->key == "checkpointMetadata")
      return CheckMetadataVersion(path, unknown->raw_line, b.snapshot.version);
    return Status::Ok();  // other actions rlc does not know carry no state it keeps
  };
  return ForEachFileAction(storage, path, reader, visit, batches);
}

}  // namespace

Status ParquetActionReader::ForEachAction(std::string_view file_name, std::string_view bytes,
                                          const ActionVisitor& visit) const {
  RLC_ASSIGN_OR_RETURN(const std::vector<std::string> lines, ActionLines(file_name, bytes));
  for (size_t i = 0; i < lines.size(); ++i) {
    Result<Action> action = ParseActionLine(lines[i]);
    if (!action.ok()) {
      return action.status().WithContext(std::string(file_name) + ": action " +
                                         std::to_string(i + 1));
    }
    RLC_RETURN_IF_ERROR(visit(std::move(*action)));
  }
  return Status::Ok();
}

Status ParquetActionReader::ForEachActionOrAddBatch(std::string_view file_name,
                                                    std::shared_ptr<const std::string> bytes,
                                                    const ActionVisitor& visit,
                                                    const AddBatchVisitor&) const {
  return ForEachAction(file_name, *bytes, visit);
}

Result<std::vector<Action>> ParquetActionReader::Actions(std::string_view file_name,
                                                         std::string_view bytes) const {
  std::vector<Action> actions;
  RLC_RETURN_IF_ERROR(ForEachAction(file_name, bytes, [&](Action&& a) {
    actions.push_back(std::move(a));
    return Status::Ok();
  }));
  return actions;
}

Result<std::vector<Checkpoint>> ListCheckpoints(const storage::Storage& storage,
                                                std::string_view table_root,
                                                std::vector<std::string>* incomplete) {
  RLC_ASSIGN_OR_RETURN(std::vector<std::string> names, storage.List(LogDir(table_root)));
  std::vector<Checkpoint> out;
  std::map<std::pair<int64_t, int64_t>, std::map<int64_t, std::string>> multi;  // (v, parts)
  for (const std::string& name : names) {
    const std::optional<int64_t> v = ParseCheckpointFileName(name);
    if (!v) continue;
    const std::string_view rest = std::string_view(name).substr(kVersionDigits + kInfix.size());
    int64_t part = 0, parts = 0;
    if (rest == "parquet") {
      out.push_back({*v, Checkpoint::Kind::kClassic, {name}});
    } else if (ParsePart(rest, &part, &parts)) {
      multi[{*v, parts}][part] = name;
    } else if (EndsWith(rest, ".json") || EndsWith(rest, ".parquet")) {
      out.push_back({*v, Checkpoint::Kind::kV2, {name}});
    }
  }
  for (const auto& [key, parts] : multi) {
    if (static_cast<int64_t>(parts.size()) == key.second) {
      Checkpoint c{key.first, Checkpoint::Kind::kMultiPart, {}};
      for (const auto& [part, name] : parts) c.files.push_back(name);
      out.push_back(std::move(c));
    } else if (incomplete != nullptr) {
      incomplete->push_back("checkpoint " + std::to_string(key.first) + " has " +
                            std::to_string(parts.size()) + " of its " + std::to_string(key.second) +
                            " parts");
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Checkpoint& a, const Checkpoint& b) { return a.version < b.version; });
  return out;
}

Result<Snapshot> ReadCheckpoint(const storage::Storage& storage, std::string_view table_root,
                                const Checkpoint& checkpoint, const ParquetActionReader& reader) {
  const std::string log_dir = LogDir(table_root);
  Builder b;
  b.snapshot.version = checkpoint.version;
  for (const std::string& name : checkpoint.files) {
    RLC_RETURN_IF_ERROR(ReadFileInto(storage, log_dir, log_dir + "/" + name, reader, true, b));
  }
  const std::string first = log_dir + "/" + checkpoint.files.front();
  if (b.protocols == 0) return Corrupt(first, "the checkpoint has no protocol action");
  if (b.metadatas == 0) return Corrupt(first, "the checkpoint has no metaData action");
  RLC_ASSIGN_OR_RETURN(b.snapshot.files,
                       FileTable::FromColumns(std::move(b.batches), std::move(b.adds)));
  return std::move(b.snapshot);
}

Result<Snapshot> ReplayLogWithCheckpoints(const storage::Storage& storage,
                                          std::string_view table_root,
                                          std::optional<int64_t> version,
                                          const ParquetActionReader& reader) {
  const std::string log_dir = LogDir(table_root);
  RLC_ASSIGN_OR_RETURN(LogListing listing, ListLog(storage, table_root));
  std::vector<std::string> incomplete;
  RLC_ASSIGN_OR_RETURN(std::vector<Checkpoint> checkpoints,
                       ListCheckpoints(storage, table_root, &incomplete));
  int64_t latest = listing.latest_version();
  if (!checkpoints.empty()) latest = std::max(latest, checkpoints.back().version);
  if (latest < 0) return Status::NotFound(log_dir + ": no commits and no checkpoints");
  const int64_t target = version.value_or(latest);
  if (target < 0 || target > latest) {
    return Status::NotFound(log_dir + ": version " + std::to_string(target) +
                            " does not exist (latest is " + std::to_string(latest) + ")");
  }
  const Checkpoint* best = nullptr;
  for (const Checkpoint& c : checkpoints) {
    if (c.version <= target) best = &c;
  }
  if (best == nullptr) {
    Result<Snapshot> replayed = ReplayLog(storage, table_root, target);
    if (!replayed.ok() && !incomplete.empty())
      return replayed.status().WithContext(incomplete.front());
    return replayed;
  }
  RLC_ASSIGN_OR_RETURN(Snapshot snapshot, ReadCheckpoint(storage, table_root, *best, reader));
  const std::set<int64_t> commits(listing.commit_versions.begin(), listing.commit_versions.end());
  for (int64_t v = best->version + 1; v <= target; ++v) {
    if (commits.count(v) == 0) {
      return Status::Corrupt(log_dir + ": version " + std::to_string(v) +
                             " is missing after the checkpoint at version " +
                             std::to_string(best->version));
    }
    RLC_ASSIGN_OR_RETURN(Commit commit, ReadCommit(storage, table_root, v));
    RLC_RETURN_IF_ERROR(ApplyCommit(commit, &snapshot).WithContext(log_dir));
  }
  return snapshot;
}

}  // namespace rlc::delta
