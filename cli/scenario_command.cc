#include "cli/scenario_command.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/text_file.h"
#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"
#include "model/isolation/isolation.h"

namespace rlc::cli {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> ExpandPaths(const std::vector<std::string>& paths,
                                     std::vector<std::string>* errors) {
  std::vector<std::string> files;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
        if (entry.is_regular_file() && entry.path().extension() == ".scenario")
          found.push_back(entry.path().string());
      }
      if (ec) errors->push_back(path + ": cannot list the folder: " + ec.message());
      if (found.empty() && !ec) errors->push_back(path + ": the folder holds no .scenario file");
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, ec)) {
      files.push_back(path);
    } else {
      errors->push_back(path + ": no such file or folder");
    }
  }
  return files;
}

nlohmann::ordered_json RowsJson(const std::vector<std::vector<model::Value>>& rows) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& row : rows) {
    nlohmann::ordered_json r = nlohmann::ordered_json::array();
    for (const model::Value& v : row) {
      // Longs and finite doubles as JSON numbers, strings as strings, any other value as its
      // SQL literal ("TIMESTAMP '...Z'", "DATE '...'", "CAST('NaN' AS DOUBLE)").
      if (model::IsNull(v))
        r.push_back(nullptr);
      else if (const auto* n = std::get_if<int64_t>(&v))
        r.push_back(*n);
      else if (const auto* text = std::get_if<std::string>(&v))
        r.push_back(*text);
      else if (const auto* x = std::get_if<model::Double>(&v); x && std::isfinite(x->value))
        r.push_back(x->value);
      else if (const auto* b = std::get_if<model::Boolean>(&v))
        r.push_back(b->value);
      else
        r.push_back(model::ToString(v));
    }
    out.push_back(r);
  }
  return out;
}

nlohmann::ordered_json ReportJson(const scenario::ScenarioReport& r) {
  nlohmann::ordered_json j;
  j["file"] = r.file;
  j["title"] = r.title;
  j["passed"] = r.passed();
  j["isolation"] = model::IsolationLevelName(r.level);
  j["timeline"] = r.timeline;
  nlohmann::ordered_json txns = nlohmann::ordered_json::array();
  for (const scenario::TxnReport& t : r.txns) {
    nlohmann::ordered_json tj;
    tj["name"] = t.name;
    tj["operation"] = t.operation;
    tj["readVersion"] = t.read_version;
    tj["committed"] = t.committed;
    tj["skipped"] = t.skipped;
    if (t.committed) tj["version"] = t.version;
    if (!t.abort.empty()) {
      tj["abort"] = t.abort;
      tj["errorClass"] = t.abort_error_class;
      tj["deltaMessage"] = t.abort_delta_message;
    }
    tj["events"] = t.events;
    tj["declines"] = t.declines;
    tj["retries"] = t.retries;
    txns.push_back(tj);
  }
  j["transactions"] = txns;
  j["finalRows"] = RowsJson(r.final_rows);
  nlohmann::ordered_json oracle;
  oracle["rows"] = r.rows_check;
  if (!r.serial_rows.empty()) oracle["serialRowsInCommitOrder"] = RowsJson(r.serial_rows);
  oracle["cycles"] = r.cycles;
  oracle["invariantFindings"] = r.invariant_findings;
  nlohmann::ordered_json contract = nlohmann::ordered_json::array();
  for (const oracle::ContractCheck& c : r.contract) {
    contract.push_back({{"verdict", oracle::ContractVerdictName(c.verdict)},
                        {"cell", c.cell},
                        {"explanation", c.explanation}});
  }
  oracle["contract"] = contract;
  oracle["holds"] = r.oracle_holds();
  j["oracle"] = oracle;
  nlohmann::ordered_json mismatches = nlohmann::ordered_json::array();
  for (const scenario::Mismatch& m : r.mismatches) {
    mismatches.push_back({{"line", m.line}, {"expected", m.expected}, {"actual", m.actual}});
  }
  j["mismatches"] = mismatches;
  return j;
}

}  // namespace

int RunScenarios(const ScenarioOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<std::string> errors;
  const std::vector<std::string> files = ExpandPaths(options.paths, &errors);
  const fs::path work =
      options.keep_dir.empty()
          ? fs::temp_directory_path() / ("rlc-scenarios-" + std::to_string(::getpid()))
          : fs::path(options.keep_dir);
  int passed = 0, failed = 0, missed = 0, deferred = 0;
  nlohmann::ordered_json results = nlohmann::ordered_json::array();
  for (size_t i = 0; i < files.size(); ++i) {
    const std::optional<std::string> text = ReadTextFile(files[i]);
    if (!text) {
      errors.push_back(files[i] + ": cannot read the file");
      continue;
    }
    Result<scenario::Scenario> parsed = scenario::ParseScenario(*text, files[i]);
    if (!parsed.ok()) {
      errors.push_back(parsed.status().message());
      continue;
    }
    const std::string dir =
        (work / (std::to_string(i) + "-" + fs::path(files[i]).stem().string())).string();
    Result<scenario::ScenarioReport> report = scenario::RunScenario(*parsed, dir);
    if (options.keep_dir.empty()) {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
    if (!report.ok()) {
      errors.push_back(files[i] + ": cannot run: " + report.status().ToString());
      continue;
    }
    (report->passed() ? passed : failed) += 1;
    missed += report->missed_reconciles;
    deferred += report->deferred_cells;
    if (options.json) {
      results.push_back(ReportJson(*report));
    } else {
      out << scenario::RenderReport(*report, options.verbose);
    }
  }
  if (options.keep_dir.empty()) {
    std::error_code ec;
    fs::remove_all(work, ec);
  }
  for (const std::string& e : errors) err << "rlc scenario: " << e << "\n";
  if (options.json) {
    nlohmann::ordered_json j;
    j["passed"] = passed;
    j["failed"] = failed;
    j["malformed"] = errors.size();
    j["missedReconciles"] = missed;
    j["deferredCells"] = deferred;
    j["errors"] = errors;
    j["scenarios"] = results;
    out << j.dump() << "\n";
  } else {
    out << passed << " passed, " << failed << " failed, " << errors.size()
        << " malformed or not run; " << missed << " missed reconcile(s), " << deferred
        << " deferred cell(s)\n";
  }
  if (!errors.empty()) return 2;
  return failed > 0 ? 1 : 0;
}

}  // namespace rlc::cli
