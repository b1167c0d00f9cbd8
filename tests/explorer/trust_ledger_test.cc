// The trust ledger (docs/trust.md#fields), held by the checker's verdicts. Every scenario file and
// kept history runs once as written and once per claim with that claim of every winner's commit
// altered (left out, or made to contradict what the log says) in what the conflict check reads
// (simulator::TableOptions::winner_bytes). A claim whose alteration changes some transaction's
// outcome is one the verdicts turn on: the ledger must list it as verified or trusted. A claim the
// ledger lists as not used must change no outcome, and every altered claim must have a row.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"
#include "fuzz/simulator/field_lies.h"
#include "impl/base/mutants.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using rlc::scenario::RunOptions;
using rlc::scenario::Scenario;
using rlc::scenario::ScenarioReport;

// One alteration of a claim: the action kind it applies to, the claim's name as the ledger writes
// it, and the change (false: the action does not carry the claim, nothing changed).
struct Alteration {
  std::string claim;  // "add.stats", "commitInfo.readVersion", ...
  std::string how;    // "absent", "contradicting"
  std::function<bool(json& action)> apply;
};

bool Erase(json& object, const char* key) { return object.erase(key) > 0; }

// A number one more (or one less) than it was.
bool Nudge(json& object, const char* key, int64_t by) {
  if (!object.contains(key) || !object[key].is_number_integer()) return false;
  object[key] = object[key].get<int64_t>() + by;
  return true;
}

bool Flip(json& object, const char* key) {
  if (!object.contains(key) || !object[key].is_boolean()) return false;
  object[key] = !object[key].get<bool>();
  return true;
}

// Each partition value another value of its column's kind: digits count up, text grows.
bool OtherPartition(json& object) {
  if (!object.contains("partitionValues") || object["partitionValues"].empty()) return false;
  for (auto& [column, value] : object["partitionValues"].items()) {
    if (!value.is_string()) continue;
    const std::string text = value.get<std::string>();
    const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
    value = digits ? std::to_string(std::stoll(text) + 1) : text + "x";
  }
  return true;
}

// The statistics' numRecords one more, as a writer that miscounts would write it.
bool MiscountedStats(json& object) {
  if (!object.contains("stats") || !object["stats"].is_string()) return false;
  json stats = json::parse(object["stats"].get<std::string>(), nullptr, false);
  if (stats.is_discarded() || !Nudge(stats, "numRecords", 1)) return false;
  object["stats"] = stats.dump();
  return true;
}

// The statistics' bounds moved past every value: each minimum and maximum of a long column up
// by a thousand.
bool ShiftedBounds(json& object) {
  if (!object.contains("stats") || !object["stats"].is_string()) return false;
  json stats = json::parse(object["stats"].get<std::string>(), nullptr, false);
  if (stats.is_discarded()) return false;
  bool changed = false;
  for (const char* side : {"minValues", "maxValues"}) {
    if (!stats.contains(side)) continue;
    for (auto& [column, value] : stats[side].items()) {
      if (value.is_number_integer()) value = value.get<int64_t>() + 1000, changed = true;
    }
  }
  if (changed) object["stats"] = stats.dump();
  return changed;
}

template <typename F>
Alteration On(const char* kind, std::string claim, std::string how, F change) {
  return {std::move(claim), std::move(how),
          [kind, change](json& action) { return action.contains(kind) && change(action[kind]); }};
}

