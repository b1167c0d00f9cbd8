// A history, as a scenario file's text (fuzz/scenario/README.md), through the engine simulator,
// the checker and the oracle. The seed corpus is tests/scenarios (copied by
// fuzz/corpus/make_seeds.py); the dictionary holds the format's keywords, so mutations stay
// mostly well-formed. Malformed text is rejected by the parser (never a crash); a history the
// parser accepts must keep the oracle's checks (a)-(c), unless Delta's own behaviour (every flag
// off) already breaks them. Expectations in the text are ignored: only the oracle judges.
//
// Histories are capped (rows, files, transactions) so that one input runs in milliseconds; tables
// live in memory.
#include <string>

#include "fuzz/explorer/explorer.h"
#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"
#include "fuzz/targets/fuzz_check.h"

namespace {

bool Small(const rlc::scenario::Scenario& s) {
  return s.table.rows.size() <= 24 && s.table.files <= 4 && s.setup.size() <= 3 &&
         s.txns.size() <= 5;
}

// Tables live in memory (impl/'s InMemoryStorage): no file-system call per input.
constexpr char kTableRoot[] = "/rlc-history-fuzz";
rlc::scenario::RunOptions JudgeOnly() {
  rlc::scenario::RunOptions o;
  o.store = rlc::scenario::TableStore::kMemory;
  o.read_table_before = false;
  o.explain_declines = false;
  return o;
}
rlc::scenario::RunOptions ForReport() {
  rlc::scenario::RunOptions o;
  o.store = rlc::scenario::TableStore::kMemory;
  return o;
}
const rlc::scenario::RunOptions kJudgeOnly = JudgeOnly();
const rlc::scenario::RunOptions kForReport = ForReport();

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  rlc::Result<rlc::scenario::Scenario> parsed = rlc::scenario::ParseScenario(
      std::string_view(reinterpret_cast<const char*>(data), size), "input");
  if (!parsed.ok() || !Small(*parsed)) return 0;
  parsed->expectations.clear();
  rlc::Result<rlc::scenario::ScenarioReport> report =
      rlc::scenario::RunScenario(*parsed, kTableRoot, kJudgeOnly);
  if (!report.ok()) return 0;  // e.g. a setup step the history makes fail: not a finding
  if (rlc::explorer::OracleViolation(*report)) {
    rlc::scenario::Scenario baseline = *parsed;
    for (rlc::scenario::TxnSpec& t : baseline.txns) t.flags = rlc::conflict::Flags{};
    rlc::Result<rlc::scenario::ScenarioReport> base =
        rlc::scenario::RunScenario(baseline, kTableRoot, kJudgeOnly);
    const bool delta_own = !base.ok() || rlc::explorer::OracleViolation(*base);
    if (!delta_own) {  // the report, from a run that also reads the table before
      rlc::Result<rlc::scenario::ScenarioReport> full =
          rlc::scenario::RunScenario(*parsed, kTableRoot, kForReport);
      std::fprintf(stderr, "%s",
                   rlc::scenario::RenderReport(full.ok() ? *full : *report, true).c_str());
    }
    FUZZ_CHECK(delta_own);
  }
  return 0;
}
