#include "cli/audit.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "impl/audit/log_audit.h"
#include "impl/parquet/checkpoint_actions.h"

namespace rlc::cli {

int RunAudit(const AuditOptions& options, std::ostream& out, std::ostream& err) {
  auto storage = storage::NewLocalStorage();
  std::string root = options.table_dir;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  const parquet::ArrowActionReader checkpoints;
  Result<audit::AuditReport> report =
      audit::AuditLog(*storage, root, delta::DvLoadOptions{options.dv_file_prefix}, &checkpoints);
  if (!report.ok()) {
    err << "rlc audit: " << report.status().ToString() << "\n";
    return 2;
  }
  const audit::AuditReport& r = *report;
  if (options.json) {
    nlohmann::ordered_json j;
    j["clean"] = r.findings.empty();
    j["versionsChecked"] = r.versions_checked;
    j["fromCheckpoint"] =
        r.from_checkpoint ? nlohmann::ordered_json(*r.from_checkpoint) : nlohmann::ordered_json();
    j["dvsChecked"] = r.dvs_checked;
    j["tagGroupsChecked"] = r.tag_groups_checked;
    j["tagGroupsTiled"] = r.tag_groups_tiled;
    j["noDataChangeCommits"] = r.no_data_change_commits;
    j["noDataChangeCommitsUncounted"] = r.no_data_change_commits_uncounted;
    nlohmann::ordered_json findings = nlohmann::ordered_json::array();
    for (const audit::Finding& f : r.findings) {
      findings.push_back(
          {{"version", f.version}, {"rule", f.rule}, {"path", f.path}, {"detail", f.detail}});
    }
    j["findings"] = findings;
    out << j.dump() << "\n";
  } else {
    for (const audit::Finding& f : r.findings) {
      out << fmt::format("version {}: {}: {}{}\n", f.version, f.rule,
                         f.path.empty() ? "" : f.path + ": ", f.detail);
    }
    out << fmt::format(
        "{}: {} versions, {} DVs, {} composition tag groups ({} tiled), {} dataChange=false "
        "commits ({} not "
        "countable for lack of numRecords); {} finding(s)\n",
        r.findings.empty() ? "CLEAN" : "FINDINGS", r.versions_checked, r.dvs_checked,
        r.tag_groups_checked, r.tag_groups_tiled, r.no_data_change_commits,
        r.no_data_change_commits_uncounted, r.findings.size());
    if (r.from_checkpoint) {
      out << fmt::format("(from the checkpoint at version {}: the JSON before it is gone)\n",
                         *r.from_checkpoint);
    }
  }
  return r.findings.empty() ? 0 : 1;
}

}  // namespace rlc::cli
