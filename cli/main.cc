// The `rlc` command-line tool: one executable, one subcommand per job.
//
// Exit codes: 0 success; 1 a check found something (verify); 2 bad input or a usage error, with
// a message on stderr naming what and where.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/audit.h"
#include "cli/check.h"
#include "cli/explore.h"
#include "cli/inspect.h"
#include "cli/json_error.h"
#include "cli/mutants_command.h"
#include "cli/predicates_command.h"
#include "cli/prove.h"
#include "cli/race_command.h"
#include "cli/scenario_command.h"
#include "cli/verify.h"
#include "cli/version.h"
#include "impl/conflict/case_catalogue.h"
#include "impl/storage/storage.h"

namespace {

using rlc::cli::ExploreCommand;

// Whole numbers at least `least`, with a message a user can read (CLI11's own range checks print
// the largest double in full).
CLI::Validator AtLeast(int64_t least) {
  return CLI::Validator(
      [least](std::string& text) -> std::string {
        int64_t value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (ec != std::errc() || end != text.data() + text.size() || value < least)
          return "'" + text + "' is not a whole number of at least " + std::to_string(least);
        return "";
      },
      least == 0 ? "N>=0" : "N>=" + std::to_string(least));
}

// Positive numbers, fractions allowed (a number of seconds).
CLI::Validator PositiveSeconds() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !(value > 0))
          return "'" + text + "' is not a positive number of seconds";
        return "";
      },
      "SECONDS>0");
}

// A subcommand and what runs it once its options are parsed.
struct Command {
  CLI::App* app;
  std::function<int()> run;
};

struct InspectArgs {
  std::string table;
  int64_t version = -1;
  bool rows = false, json = false;
  std::string dv_file_prefix;
};

int RunInspect(const InspectArgs& a) {
  auto storage = rlc::storage::NewLocalStorage();
  rlc::cli::InspectOptions options;
  if (a.version >= 0) options.version = a.version;
  options.with_row_indexes = a.rows;
  options.with_row_values = a.rows;
  options.dv.file_name_prefix = a.dv_file_prefix;
  std::string root = a.table;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  rlc::Result<rlc::cli::InspectReport> report = rlc::cli::InspectTable(*storage, root, options);
  if (!report.ok()) {
    std::cerr << "rlc inspect: " << report.status().ToString() << "\n";
    return 2;
  }
  std::cout << (a.json ? rlc::cli::RenderInspectJson(*report, a.rows)
                       : rlc::cli::RenderInspectText(root, *report, a.rows));
  return 0;
}

Command AddInspect(CLI::App& app) {
  auto a = std::make_shared<InspectArgs>();
  CLI::App* inspect =
      app.add_subcommand("inspect", "Show a table's snapshot with every DV decoded");
  inspect->add_option("TABLE_DIR", a->table, "Table root (the folder holding _delta_log)")
      ->required();
  inspect->add_option("--version", a->version, "Version to show (default: latest)")
      ->check(AtLeast(0));
  inspect->add_flag("--rows", a->rows, "List the deleted row indexes of each file");
  inspect->add_flag("--json", a->json, "Print one JSON object");
  inspect->add_option(
      "--dv-file-prefix", a->dv_file_prefix,
      "Name prefix of UUID-named DV files (Delta's test tables use 'test%dv%prefix-')");
  return {inspect, [a] { return RunInspect(*a); }};
}

Command AddCheck(CLI::App& app) {
  auto o = std::make_shared<rlc::cli::CheckOptions>();
  CLI::App* check =
      app.add_subcommand("check", "Run the conflict checker for a pending transaction");
  check->add_option("TABLE_DIR", o->table_dir, "Table root")->required();
  check->add_option("--txn", o->txn_file, "Pending transaction (JSON)")->required();
  check->add_option("--flag", o->flags, "A flag, NAME=VALUE (repeatable)");
  check->add_flag("--json", o->json, "Print one JSON object");
  check->add_option("--dv-file-prefix", o->dv_file_prefix,
                    "Put before deletion_vector_<uuid>.bin when resolving DV files");
  check->add_option(
      "--write-dvs", o->write_dvs,
      "Write the DVs the cases rebuild into DIR (the table root gives 'u' descriptors)");
  return {check, [o] { return rlc::cli::RunCheck(*o, std::cout, std::cerr); }};
}

Command AddAudit(CLI::App& app) {
  auto o = std::make_shared<rlc::cli::AuditOptions>();
  CLI::App* audit =
      app.add_subcommand("audit", "Check the invariants of every commit of a table's log");
  audit->add_option("TABLE_DIR", o->table_dir, "Table root")->required();
  audit->add_flag("--json", o->json, "Print one JSON object");
  audit->add_option("--dv-file-prefix", o->dv_file_prefix,
                    "Put before deletion_vector_<uuid>.bin when resolving DV files");
  return {audit, [o] { return rlc::cli::RunAudit(*o, std::cout, std::cerr); }};
}

