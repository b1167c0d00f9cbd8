// The `rlc` command-line tool: one executable, one subcommand per job.
//
// Exit codes: 0 success; 1 a check found something (verify); 2 bad input or a usage error, with
// a message on stderr naming what and where.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "cli/audit.h"
#include "cli/check.h"
#include "cli/inspect.h"
#include "cli/scenario.h"
#include "cli/verify.h"
#include "impl/storage/storage.h"

namespace {

int RunInspect(const std::string& table, std::optional<int64_t> version, bool rows, bool json,
               const std::string& dv_file_prefix) {
  auto storage = rlc::storage::NewLocalStorage();
  rlc::cli::InspectOptions options;
  options.version = version;
  options.with_row_indexes = rows;
  options.dv.file_name_prefix = dv_file_prefix;
  std::string root = table;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  rlc::Result<rlc::cli::InspectReport> report = rlc::cli::InspectTable(*storage, root, options);
  if (!report.ok()) {
    std::cerr << "rlc inspect: " << report.status().ToString() << "\n";
    return 2;
  }
  std::cout << (json ? rlc::cli::RenderInspectJson(*report, rows)
                     : rlc::cli::RenderInspectText(root, *report, rows));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rlc: row-level concurrency for Delta Lake, and the harness that verifies it"};
  app.require_subcommand(1);

  std::string table;
  int64_t version = -1;
  bool rows = false, json = false;
  std::string dv_file_prefix;
  CLI::App* inspect = app.add_subcommand("inspect", "Show a table's snapshot with every DV decoded");
  inspect->add_option("TABLE_DIR", table, "Table root (the folder holding _delta_log)")->required();
  inspect->add_option("--version", version, "Version to show (default: latest)")->check(CLI::NonNegativeNumber);
  inspect->add_flag("--rows", rows, "List the deleted row indexes of each file");
  inspect->add_flag("--json", json, "Print one JSON object");
  inspect->add_option("--dv-file-prefix", dv_file_prefix,
                      "Name prefix of UUID-named DV files (Delta's test tables use 'test%dv%prefix-')");

  rlc::cli::CheckOptions check_options;
  CLI::App* check = app.add_subcommand("check", "Run the conflict checker for a pending transaction");
  check->add_option("TABLE_DIR", check_options.table_dir, "Table root")->required();
  check->add_option("--txn", check_options.txn_file, "Pending transaction (JSON)")->required();
  check->add_option("--flag", check_options.flags, "A flag, NAME=VALUE (repeatable)");
  check->add_flag("--json", check_options.json, "Print one JSON object");
  check->add_option("--dv-file-prefix", check_options.dv_file_prefix,
                    "Put before deletion_vector_<uuid>.bin when resolving DV files");
  check->add_option("--write-dvs", check_options.write_dvs,
                    "Write the DVs the cases rebuild into DIR (the table root gives 'u' descriptors)");

  rlc::cli::VerifyOptions verify_options;
  rlc::cli::AuditOptions audit_options;
  CLI::App* audit = app.add_subcommand("audit", "Check the invariants of every commit of a table's log");
  audit->add_option("TABLE_DIR", audit_options.table_dir, "Table root")->required();
  audit->add_flag("--json", audit_options.json, "Print one JSON object");
  audit->add_option("--dv-file-prefix", audit_options.dv_file_prefix,
                    "Put before deletion_vector_<uuid>.bin when resolving DV files");

  rlc::cli::ScenarioOptions scenario_options;
  CLI::App* scenario = app.add_subcommand("scenario", "Run scenario files (a history each) through the checker and the oracle");
  scenario->add_option("FILE", scenario_options.paths, "Scenario files, or folders of *.scenario files")->required();
  scenario->add_flag("--json", scenario_options.json, "Print one JSON object");
  scenario->add_flag("--verbose", scenario_options.verbose, "Print the timeline and checks of passing scenarios too");
  scenario->add_option("--keep", scenario_options.keep_dir, "Keep each scenario's table under DIR");

  CLI::App* verify = app.add_subcommand("verify", "Run the verification job");
  verify->add_option("--out", verify_options.out_dir, "Folder for the sample table and results");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (*inspect) {
    return RunInspect(table, version >= 0 ? std::optional<int64_t>(version) : std::nullopt, rows,
                      json, dv_file_prefix);
  }
  if (*check) return rlc::cli::RunCheck(check_options, std::cout, std::cerr);
  if (*audit) return rlc::cli::RunAudit(audit_options, std::cout, std::cerr);
  if (*scenario) return rlc::cli::RunScenarios(scenario_options, std::cout, std::cerr);
  if (*verify) return rlc::cli::RunVerify(verify_options, std::cout, std::cerr);
  return 2;
}
