#include "cli/verify.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/heartbeat.h"
#include "cli/inspect.h"
#include "cli/junit.h"
#include "cli/sample_table.h"
#include "cli/scenario_html.h"
#include "cli/summary_text.h"
#include "cli/text_file.h"
#include "cli/version.h"
#include "fuzz/explorer/explorer.h"
#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"
#include "impl/audit/log_audit.h"
#include "proofs/catalogue.h"

namespace rlc::cli {
namespace {

// Compares one version's inspection with what the writer put there; returns the findings.
std::vector<std::string> CompareVersion(const ExpectedVersion& want, const InspectReport& got) {
  std::vector<std::string> findings;
  std::map<std::string, const InspectedFile*> by_path;
  for (const InspectedFile& f : got.files) by_path[f.path] = &f;
  for (const auto& [path, file] : want.files) {
    auto it = by_path.find(path);
    if (it == by_path.end()) {
      findings.push_back(fmt::format("version {}: file {} is missing", want.version, path));
      continue;
    }
    const InspectedFile& f = *it->second;
    if (f.num_records != file.num_records) {
      findings.push_back(fmt::format("version {}: {}: numRecords differs", want.version, path));
    }
    if (f.deleted_row_indexes != file.deleted.ToVector()) {
      findings.push_back(fmt::format("version {}: {}: deleted rows differ ({} expected, {} read)",
                                     want.version, path, file.deleted.Cardinality(),
                                     f.deleted_rows));
    }
    by_path.erase(it);
  }
  for (const auto& [path, f] : by_path) {
    findings.push_back(fmt::format("version {}: unexpected file {}", want.version, path));
  }
  if (got.live_rows != want.LiveRows()) {
    findings.push_back(fmt::format("version {}: {} live rows expected, {} read", want.version,
                                   want.LiveRows(), got.live_rows.value_or(-1)));
  }
  return findings;
}

// One check of the job, as the reports show it.
struct Check {
  std::string stage;  // sample-table, proof, scenario, explore
  std::string name;
  bool ok = true;
  double seconds = 0;
  std::string detail;    // what failed, or a short result
  std::string html;      // a failing history rendered for the HTML report (scenario_html.h), if any
  std::string markdown;  // the finding for report.md, if other than `detail` in a code block
  bool skipped = false;  // not run: the budget ran out first (neither held nor a finding)
};

constexpr char kNotRun[] = "not run: the budget ran out first";
// summary.json's layout (docs/json-output.md); raised when a key changes meaning or goes away.
constexpr int kSummarySchemaVersion = 1;

bool IsFinding(const Check& c) { return !c.ok && !c.skipped; }

// A failing history as the reports show it.
struct ExportedHistory {
  std::string html;      // a <section> for report.html
  std::string markdown;  // the same for report.md
};

// One folder per counterexample: the history (history.scenario), its report (report.txt) and the
// Delta table its replay wrote (table/: _delta_log, DV files and Parquet data files as the
// implementation wrote them). Returns the history as the reports show it, or the reason the
// folder could not be written.
ExportedHistory ExportCounterexample(const std::filesystem::path& folder,
                                     const scenario::Scenario& history,
                                     const std::string& history_text, const std::string& title,
                                     const std::string& replay_command) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(folder, ec);
  std::ofstream(folder / "history.scenario") << history_text;
  Result<scenario::ScenarioReport> r = scenario::RunScenario(history, (folder / "table").string());
  if (!r.ok()) {
    std::ofstream(folder / "report.txt")
        << "the replay could not run: " << r.status().ToString() << "\n";
    const std::string why = title + ": the replay could not run: " + r.status().ToString();
    return {"<p class=\"fail\">" + HtmlEscape(why) + "</p>", why + "\n"};
  }
  std::ofstream(folder / "report.txt")
      << scenario::RenderReport(*r, true) << "replay: " << replay_command << "\n";
  const std::string table = (folder / "table").string();
  return {RenderScenarioHtml(history, *r, title, replay_command) +
              "<p>Delta table as written: <code>" + HtmlEscape(table) + "</code></p>",
          RenderScenarioMarkdown(history, *r, title, replay_command) +
              "\nDelta table as written: `" + table + "`\n"};
}

// A failing obligation for the reports: its claim, bound and result, and the solver's
// counterexample decoded into the kernel's terms (inputs, then what the kernel computed).
std::string ProofFindingMarkdown(const proofs::ObligationOutcome& o) {
  std::string md =
      "Obligation `" + o.name + "`: " + o.result + " (" + o.bound + ")\n\n" + o.statement + "\n";
  if (!o.inputs.empty()) {
    md += "\n| inputs | value |\n|---|---|\n";
    for (const auto& [name, value] : o.inputs) md += "| " + name + " | " + value + " |\n";
    md += "\n| kernel computed | value |\n|---|---|\n";
    for (const auto& [name, value] : o.kernel_values) md += "| " + name + " | " + value + " |\n";
  } else if (!o.counterexample.empty()) {
    md += "\n" + o.counterexample + "\n";
  }
  return md;
}

std::string ProofFindingHtml(const proofs::ObligationOutcome& o) {
  std::string html = "<section class=\"proof\"><p>Obligation <code>" + HtmlEscape(o.name) +
                     "</code>: " + HtmlEscape(o.result + " (" + o.bound + ")") + "</p><p>" +
                     HtmlEscape(o.statement) + "</p>";
  auto table = [&](const char* heading,
                   const std::vector<std::pair<std::string, std::string>>& values) {
    html += std::string("<table class=\"model\"><tr><th>") + heading + "</th><th>value</th></tr>";
    for (const auto& [name, value] : values)
      html += "<tr><td>" + HtmlEscape(name) + "</td><td>" + HtmlEscape(value) + "</td></tr>";
    html += "</table>";
  };
  if (!o.inputs.empty()) {
    table("inputs", o.inputs);
    table("kernel computed", o.kernel_values);
  } else if (!o.counterexample.empty()) {
    html += "<pre>" + HtmlEscape(o.counterexample) + "</pre>";
  }
  return html + "</section>";
}

std::vector<std::string> ScenarioFiles(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".scenario")
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A finding's one-line message: the first line of what it says.
std::string FirstLine(const std::string& detail) {
  const std::string line = detail.substr(0, detail.find('\n'));
  return line.size() > 200 ? line.substr(0, 200) + "..." : line;
}

// What produced the run, as (name, value): the tool's version and commit, seed, budget, shard.
std::vector<std::pair<std::string, std::string>> Provenance(const nlohmann::ordered_json& summary) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* key : {"rlcVersion", "seed", "budgetSeconds", "shard", "jobs"}) {
    if (!summary.contains(key)) continue;
    const nlohmann::ordered_json& value = summary[key];
    out.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
  }
  return out;
}