Command AddPredicates(CLI::App& app) {
  auto o = std::make_shared<rlc::cli::PredicatesOptions>();
  CLI::App* predicates = app.add_subcommand(
      "predicates", "Answer predicates over rows with rlc's row evaluator (a differential's half)");
  predicates->add_option("CASES", o->cases_file, "JSON lines of cases (- for stdin)")->required();
  return {predicates, [o] { return rlc::cli::RunPredicates(*o, std::cout, std::cerr); }};
}

Command AddScenario(CLI::App& app) {
  auto o = std::make_shared<rlc::cli::ScenarioOptions>();
  CLI::App* scenario = app.add_subcommand(
      "scenario", "Run scenario files (a history each) through the checker and the oracle");
  scenario->add_option("FILE", o->paths, "Scenario files, or folders of *.scenario files")
      ->required();
  scenario->add_flag("--json", o->json, "Print one JSON object");
  scenario->add_flag("--verbose", o->verbose,
                     "Print the timeline and checks of passing scenarios too");
  scenario->add_option("--keep", o->keep_dir, "Keep each scenario's table under DIR");
  return {scenario, [o] { return rlc::cli::RunScenarios(*o, std::cout, std::cerr); }};
}

// `explore` and its `merge` (listed first: a parsed merge is a parsed explore too).
std::vector<Command> AddExplore(CLI::App& app) {
  auto o = std::make_shared<ExploreCommand>();
  CLI::App* explore =
      app.add_subcommand("explore", "Generate concurrent histories and check each with the oracle");
  CLI::Option* runs =
      explore->add_option("--runs", o->runs, "Histories to run (in this shard)")->check(AtLeast(1));
  explore->add_option("--seconds", o->seconds, "Time budget (instead of --runs)")
      ->check(PositiveSeconds())
      ->excludes(runs);
  explore->add_option("--seed", o->seed, "Campaign seed (default 1)");
  explore
      ->add_option("--heartbeat", o->heartbeat_seconds,
                   "Seconds between progress lines when stderr is no terminal (0: none)")
      ->check(CLI::NonNegativeNumber);
  explore->add_option("--jobs", o->jobs, "Worker threads")->check(CLI::Range(1, 256));
  explore->add_option("--shard", o->shard, "I/N: run this shard of the campaign");
  explore
      ->add_option("--flags", o->flags,
                   "Flags transactions may draw (default: all six; none: every flag off)")
      ->delimiter(',');
  // Up to 6: the oracle then tries every serial order (6! = 720, under its cap of 5,000) and its
  // verdict on the rows is never cut short.
  explore
      ->add_option("--max-writers", o->max_writers, "Concurrent transactions per history, 2 to 6")
      ->check(CLI::Range(2, 6).description("2..6"));
  explore
      ->add_option("--oracle-max-orders", o->oracle_max_orders,
                   "Serial orders the oracle tries before its verdict on a history's rows is "
                   "inconclusive (counted apart, not a violation)")
      ->check(AtLeast(1));
  explore->add_option("--out", o->out_dir, "Save counterexamples and summary.json here");
  explore->add_flag("--json", o->json, "Print the summary as one JSON object");
  explore->add_flag("--require-coverage", o->require_coverage, "Fail when a required count is 0");
  explore->add_flag("--exhaustive", o->exhaustive,
                    "Run the exhaustive small scope (or a slice: --runs)");
  explore->add_option("--write-histories", o->write_histories,
                      "Write the histories (--runs N) to DIR as scenario files; run none");
  explore->add_option("--write-anomalies", o->write_anomalies,
                      "After the run, write the histories filed as Delta's own to DIR (baseline "
                      "anomalies with every flag off), for tests/engines to judge");
  explore->add_option("--exhaustive-writers", o->exhaustive_writers, "2 or 3")
      ->check(CLI::Range(2, 3));
  auto merge_files = std::make_shared<std::vector<std::string>>();
  auto merge_json = std::make_shared<bool>(false);
  CLI::App* merge = explore->add_subcommand("merge", "Merge shards' summary.json files");
  merge->add_option("SUMMARY", *merge_files, "Shards' summaries")->required();
  merge->add_flag("--json", *merge_json, "Print one JSON object");
  return {{merge,
           [merge_files, merge_json] {
             return rlc::cli::RunExploreMerge(*merge_files, *merge_json, std::cout, std::cerr);
           }},
          {explore, [o] { return rlc::cli::RunExplore(*o, std::cout, std::cerr); }}};
}

