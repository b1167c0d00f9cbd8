#include "cli/check.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "impl/conflict/checker.h"
#include "impl/conflict/table_files.h"
#include "impl/delta/commit_writer.h"
#include "impl/storage/storage.h"

namespace rlc::cli {
namespace {

std::string RenderJson(const conflict::Verdict& v) {
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
    out["abort"] = abort;
  }
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const conflict::Event& e : v.events) {
    events.push_back({{"name", e.name}, {"winnerVersion", e.winner_version}, {"data", e.data}});
  }
  out["events"] = events;
  nlohmann::ordered_json actions = nlohmann::ordered_json::array();
  for (const delta::Action& a : v.actions) {
    nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(delta::WriteActionLine(a));
    actions.push_back(std::move(parsed));
  }
  out["actions"] = actions;
  return out.dump() + "\n";
}

std::string RenderText(const conflict::Verdict& v) {
  std::string out;
  if (v.abort.has_value()) {
    out += "ABORT: " + conflict::Describe(*v.abort) + "\n";
  } else {
    out += fmt::format("COMMIT: checked winners through version {}\n", v.checked_through_version);
  }
  for (const conflict::Event& e : v.events) {
    out += fmt::format("event {} (winner version {})\n", e.name, e.winner_version);
  }
  if (v.commits()) {
    out += "actions to commit:\n";
    for (const delta::Action& a : v.actions) out += "  " + delta::WriteActionLine(a) + "\n";
  }
  return out;
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
  // DVs come from the table's storage; rows cannot be read here (Parquet), so the cases that need
  // rows keep their conflicts.
  const conflict::StorageTableFiles files(*storage, root, delta::DvLoadOptions{options.dv_file_prefix});
  Result<conflict::Verdict> verdict = conflict::CheckConflictsAgainstLog(*storage, root, *loser, &files);
  if (!verdict.ok()) {
    err << "rlc check: " << verdict.status().ToString() << "\n";
    return 2;
  }
  out << (options.json ? RenderJson(*verdict) : RenderText(*verdict));
  return verdict->commits() ? 0 : 1;
}

}  // namespace rlc::cli
