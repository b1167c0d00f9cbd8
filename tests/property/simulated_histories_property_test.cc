// Whole histories through the engine simulator and the real checker, judged by the oracle: the
// rows its own reader sees must equal the model's serial result of the committed transactions in
// an order the isolation level allows (aborted ones have no effect). With random flags on, this is
// the end-to-end soundness of every reconcile case: wrong data shows as rows no order explains.
//
// A history: a table of 8 rows in 2 files (WriteSerializable, merge-on-read or copy-on-write,
// statistics on or off); 2-4 transactions prepared on version 0 (so they all race), each a DELETE,
// UPDATE, blind INSERT, INSERT ... SELECT or OPTIMIZE (sometimes ZORDER) with a random subset of
// the six flags; then they commit in a random order, each through put-if-absent and the checker.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <filesystem>

#include "fuzz/oracle/judgement.h"
#include "fuzz/simulator/engine.h"
#include "impl/conflict/case_catalogue.h"

namespace {

namespace fs = std::filesystem;
namespace model = rlc::model;
namespace conflict = rlc::conflict;

template <typename T>
T Uniform(T min, T max) {
  return *rc::gen::resize(rc::kNominalSize, rc::gen::inRange<T>(min, max));
}
bool Chance(int percent) { return Uniform(0, 100) < percent; }

model::Predicate Where() {
  const int64_t k = Uniform<int64_t>(1, 9);
  switch (Uniform(0, 3)) {
    case 0:
      return model::Predicate::Compare("id", model::Predicate::Op::kEq, k);
    case 1:
      return model::Predicate::Compare("id", model::Predicate::Op::kGt, k);
    default:
      return model::Predicate::Compare("id", model::Predicate::Op::kLt, k);
  }
}

model::Operation GenOperation() {
  switch (Uniform(0, 6)) {
    case 0:
      return model::Delete{Where()};
    case 1:
      return model::Update{Where(), {{"value", std::string("u") + std::to_string(Uniform(0, 5))}}};
    case 2:
      return model::BlindInsert{{{Uniform<int64_t>(1, 12), std::string("new")}}};
    case 3:
      return model::InsertSelect{Where(), {{"value", std::string("copy")}}};
    case 4:
      return model::Optimize{Chance(20) ? std::vector<std::string>{"value"}
                                        : std::vector<std::string>{}};
    default:
      return model::Delete{
          model::Predicate::Compare("id", model::Predicate::Op::kEq, Uniform<int64_t>(1, 9))};
  }
}

conflict::Flags GenFlags() {
  conflict::Flags f;
  f.SetCase(rlc::conflict::CaseId::kExcludeNoDataChange, Chance(50));
  f.SetCase(rlc::conflict::CaseId::kDataSkipping, Chance(50));
  f.SetCase(rlc::conflict::CaseId::kValueExact, Chance(50));
  f.SetCase(rlc::conflict::CaseId::kRowLevelConcurrency, Chance(60));
  f.SetCase(rlc::conflict::CaseId::kOptimizeReconcile, Chance(60));
  f.SetCase(rlc::conflict::CaseId::kOptimizeReconcileReverse, Chance(60));
  return f;
}

RC_GTEST_PROP(SimulatedHistories, CommittedRowsAreASerialResult, ()) {
  static int run = 0;
  const fs::path root = fs::temp_directory_path() /
                        ("rlc-history-" + std::to_string(::getpid()) + "-" + std::to_string(run++));
  fs::remove_all(root);
  model::LogicalTable table = model::MakeTable();
  table.properties.isolation_level = model::IsolationLevel::kWriteSerializable;
  for (int64_t id = 1; id <= 8; ++id) table.Insert({id, std::string("v") + std::to_string(id)});
  rlc::simulator::TableOptions options;
  options.merge_on_read = Chance(80);
  options.statistics = Chance(80);
  auto storage = rlc::storage::NewLocalStorage();
  rlc::simulator::Simulator sim(*storage, root.string(), table, options);
  RC_ASSERT(sim.Create(2).ok());

  const int count = Uniform(2, 5);
  std::vector<rlc::simulator::Transaction> txns;
  for (int i = 0; i < count; ++i) {
    const model::Operation op = GenOperation();
    rlc::Result<rlc::simulator::Transaction> t = sim.Prepare(op, 0, GenFlags());
    RC_ASSERT(t.ok());
    RC_LOG() << "T" << i + 1 << ": " << model::Describe(op) << " flags:";
    for (const std::string& f : t->pending.flags.ToAssignments()) {
      if (f.substr(f.size() - 4) == "true") RC_LOG() << " " << f.substr(23, f.size() - 28);
    }
    RC_LOG() << "\n";
    txns.push_back(*t);
  }
  std::vector<int> order(count);
  for (int i = 0; i < count; ++i) order[i] = i;
  for (int i = count - 1; i > 0; --i) std::swap(order[i], order[Uniform(0, i + 1)]);

  model::CommittedHistory history;
  history.initial = table;
  int reconciled = 0;
  for (int i : order) {
    rlc::Result<rlc::simulator::CommitOutcome> c = sim.Commit(txns[i]);
    RC_ASSERT(c.ok());
    RC_LOG() << "T" << i + 1
             << (c->committed ? " commits at " + std::to_string(c->version)
                              : " aborts: " + (c->abort ? conflict::Describe(*c->abort)
                                                        : std::string("nothing to commit")))
             << (c->events.empty() ? "" : " (" + c->events[0].name + ")") << "\n";
    reconciled += c->events.empty() ? 0 : 1;
    if (c->committed)
      history.commits.push_back(
          {"T" + std::to_string(i + 1), txns[i].read_version, txns[i].operation});
  }
  RC_TAG(reconciled > 0 ? "a case reconciled" : "no reconcile");
  const rlc::oracle::Judgement judgement =
      rlc::oracle::JudgeHistory(root.string(), history, model::IsolationLevel::kWriteSerializable);
  fs::remove_all(root);
  RC_LOG() << "final rows: " << judgement.actual_rows.size() << "; (a) " << judgement.rows_check
           << "\n";
  for (const std::string& cycle : judgement.cycles) RC_LOG() << "(b) forbidden cycle:\n" << cycle;
  for (const std::string& finding : judgement.invariant_findings)
    RC_LOG() << "(c) " << finding << "\n";
  RC_ASSERT(judgement.rows_check.rfind("unreadable", 0) != 0);
  RC_ASSERT(judgement.rows_check.rfind("wrong data", 0) != 0);
  RC_ASSERT(judgement.cycles.empty());
  RC_ASSERT(judgement.invariant_findings.empty());
}

}  // namespace