Command AddReplay(CLI::App& app) {
  auto file = std::make_shared<std::string>();
  auto export_dir = std::make_shared<std::string>();
  CLI::App* replay =
      app.add_subcommand("replay", "Replay a saved counterexample (a scenario file), verbosely");
  replay->add_option("FILE", *file, "Scenario file")->required();
  replay->add_option(
      "--export", *export_dir,
      "Leave the replay's table in DIR (absent or empty): _delta_log, DV files, Parquet data "
      "files");
  return {replay, [file, export_dir] {
            return rlc::cli::RunReplay(*file, *export_dir, std::cout, std::cerr);
          }};
}

Command AddMutants(CLI::App& app) {
  auto o = std::make_shared<rlc::cli::MutantsCommand>();
  CLI::App* mutants = app.add_subcommand(
      "mutants", "Run the explorer against each mutant (a -DRLC_MUTANTS=ON build)");
  mutants->add_option("--seconds-each", o->seconds_each, "Time budget per mutant")
      ->check(PositiveSeconds());
  mutants->add_option("--seed", o->seed, "Campaign seed");
  mutants->add_option("--jobs", o->jobs, "Worker threads")->check(CLI::Range(1, 256));
  mutants->add_option("--only", o->only, "Mutants to run (names)")->delimiter(',');
  mutants->add_flag("--json", o->json, "Print one JSON object");
  return {mutants, [o] { return rlc::cli::RunMutants(*o, std::cout, std::cerr); }};
}

struct RaceArgs {
  rlc::race::RaceOptions options;
  std::string isolation = "Serializable";
  bool json = false;
};

Command AddRace(CLI::App& app) {
  auto a = std::make_shared<RaceArgs>();
  CLI::App* race = app.add_subcommand(
      "race", "K processes commit to one new table at once; the oracle judges it");
  race->add_option("DIR", a->options.dir, "Folder for the table (empty or absent)")->required();
  race->add_option("--case", a->options.race_case, "2, 3, 1, 4a, 4b or mixed");
  race->add_option("--procs", a->options.procs, "rlc's processes (2..64; 1..64 with --engine)")
      ->check(CLI::Range(1, 64));
  race->add_option("--seconds", a->options.seconds, "How long they race")->check(PositiveSeconds());
  race->add_option("--seed", a->options.seed, "Seed of the operations");
  race->add_flag("--foreign", a->options.foreign, "The last process writes like another engine");
  race->add_option("--kill-after-ms", a->options.kill_after_ms, "SIGKILL process 0 after N ms");
  race->add_option("--isolation", a->isolation, "The table's isolation level")
      ->check(CLI::IsMember({"Serializable", "WriteSerializable"}));
  race->add_option("--rows", a->options.rows, "The table's rows at the start (64)")
      ->check(CLI::Range(int64_t{1}, int64_t{10000000}));
  race->add_option("--engine", a->options.engine, "Race a real engine too: delta-spark")
      ->check(CLI::IsMember({"delta-spark"}));
  race->add_option("--engine-procs", a->options.engine_procs, "The engine's processes (1)")
      ->check(CLI::Range(1, 4));
  race->add_option("--engine-racer", a->options.engine_racer,
                   "Command running one engine racer (tests/engines/delta_spark_racer.py)");
  race->add_option("--kill-engine-after-ms", a->options.kill_engine_after_ms,
                   "SIGKILL the first engine process after N ms");
  race->add_option("--engine-read-every", a->options.engine_read_every,
                   "The engine reads every Nth version and the last (1: every one)")
      ->check(CLI::Range(int64_t{1}, int64_t{1000000}));
  race->add_flag("--json", a->json, "Print one JSON object");
  return {race, [a] {
            a->options.isolation = a->isolation == "WriteSerializable"
                                       ? rlc::model::IsolationLevel::kWriteSerializable
                                       : rlc::model::IsolationLevel::kSerializable;
            return rlc::cli::RunRaceCommand(a->options, a->json, std::cout, std::cerr);
          }};
}

Command AddProve(CLI::App& app) {
  auto o = std::make_shared<rlc::cli::ProveCommand>();
  CLI::App* prove =
      app.add_subcommand("prove", "Check the SMT obligations over the shipped kernels with Z3");
  prove->add_option("--case", o->case_prefix,
                    "Only obligations whose name starts with this (e.g. case2, 4a)");
  prove->add_flag("--json", o->json, "Print one JSON object");
  prove->add_option("--junit", o->junit_file, "Write a JUnit XML file");
  prove->add_option("--jobs", o->jobs, "Solver threads (one obligation each)")
      ->check(CLI::Range(1, 64));
  prove->add_flag("--mutants", o->mutants,
                  "Which obligations refute each kernel mutant (a mutants build)");
  return {prove, [o] { return rlc::cli::RunProve(*o, std::cout, std::cerr); }};
}

