#include "cli/check.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>

#include <nlohmann/json.hpp>

#include "impl/conflict/checker.h"
#include "impl/conflict/partition_filter.h"
#include "impl/conflict/table_files.h"
#include "impl/delta/checkpoint.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"
#include "impl/parquet/checkpoint_actions.h"
#include "impl/parquet/parquet_table_files.h"
#include "impl/storage/storage.h"

namespace rlc::cli {
namespace {

// The DV files the rebased actions name: written (--write-dvs) or only held in memory.
struct DvFiles {
  std::vector<std::string> paths;
  bool written = false;
};

std::string RenderJson(const conflict::Verdict& v, const DvFiles& dv_files) {
  nlohmann::ordered_json out;
  out["verdict"] = v.commits() ? "commit" : "abort";
  out["checkedThroughVersion"] = v.checked_through_version;
  if (v.abort.has_value()) {
    const conflict::Abort& a = *v.abort;
    nlohmann::ordered_json abort;
    abort["exception"] = conflict::ExceptionName(a.kind);
    abort["winnerVersion"] = a.winner_version;
    abort["winnerOperation"] = a.winner_operation;
    abort["path"] = a.path.has_value() ? nlohmann::ordered_json(*a.path) : nullptr;
    abort["partition"] = a.partition.has_value() ? nlohmann::ordered_json(*a.partition) : nullptr;
    abort["reason"] = a.reason;
    abort["errorClass"] = conflict::DeltaErrorClass(a.kind);
    abort["sqlState"] = conflict::DeltaSqlState(a.kind);
    abort["deltaMessage"] = conflict::DeltaErrorMessage(a);
    abort["conflictingCommit"] =
        a.conflicting_commit.has_value()
            ? nlohmann::ordered_json::parse(*a.conflicting_commit, nullptr, false)
            : nlohmann::ordered_json(nullptr);
    out["abort"] = abort;
  }
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const conflict::Event& e : v.events) {
    events.push_back({{"name", e.name}, {"winnerVersion", e.winner_version}, {"data", e.data}});
  }
  out["events"] = events;
  nlohmann::ordered_json declines = nlohmann::ordered_json::array();
  for (const conflict::Decline& d : v.declines) {
    declines.push_back({{"case", d.case_id},
                        {"winnerVersion", d.winner_version},
                        {"path", d.path.empty() ? nlohmann::ordered_json(nullptr)
                                                : nlohmann::ordered_json(d.path)},
                        {"reason", d.reason}});
  }
  out["declines"] = declines;
  nlohmann::ordered_json actions = nlohmann::ordered_json::array();
  for (const delta::Action& a : v.actions) {
    nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(delta::WriteActionLine(a));
    actions.push_back(std::move(parsed));
  }
  out["actions"] = actions;
  out["dvFiles"] = dv_files.paths;
  out["dvFilesWritten"] = dv_files.written;
  return out.dump() + "\n";
}

std::string RenderText(const conflict::Verdict& v, const DvFiles& dv_files) {
  std::string out;
  if (v.abort.has_value()) {
    out += "ABORT: " + conflict::Describe(*v.abort) + "\n";
    out += "as Delta raises it:\n";
    const std::string delta_message = conflict::DeltaErrorMessage(*v.abort);
    for (std::string_view rest = delta_message; !rest.empty();) {
      const size_t nl = rest.find('\n');
      out += "  " + std::string(rest.substr(0, nl)) + "\n";
      rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
  } else {
    out += fmt::format("COMMIT: checked winners through version {}\n", v.checked_through_version);
  }
  for (const conflict::Event& e : v.events) {
    out += fmt::format("event {} (winner version {})\n", e.name, e.winner_version);
  }
  for (const conflict::Decline& d : v.declines) {
    out += fmt::format("case {} declined (winner version {}){}: {}\n", d.case_id, d.winner_version,
                       d.path.empty() ? "" : " " + d.path, d.reason);
  }
  if (v.commits()) {
    out += "actions to commit:\n";
    for (const delta::Action& a : v.actions) out += "  " + delta::WriteActionLine(a) + "\n";
  }
  if (!dv_files.paths.empty()) {
    out +=
        dv_files.written
            ? "DV files written:\n"
            : "DV files the actions name, held in memory (pass --write-dvs DIR to write them):\n";
    for (const std::string& p : dv_files.paths) out += "  " + p + "\n";
  }
  return out;
}

// The table's files as the check may read them: every data file of the read snapshot and of
// every winner, rows from Parquet. A winner commit that cannot be read here leaves the files after
// it unreadable (the cases that need their rows keep their conflicts); the check itself reports
// what is wrong with that commit, as it reads the same bytes.
std::unique_ptr<conflict::TableFiles> DataFilesFor(const storage::Storage& storage,
                                                   const std::string& root,
                                                   const delta::Snapshot& read,
                                                   const delta::DvLoadOptions& dv_options) {
  Result<std::unique_ptr<parquet::ParquetTableFiles>> files =
      parquet::ParquetTableFilesFor(storage, root, read, dv_options);
  if (!files.ok()) return std::make_unique<conflict::StorageTableFiles>(storage, root, dv_options);
  return std::move(*files);
}

// A read predicate that does not parse, or names no column of the read schema, is bad input: the
// checker would take it as a read of everything (on doubt, conflict), which hides the mistake.
Status ReadPredicatesBind(const conflict::PendingTransaction& loser, const delta::Snapshot& read) {
  if (loser.read_predicates.empty() || !read.metadata.has_value()) return Status::Ok();
  const conflict::ReadPredicateMatcher matcher(loser.read_predicates, *read.metadata);
  if (matcher.bound()) return Status::Ok();
  return Status::InvalidArgument("readPredicates: " + matcher.match_all_reason());
}

}  // namespace

int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  auto storage = storage::NewLocalStorage();
  Result<std::string> text = storage->ReadFile(options.txn_file);
  if (!text.ok()) {
    err << "rlc check: " << text.status().ToString() << "\n";
    return 2;
  }
  Result<conflict::PendingTransaction> loser = conflict::ParsePendingTransaction(*text);
  if (!loser.ok()) {
    err << "rlc check: " << options.txn_file << ": " << loser.status().ToString() << "\n";
    return 2;
  }
  for (const std::string& flag : options.flags) {
    Status s = loser->flags.SetFromAssignment(flag);
    if (!s.ok()) {
      err << "rlc check: --flag: " << s.ToString() << "\n";
      return 2;
    }
  }
  std::string root = options.table_dir;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  // DVs come from the table's storage and rows from its Parquet data files, for the cases that
  // judge rows (the exact tier, 1b, Case 2, 3 and 4's row checks). Rebuilt DVs stay in memory
  // unless --write-dvs names a directory (the table root gives Delta's 'u' descriptors, any other
  // directory absolute 'p' ones).
  const delta::DvLoadOptions dv_options{options.dv_file_prefix};
  // The read snapshot, from the newest checkpoint at or below the read version and the commits
  // after it (or from version 0 without one).
  const parquet::ArrowActionReader checkpoints;
  Result<delta::Snapshot> read =
      delta::ReplayLogWithCheckpoints(*storage, root, loser->read_version, checkpoints);
  if (!read.ok()) {
    err << "rlc check: " << read.status().ToString() << "\n";
    return 2;
  }
  if (const Status bound = ReadPredicatesBind(*loser, *read); !bound.ok()) {
    err << "rlc check: " << options.txn_file << ": " << bound.message() << "\n";
    return 2;
  }
  std::unique_ptr<conflict::TableFiles> data_files =
      DataFilesFor(*storage, root, *read, dv_options);
  const conflict::TableFiles& files = *data_files;
  storage::InMemoryStorage memory;
  std::string dv_dir = options.write_dvs.empty() ? root : options.write_dvs;
  while (dv_dir.size() > 1 && dv_dir.back() == '/') dv_dir.pop_back();
  conflict::StorageDvWriter dv_writer(
      options.write_dvs.empty() ? static_cast<storage::Storage&>(memory) : *storage, dv_dir, root);
  conflict::CheckEnvironment env;
  env.explain_declines = true;
  env.files = &files;
  env.dv_writer = &dv_writer;
  env.now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
  Result<conflict::Verdict> verdict =
      conflict::CheckConflictsAgainstLog(*storage, root, *loser, *read, env);
  if (!verdict.ok()) {
    err << "rlc check: " << verdict.status().ToString() << "\n";
    return 2;
  }
  const DvFiles dv_files{
      verdict->commits() ? dv_writer.written_files() : std::vector<std::string>{},
      !options.write_dvs.empty()};
  out << (options.json ? RenderJson(*verdict, dv_files) : RenderText(*verdict, dv_files));
  return verdict->commits() ? 0 : 1;
}

}  // namespace rlc::cli