std::string ProvenanceLine(const nlohmann::ordered_json& summary) {
  std::string line;
  for (const auto& [name, value] : Provenance(summary))
    line += (line.empty() ? "" : " · ") + name + " " + value;
  return line;
}

// junit.xml: one test case per check (a finding's message is its first line; a check not run is
// skipped), the run's provenance as properties.
void WriteJunit(const std::filesystem::path& dir, const std::vector<Check>& checks,
                const nlohmann::ordered_json& summary) {
  std::vector<JunitCase> cases;
  for (const Check& c : checks) {
    JunitCase jc{c.stage, c.name, c.seconds, c.ok, FirstLine(c.detail), c.detail, ""};
    jc.skipped = c.skipped;
    jc.skipped_message = c.skipped ? kNotRun : "";
    cases.push_back(std::move(jc));
  }
  std::ofstream(dir / "junit.xml") << JunitXml("rlc verify", cases, -1, Provenance(summary));
}

// report.html's style sheet.
constexpr char kReportStyle[] =
    "body{font-family:sans-serif;margin:2em}pre{background:#f4f4f4;padding:1em;overflow:auto}"
    ".ok{color:#176117}.fail{color:#a11}table{border-collapse:collapse}td,th{border:1px "
    "solid #ccc;padding:.3em .6em}"
    ".diff .add{color:#176117;background:#e6ffec}.diff "
    ".del{color:#a11;background:#ffebe9}td{vertical-align:top}"
    // Backgrounds found nowhere else, so a screenshot shows whether the timeline and the diff
    // rendered (tests/cli/report_screenshot_test.sh).
    "table.timeline th{background:#eef3fb}"
    // A drawn cycle or a wide timeline stays within the page, and so does a long word
    // (a finding named by its scenario file's path, a replay command): text wraps anywhere
    // but in tables, whose cells keep their words and scroll in their history's box.
    "svg{max-width:100%;height:auto}section.history{overflow-x:auto}"
    "body{overflow-wrap:anywhere}table{overflow-wrap:normal}";

