#include "fuzz/explorer/explorer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "fuzz/explorer/exhaustive.h"
#include "fuzz/explorer/history_generator.h"
#include "impl/conflict/case_catalogue.h"
#include "model/isolation/conflict_matrix.h"
#include "model/isolation/isolation.h"

namespace rlc::explorer {
namespace {

namespace fs = std::filesystem;

constexpr int kShrinkRunsMax = 400;
// A prime larger than any scope size's factors (2, 3, 5, 13): coprime with it, so i -> i * stride
// mod size is a permutation.
constexpr uint64_t kExhaustiveStride = 1000003;

// rapidcheck keeps a generator's implicit state in globals, not per thread: draw and shrink under
// this lock.
std::mutex& GenerationLock() {
  static std::mutex mu;
  return mu;
}

uint64_t Mix(uint64_t seed, uint64_t index) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + index + 0x632BE59BD9B4E019ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t Fnv(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

// What a reviewer and a re-run compare: the steps as they happened and the rows at the end.
uint64_t OutcomeHash(const scenario::ScenarioReport& r) {
  std::string text;
  for (const std::string& line : r.timeline) text += line + "\n";
  for (const auto& row : r.final_rows) {
    for (const model::Value& v : row) text += model::ToString(v) + ",";
    text += "\n";
  }
  return Fnv(text);
}

// The field lies of the history's writers, each once: "field:telling", or the trusted fields.
std::set<std::string> LiesTold(const scenario::Scenario& s, bool trusted_only) {
  std::set<std::string> told;
  for (const scenario::TxnSpec& t : s.txns) {
    for (const simulator::FieldLie& l : t.writer.field_lies) {
      if (trusted_only && !simulator::IsTrustedClaim(l.field)) continue;
      told.insert(std::string(simulator::FieldName(l.field)) +
                  (trusted_only ? "" : ":" + std::string(simulator::TellingName(l.telling))));
    }
  }
  return told;
}

void Account(const scenario::Scenario& s, const scenario::ScenarioReport& r, Summary& sum) {
  ++sum.histories;
  for (const std::string& lie : LiesTold(s, false)) ++sum.field_lies[lie];
  sum.outcome_hash += OutcomeHash(r);
  if (OracleViolation(r)) ++sum.oracle_violations;
  if (Inconclusive(r)) ++sum.inconclusive;
  if (UnreadablePastALiar(r)) ++sum.unreadable_past_a_liar;
  sum.missed_reconciles += r.missed_reconciles;
  sum.deferred_cells += r.deferred_cells;
  for (const oracle::ContractCheck& c : r.contract) {
    if (c.verdict == oracle::ContractVerdict::kMissedReconcile)
      ++sum.missed_by_cell[c.cell + " / " + c.loser_abort];
    if (c.verdict == oracle::ContractVerdict::kDeferred) ++sum.deferred_by_cell[c.cell];
  }
  bool reconciled = false;
  std::map<int64_t, const scenario::TxnReport*> by_version;
  for (const scenario::TxnReport& t : r.txns) {
    if (t.committed) by_version[t.version] = &t;
  }
  for (size_t i = 0; i < r.txns.size(); ++i) {
    const scenario::TxnReport& t = r.txns[i];
    const scenario::TxnSpec& spec = s.txns[i];
    for (size_t e = 0; e < t.events.size(); ++e) {
      sum.reconciles[t.events[e] + " x " + t.event_winners[e]] += 1;
      reconciled = true;
    }
    if (!t.abort.empty()) sum.aborts[t.abort + ": " + t.abort_reason] += 1;
    if (!t.attempted || t.skipped || !spec.operation) continue;
    // The winners inside this transaction's window, and the cell of each pair.
    const int64_t last = t.committed ? t.version : t.abort_winner_version;
    for (auto it = by_version.upper_bound(t.read_version);
         it != by_version.end() && it->first <= last; ++it) {
      const scenario::TxnReport& w = *it->second;
      const scenario::TxnSpec* winner_spec = s.Find(w.name);
      if (winner_spec == nullptr || !winner_spec->operation || &w == &t) continue;
      const bool rlc = spec.flags.EveryOn() && winner_spec->flags.EveryOn();
      const model::IsolationLevel level =
          s.table.isolation.value_or(model::IsolationLevel::kSerializable);
      const std::string cell =
          model::OperationClassName(model::Classify(*winner_spec->operation)) + " wins, " +
          model::OperationClassName(model::Classify(*spec.operation)) + " loses, " +
          model::IsolationLevelName(level) + (rlc ? ", with RLC" : ", without RLC");
      CellCount& count = sum.cells[cell];
      ++count.races;
      const bool lost_to_this = !t.committed && it->first == t.abort_winner_version;
      if (!lost_to_this) ++count.committed;
      // Case 3: the flag on, a non-blind loser committed past a compaction.
      if (t.committed && spec.flags.On(conflict::CaseId::kExcludeNoDataChange) &&
          std::holds_alternative<model::Optimize>(*winner_spec->operation) &&
          model::Classify(*spec.operation) != model::OperationClass::kInsert) {
        sum.reconciles["case 3 (flag on, committed past an OPTIMIZE) x OPTIMIZE"] += 1;
      }
    }
  }
  if (reconciled) ++sum.reconciled_histories;
}

// Where one worker's histories keep their tables: in memory (the default), or under a directory
// when the campaign was given one (to look at the files).
struct Scratch {
  std::string dir;  // a directory, or the in-memory table's root path
  scenario::TableStore store = scenario::TableStore::kMemory;
  size_t oracle_max_orders = 0;  // the campaign's (ExploreOptions::oracle_max_orders)
};

// The version of the last commit of the run, or -1.
int64_t LastCommitVersion(const scenario::ScenarioReport& r) {
  int64_t last = -1;
  for (const scenario::TxnReport& t : r.txns) {
    if (t.committed) last = std::max(last, t.version);
  }
  return last;
}

// Whether every per-commit invariant the run breaks breaks at its last commit (there may be
// none). Only there can Delta's rules have let one into the log: a writer that lies about its
// commit can fool them into passing an honest loser that undoes the lie (an OPTIMIZE that
// rewrites a moved file as it read it); DeltaDecidedTheLastCommit then asks whether they did.
bool InvariantsBrokenOnlyLast(const scenario::ScenarioReport& r) {
  const int64_t last = LastCommitVersion(r);
  return std::all_of(r.invariant_versions.begin(), r.invariant_versions.end(),
                     [&](int64_t v) { return v == last; }) &&
         r.invariant_versions.size() == r.invariant_findings.size();
}

// Whether the run's violation can be Delta's own: rows and cycles can (the model's rules are
// stricter than Delta's in known places); a broken per-commit invariant by an honest writer
// cannot, Delta's rules never let one into the log, unless a lie fooled them at the last commit.
bool MayBeDeltasOwn(const scenario::ScenarioReport& r) { return InvariantsBrokenOnlyLast(r); }

// `for_report`: the run's report will be rendered, so it also reads the table before the
// transactions and reads the simulator's own commits back from the log; a run that is only
// judged skips both (tests/explorer/own_commits_test.cc keeps the round trip checked).
Result<scenario::ScenarioReport> RunOne(const scenario::Scenario& s, const Scratch& scratch,
                                        bool for_report = false) {
  scenario::RunOptions options;
  options.store = scratch.store;
  options.read_table_before = for_report;
  options.verify_own_commits = for_report;
  options.oracle_max_orders = scratch.oracle_max_orders;
  options.explain_declines = for_report;
  Result<scenario::ScenarioReport> r = scenario::RunScenario(s, scratch.dir, options);
  if (scratch.store == scenario::TableStore::kDirectory) {
    std::error_code ec;
    fs::remove_all(scratch.dir, ec);
  }
  return r;
}

scenario::Scenario WithoutFlags(scenario::Scenario s) {
  for (scenario::TxnSpec& t : s.txns) t.flags = conflict::Flags{};
  return s;
}

// A commit's action lines less the composition tags an OPTIMIZE records only with its flag on
// (capture): they move no row, so the same files with and without them are the same decision.
std::vector<std::string> WithoutCompositionTags(std::vector<std::string> lines) {
  for (std::string& line : lines) line = line.substr(0, line.find(", compactedInto "));
  return lines;
}

// Whether the violation in `r` is Delta's decision on a history the oracle accepts: it appears
// only with the last commit; that commit is the same with its transaction's every flag off (so
// Delta's rules decided it: WriteSerializable lets a loser pass a blind append that a winner it
// follows may depend on); and the history without that commit holds. The cases, on other
// transactions, only made the history before it reachable. A broken per-commit invariant is
// never this, except at that commit.
bool DeltaDecidedTheLastCommit(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                               const Scratch& dir) {
  if (!InvariantsBrokenOnlyLast(r)) return false;
  const scenario::TxnReport* last = nullptr;
  for (const scenario::TxnReport& t : r.txns) {
    if (t.committed && (last == nullptr || t.version > last->version)) last = &t;
  }
  const scenario::TxnSpec* spec = last == nullptr ? nullptr : s.Find(last->name);
  if (spec == nullptr) return false;
  if (spec->flags.AnyOn()) {
    scenario::Scenario flags_off = s;
    for (scenario::TxnSpec& t : flags_off.txns) {
      if (t.name == last->name) t.flags = conflict::Flags{};
    }
    Result<scenario::ScenarioReport> again = RunOne(flags_off, dir);
    if (!again.ok() || !OracleViolation(*again)) return false;
    const auto same =
        std::find_if(again->txns.begin(), again->txns.end(),
                     [&](const scenario::TxnReport& t) { return t.name == last->name; });
    if (same == again->txns.end() || !same->committed || same->version != last->version ||
        WithoutCompositionTags(same->actions) != WithoutCompositionTags(last->actions) ||
        again->invariant_findings != r.invariant_findings) {
      return false;
    }
  }
  scenario::Scenario before = s;
  before.steps.clear();
  for (const scenario::Step& step : s.steps) {
    if (step.kind == scenario::Step::Kind::kCommit && step.txn == last->name) break;
    before.steps.push_back(step);
  }
  Result<scenario::ScenarioReport> without = RunOne(before, dir);
  return without.ok() && !OracleViolation(*without);
}

// The history without its honest OPTIMIZEs (their transactions and steps), every flag off.
scenario::Scenario WithoutOptimizes(const scenario::Scenario& s) {
  scenario::Scenario out = WithoutFlags(s);
  std::set<std::string> dropped;
  std::erase_if(out.txns, [&](const scenario::TxnSpec& t) {
    const bool drop = t.operation.has_value() &&
                      std::holds_alternative<model::Optimize>(*t.operation) && !t.writer.any();
    if (drop) dropped.insert(t.name);
    return drop;
  });
  std::erase_if(out.steps, [&](const scenario::Step& step) { return dropped.count(step.txn) > 0; });
  return out;
}

std::vector<std::vector<model::Value>> Sorted(std::vector<std::vector<model::Value>> rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

// Whether `variant` of the history behind `r`, run, breaks the model's rules too (no per-commit
// invariant) and ends with the same rows.
bool FailsWithTheSameRows(const scenario::Scenario& variant, const scenario::ScenarioReport& r,
                          const Scratch& dir) {
  Result<scenario::ScenarioReport> again = RunOne(variant, dir);
  return again.ok() && OracleViolation(*again) && again->invariant_findings.empty() &&
         Sorted(again->final_rows) == Sorted(r.final_rows);
}

// Whether the violation is Delta's own once the OPTIMIZEs are taken out. An OPTIMIZE changes no
// row, and the cases carry a loser past one (Case 3, 4b) where Delta aborts it; past it, the loser
// may meet Delta's own WriteSerializable anomaly (a passed blind append that a reader committed
// before the loser saw). When the history without its OPTIMIZEs, every flag off, ends with the
// same rows and breaks the model's rules too, those rows are what Delta's rules give: the cases
// changed which OPTIMIZE a loser could pass, not what anything wrote. A lying OPTIMIZE stays (its
// lies are the cases' to catch), and a wrong remap or merge leaves other rows.
bool DeltasOwnWithoutOptimizes(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                               const Scratch& dir) {
  if (!r.invariant_findings.empty()) return false;
  const scenario::Scenario without = WithoutOptimizes(s);
  if (without.txns.size() == s.txns.size()) return false;  // no OPTIMIZE to take out
  return FailsWithTheSameRows(without, r, dir);
}

// `s` with `loser` starting right after the last commit of `winners` (its rebases before that
// dropped); false when it already started after them.
bool StartAfter(scenario::Scenario& s, const std::string& loser,
                const std::set<std::string>& winners) {
  using K = scenario::Step::Kind;
  size_t start = s.steps.size(), last = s.steps.size();
  for (size_t i = 0; i < s.steps.size(); ++i) {
    const scenario::Step& step = s.steps[i];
    if (step.kind == K::kStart && step.txn == loser) start = i;
    if (step.kind == K::kCommit && winners.count(step.txn) > 0) last = i;
  }
  if (start == s.steps.size() || last == s.steps.size() || start > last) return false;
  std::vector<scenario::Step> steps;
  for (size_t i = 0; i < s.steps.size(); ++i) {
    const scenario::Step& step = s.steps[i];
    if (!(i <= last && step.txn == loser && step.kind != K::kCommit)) steps.push_back(step);
    if (i == last) steps.push_back(s.steps[start]);
  }
  s.steps = std::move(steps);
  return true;
}

// A rearrangement of a history around one loser and the winners a case carried it past: false
// when it moved nothing.
using Rearrange = bool (*)(scenario::Scenario&, const std::string& loser,
                           const std::set<std::string>& winners);

// Whether `s`, every flag off and rearranged around each loser a case reconciled, fails the same
// way with the same rows.
bool DeltasOwnOnceRearranged(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                             const Scratch& dir, Rearrange rearrange) {
  if (!r.invariant_findings.empty()) return false;
  scenario::Scenario variant = WithoutFlags(s);
  bool moved = false;
  for (const scenario::TxnReport& t : r.txns) {
    std::set<std::string> winners;
    for (const std::string& name : t.event_winner_names) {
      if (!name.empty()) winners.insert(name);
    }
    if (!winners.empty() && rearrange(variant, t.name, winners)) moved = true;
  }
  return moved && FailsWithTheSameRows(variant, r, dir);
}

// Whether the violation is Delta's own once each loser the cases reconciled had read after the
// winners they carried it past. A reconcile says those winners change nothing the loser read or
// wrote; run with every flag off and each such loser starting after them, Delta's rules alone
// decide every commit. When that history fails too and ends with the same rows, the rows are
// Delta's: past the winners, the loser met Delta's own anomaly (a WriteSerializable pass of a
// blind append that a reader committed before it saw). A wrong reconcile shows in the rows: the
// loser that reads later sees what the winner changed.
bool DeltasOwnOnceReadLater(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                            const Scratch& dir) {
  return DeltasOwnOnceRearranged(s, r, dir, StartAfter);
}

// `s` with each of `winners` committing right before `loser` starts (a winner that started after
// the loser starting there too, when no commit lies between, so that it reads what it read);
// false when none moved or one cannot. The moved winner's rebases after the loser's start are
// dropped: with every flag off its commit's check covers every commit since its read.
bool CommitBefore(scenario::Scenario& s, const std::string& loser,
                  const std::set<std::string>& winners) {
  using K = scenario::Step::Kind;
  bool moved = false;
  for (const std::string& winner : winners) {
    const auto index = [&](const std::string& txn, K kind) {
      const auto it = std::find_if(s.steps.begin(), s.steps.end(), [&](const scenario::Step& x) {
        return x.txn == txn && x.kind == kind;
      });
      return static_cast<size_t>(it - s.steps.begin());
    };
    const size_t loser_start = index(loser, K::kStart), start = index(winner, K::kStart);
    const size_t commit = index(winner, K::kCommit), end = s.steps.size();
    if (loser_start == end || start == end || commit == end) return false;
    if (commit < loser_start) continue;  // it committed before the loser started already
    for (size_t i = loser_start; i < start; ++i) {
      if (s.steps[i].kind == K::kCommit) return false;  // starting earlier, it would read less
    }
    std::vector<scenario::Step> first;
    if (start > loser_start) first.push_back(s.steps[start]);
    first.push_back(s.steps[commit]);
    std::vector<scenario::Step> steps(s.steps.begin(), s.steps.begin() + loser_start);
    steps.insert(steps.end(), first.begin(), first.end());
    for (size_t i = loser_start; i < end; ++i) {
      if (s.steps[i].txn != winner) steps.push_back(s.steps[i]);
    }
    s.steps = std::move(steps);
    moved = true;
  }
  return moved;
}

// Whether the violation is Delta's own once the winners the cases carried each loser past had
// committed before it started, every flag off: the loser then reads what they wrote, and Delta's
// rules alone decide every commit. It keeps the loser's view of everything else (a blind append
// that committed after the loser started stays unseen), where reading later would show it one
// that committed before those winners did. The same rows and a violation make the rows Delta's;
// a wrong reconcile shows in them, as above.
bool DeltasOwnOnceWinnersFirst(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                               const Scratch& dir) {
  return DeltasOwnOnceRearranged(s, r, dir, CommitBefore);
}

// Whether the violation is Delta's own in one of the ways above, the cases only having made the
// history reachable.
// The history with every flag of its honest writers off: a writer with quirks, or a foreign
// one, keeps its flags (they decide whether its own commit lands, not what its log says).
scenario::Scenario WithoutHonestFlags(scenario::Scenario s) {
  for (scenario::TxnSpec& t : s.txns) {
    if (!t.writer.any() && !t.foreign) t.flags = conflict::Flags{};
  }
  return s;
}

// A lying writer's commit fools Delta's own rules too: the violation stays with every honest
// writer's flag off. Never so without a writer that lies.
bool DeltaFooledByALiar(const scenario::Scenario& s, const Scratch& dir) {
  const bool liar = std::any_of(s.txns.begin(), s.txns.end(), [](const scenario::TxnSpec& t) {
    return t.writer.any() || t.foreign;
  });
  if (!liar) return false;
  Result<scenario::ScenarioReport> honest_off = RunOne(WithoutHonestFlags(s), dir);
  return honest_off.ok() && OracleViolation(*honest_off);
}

// The history with every lie about a trusted claim told truthfully (the other lies kept).
scenario::Scenario WithoutTrustedLies(scenario::Scenario s) {
  for (scenario::TxnSpec& t : s.txns) {
    std::erase_if(t.writer.field_lies,
                  [](const simulator::FieldLie& l) { return simulator::IsTrustedClaim(l.field); });
  }
  return s;
}

// The violation is the price of a trusted claim (docs/trust.md#fields): some writer lies about
// one, and without those lies the oracle holds.
bool CostOfATrustedClaim(const scenario::Scenario& s, const Scratch& dir) {
  const bool lies = std::any_of(s.txns.begin(), s.txns.end(), [](const scenario::TxnSpec& t) {
    return std::any_of(
        t.writer.field_lies.begin(), t.writer.field_lies.end(),
        [](const simulator::FieldLie& l) { return simulator::IsTrustedClaim(l.field); });
  });
  if (!lies) return false;
  Result<scenario::ScenarioReport> truthful = RunOne(WithoutTrustedLies(s), dir);
  return truthful.ok() && !OracleViolation(*truthful);
}

// Which of Delta's own anomalies, reached through the cases, the violation is (kCases: none).
ViolationOwner DeltasOwnOnceReached(const scenario::Scenario& s, const scenario::ScenarioReport& r,
                                    const Scratch& dir) {
  if (DeltaDecidedTheLastCommit(s, r, dir)) return ViolationOwner::kDeltaDecidedLastCommit;
  if (DeltasOwnWithoutOptimizes(s, r, dir)) return ViolationOwner::kDeltaWithoutOptimizes;
  if (DeltasOwnOnceReadLater(s, r, dir)) return ViolationOwner::kDeltaOnceReadLater;
  if (DeltasOwnOnceWinnersFirst(s, r, dir)) return ViolationOwner::kDeltaOnceWinnersFirst;
  return ViolationOwner::kCases;
}

// Whether the oracle rejects the history as it ran with its flags; and when `against_baseline`,
// whether the violation is the reconcile cases' doing: the same history with every flag off
// (Delta's own behaviour) passes, and Delta's rules did not decide the commit that breaks it.
bool Fails(const scenario::Scenario& s, const Scratch& dir, bool against_baseline) {
  Result<scenario::ScenarioReport> r = RunOne(s, dir);
  if (!r.ok() || !OracleViolation(*r)) return false;
  if (!against_baseline) return true;
  if (DeltaFooledByALiar(s, dir)) return false;
  if (!MayBeDeltasOwn(*r)) return true;
  Result<scenario::ScenarioReport> baseline = RunOne(WithoutFlags(s), dir);
  return baseline.ok() && !OracleViolation(*baseline) &&
         DeltasOwnOnceReached(s, *r, dir) == ViolationOwner::kCases;
}

// Shrinks a failing history: take the first smaller candidate that still fails (in the same way:
// through the reconcile cases, or already with every flag off), until none does.
Counterexample Shrink(rc::Shrinkable<scenario::Scenario> failing, const Scratch& dir,
                      bool against_baseline) {
  Counterexample c;
  int runs = 0;
  for (bool smaller = true; smaller && runs < kShrinkRunsMax;) {
    smaller = false;
    rc::Seq<rc::Shrinkable<scenario::Scenario>> candidates = failing.shrinks();
    for (rc::Maybe<rc::Shrinkable<scenario::Scenario>> next;
         runs < kShrinkRunsMax && (next = candidates.next());) {
      ++runs;
      if (Fails(next->value(), dir, against_baseline)) {
        failing = *next;
        ++c.shrink_steps;
        smaller = true;
        break;
      }
    }
  }
  scenario::Scenario s = failing.value();
  c.scenario = scenario::FormatScenario(s);
  Result<scenario::ScenarioReport> r = RunOne(s, dir, /*for_report=*/true);
  c.report = r.ok() ? scenario::RenderReport(*r, true) : "cannot run: " + r.status().ToString();
  return c;
}

// An exhaustive history is already small: it is reported as it ran.
Counterexample AsIs(const scenario::Scenario& s, const Scratch& dir) {
  Counterexample c;
  c.scenario = scenario::FormatScenario(s);
  Result<scenario::ScenarioReport> r = RunOne(s, dir, /*for_report=*/true);
  c.report = r.ok() ? scenario::RenderReport(*r, true) : "cannot run: " + r.status().ToString();
  return c;
}

}  // namespace

namespace {
// The orders to try were cut, or a commit judged by its rows could not be read: neither passed
// nor a violation, counted apart.
bool RowsUnknown(const scenario::ScenarioReport& r) {
  return r.rows_check.rfind("unknown", 0) == 0 || r.rows_check.rfind("inconclusive", 0) == 0;
}
}  // namespace

bool OracleViolation(const scenario::ScenarioReport& r) {
  const bool rows_ok = r.rows_check == "holds" || r.rows_check.rfind("not judged", 0) == 0;
  return (!rows_ok && !RowsUnknown(r)) || !r.cycles.empty() || !r.invariant_findings.empty();
}

bool UnreadablePastALiar(const scenario::ScenarioReport& r) {
  return r.rows_check.rfind("inconclusive: the table cannot be read past version", 0) == 0 &&
         !OracleViolation(r);
}

bool Inconclusive(const scenario::ScenarioReport& r) {
  return RowsUnknown(r) && !OracleViolation(r) && !UnreadablePastALiar(r);
}

Result<ViolationOwner> ClassifyHistory(const scenario::Scenario& s) {
  const Scratch scratch{"/rlc-classify", scenario::TableStore::kMemory};
  RLC_ASSIGN_OR_RETURN(const scenario::ScenarioReport r, RunOne(s, scratch));
  if (!OracleViolation(r)) return ViolationOwner::kNone;
  if (DeltaFooledByALiar(s, scratch)) return ViolationOwner::kDeltaFooledByALiar;
  if (CostOfATrustedClaim(s, scratch)) return ViolationOwner::kTrustedClaimLie;
  if (!MayBeDeltasOwn(r)) return ViolationOwner::kCases;
  RLC_ASSIGN_OR_RETURN(const scenario::ScenarioReport baseline, RunOne(WithoutFlags(s), scratch));
  if (OracleViolation(baseline)) return ViolationOwner::kDeltaEveryFlagOff;
  return DeltasOwnOnceReached(s, r, scratch);
}

std::vector<std::string> Summary::MissingCoverage() const {
  using std::string;
  static const string kReconciles[] = {
      string(conflict::kDeletionVectorsMergedEvent) + " x DELETE",
      string(conflict::kDeletionVectorsMergedEvent) + " x UPDATE",
      string(conflict::kDeletionVectorsMergedEvent) + " x MERGE",
      string(conflict::kRemappedEvent) + " x DELETE",
      string(conflict::kRemappedEvent) + " x UPDATE",
      string(conflict::kRemappedEvent) + " x MERGE",
      string(conflict::kReverseRemappedEvent) + " x OPTIMIZE",
      string(conflict::kFilesSkippedEvent) + " x WRITE",
      string(conflict::kFilesSkippedEvent) + " x UPDATE",
      string(conflict::kFilesSkippedEvent) + " x MERGE",
      "case 3 (flag on, committed past an OPTIMIZE) x OPTIMIZE",
  };
  static const char* const kAborts[] = {
      "ConcurrentAppendException", "ConcurrentDeleteReadException",
      "ConcurrentDeleteDeleteException", "MetadataChangedException",
      "ConcurrentTransactionException"};
  std::vector<std::string> missing;
  for (const string& key : kReconciles) {
    const auto it = reconciles.find(key);
    if (it == reconciles.end() || it->second == 0) missing.push_back(key);
  }
  for (const char* kind : kAborts) {
    bool seen = false;
    for (const auto& [key, count] : aborts) seen = seen || (count > 0 && key.rfind(kind, 0) == 0);
    if (!seen) missing.push_back(std::string("abort ") + kind);
  }
  return missing;
}

namespace {

Status ValidateExplore(const ExploreOptions& o) {
  if (o.shard_count < 1 || o.shard_index < 0 || o.shard_index >= o.shard_count) {
    return Status::InvalidArgument("shard " + std::to_string(o.shard_index) + "/" +
                                   std::to_string(o.shard_count) +
                                   ": the index must be in [0, count)");
  }
  if (o.runs <= 0 && o.seconds <= 0 && !o.exhaustive)
    return Status::InvalidArgument("give --runs or --seconds");
  if (o.exhaustive && o.exhaustive_writers != 2 && o.exhaustive_writers != 3) {
    return Status::InvalidArgument("the exhaustive scope has 2 or 3 writers");
  }
  return Status::Ok();
}

// A campaign in progress, shared by its workers.
struct Campaign {
  explicit Campaign(const ExploreOptions& options)
      : o(options),
        scope(o.exhaustive ? ExhaustiveCount(o.exhaustive_writers) : 0),
        // This shard's share of the scope.
        scope_share(o.exhaustive
                        ? static_cast<int64_t>(
                              (scope + static_cast<uint64_t>(o.shard_count - 1 - o.shard_index)) /
                              static_cast<uint64_t>(o.shard_count))
                        : 0),
        // In memory, the path only names the table (it appears in 'p' DV descriptors).
        work(o.work_dir.empty() ? "/rlc-explore" : o.work_dir),
        store(o.work_dir.empty() ? scenario::TableStore::kMemory
                                 : scenario::TableStore::kDirectory),
        gen(GenHistory(o.generator)),
        start(std::chrono::steady_clock::now()) {}

  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  // The next history this worker runs, or nothing when the campaign is over.
  std::optional<int64_t> Next() {
    const int64_t k = next.fetch_add(1);
    if ((o.runs > 0 && k >= o.runs) || (o.seconds > 0 && elapsed() >= o.seconds))
      return std::nullopt;
    if (o.exhaustive && k >= scope_share) return std::nullopt;
    if (o.stop_at_first && found.load()) return std::nullopt;
    return k * o.shard_count + o.shard_index;
  }

  const ExploreOptions& o;
  const uint64_t scope;
  const int64_t scope_share;
  const std::string work;
  const scenario::TableStore store;
  const rc::Gen<scenario::Scenario> gen;
  const std::chrono::steady_clock::time_point start;
  std::mutex mu;
  std::atomic<int64_t> next{0};  // the next history number within this shard
  std::atomic<bool> found{false};
  Status failure = Status::Ok();
  Summary total;
};

// A history the oracle rejects: Delta's own (every flag off fails too, or Delta's rules decided
// the commit that closes it), or a counterexample of the cases, shrunk.
void FileViolation(Campaign& c, const scenario::Scenario& s,
                   const std::optional<rc::Shrinkable<scenario::Scenario>>& drawn,
                   const scenario::ScenarioReport& r, const Scratch& dir, int64_t index,
                   Summary& mine) {
  // Delta's own behaviour (every flag off) may already break the model's rules; such a history
  // is counted apart: it says nothing of the reconcile cases.
  if (DeltaFooledByALiar(s, dir)) {
    ++mine.lying_writer_anomalies;
    --mine.oracle_violations;
    return;
  }
  if (CostOfATrustedClaim(s, dir)) {
    ++mine.trusted_claim_lies;
    for (const std::string& field : LiesTold(s, true)) ++mine.trusted_claim_costs[field];
    --mine.oracle_violations;
    return;
  }
  Result<scenario::ScenarioReport> baseline = RunOne(WithoutFlags(s), dir);
  const bool baseline_fails = MayBeDeltasOwn(r) && (!baseline.ok() || OracleViolation(*baseline));
  std::lock_guard<std::mutex> shrinking(GenerationLock());  // shrinks draw values again
  if (baseline_fails) {
    ++mine.baseline_anomalies;
    --mine.oracle_violations;
    if (mine.baseline_examples.size() < 3) {
      // Shrunk with every flag off, so that what is kept still fails without the cases: the
      // history Delta's own rules break, as tests/engines' judge replays it. Not while the
      // mutant table times a search: shrinking Delta's own anomalies is no part of it.
      Counterexample e =
          drawn && !c.o.stop_at_first
              ? Shrink(rc::shrinkable::map(*drawn, WithoutFlags), dir, /*against_baseline=*/false)
              : AsIs(WithoutFlags(s), dir);
      e.history = index;
      mine.baseline_examples.push_back(std::move(e));
    }
  } else if (const ViolationOwner owner = DeltasOwnOnceReached(s, r, dir);
             owner != ViolationOwner::kCases) {
    ++mine.delta_decided_anomalies;
    --mine.oracle_violations;
    const double seconds_to_find = c.elapsed();
    if (mine.delta_decided_examples.size() < 3) {
      Counterexample e = AsIs(s, dir);
      e.history = index;
      mine.delta_decided_examples.push_back(std::move(e));
    }
    if (owner != ViolationOwner::kDeltaDecidedLastCommit) {
      ++mine.case_reached_anomalies;
      if (c.o.stop_at_case_reached) c.found.store(true);
      if (mine.case_reached_examples.size() < 3) {
        Counterexample e = AsIs(s, dir);
        e.history = index;
        e.seconds_to_find = seconds_to_find;
        mine.case_reached_examples.push_back(std::move(e));
      }
    }
  } else {
    c.found.store(true);
    // Read the clock before shrinking: the time to find is the search's, not the shrinker's.
    const double seconds_to_find = c.elapsed();
    Counterexample e = drawn ? Shrink(*drawn, dir, /*against_baseline=*/true) : AsIs(s, dir);
    e.history = index;
    e.seconds_to_find = seconds_to_find;
    mine.counterexamples.push_back(std::move(e));
  }
}

// History `index`: drawn (or numbered, in the exhaustive scope), run, accounted, re-run when
// sampled for determinism, and filed when the oracle rejects it.
Status RunHistory(Campaign& c, const Scratch& dir, int64_t index, Summary& mine) {
  const ExploreOptions& o = c.o;
  std::optional<rc::Shrinkable<scenario::Scenario>> drawn;
  scenario::Scenario s;
  if (o.exhaustive) {
    s = ExhaustiveHistory(o.exhaustive_writers,
                          static_cast<uint64_t>(index) * kExhaustiveStride % c.scope);
  } else {
    std::lock_guard<std::mutex> generating(GenerationLock());
    drawn = c.gen(rc::Random(Mix(o.seed, static_cast<uint64_t>(index))), rc::kNominalSize);
    s = drawn->value();
  }
  Result<scenario::ScenarioReport> r = RunOne(s, dir);
  if (!r.ok())
    return Status(r.status().code(),
                  "history " + std::to_string(index) + ": " + r.status().message());
  Account(s, *r, mine);
  if (o.determinism_sample > 0 && index % o.determinism_sample == 0) {
    Result<scenario::ScenarioReport> again = RunOne(s, dir);
    ++mine.determinism_checks;
    if (!again.ok() || OutcomeHash(*again) != OutcomeHash(*r)) {
      ++mine.determinism_mismatches;
      if (mine.determinism_mismatch_histories.size() < 3)
        mine.determinism_mismatch_histories.push_back(index);
    }
  }
  if (Inconclusive(*r) && mine.inconclusive_examples.size() < 3) {
    Counterexample e = AsIs(s, dir);
    e.history = index;
    mine.inconclusive_examples.push_back(std::move(e));
  }
  if (r->missed_reconciles > 0 && mine.missed_examples.size() < 3) {
    Counterexample e = AsIs(s, dir);
    e.history = index;
    mine.missed_examples.push_back(std::move(e));
  }
  if (OracleViolation(*r)) FileViolation(c, s, drawn, *r, dir, index, mine);
  return Status::Ok();
}

void Work(Campaign& c, int w, const std::function<void(const Summary&)>& progress) {
  const Scratch dir{c.work + "/w" + std::to_string(w), c.store, c.o.oracle_max_orders};
  Summary mine;
  while (const std::optional<int64_t> index = c.Next()) {
    if (Status st = RunHistory(c, dir, *index, mine); !st.ok()) {
      std::lock_guard<std::mutex> lock(c.mu);
      c.failure = st;
      break;
    }
    if (progress && mine.histories % 20 == 0) {
      std::lock_guard<std::mutex> lock(c.mu);
      Summary view = c.total;
      MergeInto(view, mine);
      view.seconds = c.elapsed();
      progress(view);
    }
  }
  std::lock_guard<std::mutex> lock(c.mu);
  MergeInto(c.total, mine);
}

// Each counterexample as a scenario file a reviewer can replay.
Status SaveCounterexamples(const ExploreOptions& o, Summary& total) {
  if (o.out_dir.empty()) return Status::Ok();
  std::error_code ec;
  for (Counterexample& c : total.counterexamples) {
    fs::create_directories(o.out_dir, ec);
    const fs::path file = fs::path(o.out_dir) / ("counterexample-" + std::to_string(o.seed) + "-" +
                                                 std::to_string(c.history) + ".scenario");
    std::ofstream out(file);
    out << "# Found by rlc explore --seed " << o.seed << " (history " << c.history << ", shrunk in "
        << c.shrink_steps << " steps).\n# Replay: rlc replay " << file.string() << "\n"
        << c.scenario;
    if (!out) return Status::IoError(file.string() + ": cannot write the counterexample");
    c.file = file.string();
  }
  return Status::Ok();
}

}  // namespace

Result<Summary> Explore(const ExploreOptions& o,
                        const std::function<void(const Summary&)>& progress) {
  RLC_RETURN_IF_ERROR(ValidateExplore(o));
  Campaign c(o);
  c.total.seed = o.seed;
  c.total.shard_index = o.shard_index;
  c.total.shard_count = o.shard_count;
  c.total.exhaustive_total = c.scope;
  std::vector<std::thread> threads;
  for (int w = 1; w < std::max(1, o.jobs); ++w)
    threads.emplace_back([&c, w, &progress] { Work(c, w, progress); });
  Work(c, 0, progress);
  for (std::thread& t : threads) t.join();
  if (!c.failure.ok()) return c.failure;
  Summary total = std::move(c.total);
  total.seconds = c.elapsed();
  std::sort(total.counterexamples.begin(), total.counterexamples.end(),
            [](const Counterexample& a, const Counterexample& b) { return a.history < b.history; });
  RLC_RETURN_IF_ERROR(SaveCounterexamples(o, total));
  return total;
}

Status WriteHistories(const ExploreOptions& o, const std::string& dir) {
  RLC_RETURN_IF_ERROR(ValidateExplore(o));
  if (o.runs <= 0) return Status::InvalidArgument("writing histories needs a number of runs");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError(dir + ": " + ec.message());
  const rc::Gen<scenario::Scenario> gen = GenHistory(o.generator);
  const uint64_t scope = o.exhaustive ? ExhaustiveCount(o.exhaustive_writers) : 0;
  for (int64_t index = o.shard_index; index < o.runs; index += o.shard_count) {
    const scenario::Scenario s =
        o.exhaustive
            ? ExhaustiveHistory(o.exhaustive_writers,
                                static_cast<uint64_t>(index) * kExhaustiveStride % scope)
            : gen(rc::Random(Mix(o.seed, static_cast<uint64_t>(index))), rc::kNominalSize).value();
    const std::string path = dir + "/history-" + std::to_string(index) + ".scenario";
    std::ofstream file(path, std::ios::trunc);
    file << "# history " << index << " of seed " << o.seed << "\n" << scenario::FormatScenario(s);
    if (!file.good()) return Status::IoError(path + ": cannot write");
  }
  return Status::Ok();
}

Result<int> WriteDeltasOwn(const Summary& summary, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Status::IoError(dir + ": " + ec.message());
  int written = 0;
  auto write = [&](const Counterexample& e, const char* kind, bool flags_off) -> Status {
    const std::string path = dir + "/" + kind + "-" + std::to_string(e.history) + ".scenario";
    RLC_ASSIGN_OR_RETURN(scenario::Scenario s, scenario::ParseScenario(e.scenario, path));
    if (flags_off) s = WithoutFlags(std::move(s));
    std::ofstream file(path, std::ios::trunc);
    file << "# history " << e.history << " of seed " << summary.seed << ", filed as Delta's own ("
         << kind << ")\n"
         << scenario::FormatScenario(s);
    if (!file.good()) return Status::IoError(path + ": cannot write");
    ++written;
    return Status::Ok();
  };
  for (const Counterexample& e : summary.baseline_examples)
    RLC_RETURN_IF_ERROR(write(e, "baseline-anomaly", /*flags_off=*/true));
  for (const Counterexample& e : summary.delta_decided_examples)
    RLC_RETURN_IF_ERROR(write(e, "delta-decided", /*flags_off=*/false));
  return written;
}

void MergeInto(Summary& total, const Summary& shard) {
  total.histories += shard.histories;
  total.exhaustive_total = std::max(total.exhaustive_total, shard.exhaustive_total);
  total.oracle_violations += shard.oracle_violations;
  total.reconciled_histories += shard.reconciled_histories;
  total.missed_reconciles += shard.missed_reconciles;
  total.deferred_cells += shard.deferred_cells;
  total.determinism_checks += shard.determinism_checks;
  total.determinism_mismatches += shard.determinism_mismatches;
  for (int64_t h : shard.determinism_mismatch_histories) {
    if (total.determinism_mismatch_histories.size() < 3)
      total.determinism_mismatch_histories.push_back(h);
  }
  total.outcome_hash += shard.outcome_hash;
  total.seconds = std::max(total.seconds, shard.seconds);
  for (const auto& [k, v] : shard.reconciles) total.reconciles[k] += v;
  for (const auto& [k, v] : shard.aborts) total.aborts[k] += v;
  for (const auto& [k, v] : shard.field_lies) total.field_lies[k] += v;
  for (const auto& [k, v] : shard.trusted_claim_costs) total.trusted_claim_costs[k] += v;
  for (const auto& [k, v] : shard.missed_by_cell) total.missed_by_cell[k] += v;
  for (const auto& [k, v] : shard.deferred_by_cell) total.deferred_by_cell[k] += v;
  for (const auto& [k, v] : shard.cells) {
    total.cells[k].races += v.races;
    total.cells[k].committed += v.committed;
  }
  total.counterexamples.insert(total.counterexamples.end(), shard.counterexamples.begin(),
                               shard.counterexamples.end());
  total.baseline_anomalies += shard.baseline_anomalies;
  total.delta_decided_anomalies += shard.delta_decided_anomalies;
  total.case_reached_anomalies += shard.case_reached_anomalies;
  total.case_reached_examples.insert(total.case_reached_examples.end(),
                                     shard.case_reached_examples.begin(),
                                     shard.case_reached_examples.end());
  total.lying_writer_anomalies += shard.lying_writer_anomalies;
  total.trusted_claim_lies += shard.trusted_claim_lies;
  total.unreadable_past_a_liar += shard.unreadable_past_a_liar;
  total.inconclusive += shard.inconclusive;
  total.inconclusive_examples.insert(total.inconclusive_examples.end(),
                                     shard.inconclusive_examples.begin(),
                                     shard.inconclusive_examples.end());
  total.delta_decided_examples.insert(total.delta_decided_examples.end(),
                                      shard.delta_decided_examples.begin(),
                                      shard.delta_decided_examples.end());
  total.missed_examples.insert(total.missed_examples.end(), shard.missed_examples.begin(),
                               shard.missed_examples.end());
  total.baseline_examples.insert(total.baseline_examples.end(), shard.baseline_examples.begin(),
                                 shard.baseline_examples.end());
}

namespace {

// Histories kept as examples (not counterexamples): their number and scenario only.
nlohmann::ordered_json KeptHistoriesJson(const std::vector<Counterexample>& kept) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Counterexample& c : kept)
    out.push_back({{"history", c.history}, {"scenario", c.scenario}});
  return out;
}

// Throws (as nlohmann::json::at does) on a missing field or one of the wrong type.
std::vector<Counterexample> KeptHistoriesFromJson(const nlohmann::json& kept) {
  std::vector<Counterexample> out;
  for (const auto& c : kept)
    out.push_back({c.at("history").get<int64_t>(), "", c.at("scenario").get<std::string>(), "", 0});
  return out;
}

}  // namespace

std::string SummaryToJson(const Summary& s) {
  nlohmann::ordered_json j;
  if (!s.rlc_version.empty()) j["rlcVersion"] = s.rlc_version;
  j["seed"] = s.seed;
  j["shard"] = {{"index", s.shard_index}, {"count", s.shard_count}};
  j["histories"] = s.histories;
  j["exhaustiveTotal"] = s.exhaustive_total;
  j["oracleViolations"] = s.oracle_violations;
  j["baselineAnomalies"] = s.baseline_anomalies;
  j["deltaDecidedAnomalies"] = s.delta_decided_anomalies;
  j["caseReachedAnomalies"] = s.case_reached_anomalies;
  j["lyingWriterAnomalies"] = s.lying_writer_anomalies;
  j["trustedClaimLies"] = s.trusted_claim_lies;
  j["unreadablePastALiar"] = s.unreadable_past_a_liar;
  j["inconclusive"] = s.inconclusive;
  j["reconciledHistories"] = s.reconciled_histories;
  j["missedReconciles"] = s.missed_reconciles;
  j["deferredCells"] = s.deferred_cells;
  j["missedByCell"] = s.missed_by_cell;
  j["deferredByCell"] = s.deferred_by_cell;
  j["determinismChecks"] = s.determinism_checks;
  j["determinismMismatches"] = s.determinism_mismatches;
  j["determinismMismatchHistories"] = s.determinism_mismatch_histories;
  j["outcomeHash"] = std::to_string(s.outcome_hash);
  j["seconds"] = s.seconds;
  j["reconciles"] = s.reconciles;
  j["fieldLies"] = s.field_lies;
  j["trustedClaimCosts"] = s.trusted_claim_costs;
  j["aborts"] = s.aborts;
  nlohmann::ordered_json cells = nlohmann::ordered_json::object();
  for (const auto& [k, v] : s.cells)
    cells[k] = {{"races", v.races}, {"loserCommitted", v.committed}};
  j["cells"] = cells;
  j["missingCoverage"] = s.MissingCoverage();
  nlohmann::ordered_json ces = nlohmann::ordered_json::array();
  for (const Counterexample& c : s.counterexamples) {
    ces.push_back({{"history", c.history},
                   {"file", c.file},
                   {"shrinkSteps", c.shrink_steps},
                   {"scenario", c.scenario},
                   {"report", c.report}});
  }
  j["counterexamples"] = ces;
  j["baselineExamples"] = KeptHistoriesJson(s.baseline_examples);
  j["deltaDecidedExamples"] = KeptHistoriesJson(s.delta_decided_examples);
  j["caseReachedExamples"] = KeptHistoriesJson(s.case_reached_examples);
  j["inconclusiveExamples"] = KeptHistoriesJson(s.inconclusive_examples);
  return j.dump();
}

Result<Summary> SummaryFromJson(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::InvalidArgument("not a JSON object");
  Summary s;
  try {
    s.seed = j.at("seed").get<uint64_t>();
    s.shard_index = j.at("shard").at("index").get<int>();
    s.shard_count = j.at("shard").at("count").get<int>();
    s.histories = j.at("histories").get<int64_t>();
    s.exhaustive_total = j.at("exhaustiveTotal").get<uint64_t>();
    s.oracle_violations = j.at("oracleViolations").get<int64_t>();
    s.baseline_anomalies = j.at("baselineAnomalies").get<int64_t>();
    s.delta_decided_anomalies = j.at("deltaDecidedAnomalies").get<int64_t>();
    s.case_reached_anomalies = j.at("caseReachedAnomalies").get<int64_t>();
    s.lying_writer_anomalies = j.at("lyingWriterAnomalies").get<int64_t>();
    s.trusted_claim_lies = j.at("trustedClaimLies").get<int64_t>();
    s.unreadable_past_a_liar = j.at("unreadablePastALiar").get<int64_t>();
    s.inconclusive = j.at("inconclusive").get<int64_t>();
    s.reconciled_histories = j.at("reconciledHistories").get<int64_t>();
    s.missed_reconciles = j.at("missedReconciles").get<int64_t>();
    s.deferred_cells = j.at("deferredCells").get<int64_t>();
    s.missed_by_cell = j.at("missedByCell").get<std::map<std::string, int64_t>>();
    s.deferred_by_cell = j.at("deferredByCell").get<std::map<std::string, int64_t>>();
    s.determinism_checks = j.at("determinismChecks").get<int64_t>();
    s.determinism_mismatches = j.at("determinismMismatches").get<int64_t>();
    s.determinism_mismatch_histories =
        j.at("determinismMismatchHistories").get<std::vector<int64_t>>();
    s.outcome_hash = std::stoull(j.at("outcomeHash").get<std::string>());
    s.seconds = j.at("seconds").get<double>();
    s.reconciles = j.at("reconciles").get<std::map<std::string, int64_t>>();
    s.field_lies = j.at("fieldLies").get<std::map<std::string, int64_t>>();
    s.trusted_claim_costs = j.at("trustedClaimCosts").get<std::map<std::string, int64_t>>();
    s.aborts = j.at("aborts").get<std::map<std::string, int64_t>>();
    for (const auto& [k, v] : j.at("cells").items())
      s.cells[k] = {v.at("races").get<int64_t>(), v.at("loserCommitted").get<int64_t>()};
    for (const auto& c : j.at("counterexamples")) {
      s.counterexamples.push_back({c.at("history").get<int64_t>(), c.at("file").get<std::string>(),
                                   c.at("scenario").get<std::string>(),
                                   c.at("report").get<std::string>(),
                                   c.at("shrinkSteps").get<int>()});
    }
    s.baseline_examples = KeptHistoriesFromJson(j.at("baselineExamples"));
    s.delta_decided_examples = KeptHistoriesFromJson(j.at("deltaDecidedExamples"));
    s.case_reached_examples = KeptHistoriesFromJson(j.at("caseReachedExamples"));
    s.inconclusive_examples = KeptHistoriesFromJson(j.at("inconclusiveExamples"));
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string("field missing or of the wrong type: ") + e.what());
  }
  return s;
}

}  // namespace rlc::explorer
