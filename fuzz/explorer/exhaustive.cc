#include "fuzz/explorer/exhaustive.h"

#include <algorithm>
#include <string>
#include <vector>

#include "impl/base/assert.h"

namespace rlc::explorer {
namespace {

using model::Predicate;
using Op = Predicate::Op;

constexpr uint64_t kOperations = 29;
constexpr uint64_t kFlagSubsets = 64;
constexpr uint64_t kTableShapes = 2;
constexpr uint64_t kRebaseShapes = 2;  // none, or T1 rebases after the first commit it races
constexpr uint64_t kWriterShapes =
    3;  // T2's engine: honest, a liar about others' files, a DML as no change

// Every order of 2·writers steps in which each writer starts before it commits, as sequences of
// writer numbers (first occurrence: start, second: commit).
std::vector<std::vector<int>> Interleavings(int writers) {
  std::vector<std::vector<int>> out;
  std::vector<int> seq, seen(static_cast<size_t>(writers), 0);
  auto rec = [&](auto& self) -> void {
    if (seq.size() == static_cast<size_t>(2 * writers)) {
      out.push_back(seq);
      return;
    }
    for (int w = 0; w < writers; ++w) {
      if (seen[static_cast<size_t>(w)] == 2) continue;
      ++seen[static_cast<size_t>(w)];
      seq.push_back(w);
      self(self);
      seq.pop_back();
      --seen[static_cast<size_t>(w)];
    }
  };
  rec(rec);
  return out;
}

const std::vector<std::vector<int>>& InterleavingsOf(int writers) {
  static const std::vector<std::vector<int>> two = Interleavings(2), three = Interleavings(3);
  return writers == 2 ? two : three;
}

uint64_t Power(uint64_t base, int exponent) {
  uint64_t r = 1;
  for (int i = 0; i < exponent; ++i) r *= base;
  return r;
}

uint64_t CountFor(int writers) {
  return kTableShapes * kRebaseShapes * kWriterShapes * Power(kOperations, writers) *
         InterleavingsOf(writers).size() * kFlagSubsets;
}

model::Operation OperationAt(uint64_t n, int64_t max_id) {
  const int64_t k = n % 2 == 0 ? 2 : max_id - 1;
  const Op ops[] = {Op::kEq, Op::kLt, Op::kGe};
  const Predicate p = Predicate::Compare("id", ops[(n / 2) % 3], k);
  using Kind = model::MergeClause::Kind;
  switch (n / 6) {
    case 0:
      return model::Delete{p};
    case 1:
      return model::Update{p, {{"value", std::string("u")}}};
    case 2:
      return model::InsertSelect{p, {{"value", std::string("copy")}}};
    case 3: {
      model::Merge merge;
      merge.key_column = "id";
      if ((n / 2) % 3 == 0) {
        merge.source_rows = {{k, std::string("m")}};
        merge.clauses = {{Kind::kMatchedDelete, Predicate::True(), {}, false}};
      } else {
        for (int64_t id = 1; id <= max_id; ++id)
          merge.source_rows.push_back({id, std::string("m")});
        merge.clauses = {{Kind::kMatchedDelete, p, {}, false}};
      }
      return merge;
    }
    default:
      break;
  }
  if (n == 24) return model::BlindInsert{{{int64_t{10}, std::string("new")}}};
  if (n == 26) {
    // Reads two keys (a not-matched insert makes the absence of a match part of what it read),
    // deletes one: its reads differ from its writes.
    model::Merge merge;
    merge.key_column = "id";
    merge.source_rows = {{int64_t{2}, std::string("x")}, {max_id - 1, std::string("y")}};
    merge.clauses = {
        {Kind::kMatchedDelete, Predicate::Compare("id", Op::kEq, max_id - 1), {}, false},
        {Kind::kNotMatchedInsert, Predicate::True(), {}, false}};
    return merge;
  }
  if (n == 27)
    return model::Delete{
        Predicate::Compare("id", Op::kEq, max_id - 1)};  // and reads the whole table
  if (n == 28) return model::ProtocolChange{"rowTracking"};
  return model::Optimize{};
}

}  // namespace

uint64_t ExhaustiveCount(int max_writers) {
  RLC_ASSERT(max_writers == 2 || max_writers == 3);
  uint64_t total = 0;
  for (int w = 2; w <= max_writers; ++w) total += CountFor(w);
  return total;
}

scenario::Scenario ExhaustiveHistory(int max_writers, uint64_t index) {
  RLC_ASSERT(index < ExhaustiveCount(max_writers));
  int writers = 2;
  while (index >= CountFor(writers)) index -= CountFor(writers++);
  const uint64_t flags = index % kFlagSubsets;
  index /= kFlagSubsets;
  const std::vector<int>& order = InterleavingsOf(writers)[index % InterleavingsOf(writers).size()];
  index /= InterleavingsOf(writers).size();
  const int files = static_cast<int>(index % kTableShapes) + 1;
  index /= kTableShapes;
  const bool rebase = index % kRebaseShapes == 1;
  index /= kRebaseShapes;
  const uint64_t writer_shape = index % kWriterShapes;
  index /= kWriterShapes;

  scenario::Scenario s;
  s.table.files = files;
  s.table.isolation = model::IsolationLevel::kWriteSerializable;
  const int64_t max_id = 4 * files;
  for (int64_t id = 1; id <= max_id; ++id) s.table.rows.push_back({id, "v" + std::to_string(id)});
  for (int w = 0; w < writers; ++w) {
    scenario::TxnSpec t;
    t.name = "T" + std::to_string(w + 1);
    const uint64_t op = index % kOperations;
    t.operation = OperationAt(op, max_id);
    t.reads_whole_table = op == 27;
    index /= kOperations;
    if (w == 1 && writer_shape == 1) {  // lies about the files it removes and the runs it compacted
      t.writer.remove_stats = simulator::WriterQuirks::RemoveStats::kLyingBounds;
      t.writer.miscounted_tags = true;
    }
    if (w == 1 && writer_shape == 2) t.writer.no_data_change = true;
    t.flags = conflict::Flags::Subset(flags);
    s.txns.push_back(std::move(t));
  }
  std::vector<bool> started(static_cast<size_t>(writers), false);
  bool rebased = false;
  for (int w : order) {
    const bool start = !started[static_cast<size_t>(w)];
    started[static_cast<size_t>(w)] = true;
    s.steps.push_back({start ? scenario::Step::Kind::kStart : scenario::Step::Kind::kCommit,
                       s.txns[static_cast<size_t>(w)].name, 0});
    // T1's commit attempt loses its race again right after the first commit it races: its check
    // goes on from there when it commits.
    if (rebase && !rebased && !start && w != 0 && started[0] && s.steps.size() > 1) {
      const bool t1_committed =
          std::any_of(s.steps.begin(), s.steps.end(), [&](const scenario::Step& st) {
            return st.txn == s.txns[0].name && st.kind == scenario::Step::Kind::kCommit;
          });
      if (!t1_committed) {
        s.steps.push_back({scenario::Step::Kind::kRebase, s.txns[0].name, 0});
        rebased = true;
      }
    }
  }
  return s;
}

}  // namespace rlc::explorer