void WriteReports(const std::filesystem::path& dir, const std::vector<Check>& checks,
                  const nlohmann::ordered_json& summary, const explorer::Summary* campaign) {
  int failed = 0, skipped = 0;
  for (const Check& c : checks) {
    failed += IsFinding(c) ? 1 : 0;
    skipped += c.skipped ? 1 : 0;
  }
  WriteJunit(dir, checks, summary);
  std::ofstream(dir / "summary.json") << summary.dump(2) << "\n";
  std::ostringstream md;
  const std::string headline =
      (failed == 0 ? std::string(skipped == 0 ? "Everything held." : "Everything that ran held.")
                   : std::to_string(failed) + " finding(s).") +
      (skipped == 0 ? ""
                    : " " + std::to_string(skipped) + " check(s) not run: the budget ran out.");
  md << "# rlc verify\n\n" << ProvenanceLine(summary) << "\n\n" << headline << "\n\n";
  md << "| stage | checks | findings | not run |\n|---|---:|---:|---:|\n";
  struct StageCounts {
    int checks = 0, findings = 0, not_run = 0;
  };
  std::map<std::string, StageCounts> per_stage;
  for (const Check& c : checks) {
    StageCounts& n = per_stage[c.stage];
    ++n.checks;
    n.findings += IsFinding(c) ? 1 : 0;
    n.not_run += c.skipped ? 1 : 0;
  }
  for (const auto& [stage, n] : per_stage)
    md << "| " << stage << " | " << n.checks << " | " << n.findings << " | " << n.not_run << " |\n";
  // Findings first: they are what a reviewer opens the report for.
  for (const Check& c : checks) {
    if (!IsFinding(c)) continue;
    md << "\n## Finding: " << c.stage << " " << c.name << "\n\n";
    md << (c.markdown.empty() ? "```\n" + c.detail + "\n```\n" : c.markdown);
  }
  if (campaign != nullptr)
    md << "\n## Explorer campaign\n\n```\n" << ExploreSummaryText(*campaign) << "```\n";
  std::ofstream(dir / "report.md") << md.str();
  std::ostringstream html;
  html << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>rlc verify</title><style>"
       << kReportStyle << "</style></head><body><h1>rlc verify</h1><p class=\"provenance\">"
       << HtmlEscape(ProvenanceLine(summary)) << "</p><p class=\""
       << (failed == 0 && skipped == 0 ? "ok" : "fail") << "\">" << HtmlEscape(headline)
       << "</p><table><tr><th>stage</th><th>checks</th><th>findings</th><th>not run</th></tr>";
  for (const auto& [stage, n] : per_stage)
    html << "<tr><td>" << stage << "</td><td>" << n.checks << "</td><td>" << n.findings
         << "</td><td>" << n.not_run << "</td></tr>";
  html << "</table>";
  for (const Check& c : checks) {
    if (!IsFinding(c)) continue;
    html << "<h2 class=\"fail\">Finding: " << HtmlEscape(c.stage + " " + c.name) << "</h2>";
    html << (c.html.empty() ? "<pre>" + HtmlEscape(c.detail) + "</pre>" : c.html);
  }
  if (campaign != nullptr)
    html << "<h2>Explorer campaign</h2><pre>" << HtmlEscape(ExploreSummaryText(*campaign))
         << "</pre>";
  html << "</body></html>\n";
  std::ofstream(dir / "report.html") << html.str();
}

}  // namespace

double ParseDuration(const std::string& text) {
  if (text.empty()) return -1;
  double unit = 1;
  std::string number = text;
  switch (text.back()) {
    case 's':
      unit = 1, number.pop_back();
      break;
    case 'm':
      unit = 60, number.pop_back();
      break;
    case 'h':
      unit = 3600, number.pop_back();
      break;
    default:
      break;
  }
  double v = 0;
  const auto [ptr, ec] = std::from_chars(number.data(), number.data() + number.size(), v);
  if (ec != std::errc() || ptr != number.data() + number.size() || v <= 0) return -1;
  return v * unit;
}

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// One run of the job: where it writes, what it found, the summary it builds.
struct VerifyRun {
  const VerifyOptions& options;
  std::filesystem::path out_dir;
  double budget = 0;
  std::chrono::steady_clock::time_point deadline;  // start + budget: no stage starts work after
  int shard_index = 0, shard_count = 1;
  std::vector<Check> checks;
  nlohmann::ordered_json summary;
};