Command AddVerify(CLI::App& app) {
  auto o = std::make_shared<rlc::cli::VerifyOptions>();
  CLI::App* verify = app.add_subcommand("verify", "Run the verification job");
  verify->add_option("--out", o->out_dir, "Folder for the sample table and results");
  verify->add_option("--budget", o->budget,
                     "Time budget for the whole run, a ceiling, e.g. 90s, 10m (default 5m)");
  verify->add_option("--seed", o->seed, "Explorer campaign seed");
  verify
      ->add_option("--heartbeat", o->heartbeat_seconds,
                   "Seconds between campaign progress lines when stderr is no terminal (0: none)")
      ->check(CLI::NonNegativeNumber);
  verify->add_option("--jobs", o->jobs, "Threads for the proofs and the explorer")
      ->check(CLI::Range(1, 256));
  verify->add_option("--proofs", o->proofs_prefix, "Only obligations whose name starts with this");
  verify->add_option("--shard", o->shard, "I/N: this shard of the explorer campaign");
  verify->add_option("--scenarios", o->scenarios_dir,
                     "Folder of scenario files (default tests/scenarios)");
  verify
      ->add_option("--explore-runs", o->explore_runs,
                   "Run this many histories instead of the budget")
      ->check(AtLeast(1));
  return {verify, [o] { return rlc::cli::RunVerify(*o, std::cout, std::cerr); }};
}

// RLC_MUTANT names a mutant of the catalogue, or the run would silently test the unmutated code.
bool MutantSelectionIsKnown() {
  const char* name = std::getenv("RLC_MUTANT");
  if (name == nullptr || *name == '\0' || rlc::conflict::FindMutant(name) != nullptr) return true;
  std::cerr << "rlc: RLC_MUTANT=" << name << " names no mutant (rlc mutants lists them)\n";
  return false;
}

// The edit distance of two words (insertions, deletions, substitutions).
size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// A first word that names no subcommand: say so, and which one it may have meant.
bool UnknownSubcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  const std::string word = argv[1];
  std::string nearest;
  size_t best = 3;  // at most two edits away
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub->get_name() == word) return false;
    const size_t d = EditDistance(word, sub->get_name());
    if (d < best) best = d, nearest = sub->get_name();
  }
  std::cerr << "rlc: '" << word << "' is not a subcommand"
            << (nearest.empty() ? "" : "; did you mean '" + nearest + "'?")
            << " (rlc --help lists them)\n";
  return true;
}

// The name a user typed for the command ("check", "explore merge").
std::string CommandName(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  const bool nested = parent != nullptr && parent->get_parent() != nullptr;
  return nested ? parent->get_name() + " " + app.get_name() : app.get_name();
}

// Runs the command; with --json, a failure on bad input (exit 2, nothing printed yet) also prints
// the error object on stdout (cli/json_error.h).
int RunCommand(const Command& c) {
  const CLI::Option* json = c.app->get_option_no_throw("--json");
  if (json == nullptr || json->count() == 0) return c.run();
  const rlc::cli::ErrorCapture capture;
  const int code = c.run();
  if (code != 2 || capture.wrote_stdout()) return code;
  std::cout << rlc::cli::JsonError(CommandName(*c.app), code, capture.stderr_text(), false);
  return code;
}

bool WantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--json") return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"rlc: row-level concurrency for Delta Lake, and the harness that verifies it"};
  app.require_subcommand(1);
  app.option_defaults()->always_capture_default();  // --help shows every option's default
  app.set_version_flag("--version", std::string("rlc ") + rlc::cli::kVersion,
                       "Print rlc's version and the commit it was built from");
  app.footer(
      "Exit codes: 0 success; 1 a check found something (verify, explore, race, scenario); 2 bad "
      "input or a usage error, named on stderr.");
  std::vector<Command> commands = {AddInspect(app), AddCheck(app), AddAudit(app),
                                   AddPredicates(app), AddScenario(app)};
  for (Command& c : AddExplore(app)) commands.push_back(std::move(c));
  for (Command c : {AddReplay(app), AddMutants(app), AddRace(app), AddProve(app), AddVerify(app)}) {
    commands.push_back(std::move(c));
  }
  if (UnknownSubcommand(app, argc, argv)) return 2;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    if (code != 0 && WantsJson(argc, argv))
      std::cout << rlc::cli::JsonError(argc > 1 ? argv[1] : "", 2, e.what(), true);
    return code == 0 ? 0 : 2;
  }
  if (!MutantSelectionIsKnown()) return 2;
  for (const Command& c : commands) {
    if (*c.app) return RunCommand(c);
  }
  return 2;
}