std::vector<Alteration> Alterations() {
  return {
      On("commitInfo", "commitInfo.readVersion", "absent",
         [](json& o) { return Erase(o, "readVersion"); }),
      On("commitInfo", "commitInfo.readVersion", "contradicting",
         [](json& o) { return Nudge(o, "readVersion", -1); }),
      On("commitInfo", "commitInfo.isBlindAppend", "contradicting",
         [](json& o) { return Flip(o, "isBlindAppend"); }),
      On("commitInfo", "commitInfo.isBlindAppend", "absent",
         [](json& o) { return Erase(o, "isBlindAppend"); }),
      On("commitInfo", "commitInfo.operation", "contradicting",
         [](json& o) { return o.contains("operation") && (o["operation"] = "CONVERT", true); }),
      On("commitInfo", "commitInfo.operationParameters", "absent",
         [](json& o) { return Erase(o, "operationParameters"); }),
      On("commitInfo", "commitInfo.timestamp", "contradicting",
         [](json& o) { return Nudge(o, "timestamp", 1000); }),
      On("add", "add.size", "contradicting", [](json& o) { return Nudge(o, "size", 1); }),
      On("add", "add.modificationTime", "contradicting",
         [](json& o) { return Nudge(o, "modificationTime", 1); }),
      On("add", "add.dataChange", "contradicting", [](json& o) { return Flip(o, "dataChange"); }),
      On("add", "add.stats", "absent", [](json& o) { return Erase(o, "stats"); }),
      On("add", "add.stats", "contradicting", MiscountedStats),
      On("add", "add.stats", "contradicting", ShiftedBounds),
      On("add", "add.partitionValues", "contradicting", OtherPartition),
      On("add", "add.tags", "absent", [](json& o) { return Erase(o, "tags"); }),
      On("remove", "remove.size", "contradicting", [](json& o) { return Nudge(o, "size", 1); }),
      On("remove", "remove.stats", "absent", [](json& o) { return Erase(o, "stats"); }),
      On("remove", "remove.stats", "contradicting", MiscountedStats),
      On("remove", "remove.stats", "contradicting", ShiftedBounds),
      On("remove", "remove.partitionValues", "contradicting", OtherPartition),
      On("remove", "remove.extendedFileMetadata", "contradicting",
         [](json& o) { return Flip(o, "extendedFileMetadata"); }),
      On("remove", "remove.deletionTimestamp", "contradicting",
         [](json& o) { return Nudge(o, "deletionTimestamp", 1); }),
      On("remove", "remove.dataChange", "contradicting",
         [](json& o) { return Flip(o, "dataChange"); }),
      On("remove", "remove.tags", "absent", [](json& o) { return Erase(o, "tags"); }),
  };
}

// The commit's bytes with the alteration applied to every action it applies to.
std::string Altered(const Alteration& a, const std::string& bytes, bool* changed) {
  std::istringstream lines(bytes);
  std::string out, line;
  while (std::getline(lines, line)) {
    json action = json::parse(line, nullptr, false);
    if (!action.is_discarded() && a.apply(action)) {
      *changed = true;
      line = action.dump();
    }
    out += line + "\n";
  }
  return out;
}

// Each transaction's outcome, as the verdicts decide it (not the messages that name claims).
std::string Outcomes(const rlc::Result<ScenarioReport>& r) {
  if (!r.ok()) return "cannot run: " + r.status().ToString();
  std::string out;
  for (const rlc::scenario::TxnReport& t : r->txns) {
    out += t.name + ":" +
           (t.committed          ? "commits@" + std::to_string(t.version)
            : !t.refused.empty() ? std::string("refuses")
            : !t.abort.empty()   ? "aborts " + t.abort
            : t.skipped          ? std::string("skips")
                                 : std::string("-")) +
           " ";
  }
  return out;
}

// The ledger's field rows: "| `add.stats` | trusted | ... |" -> {"add.stats": "trusted"}.
std::map<std::string, std::string> ReadLedger() {
  std::ifstream file(std::string(RLC_DOCS) + "/trust.md");
  std::map<std::string, std::string> ledger;
  const std::regex row(R"(^\| `([A-Za-z.]+)` \| (verified|trusted|not used) \|)");
  std::smatch m;
  for (std::string line; std::getline(file, line);) {
    if (std::regex_search(line, m, row)) ledger[m[1]] = m[2];
  }
  return ledger;
}

std::vector<Scenario> Corpus() {
  std::vector<Scenario> corpus;
  for (const char* dir : {RLC_SCENARIOS "/cases", RLC_HISTORIES}) {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".scenario") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::ifstream in(f);
      std::stringstream text;
      text << in.rdbuf();
      rlc::Result<Scenario> s = rlc::scenario::ParseScenario(text.str(), f.string());
      if (s.ok()) corpus.push_back(std::move(*s));
    }
  }
  return corpus;
}

struct Findings {
  std::map<std::string, std::string> used;  // claim -> the first scenario whose outcome it turned
  std::set<std::string> exercised;          // claims some winner carried
};

Findings AlterEveryClaim(const std::vector<Scenario>& corpus) {
  Findings f;
  for (const Scenario& s : corpus) {
    RunOptions options;
    options.store = rlc::scenario::TableStore::kMemory;
    options.explain_declines = false;
    options.read_table_before = false;
    const std::string as_written = Outcomes(rlc::scenario::RunScenario(s, "/ledger", options));
    for (const Alteration& a : Alterations()) {
      bool changed = false;
      options.winner_bytes = [&](int64_t, std::string bytes) {
        return Altered(a, bytes, &changed);
      };
      const std::string altered = Outcomes(rlc::scenario::RunScenario(s, "/ledger", options));
      if (changed) f.exercised.insert(a.claim);
      if (altered != as_written && !f.used.count(a.claim))
        f.used[a.claim] = s.file + " (" + a.how + "): " + as_written + "-> " + altered;
    }
  }
  return f;
}