// The options checked before any work: a bad one is a usage error (exit 2), not a finding.
bool PrepareRun(VerifyRun& v, std::ostream& err) {
  namespace fs = std::filesystem;
  const VerifyOptions& options = v.options;
  v.budget = ParseDuration(options.budget);
  if (v.budget <= 0) {
    err << "rlc verify: --budget " << options.budget
        << ": expected a duration such as 90s, 5m or 1h\n";
    return false;
  }
  const std::string& shard = options.shard;
  const size_t slash = shard.find('/');
  const bool shard_ok =
      slash != std::string::npos &&
      std::from_chars(shard.data(), shard.data() + slash, v.shard_index).ec == std::errc() &&
      std::from_chars(shard.data() + slash + 1, shard.data() + shard.size(), v.shard_count).ec ==
          std::errc();
  if (!shard_ok) {
    err << "rlc verify: --shard " << shard << ": expected I/N\n";
    return false;
  }
  // No scenario file is a usage error (a run outside the project root), not a finding.
  if (ScenarioFiles(options.scenarios_dir).empty()) {
    err << "rlc verify: no .scenario file in " << options.scenarios_dir
        << " (run from the project root, or give --scenarios DIR)\n";
    return false;
  }
  v.out_dir = options.out_dir;
  if (v.out_dir.empty()) {
    v.out_dir =
        fs::temp_directory_path() /
        fmt::format("rlc-verify-{}", std::chrono::system_clock::now().time_since_epoch().count());
  }
  std::error_code ec;
  fs::create_directories(v.out_dir, ec);
  if (ec) {
    err << "rlc verify: cannot create " << v.out_dir.string() << ": " << ec.message() << "\n";
    return false;
  }
  if (fs::exists(v.out_dir / "sample-table" / "_delta_log")) {
    err << "rlc verify: " << fs::absolute(v.out_dir / "sample-table").string()
        << " already holds a table; choose an empty --out folder\n";
    return false;
  }
  v.summary["schemaVersion"] = kSummarySchemaVersion;
  v.summary["rlcVersion"] = std::string(kVersion);
  v.summary["seed"] = options.seed;
  v.summary["budgetSeconds"] = v.budget;
  v.summary["shard"] = options.shard;
  v.summary["jobs"] = options.jobs;
  return true;
}

// 1. The sample table, read back version by version, then the audit rules.
void SampleTableStage(VerifyRun& v, std::ostream& out) {
  const auto stage_start = Clock::now();
  const size_t checks_before = v.checks.size();
  const std::string table = std::filesystem::absolute(v.out_dir / "sample-table").string();
  out << "rlc verify: [1/4] sample table in " << table << "\n";
  auto storage = storage::NewLocalStorage();
  Result<std::vector<ExpectedVersion>> expected = WriteSampleTable(*storage, table);
  if (!expected.ok()) {
    v.checks.push_back(
        {"sample-table", "write", false, Since(stage_start), expected.status().ToString(), "", ""});
  } else {
    for (const ExpectedVersion& want : *expected) {
      const auto t = Clock::now();
      InspectOptions inspect;
      inspect.version = want.version;
      inspect.with_row_indexes = true;
      Result<InspectReport> got = InspectTable(*storage, table, inspect);
      const std::vector<std::string> diffs =
          got.ok() ? CompareVersion(want, *got) : std::vector<std::string>{got.status().ToString()};
      std::string detail;
      for (const std::string& d : diffs) detail += d + "\n";
      v.checks.push_back({"sample-table", "version " + std::to_string(want.version), diffs.empty(),
                          Since(t), detail, "", ""});
    }
    const auto t = Clock::now();
    Result<audit::AuditReport> audit = audit::AuditLog(*storage, table, {});
    std::string detail = audit.ok() ? "" : audit.status().ToString();
    if (audit.ok()) {
      for (const audit::Finding& f : audit->findings) {
        detail += fmt::format("version {}: {}: {}: {}\n", f.version, f.rule, f.path, f.detail);
      }
    }
    v.checks.push_back({"sample-table", "audit", detail.empty(), Since(t), detail, "", ""});
  }
  v.summary["sampleTable"] = {{"checks", v.checks.size() - checks_before},
                              {"seconds", Since(stage_start)}};
}

