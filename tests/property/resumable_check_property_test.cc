// A conflict check that goes on in rounds decides what one check decides: for the explorer's
// generated histories (both isolation levels, every flag subset, reads beyond writes, foreign
// writers), at each commit that lost a race, the loser is checked once against every winner since
// its read version, and again in k rounds over the same winners, for every split into consecutive
// rounds (an engine whose rebased commit lost the race again, k - 1 times). The verdicts must
// agree: commit or abort; an abort's exception and winner; a commit's actions (DVs compared by the
// rows they delete, their file names being random), read files and events.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "fuzz/explorer/history_generator.h"
#include "fuzz/simulator/engine.h"
#include "fuzz/simulator/row_file.h"
#include "impl/conflict/checker.h"
#include "impl/conflict/dv_writer.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/deletion_vector_loader.h"
#include "impl/delta/log.h"
#include "impl/storage/storage.h"

namespace {

namespace conflict = rlc::conflict;
namespace delta = rlc::delta;
namespace scenario = rlc::scenario;
namespace simulator = rlc::simulator;

constexpr char kRoot[] = "/rounds";

// One action as text, its DV as the rows it deletes.
std::string Canonical(const delta::Action& action, const rlc::storage::Storage& storage) {
  delta::Action a = action;
  std::optional<rlc::dv::DvDescriptor> dv;
  if (auto* add = std::get_if<delta::AddFile>(&a)) std::swap(dv, add->deletion_vector);
  if (auto* remove = std::get_if<delta::RemoveFile>(&a)) std::swap(dv, remove->deletion_vector);
  std::string text = delta::WriteActionLine(a);
  if (dv.has_value()) {
    rlc::Result<rlc::dv::RowBitmap> rows = delta::LoadDeletionVector(storage, kRoot, *dv);
    text += " dv:";
    if (!rows.ok()) return text + " unreadable " + rows.status().ToString();
    for (uint64_t r : rows->ToVector()) text += " " + std::to_string(r);
  }
  return text;
}

// The verdict as text both checks must agree on.
std::string Summarize(const conflict::Verdict& v, const rlc::storage::Storage& storage) {
  if (!v.commits()) {
    return "abort " + conflict::ExceptionName(v.abort->kind) + " at " +
           std::to_string(v.abort->winner_version);
  }
  std::string s = "commit\n";
  for (const delta::Action& a : v.actions) s += "  " + Canonical(a, storage) + "\n";
  s += "read files:";
  for (const std::string& f : v.read_files) s += " " + f;
  s += "\nevents:";
  for (const conflict::Event& e : v.events)
    s += " " + e.name + "@" + std::to_string(e.winner_version);
  return s;
}

struct Checked {
  int compared = 0;    // losers checked both ways
  int rounds = 0;      // rounds beyond the first, over all splits
  int reconciled = 0;  // losers some case reconciled in the one check
};

// Checks `t` at the latest version in one round and in every split into rounds.
void CompareRounds(const simulator::Transaction& t, rlc::storage::Storage& storage,
                   Checked& checked) {
  const rlc::Result<delta::LogListing> listing = delta::ListLog(storage, kRoot);
  RC_ASSERT(listing.ok());
  std::vector<conflict::WinningCommit> winners;
  for (int64_t v : listing->commit_versions) {
    if (v <= t.read_version) continue;
    const std::string path = delta::LogDir(kRoot) + "/" + delta::CommitFileName(v);
    rlc::Result<std::string> bytes = storage.ReadFile(path);
    RC_ASSERT(bytes.ok());
    winners.push_back({v, std::move(*bytes), path});
  }
  if (winners.empty()) return;
  const rlc::Result<delta::Snapshot> read = delta::ReplayLog(storage, kRoot, t.read_version);
  RC_ASSERT(read.ok());
  const simulator::RowFileTableFiles files(storage, kRoot);
  conflict::StorageDvWriter dv_writer(storage, kRoot, kRoot);
  conflict::CheckEnvironment env{&files, &dv_writer, 1700000000000};

  rlc::Result<conflict::ConflictCheck> one = conflict::BeginCheck(t.pending, *read, kRoot);
  RC_ASSERT(one.ok());
  const rlc::Result<conflict::Verdict> whole = one->Continue(winners, env);
  // A winner log replay refuses (a lying writer's duplicate add) is refused in every split too.
  RC_ASSERT(whole.ok() || whole.status().code() == rlc::StatusCode::kCorrupt);
  const auto outcome = [&](const rlc::Result<conflict::Verdict>& v) {
    return v.ok() ? Summarize(*v, storage) : "refused: " + v.status().message();
  };

  // Every split of the winners into consecutive rounds (a mask of the boundaries that end a round);
  // past 6 winners, 32 of them at random.
  const size_t boundaries = winners.size() - 1;
  const uint64_t splits = uint64_t{1} << std::min<size_t>(boundaries, 5);
  for (uint64_t n = 0; n < splits; ++n) {
    uint64_t mask = n;
    if (boundaries > 5)
      mask = *rc::gen::resize(rc::kNominalSize,
                              rc::gen::inRange<uint64_t>(0, uint64_t{1} << boundaries));
    rlc::Result<conflict::ConflictCheck> split = conflict::BeginCheck(t.pending, *read, kRoot);
    RC_ASSERT(split.ok());
    rlc::Result<conflict::Verdict> last = conflict::Verdict{};
    for (size_t begin = 0; begin < winners.size();) {
      size_t end = begin + 1;
      while (end < winners.size() && (mask >> (end - 1) & 1) == 0) ++end;
      last = split->Continue({winners.begin() + static_cast<std::ptrdiff_t>(begin),
                              winners.begin() + static_cast<std::ptrdiff_t>(end)},
                             env);
      checked.rounds += begin > 0 ? 1 : 0;
      if (!last.ok()) break;  // refused: the rounds after it are never reached
      if (last->abort.has_value()) break;
      begin = end;
    }
    RC_ASSERT(outcome(last) == outcome(whole));
  }
  ++checked.compared;
  if (whole.ok() && !whole->events.empty()) ++checked.reconciled;
}

// Runs the generated history, comparing both ways at every commit, then committing as usual.
Checked RunComparing(const scenario::Scenario& s) {
  rlc::storage::InMemoryStorage storage;
  simulator::TableOptions options;
  options.merge_on_read = s.table.merge_on_read;
  options.statistics = s.table.statistics;
  options.optimize_target_rows = s.table.optimize_target;
  simulator::Simulator sim(storage, kRoot, s.StartingTable(), options);
  RC_ASSERT(sim.Create(s.table.files).ok());
  for (const auto& [op, line] : s.setup) {
    rlc::Result<simulator::Transaction> t =
        sim.Prepare(op, *sim.LatestVersion(), conflict::Flags{});
    RC_ASSERT(t.ok());
    RC_ASSERT(sim.Commit(*t).ok());
  }
  std::map<std::string, simulator::Transaction> prepared;
  Checked checked;
  for (const scenario::Step& step : s.steps) {
    const scenario::TxnSpec& spec = *s.Find(step.txn);
    if (step.kind == scenario::Step::Kind::kStart) {
      rlc::Result<simulator::Transaction> t = sim.Prepare(*spec.operation, *sim.LatestVersion(),
                                                          spec.flags, spec.optimize, spec.writer);
      RC_ASSERT(t.ok());
      std::vector<rlc::model::Predicate> reads = spec.extra_reads;
      if (spec.reads_whole_table) reads.push_back(rlc::model::Predicate::True());
      if (!t->commits_nothing) RC_ASSERT(sim.AddReads(*t, reads).ok());
      prepared[step.txn] = std::move(*t);
    } else if (step.kind == scenario::Step::Kind::kCommit) {
      simulator::Transaction& t = prepared.at(step.txn);
      if (!t.commits_nothing) CompareRounds(t, storage, checked);
      RC_ASSERT(sim.Commit(t).ok());
    }
  }
  return checked;
}

rlc::explorer::GeneratorOptions Options() {
  rlc::explorer::GeneratorOptions o;
  o.min_writers = 3;  // enough winners to split
  o.max_writers = 5;
  return o;
}

RC_GTEST_PROP(ResumableCheck, KRoundsDecideWhatOneCheckDecides, ()) {
  // At full size, as the explorer draws them (rapidcheck narrows ranges at small sizes).
  const scenario::Scenario s =
      *rc::gen::resize(rc::kNominalSize, rlc::explorer::GenHistory(Options()));
  const Checked checked = RunComparing(s);
  RC_CLASSIFY(checked.rounds > 0, "split into rounds");
}

// The same over a fixed sample of 3,000 histories (the CI's bounded property runs are too few for
// the rarer classes), which must also compare many losers that a case reconciled.
TEST(ResumableCheckSample, KRoundsDecideWhatOneCheckDecidesOnAFixedSample) {
  const rc::Gen<scenario::Scenario> gen = rlc::explorer::GenHistory(Options());
  Checked total;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    const scenario::Scenario s = gen(rc::Random(seed), rc::kNominalSize).value();
    // Outside a property, a failed RC_ASSERT throws: the history is printed and the test fails.
    try {
      const Checked one =
          rc::gen::exec([&] { return RunComparing(s); })(rc::Random(seed), rc::kNominalSize)
              .value();
      total.compared += one.compared;
      total.rounds += one.rounds;
      total.reconciled += one.reconciled;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "history " << seed << ":\n"
                    << scenario::FormatScenario(s) << "\n"
                    << e.what();
      return;
    }
  }
  std::cout << "losers compared: " << total.compared << ", reconciled: " << total.reconciled
            << ", rounds after a first: " << total.rounds << "\n";
  EXPECT_GE(total.compared, 1000);
  EXPECT_GE(total.reconciled, 300);
  EXPECT_GE(total.rounds, 1000);
}

}  // namespace
