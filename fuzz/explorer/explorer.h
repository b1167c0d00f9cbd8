// The explorer: runs generated histories (history_generator.h) through the simulator, the real
// checker and the oracle (the scenario runner), counts what they exercised, and shrinks and saves
// every history the oracle rejects.
//
// Concern: one exploration campaign, or one shard of it. History i of a campaign is drawn from its
// own random stream (seed, i), so a campaign is the same whatever the shard or thread split, and
// shards' summaries merge into the unsharded one. The property is the oracle's checks (a)-(c):
// rows a serial order explains, no forbidden dependency cycle, the log invariants. A history the
// oracle rejects is run again with every flag off: when Delta's own behaviour already fails, it is
// a baseline anomaly (counted, a few kept), not a counterexample of the reconcile cases; except a
// broken per-commit invariant of an honest writer's commit, which Delta's rules never allow and
// which is always a counterexample (a wrong baseline rule shows this way). Check (d),
// the documented contract, is counted (missed reconciles, deferred cells), not failed on.
// The summary counts, per history: each reconcile event by the winning operation, Case 3 (a loser
// with the flag committing past an OPTIMIZE), each abort by exception and reason, and per racing
// pair the cell of the documented conflict matrix and whether the loser committed.
//
// Thread-safety: Explore runs `jobs` threads of its own; call it from one thread.
#ifndef RLC_FUZZ_EXPLORER_EXPLORER_H_
#define RLC_FUZZ_EXPLORER_EXPLORER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "fuzz/explorer/explore_options.h"
#include "fuzz/scenario/scenario.h"
#include "fuzz/scenario/scenario_runner.h"
#include "impl/base/status.h"

namespace rlc::explorer {

struct CellCount {
  int64_t races = 0;      // loser and winner raced (the winner committed inside the loser's window)
  int64_t committed = 0;  // ... and the loser committed all the same
};

struct Counterexample {
  int64_t history = 0;   // its index in the campaign
  std::string file;      // the saved scenario (empty when not saved)
  std::string scenario;  // the shrunk history, as scenario text
  std::string report;    // RenderReport of the shrunk history
  int shrink_steps = 0;
  double seconds_to_find = 0;  // since the campaign started, before shrinking
};

struct Summary {
  std::string rlc_version;  // the tool that ran the campaign (set by the caller; "" when unknown)
  uint64_t seed = 0;
  int shard_index = 0, shard_count = 1;
  int64_t histories = 0;
  uint64_t exhaustive_total = 0;   // the size of the exhaustive scope (0: generated histories)
  int64_t oracle_violations = 0;   // by the reconcile cases: with every flag off the oracle holds
  int64_t baseline_anomalies = 0;  // the oracle fails already with every flag off (Delta's own)
  // The oracle fails only once the last commit is made, that transaction ran with every flag off,
  // and the history before that commit holds: Delta's own rules decided the commit (also Delta's
  // own; the cases only made the history before it reachable). Counted here too: the history
  // without its OPTIMIZEs, every flag off, fails as well and ends with the same rows (the cases
  // only carried a loser past an OPTIMIZE, which changes no row); or, every flag off, with each
  // loser the cases reconciled reading after the winners they carried it past.
  int64_t delta_decided_anomalies = 0;
  // The oracle fails still with every flag of the honest writers off: a lying writer's commit
  // (quirks that change what its log says, or a foreign one) fools Delta's own rules, on honest
  // losers that run them. Delta's own, given the lie; the liar keeps its flags, which decide only
  // whether its own commit lands.
  int64_t lying_writer_anomalies = 0;
  // The oracle fails only while a writer lies about a claim the check takes on trust
  // (docs/trust.md#fields; simulator::IsTrustedClaim), and holds once those lies are told
  // truthfully: the cost of the ledger's trusted rows, shown, not a counterexample.
  int64_t trusted_claim_lies = 0;
  // The oracle's search of serial orders was cut before one explained the rows, and nothing else
  // failed: neither valid nor invalid (raise ExploreOptions::oracle_max_orders). Not violations.
  int64_t inconclusive = 0;
  // The final table cannot be read past a declared writer's own commit (a DV it misdescribed, a
  // path it added twice): its writer's doing, and the rows after it nobody's to judge. Counted
  // apart from the inconclusive searches, never as passes.
  int64_t unreadable_past_a_liar = 0;
  int64_t reconciled_histories = 0;  // some transaction reconciled by a case
  int64_t missed_reconciles = 0;
  int64_t deferred_cells = 0;
  int64_t determinism_checks = 0;
  int64_t determinism_mismatches = 0;
  std::vector<int64_t> determinism_mismatch_histories;  // the first few, to replay
  uint64_t outcome_hash = 0;  // order-independent: the sum of each history's outcome hash
  double seconds = 0;
  std::map<std::string, int64_t>
      reconciles;                         // "<event> x <winning operation>", "case 3 x OPTIMIZE"
  std::map<std::string, int64_t> aborts;  // "<ExceptionName>: <reason>"
  // Field lies drawn ("add.stats:contradicting" -> histories whose writers told it) and, of the
  // trusted claims, those in the histories counted in trusted_claim_lies (field -> histories).
  std::map<std::string, int64_t> field_lies;
  std::map<std::string, int64_t> trusted_claim_costs;
  std::map<std::string, CellCount> cells;  // documented matrix cell -> races, loser commits
  // Contract coverage by cell: each missed reconcile under "<cell> / <the loser's exception>"
  // (the cell says the pair cannot conflict, yet the loser aborted with it), each deferred cell
  // under its cell (oracle/contract.h).
  std::map<std::string, int64_t> missed_by_cell;
  std::map<std::string, int64_t> deferred_by_cell;
  std::vector<Counterexample> counterexamples;
  std::vector<Counterexample> baseline_examples;       // a few of the baseline anomalies, shrunk
  std::vector<Counterexample> delta_decided_examples;  // a few of those, as they ran
  // Of delta_decided_anomalies, those a case reached by carrying a loser past winners that
  // change nothing it read (kDeltaWithoutOptimizes, kDeltaOnceReadLater, kDeltaOnceWinnersFirst),
  // and the first few of them. rlc's guards of WriteSerializable's blind appends promise none:
  // each is Delta's anomaly at another timing, counted apart from the last commit Delta decided.
  int64_t case_reached_anomalies = 0;
  std::vector<Counterexample> case_reached_examples;
  std::vector<Counterexample> missed_examples;        // a few histories with a missed reconcile
  std::vector<Counterexample> inconclusive_examples;  // a few of the inconclusive, as they ran