// 2. The proofs. False when the prefix selects no obligation (a usage error).
bool ProofStage(VerifyRun& v, std::ostream& out, std::ostream& err) {
  const auto stage_start = Clock::now();
  out << "rlc verify: [2/4] proof obligations\n";
  nlohmann::ordered_json proofs = nlohmann::ordered_json::array();
  const std::vector<proofs::ObligationOutcome> outcomes =
      proofs::ProveObligations(v.options.proofs_prefix, v.options.jobs, v.deadline);
  if (outcomes.empty()) {
    err << "rlc verify: --proofs " << v.options.proofs_prefix
        << ": no obligation's name starts with it\n";
    return false;
  }
  for (const proofs::ObligationOutcome& o : outcomes) {
    if (!o.ran) {
      v.checks.push_back({"proof", o.name, false, 0, kNotRun, "", "", true});
      proofs.push_back({{"name", o.name}, {"result", o.result}});
      continue;
    }
    v.checks.push_back({"proof", o.name, o.ok, o.solver_ms / 1000,
                        o.result + " (" + o.bound + "): " + o.statement +
                            (o.counterexample.empty() ? "" : "\n" + o.counterexample),
                        o.ok ? "" : ProofFindingHtml(o), o.ok ? "" : ProofFindingMarkdown(o)});
    proofs.push_back(
        {{"name", o.name}, {"result", o.result}, {"bound", o.bound}, {"ms", o.solver_ms}});
  }
  v.summary["proofs"] = {{"obligations", proofs}, {"seconds", Since(stage_start)}};
  return true;
}

// 3. The scenario files; a failing one is exported as a counterexample folder.
void ScenarioStage(VerifyRun& v, std::ostream& out) {
  namespace fs = std::filesystem;
  const auto stage_start = Clock::now();
  const std::string& dir = v.options.scenarios_dir;
  const std::vector<std::string> files = ScenarioFiles(dir);
  out << "rlc verify: [3/4] " << files.size() << " scenario files in " << dir << "\n";
  int failed = 0;
  if (files.empty()) {
    v.checks.push_back(
        {"scenario", dir, false, 0,
         "no .scenario file there (run from the repository root, or give --scenarios DIR)", "",
         ""});
  }
  for (const std::string& file : files) {
    const auto t = Clock::now();
    if (t >= v.deadline) {
      v.checks.push_back({"scenario", file, false, 0, kNotRun, "", "", true});
      continue;
    }
    const std::string text = ReadTextFile(file).value_or("");
    Result<scenario::Scenario> parsed = scenario::ParseScenario(text, file);
    if (!parsed.ok()) {
      v.checks.push_back({"scenario", file, false, Since(t), parsed.status().message(), "", ""});
      ++failed;
      continue;
    }
    Result<scenario::ScenarioReport> r =
        scenario::RunScenario(*parsed, (v.out_dir / "scenario-work").string());
    const bool ok = r.ok() && r->passed();
    failed += ok ? 0 : 1;
    ExportedHistory exported;
    const std::string detail =
        r.ok() ? (ok ? "" : scenario::RenderReport(*r, true)) : r.status().ToString();
    if (r.ok() && !ok) {
      const fs::path folder =
          v.out_dir / "counterexamples" / ("scenario-" + fs::path(file).stem().string());
      // Replayed from the copy saved with its table, which stays as it failed.
      exported = ExportCounterexample(folder, *parsed, text, file,
                                      "rlc replay " + (folder / "history.scenario").string());
    }
    v.checks.push_back({"scenario", file, ok, Since(t), detail, exported.html, exported.markdown});
  }
  std::error_code ec;
  fs::remove_all(v.out_dir / "scenario-work", ec);
  v.summary["scenarios"] = {
      {"dir", dir}, {"files", files.size()}, {"failed", failed}, {"seconds", Since(stage_start)}};
}

// The campaign's counterexamples as the reports show them: each exported with its table.
void RecordCampaign(VerifyRun& v, const explorer::Summary& campaign, double seconds) {
  namespace fs = std::filesystem;
  std::string detail, html, markdown;
  for (const explorer::Counterexample& c : campaign.counterexamples) {
    detail += c.report + "replay: rlc replay " + c.file + "\n";
    Result<scenario::Scenario> s = scenario::ParseScenario(c.scenario, c.file);
    if (!s.ok()) continue;
    const fs::path folder = fs::path(c.file).parent_path() / fs::path(c.file).stem();
    detail += "table: " + (folder / "table").string() + "\n";
    const ExportedHistory exported =
        ExportCounterexample(folder, *s, ReadTextFile(c.file).value_or(""),
                             "counterexample " + std::to_string(c.history), "rlc replay " + c.file);
    html += exported.html;
    markdown += exported.markdown + "\n<details><summary>the explorer's report</summary>\n\n```\n" +
                c.report + "```\n</details>\n";
  }
  std::error_code ec;
  fs::remove_all(v.out_dir / "scenario-work", ec);
  v.checks.push_back({"explore", "campaign",
                      campaign.oracle_violations == 0 && campaign.determinism_mismatches == 0,
                      seconds, detail, html, markdown});
  v.summary["explore"] = nlohmann::json::parse(explorer::SummaryToJson(campaign));
  std::ofstream(v.out_dir / "explore-summary.json") << explorer::SummaryToJson(campaign) << "\n";
}

