// The `rlc` command-line tool: one executable, one subcommand per job.
//
// Exit codes: 0 success; 1 a check found something (verify); 2 bad input or a usage error, with
// a message on stderr naming what and where.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>

#include "cli/audit.h"
#include "cli/check.h"
#include "cli/explore.h"
#include "cli/inspect.h"
#include "cli/mutants.h"
#include "cli/prove.h"
#include "cli/race.h"
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

  rlc::cli::ExploreCommand explore_command;
  CLI::App* explore = app.add_subcommand("explore", "Generate concurrent histories and check each with the oracle");
  explore->add_option("--runs", explore_command.runs, "Histories to run (in this shard)")->check(CLI::PositiveNumber);
  explore->add_option("--seconds", explore_command.seconds, "Time budget")->check(CLI::PositiveNumber);
  explore->add_option("--seed", explore_command.seed, "Campaign seed (default 1)");
  explore->add_option("--jobs", explore_command.jobs, "Worker threads")->check(CLI::Range(1, 256));
  explore->add_option("--shard", explore_command.shard, "I/N: run this shard of the campaign");
  explore->add_option("--flags", explore_command.flags, "Flags transactions may draw (default: all six)")->delimiter(',');
  explore->add_option("--max-writers", explore_command.max_writers, "Concurrent transactions per history, 2..W");
  explore->add_option("--out", explore_command.out_dir, "Save counterexamples and summary.json here");
  explore->add_flag("--json", explore_command.json, "Print the summary as one JSON object");
  explore->add_flag("--require-coverage", explore_command.require_coverage, "Fail when a required count is 0");
  explore->add_flag("--exhaustive", explore_command.exhaustive, "Run the exhaustive small scope (or a slice: --runs)");
  explore->add_option("--exhaustive-writers", explore_command.exhaustive_writers, "2 or 3")->check(CLI::Range(2, 3));
  std::vector<std::string> merge_files;
  bool merge_json = false;
  CLI::App* explore_merge = explore->add_subcommand("merge", "Merge shards' summary.json files");
  explore_merge->add_option("SUMMARY", merge_files, "Shards' summaries")->required();
  explore_merge->add_flag("--json", merge_json, "Print one JSON object");
  std::string replay_file;
  CLI::App* replay = app.add_subcommand("replay", "Replay a saved counterexample (a scenario file), verbosely");
  replay->add_option("FILE", replay_file, "Scenario file")->required();
  std::string replay_export;
  replay->add_option("--export", replay_export,
                     "Leave the replay's table in DIR (absent or empty): _delta_log, DV files, row files");

  rlc::cli::MutantsCommand mutants_command;
  CLI::App* mutants = app.add_subcommand("mutants", "Run the explorer against each mutant (a -DRLC_MUTANTS=ON build)");
  mutants->add_option("--seconds-each", mutants_command.seconds_each, "Time budget per mutant")->check(CLI::PositiveNumber);
  mutants->add_option("--seed", mutants_command.seed, "Campaign seed");
  mutants->add_option("--jobs", mutants_command.jobs, "Worker threads")->check(CLI::Range(1, 256));
  mutants->add_option("--only", mutants_command.only, "Mutants to run (names)")->delimiter(',');
  mutants->add_flag("--json", mutants_command.json, "Print one JSON object");

  rlc::race::RaceOptions race_options;
  bool race_json = false;
  CLI::App* race = app.add_subcommand("race", "K processes commit to one new table at once; the oracle judges it");
  race->add_option("DIR", race_options.dir, "Folder for the table (empty or absent)")->required();
  race->add_option("--case", race_options.race_case, "2, 3, 1, 4a, 4b or mixed");
  race->add_option("--procs", race_options.procs, "Processes")->check(CLI::Range(2, 64));
  race->add_option("--seconds", race_options.seconds, "How long they race")->check(CLI::PositiveNumber);
  race->add_option("--seed", race_options.seed, "Seed of the operations");
  race->add_flag("--foreign", race_options.foreign, "The last process writes like another engine");
  race->add_option("--kill-after-ms", race_options.kill_after_ms, "SIGKILL process 0 after N ms");
  std::string race_isolation = "Serializable";
  race->add_option("--isolation", race_isolation, "The table's isolation level")
      ->check(CLI::IsMember({"Serializable", "WriteSerializable"}));
  race->add_flag("--json", race_json, "Print one JSON object");

  rlc::cli::ProveCommand prove_command;
  CLI::App* prove = app.add_subcommand("prove", "Check the SMT obligations over the shipped kernels with Z3");
  prove->add_option("--case", prove_command.case_prefix, "Only obligations whose name starts with this (e.g. case2, 4a)");
  prove->add_flag("--json", prove_command.json, "Print one JSON object");
  prove->add_option("--junit", prove_command.junit_file, "Write a JUnit XML file");
  prove->add_option("--jobs", prove_command.jobs, "Solver threads (one obligation each)")->check(CLI::Range(1, 64));
  prove->add_flag("--mutants", prove_command.mutants, "Which obligations refute each kernel mutant (a mutants build)");

  CLI::App* verify = app.add_subcommand("verify", "Run the verification job");
  verify->add_option("--out", verify_options.out_dir, "Folder for the sample table and results");
  verify->add_option("--budget", verify_options.budget, "Time budget, e.g. 90s, 5m (default 60s)");
  verify->add_option("--seed", verify_options.seed, "Explorer campaign seed");
  verify->add_option("--jobs", verify_options.jobs, "Threads for the proofs and the explorer")->check(CLI::Range(1, 256));
  verify->add_option("--proofs", verify_options.proofs_prefix, "Only obligations whose name starts with this");
  verify->add_option("--shard", verify_options.shard, "I/N: this shard of the explorer campaign");
  verify->add_option("--scenarios", verify_options.scenarios_dir, "Folder of scenario files (default tests/scenarios)");
  verify->add_option("--explore-runs", verify_options.explore_runs, "Run this many histories instead of the budget")
      ->check(CLI::PositiveNumber);

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
  if (*explore_merge) return rlc::cli::RunExploreMerge(merge_files, merge_json, std::cout, std::cerr);
  if (*explore) return rlc::cli::RunExplore(explore_command, std::cout, std::cerr);
  if (*prove) return rlc::cli::RunProve(prove_command, std::cout, std::cerr);
  if (*race) {
    race_options.isolation = race_isolation == "WriteSerializable" ? rlc::model::IsolationLevel::kWriteSerializable
                                                                   : rlc::model::IsolationLevel::kSerializable;
    return rlc::cli::RunRaceCommand(race_options, race_json, std::cout, std::cerr);
  }
  if (*mutants) return rlc::cli::RunMutants(mutants_command, std::cout, std::cerr);
  if (*replay) return rlc::cli::RunReplay(replay_file, replay_export, std::cout, std::cerr);
  if (*scenario) return rlc::cli::RunScenarios(scenario_options, std::cout, std::cerr);
  if (*verify) return rlc::cli::RunVerify(verify_options, std::cout, std::cerr);
  return 2;
}