// What breaks the ledger: a claim altered without a row, or a claim listed as not used that
// turned an outcome.
std::vector<std::string> LedgerBreaks(const Findings& f,
                                      const std::map<std::string, std::string>& ledger) {
  std::vector<std::string> breaks;
  for (const Alteration& a : Alterations()) {
    if (!ledger.count(a.claim)) breaks.push_back(a.claim + " has no row in docs/trust.md");
  }
  for (const auto& [claim, where] : f.used) {
    const auto row = ledger.find(claim);
    if (row != ledger.end() && row->second == "not used")
      breaks.push_back(claim + " is listed as not used, yet turns a verdict: " + where);
  }
  return breaks;
}

TEST(TrustLedger, EveryClaimAVerdictTurnsOnIsVerifiedOrTrusted) {
  if (rlc::mutants::Compiled() && !rlc::mutants::Selected().empty()) GTEST_SKIP();
  const std::map<std::string, std::string> ledger = ReadLedger();
  ASSERT_GE(ledger.size(), 18u) << "docs/trust.md#fields not found";
  const std::vector<Scenario> corpus = Corpus();
  ASSERT_GE(corpus.size(), 60u);
  const Findings f = AlterEveryClaim(corpus);
  for (const std::string& b : LedgerBreaks(f, ledger)) ADD_FAILURE() << b;
  // The corpus must reach what the ledger says: a claim no winner carries proves nothing.
  for (const char* claim : {"commitInfo.readVersion", "commitInfo.isBlindAppend", "add.stats",
                            "add.partitionValues", "remove.stats", "remove.partitionValues"}) {
    EXPECT_TRUE(f.exercised.count(claim)) << claim << " is carried by no winner of the corpus";
  }
  // And the verdicts do turn on the claims the ledger trusts.
  for (const char* claim : {"commitInfo.isBlindAppend", "add.stats", "add.dataChange"}) {
    EXPECT_TRUE(f.used.count(claim)) << claim << " turned no verdict: is it still read?";
  }
}

// The foreign writers' grammar (simulator/field_lies.h) lies about every claim the ledger lists
// as trusted or verified, and counts apart exactly the lies about the trusted ones.
TEST(TrustLedger, TheForeignWriterGrammarLiesAboutEveryListedClaim) {
  using rlc::simulator::FieldLie;
  const std::map<std::string, std::string> ledger = ReadLedger();
  ASSERT_GE(ledger.size(), 18u) << "docs/trust.md#fields not found";
  std::set<std::string> told;
  for (int f = 0; f < rlc::simulator::kFieldCount; ++f) {
    const auto field = static_cast<FieldLie::Field>(f);
    std::string claim(rlc::simulator::FieldName(field));
    if (claim == "add.stats.numRecords") claim = "add.stats";  // one row for the statistics
    told.insert(claim);
    if (claim == "actions.order") continue;  // the order of a set: no claim of its own
    const auto row = ledger.find(claim);
    ASSERT_NE(row, ledger.end()) << claim << " is lied about but has no row in docs/trust.md";
    EXPECT_EQ(rlc::simulator::IsTrustedClaim(field), row->second == "trusted")
        << claim << " is " << row->second << " in the ledger";
  }
  for (const auto& [claim, status] : ledger) {
    if (status == "not used") continue;
    EXPECT_TRUE(told.count(claim))
        << claim << " is " << status << " but no foreign writer lies about it";
  }
}

// The test fails once the checker trusts a claim the ledger does not list: with the mutant that
// believes a follower's commitInfo.readVersion, that claim turns a verdict.
TEST(TrustLedger, FailsOnAClaimTheCheckerTrustsWithoutARow) {
  if (!rlc::mutants::Compiled()) GTEST_SKIP() << "a build without the mutants";
  rlc::mutants::Select("passed-append-trusts-read-version");
  const Findings f = AlterEveryClaim(Corpus());
  rlc::mutants::Select("");
  const std::vector<std::string> breaks = LedgerBreaks(f, ReadLedger());
  ASSERT_EQ(breaks.size(), 1u);
  EXPECT_EQ(breaks[0].rfind("commitInfo.readVersion is listed as not used", 0), 0u) << breaks[0];
}

}  // namespace
