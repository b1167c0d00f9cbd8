#include "cli/summary_text.h"

#include <map>
#include <sstream>

namespace rlc::cli {
namespace {

// The summary's counts by key: reconciles, aborts, the lies drawn and what the trusted ones cost.
// The documented matrix cells: the reconcile rate of each, then its missed reconciles (by the
// loser's exception) and the deferred cells.
std::string ContractCoverageText(const explorer::Summary& s) {
  std::string out = "reconcile rate per documented matrix cell (loser committed / races):\n";
  for (const auto& [k, v] : s.cells)
    out += "  " + std::to_string(v.committed) + "/" + std::to_string(v.races) + "  " + k + "\n";
  out += "missed reconciles by documented cell and the loser's exception:\n";
  for (const auto& [k, v] : s.missed_by_cell) out += "  " + std::to_string(v) + "  " + k + "\n";
  out += "deferred cells:\n";
  for (const auto& [k, v] : s.deferred_by_cell) out += "  " + std::to_string(v) + "  " + k + "\n";
  return out;
}

std::string CountsText(const explorer::Summary& s) {
  std::string out;
  const auto counts = [&](const std::string& title, const std::map<std::string, int64_t>& by) {
    out += title + "\n";
    for (const auto& [k, v] : by) out += "  " + std::to_string(v) + "  " + k + "\n";
  };
  counts("reconcile events x winning operation:", s.reconciles);
  counts("aborts:", s.aborts);
  counts("field lies drawn (histories):", s.field_lies);
  counts("trusted claims whose lies cost a history its rows (docs/trust.md#fields):",
         s.trusted_claim_costs);
  return out;
}

}  // namespace

std::string ExploreSummaryText(const explorer::Summary& s) {
  std::string out;
  auto line = [&](const std::string& l) { out += l + "\n"; };
  line("seed " + std::to_string(s.seed) + ", shard " + std::to_string(s.shard_index) + "/" +
       std::to_string(s.shard_count) + ": " + std::to_string(s.histories) + " histories in " +
       std::to_string(static_cast<int64_t>(s.seconds)) + " s, " +
       std::to_string(s.oracle_violations) + " oracle violation(s) by the reconcile cases, " +
       std::to_string(s.baseline_anomalies) + " already with every flag off (Delta's own), " +
       std::to_string(s.delta_decided_anomalies) +
       " closed by a commit Delta's rules decided (Delta's own; " +
       std::to_string(s.case_reached_anomalies) +
       " of them reached by a case carrying a loser, which the guards promise never to), " +
       std::to_string(s.lying_writer_anomalies) +
       " with every honest writer's flag off, a lying writer's doing (Delta's own, given the "
       "lie), " +
       std::to_string(s.trusted_claim_lies) +
       " the price of a lie about a claim the check trusts (docs/trust.md#fields), " +
       std::to_string(s.inconclusive) +
       " inconclusive (the oracle's search of serial orders was cut; not violations), " +
       std::to_string(s.unreadable_past_a_liar) +
       " unjudged past a liar's own commit the oracle cannot read, " +
       std::to_string(s.reconciled_histories) + " reconciled by some case, " +
       std::to_string(s.missed_reconciles) + " missed reconcile(s), " +
       std::to_string(s.deferred_cells) + " deferred cell(s)");
  if (s.exhaustive_total > 0) {
    line("exhaustive small scope: " + std::to_string(s.histories) + " of " +
         std::to_string(s.exhaustive_total) + " histories checked");
  }
  std::string differed;
  for (int64_t h : s.determinism_mismatch_histories)
    differed += (differed.empty() ? " (history " : ", ") + std::to_string(h);
  if (!differed.empty()) differed += ")";
  line("determinism: " + std::to_string(s.determinism_checks) + " re-runs, " +
       std::to_string(s.determinism_mismatches) + " differed" + differed + "; outcome hash " +
       std::to_string(s.outcome_hash));
  out += CountsText(s);
  out += ContractCoverageText(s);
  const std::vector<std::string> missing = s.MissingCoverage();
  line(missing.empty() ? "coverage: every required count is above 0" : "coverage: missing");
  for (const std::string& m : missing) line("  0  " + m);
  for (const explorer::Counterexample& c : s.missed_examples) {
    line("a missed reconcile (the documented matrix says the pair could commit; history " +
         std::to_string(c.history) + "):");
    out += c.report;
  }
  // Histories kept as they are, not counterexamples: what they show, then each scenario.
  auto examples = [&](const std::vector<explorer::Counterexample>& kept, const std::string& what) {
    for (const explorer::Counterexample& c : kept) {
      line(what + " (history " + std::to_string(c.history) + "):");
      out += c.scenario;
    }
  };
  examples(s.baseline_examples, "with every flag off, the model's rules already fail");
  examples(s.delta_decided_examples,
           "the last commit, decided with every flag off, breaks the model's rules on a history "
           "that holds without it");
  examples(s.inconclusive_examples,
           "inconclusive: the oracle tried as many serial orders as it may (--oracle-max-orders) "
           "and none explained the rows; no other check failed");
  for (const explorer::Counterexample& c : s.counterexamples) {
    line("COUNTEREXAMPLE (history " + std::to_string(c.history) + ", shrunk in " +
         std::to_string(c.shrink_steps) + " steps)");
    out += c.report;
    line(c.file.empty() ? "  (not saved: give --out DIR)" : "  replay: rlc replay " + c.file);
  }
  return out;
}

std::string RaceSummaryText(const race::RaceSummary& s) {
  std::ostringstream out;
  out << "race case " << s.race_case << " (" << s.isolation << "): " << s.procs << " rlc processes"
      << (s.engine.empty() ? "" : " against " + s.engine) << ", " << static_cast<int64_t>(s.seconds)
      << " s, " << s.versions << " versions committed\n";
  for (const race::ProcessSummary& p : s.processes) {
    out << "  " << p.engine << " process " << p.proc << (p.killed ? " (killed)" : "") << ": "
        << p.attempts << " attempts, " << p.commits << " commits, " << p.nothing_to_commit
        << " with nothing to commit";
    for (const auto& [k, n] : p.aborts) out << ", " << n << " " << k;
    for (const auto& [k, n] : p.events) out << ", " << n << " x " << k;
    out << "\n";
  }
  out << "  by winning operation:\n";
  for (const auto& [op, counts] : s.by_winning_operation) {
    out << "    " << op << ":";
    for (const auto& [k, n] : counts) out << " " << n << " " << k << ";";
    out << "\n";
  }
  out << "  case 3 commits past an OPTIMIZE: " << s.case3_commits
      << "; this case's reconciles: " << s.CaseReconciles() << "\n";
  if (!s.engine.empty()) {
    out << "  " << s.engine << " read " << s.engine_read_versions << " versions; "
        << s.engine_read_differences << " differ from the oracle's read\n";
  }
  out << "  final rows " << s.final_rows << ", duplicated " << s.duplicated_rows << " (keys "
      << s.duplicated_keys << ")"
      << ", lost commits " << s.lost_commits << ", unreferenced files " << s.unreferenced_files
      << ", checkpoints " << s.checkpoints << " (each read back against the JSON log)"
      << "; oracle (a): " << s.rows_check << "\n";
  out << (s.ok() ? "  OK\n" : "  PROBLEMS:\n");
  for (const std::string& p : s.problems) out << "    " << p << "\n";
  return out.str();
}

}  // namespace rlc::cli