  // Coverage keys every campaign should reach; those with a count of 0 here.
  std::vector<std::string> MissingCoverage() const;
};

// Runs the campaign; `progress` (may be empty) is called now and then with the running summary.
Result<Summary> Explore(const ExploreOptions& options,
                        const std::function<void(const Summary&)>& progress = {});

// Writes the histories this campaign would run (the shard's, up to `options.runs`) as scenario
// files `<dir>/history-<index>.scenario`, without running them: inputs for judges outside rlc
// (tests/engines). Errors: no --runs, or the folder cannot be written.
Status WriteHistories(const ExploreOptions& options, const std::string& dir);

// Writes the histories the campaign filed as Delta's own, for a judge outside rlc to confirm that
// Delta decides them so (tests/engines): each baseline anomaly with every flag off
// (`<dir>/baseline-anomaly-<history>.scenario`), each history closed by a commit Delta's rules
// decided as it ran (`<dir>/delta-decided-<history>.scenario`). Returns how many it wrote.
// Errors: the folder cannot be written, or an example does not parse back.
Result<int> WriteDeltasOwn(const Summary& summary, const std::string& dir);

// Adds `shard` into `total` (counts and cells summed, counterexamples appended, hashes summed).
void MergeInto(Summary& total, const Summary& shard);

std::string SummaryToJson(const Summary& summary);
Result<Summary> SummaryFromJson(const std::string& json);

// Whether the oracle rejected the history (checks (a)-(c); (d) is not a violation). Rows the
// oracle could not judge because its search of serial orders was cut are no violation: see
// Inconclusive.
bool OracleViolation(const scenario::ScenarioReport& report);
// Neither valid nor invalid: the search of serial orders was cut before one explained the rows,
// and no other check failed.
bool Inconclusive(const scenario::ScenarioReport& report);
// The rows cannot be judged past a declared writer's own commit, which the oracle cannot read
// (Summary::unreadable_past_a_liar). Not a violation, not inconclusive.
bool UnreadablePastALiar(const scenario::ScenarioReport& report);

// Whose doing a history's violation is, as a campaign counts it.
enum class ViolationOwner {
  kNone,                    // the oracle holds
  kCases,                   // a counterexample: the reconcile cases' doing, or a per-commit
                            // invariant an honest writer broke (never Delta's own)
  kDeltaEveryFlagOff,       // the oracle fails with every flag off too
  kDeltaDecidedLastCommit,  // Summary::delta_decided_anomalies
  kDeltaWithoutOptimizes,   // the same rows and a violation without the OPTIMIZEs, every flag
                            // off (Summary::delta_decided_anomalies too)
  kDeltaOnceReadLater,      // the same rows and a violation, every flag off, with each loser a
                            // case reconciled reading after its winners (the same count)
  kDeltaOnceWinnersFirst,   // the same, with those winners committing before the loser starts
  kDeltaFooledByALiar,      // Summary::lying_writer_anomalies
  kTrustedClaimLie,         // Summary::trusted_claim_lies
};
// Runs `s` on an in-memory table (again with every flag off, without its last commit, without its
// OPTIMIZEs, with reconciled losers reading later, or with their winners committing before they
// start, when needed) and says.
Result<ViolationOwner> ClassifyHistory(const scenario::Scenario& s);

}  // namespace rlc::explorer

#endif  // RLC_FUZZ_EXPLORER_EXPLORER_H_