// 4. An explorer campaign for the rest of the budget, or for --explore-runs. With under a second
// left it does not run (a check not run, not a finding).
Result<explorer::Summary> ExploreStage(VerifyRun& v, std::ostream& out) {
  const VerifyOptions& options = v.options;
  const double left = std::chrono::duration<double>(v.deadline - Clock::now()).count();
  if (options.explore_runs == 0 && left < 1) {
    out << "rlc verify: [4/4] explorer campaign: not run, the budget ran out\n";
    v.checks.push_back({"explore", "campaign", false, 0, kNotRun, "", "", true});
    return Status::OverLimit("the budget ran out before the campaign");
  }
  if (options.explore_runs > 0) {
    out << "rlc verify: [4/4] explorer campaign of " << options.explore_runs << " histories\n";
  } else {
    out << "rlc verify: [4/4] explorer campaign for " << static_cast<int64_t>(left) << " s\n";
  }
  explorer::ExploreOptions explore;
  explore.seconds = options.explore_runs > 0 ? 0 : left;
  explore.runs = options.explore_runs;
  explore.seed = options.seed;
  explore.jobs = options.jobs;
  explore.shard_index = v.shard_index;
  explore.shard_count = v.shard_count;
  explore.out_dir = (v.out_dir / "counterexamples").string();
  const auto t = Clock::now();
  Heartbeat heartbeat("  ", options.heartbeat_seconds);
  Result<explorer::Summary> campaign = explorer::Explore(explore, [&](const explorer::Summary& s) {
    heartbeat.Update(s.histories, s.oracle_violations, s.seconds);
  });
  heartbeat.Finish();
  if (!campaign.ok()) {
    v.checks.push_back(
        {"explore", "campaign", false, Since(t), campaign.status().ToString(), "", ""});
  } else {
    RecordCampaign(v, *campaign, Since(t));
  }
  return campaign;
}

}  // namespace

int RunVerify(const VerifyOptions& options, std::ostream& out, std::ostream& err) {
  const auto started = Clock::now();
  VerifyRun v{options, {}, 0, {}, 0, 1, {}, {}};
  if (!PrepareRun(v, err)) return 2;
  v.deadline = started +
               std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(v.budget));
  SampleTableStage(v, out);
  if (!ProofStage(v, out, err)) return 2;
  ScenarioStage(v, out);
  const Result<explorer::Summary> campaign = ExploreStage(v, out);
  int findings = 0, not_run = 0;
  for (const Check& c : v.checks) {
    findings += IsFinding(c) ? 1 : 0;
    not_run += c.skipped ? 1 : 0;
  }
  v.summary["checks"] = v.checks.size();
  v.summary["findings"] = findings;
  v.summary["notRun"] = not_run;
  nlohmann::ordered_json finding_list = nlohmann::ordered_json::array();
  for (const Check& c : v.checks) {
    if (IsFinding(c))
      finding_list.push_back(
          {{"stage", c.stage}, {"name", c.name}, {"message", FirstLine(c.detail)}});
  }
  v.summary["findingList"] = finding_list;
  v.summary["seconds"] = Since(started);
  WriteReports(v.out_dir, v.checks, v.summary, campaign.ok() ? &*campaign : nullptr);
  for (const Check& c : v.checks) {
    if (IsFinding(c)) out << "  FINDING " << c.stage << " " << c.name << "\n";
  }
  out << fmt::format("rlc verify: {} checks, {} findings, {:.1f} s; reports in {}\n",
                     v.checks.size(), findings, Since(started), v.out_dir.string());
  if (findings > 0) return 1;
  if (not_run > 0) {
    // Not a pass: what did not run was not verified. The budget is a ceiling; say what it left out.
    err << fmt::format(
        "rlc verify: --budget {} ran out before {} check(s) could run (the reports list them as "
        "not run); the stages that ran took {:.0f} s here. Give a larger --budget, or fewer "
        "obligations with --proofs PREFIX.\n",
        options.budget, not_run, Since(started));
    return 2;
  }
  return 0;
}

}  // namespace rlc::cli
