// Tests for model/graph: the dependency graph's edges, the cycle search and CheckIsolation, on
// small histories. Histories a reconciled commit order can produce go through Observe(); G0 and
// G1c, which need writes installed out of commit order, are built by hand.
#include "model/graph/dependency_graph.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/explain/explanation.h"
#include "model/graph/cycle_search.h"
#include "model/graph/isolation_check.h"
#include "model/isolation/history.h"
#include "model/semantics/operation.h"
#include "model/semantics/predicate.h"

namespace rlc::model {
namespace {

using Op = Predicate::Op;

Predicate Where(const std::string& column, Op op, int64_t literal) {
  return Predicate::Compare(column, op, literal);
}
std::vector<Value> Values(int64_t id, const std::string& value) { return {id, value}; }

CommittedHistory Start(const std::vector<std::vector<Value>>& rows) {
  CommittedHistory h;
  h.initial = MakeTable();
  for (const auto& row : rows) h.initial.Insert(row);
  return h;
}

std::vector<std::string> Sentences(const std::vector<EdgeExplanation>& edges) {
  std::vector<std::string> out;
  for (const EdgeExplanation& e : edges) out.push_back(RenderEdge(e));
  return out;
}

std::vector<std::string> Names(const GraphResult& result) {
  std::vector<std::string> out;
  for (const Anomaly& a : result.anomalies) out.push_back(AnomalyName(a.kind));
  return out;
}

const Anomaly& Find(const GraphResult& result, AnomalyKind kind) {
  for (const Anomaly& a : result.anomalies) {
    if (a.kind == kind) return a;
  }
  ADD_FAILURE() << "no " << AnomalyName(kind);
  static const Anomaly kNone;
  return kNone;
}

// ---------------------------------------------------------------------------------------------
// Hand-built histories

Row MakeRow(RowId id, int64_t key, const std::string& value) { return Row{id, Values(key, value)}; }

RowWrite UpdateOf(const Row& before, const Row& after) {
  return {RowWrite::Kind::kUpdate, before.id, before, after};
}

TxnObservation Txn(const std::string& name, int64_t read_version, int64_t commit_version,
                   std::vector<RowWrite> writes, std::vector<PredicateRead> reads = {}) {
  TxnObservation t;
  t.name = name;
  t.read_version = read_version;
  t.commit_version = commit_version;
  t.effect.writes = std::move(writes);
  t.effect.reads = std::move(reads);
  return t;
}

LogicalTable Version(LogicalTable table, int64_t version, const std::vector<Row>& rows) {
  table.version = version;
  for (const Row& r : rows) table.rows[r.id] = r;
  return table;
}

// w1(x) w2(x) w2(y) w1(y), Adya's G0: the table at version 1 already holds T2's row 2, and
// T1's row 2 lands at version 2. One commit order cannot do this: the writes interleave.
ObservedHistory InterleavedWrites() {
  const LogicalTable initial = Start({Values(1, "a"), Values(2, "b")}).initial;
  ObservedHistory o;
  o.versions.push_back(initial);
  o.versions.push_back(Version(initial, 1, {MakeRow(1, 1, "T1"), MakeRow(2, 2, "T2")}));
  o.versions.push_back(Version(initial, 2, {MakeRow(1, 1, "T2"), MakeRow(2, 2, "T1")}));
  o.txns.push_back(Txn("T1", 0, 1,
                       {UpdateOf(MakeRow(1, 1, "a"), MakeRow(1, 1, "T1")),
                        UpdateOf(MakeRow(2, 2, "b"), MakeRow(2, 2, "T1"))}));
  o.txns.push_back(Txn("T2", 0, 2,
                       {UpdateOf(MakeRow(1, 1, "a"), MakeRow(1, 1, "T2")),
                        UpdateOf(MakeRow(2, 2, "b"), MakeRow(2, 2, "T2"))}));
  return o;
}

TEST(DependencyGraphTest, InterleavedWritesAreG0) {
  const ObservedHistory o = InterleavedWrites();
  const DependencyGraph g = BuildDependencyGraph(o, CommitOrderEdges::kNone);
  EXPECT_EQ(
      Sentences(g.EdgesOf(EdgeKind::kWW)),
      (std::vector<std::string>{"T2 updated row (1, 'T1'), which T1 had updated at version 1",
                                "T1 updated row (2, 'T2'), which T2 had updated at version 1"}));
  const GraphResult r = FindAnomalies(g, AllAnomalyKinds());
  EXPECT_EQ(r.verdict, GraphVerdict::kInvalid);
  EXPECT_EQ(Names(r), std::vector<std::string>{"G0"});
  const std::vector<TxnLabel> labels = {{"T1", "UPDATE SET value = 'T1' WHERE id <= 2", 0, 1},
                                        {"T2", "UPDATE SET value = 'T2' WHERE id <= 2", 0, 2}};
  EXPECT_EQ(RenderCycle(labels, Find(r, AnomalyKind::kG0).cycle),
            "Let:\n"
            "  T1 = UPDATE SET value = 'T1' WHERE id <= 2 (read version 0, commit version 1)\n"
            "  T2 = UPDATE SET value = 'T2' WHERE id <= 2 (read version 0, commit version 2)\n"
            "Then:\n"
            "  - T1 < T2, because T2 updated row (1, 'T1'), which T1 had updated at version 1\n"
            "However:\n"
            "  - T2 < T1, because T1 updated row (2, 'T2'), which T2 had updated at version 1: a "
            "contradiction.\n");
  // Every level forbids G0. Serializable's commit-order edge T1 -> T2 closes a cycle with the
  // ww edge of row 2 too, but that cycle does not need the commit order: not reported again.
  EXPECT_EQ(Names(CheckIsolation(o, IsolationLevel::kSnapshotIsolation)),
            std::vector<std::string>{"G0"});
  EXPECT_EQ(Names(CheckIsolation(o, IsolationLevel::kSerializable)),
            std::vector<std::string>{"G0"});
}

// T2 reads T1's insert at version 1, while T2's own update of row 1 was installed (version 1)
// before T1's (version 2): information flows both ways.
ObservedHistory CircularInformationFlow() {
  const LogicalTable initial = Start({Values(1, "y0")}).initial;
  const Row inserted = MakeRow(2, 10, "x");
  ObservedHistory o;
  o.versions.push_back(initial);
  o.versions.push_back(Version(initial, 1, {MakeRow(1, 1, "T2"), inserted}));
  o.versions.push_back(Version(initial, 2, {MakeRow(1, 1, "T1"), inserted}));
  o.txns.push_back(Txn("T1", 0, 1,
                       {{RowWrite::Kind::kInsert, 2, std::nullopt, inserted},
                        UpdateOf(MakeRow(1, 1, "y0"), MakeRow(1, 1, "T1"))}));
  o.txns.push_back(Txn("T2", 1, 2, {UpdateOf(MakeRow(1, 1, "y0"), MakeRow(1, 1, "T2"))},
                       {{Where("id", Op::kEq, 10), {2}}}));
  return o;
}

TEST(DependencyGraphTest, ReadingAWriteThatOverwritesYoursIsG1c) {
  const ObservedHistory o = CircularInformationFlow();
  const GraphResult r =
      FindAnomalies(BuildDependencyGraph(o, CommitOrderEdges::kNone), AllAnomalyKinds());
  EXPECT_EQ(r.verdict, GraphVerdict::kInvalid);
  EXPECT_EQ(Names(r), std::vector<std::string>{"G1c"});
  EXPECT_EQ(Sentences(Find(r, AnomalyKind::kG1c).cycle),
            (std::vector<std::string>{
                "T2 read row (10, 'x') at version 1, which T1 had inserted at version 1",
                "T1 updated row (1, 'T2'), which T2 had updated at version 1"}));
}

// ---------------------------------------------------------------------------------------------
// Histories through Observe()

TEST(DependencyGraphTest, SerialHistoryIsValidAtEveryLevel) {
  CommittedHistory h = Start({Values(1, "a")});
  h.commits.push_back({"T1", 0, BlindInsert{{Values(2, "b")}}});
  h.commits.push_back({"T2", 1, Update{Where("id", Op::kEq, 2), {{"value", std::string("c")}}}});
  h.commits.push_back({"T3", 2, Delete{Where("id", Op::kGe, 1)}});
  const ObservedHistory o = Observe(h);
  const DependencyGraph g = BuildDependencyGraph(o, CommitOrderEdges::kCommitOrder);
  EXPECT_EQ(
      Sentences(g.EdgesOf(EdgeKind::kWW)),
      (std::vector<std::string>{"T2 updated row (2, 'b'), which T1 had inserted at version 1",
                                "T3 deleted row (2, 'c'), which T2 had updated at version 2"}));
  EXPECT_EQ(Sentences(g.EdgesOf(EdgeKind::kWR)),
            (std::vector<std::string>{
                "T2 read row (2, 'b') at version 1, which T1 had inserted at version 1",
                "T3 read row (2, 'c') at version 2, which T2 had updated at version 2"}));
  EXPECT_EQ(Sentences(g.EdgesOf(EdgeKind::kRW)),
            std::vector<std::string>{"T3 deleted row (2, 'b'), which T2 had read at version 1"});
  EXPECT_EQ(
      Sentences(g.EdgesOf(EdgeKind::kCommitOrder)),
      (std::vector<std::string>{"T1 committed at version 1, before T2 committed at version 2",
                                "T2 committed at version 2, before T3 committed at version 3"}));
  for (IsolationLevel level : {IsolationLevel::kSerializable, IsolationLevel::kWriteSerializable,
                               IsolationLevel::kSnapshotIsolation}) {
    const GraphResult r = CheckIsolation(o, level);
    EXPECT_EQ(r.verdict, GraphVerdict::kValid);
    EXPECT_TRUE(r.anomalies.empty());
  }
  // Acyclicity is proved by the components alone: no budget needed.
  EXPECT_EQ(FindAnomalies(g, AllAnomalyKinds(), {0, 0}).verdict, GraphVerdict::kValid);
}

TEST(DependencyGraphTest, ReadThatMissesADeletedRowDependsOnTheDelete) {
  CommittedHistory h = Start({Values(1, "a"), Values(2, "b")});
  h.commits.push_back({"T1", 0, Delete{Where("id", Op::kEq, 1)}});
  h.commits.push_back({"T2", 1, Update{Where("id", Op::kLe, 2), {{"value", std::string("z")}}}});
  const ObservedHistory o = Observe(h);
  EXPECT_EQ(Sentences(BuildDependencyGraph(o, CommitOrderEdges::kNone).EdgesOf(EdgeKind::kWR)),
            std::vector<std::string>{"T2's read `id <= 2` at version 1 missed row (1, 'a'), which "
                                     "T1 had deleted at version 1"});
  EXPECT_EQ(CheckIsolation(o, IsolationLevel::kSerializable).verdict, GraphVerdict::kValid);
}

TEST(DependencyGraphTest, LostUpdateIsGSingle) {
  CommittedHistory h = Start({Values(1, "a"), Values(2, "b")});
  h.commits.push_back({"T1", 0, Update{Where("id", Op::kLe, 2), {{"value", std::string("t1")}}}});
  h.commits.push_back({"T2", 0, Update{Where("id", Op::kEq, 2), {{"value", std::string("t2")}}}});
  const ObservedHistory o = Observe(h);
  const GraphResult si = CheckIsolation(o, IsolationLevel::kSnapshotIsolation);
  EXPECT_EQ(si.verdict, GraphVerdict::kInvalid);
  EXPECT_EQ(Names(si), std::vector<std::string>{"G-single"});
  const std::vector<EdgeExplanation>& cycle = Find(si, AnomalyKind::kGSingle).cycle;
  EXPECT_EQ(RenderCycle(LabelCycle(cycle, h), cycle),
            "Let:\n"
            "  T1 = UPDATE SET value = 't1' WHERE id <= 2 (read version 0, commit version 1)\n"
            "  T2 = UPDATE SET value = 't2' WHERE id = 2 (read version 0, commit version 2)\n"
            "Then:\n"
            "  - T1 < T2, because T2 updated row (2, 't1'), which T1 had updated at version 1\n"
            "However:\n"
            "  - T2 < T1, because T1 updated row (2, 'b'), which T2 had read at version 0: a "
            "contradiction.\n");
  // Each read the row the other overwrote: also a G2, which SnapshotIsolation allows.
  EXPECT_EQ(Names(CheckIsolation(o, IsolationLevel::kSerializable)),
            (std::vector<std::string>{"G-single", "G2"}));
}

TEST(DependencyGraphTest, UpdateOfARowAConcurrentDeleteRemovedIsGSingle) {
  CommittedHistory h = Start({Values(1, "a")});
  h.commits.push_back({"T1", 0, Delete{Where("id", Op::kEq, 1)}});
  h.commits.push_back({"T2", 0, Update{Where("id", Op::kEq, 1), {{"value", std::string("z")}}}});
  const ObservedHistory o = Observe(h);
  ASSERT_EQ(o.txns[1].lost_writes, 1);
  const GraphResult r = CheckIsolation(o, IsolationLevel::kSnapshotIsolation);
  EXPECT_EQ(Names(r), std::vector<std::string>{"G-single"});
  EXPECT_EQ(Sentences(Find(r, AnomalyKind::kGSingle).cycle),
            (std::vector<std::string>{"T2 updated row (1, 'a'), which T1 had deleted at version 1",
                                      "T1 deleted row (1, 'a'), which T2 had read at version 0"}));
}

TEST(DependencyGraphTest, WriteSkewIsG2) {
  // Each UPDATE's predicate also covers the value the other one writes: neither saw the other.
  CommittedHistory h = Start({Values(1, "on"), Values(2, "on")});
  h.commits.push_back(
      {"T1", 0,
       Update{Predicate::Or({Where("id", Op::kEq, 1),
                             Predicate::Compare("value", Op::kEq, std::string("b"))}),
              {{"value", std::string("c")}}}});
  h.commits.push_back(
      {"T2", 0,
       Update{Predicate::Or({Where("id", Op::kEq, 2),
                             Predicate::Compare("value", Op::kEq, std::string("c"))}),
              {{"value", std::string("b")}}}});
  const ObservedHistory o = Observe(h);
  EXPECT_EQ(CheckIsolation(o, IsolationLevel::kSnapshotIsolation).verdict, GraphVerdict::kValid);
  const GraphResult r = CheckIsolation(o, IsolationLevel::kSerializable);
  EXPECT_EQ(r.verdict, GraphVerdict::kInvalid);
  EXPECT_EQ(Names(r), (std::vector<std::string>{"G2", "G-single-commit-order"}));
  const std::vector<EdgeExplanation>& cycle = Find(r, AnomalyKind::kG2).cycle;
  EXPECT_EQ(
      RenderCycle(LabelCycle(cycle, h), cycle),
      "Let:\n"
      "  T1 = UPDATE SET value = 'c' WHERE id = 1 OR value = 'b' (read version 0, commit "
      "version 1)\n"
      "  T2 = UPDATE SET value = 'b' WHERE id = 2 OR value = 'c' (read version 0, commit "
      "version 2)\n"
      "Then:\n"
      "  - T1 < T2, because T2 updated row (2, 'b'), which matches T1's read `id = 1 OR value = "
      "'b'` at version 0\n"
      "However:\n"
      "  - T2 < T1, because T1 updated row (1, 'c'), which matches T2's read `id = 2 OR value = "
      "'c'` at version 0: a "
      "contradiction.\n");
  EXPECT_EQ(CheckIsolation(o, IsolationLevel::kWriteSerializable).verdict, GraphVerdict::kInvalid);
}

// MERGEs on disjoint keys read only their own keys: no dependency, valid at every level.
TEST(DependencyGraphTest, MergesOnDisjointKeysAreIndependent) {
  CommittedHistory h = Start({Values(1, "on"), Values(2, "on")});
  auto off = [](int64_t id) {
    return Merge{{Values(id, "off")},
                 "id",
                 {{MergeClause::Kind::kMatchedUpdate, Predicate::True(), {}, true}}};
  };
  h.commits.push_back({"T1", 0, off(1)});
  h.commits.push_back({"T2", 0, off(2)});
  const ObservedHistory o = Observe(h);
  for (IsolationLevel level : {IsolationLevel::kSerializable, IsolationLevel::kWriteSerializable,
                               IsolationLevel::kSnapshotIsolation}) {
    EXPECT_EQ(CheckIsolation(o, level).verdict, GraphVerdict::kValid);
  }
}

TEST(DependencyGraphTest, InsertsIntoEachOthersPredicateArePhantomG2) {
  CommittedHistory h = Start({Values(1, "a"), Values(11, "b")});
  h.commits.push_back({"T1", 0, InsertSelect{Where("id", Op::kEq, 11), {{"id", int64_t(12)}}}});
  h.commits.push_back({"T2", 0, InsertSelect{Where("id", Op::kGt, 10), {{"id", int64_t(11)}}}});
  const ObservedHistory o = Observe(h);
  EXPECT_EQ(CheckIsolation(o, IsolationLevel::kSnapshotIsolation).verdict, GraphVerdict::kValid);
  const GraphResult r =
      FindAnomalies(BuildDependencyGraph(o, CommitOrderEdges::kNone), AllAnomalyKinds());
  EXPECT_EQ(Names(r), std::vector<std::string>{"G2"});
  EXPECT_EQ(Sentences(Find(r, AnomalyKind::kG2).cycle),
            (std::vector<std::string>{
                "T2 inserted row (11, 'b'), which matches T1's read `id = 11` at version 0",
                "T1 inserted row (12, 'b'), which matches T2's read `id > 10` at version 0"}));
}

// A foreign commit read exactly the rows it removed: another writer's insert of a row with the
// same values is no row it read (explorer seed 21, history 337271: a relocating commit and an
// INSERT ... SELECT that copied an identical row made a cycle of a phantom that was none).
TEST(DependencyGraphTest, AForeignCommitReadsItsRemovedRowsNotTheirValues) {
  CommittedHistory h = Start({Values(1, "a"), Values(2, "b")});
  // T1 copies row 1 as it is (so it read row 1, which T2 then removes: T1 before T2).
  h.commits.push_back({"T1", 0, InsertSelect{Where("id", Op::kEq, 1), {}}});
  h.commits.push_back({"T2", 0, RowDelta{{Values(1, "a")}, {Values(1, "moved")}}});
  const ObservedHistory o = Observe(h);
  const GraphResult r =
      FindAnomalies(BuildDependencyGraph(o, CommitOrderEdges::kNone), AllAnomalyKinds());
  EXPECT_TRUE(Names(r).empty()) << Names(r).front();
  ASSERT_EQ(o.txns[1].effect.reads.size(), 1u);
  EXPECT_TRUE(o.txns[1].effect.reads[0].rows_only);
  EXPECT_EQ(o.txns[1].effect.reads[0].matched, (std::vector<RowId>{1}));
}

// T1 inserts id = 5 at version 1; T2, on version 0, deletes WHERE id = 5 OR id = 2 and commits at
// 2: its DELETE missed T1's row although T1 committed first. (It also deletes row 2, so that it
// writes: a commit that writes nothing holds no file action and runs under SnapshotIsolation.)
CommittedHistory DeleteMissesAnEarlierInsert(Operation insert) {
  CommittedHistory h = Start({Values(1, "a"), Values(2, "b")});
  h.commits.push_back({"T1", 0, std::move(insert)});
  h.commits.push_back(
      {"T2", 0, Delete{Predicate::Or({Where("id", Op::kEq, 5), Where("id", Op::kEq, 2)})}});
  return h;
}

TEST(DependencyGraphTest, MissedEarlierCommitIsGSingleCommitOrder) {
  const CommittedHistory h = DeleteMissesAnEarlierInsert(BlindInsert{{Values(5, "x")}});
  const ObservedHistory o = Observe(h);
  const GraphResult r = CheckIsolation(o, IsolationLevel::kSerializable);
  EXPECT_EQ(r.verdict, GraphVerdict::kInvalid);
  EXPECT_EQ(Names(r), std::vector<std::string>{"G-single-commit-order"});
  const std::vector<EdgeExplanation>& cycle = Find(r, AnomalyKind::kGSingleCommitOrder).cycle;
  EXPECT_EQ(RenderCycle(LabelCycle(cycle, h), cycle),
            "Let:\n"
            "  T1 = INSERT VALUES (5, 'x') (read version 0, commit version 1)\n"
            "  T2 = DELETE WHERE id = 5 OR id = 2 (read version 0, commit version 2)\n"
            "Then:\n"
            "  - T1 < T2, because T1 committed at version 1, before T2 committed at version 2\n"
            "However:\n"
            "  - T2 < T1, because T1 inserted row (5, 'x'), which matches T2's read `id = 5 OR id "
            "= 2` at "
            "version 0: a contradiction.\n");
  // The data alone is serializable (T2 before T1), and SnapshotIsolation orders by snapshot.
  EXPECT_EQ(CheckIsolation(o, IsolationLevel::kSnapshotIsolation).verdict, GraphVerdict::kValid);
  // WriteSerializable lets the blind append T1 move after T2, which did not see it.
  const GraphResult ws = CheckIsolation(o, IsolationLevel::kWriteSerializable);
  EXPECT_EQ(ws.verdict, GraphVerdict::kValid);
  EXPECT_TRUE(ws.anomalies.empty());
}

TEST(DependencyGraphTest, WriteSerializableDoesNotExcuseAnInsertThatReads) {
  const CommittedHistory h =
      DeleteMissesAnEarlierInsert(InsertSelect{Where("id", Op::kEq, 1), {{"id", int64_t(5)}}});
  const ObservedHistory o = Observe(h);
  ASSERT_FALSE(o.txns[0].effect.is_blind_append);
  const GraphResult ws = CheckIsolation(o, IsolationLevel::kWriteSerializable);
  EXPECT_EQ(ws.verdict, GraphVerdict::kInvalid);
  EXPECT_EQ(Names(ws), std::vector<std::string>{"G-single-commit-order"});
  EXPECT_EQ(
      Sentences(Find(ws, AnomalyKind::kGSingleCommitOrder).cycle),
      (std::vector<std::string>{
          "T1 committed at version 1, before T2 committed at version 2",
          "T1 inserted row (5, 'a'), which matches T2's read `id = 5 OR id = 2` at version 0"}));
}

TEST(DependencyGraphTest, WriteSerializableCommitOrderLetsABlindAppendMoveLater) {
  CommittedHistory h = Start({Values(1, "a")});
  h.commits.push_back({"T1", 0, BlindInsert{{Values(5, "x")}}});
  h.commits.push_back({"T2", 0, Update{Where("id", Op::kEq, 1), {{"value", std::string("b")}}}});
  h.commits.push_back({"T3", 2, Delete{Where("id", Op::kEq, 5)}});
  const ObservedHistory o = Observe(h);
  // T2 did not see T1, so only T3 (which read version 2) must follow the blind append.
  EXPECT_EQ(
      Sentences(BuildDependencyGraph(o, CommitOrderEdges::kWriteSerializable)
                    .EdgesOf(EdgeKind::kCommitOrder)),
      (std::vector<std::string>{"T1 committed at version 1, before T3 committed at version 3",
                                "T2 committed at version 2, before T3 committed at version 3"}));
  EXPECT_EQ(
      Sentences(
          BuildDependencyGraph(o, CommitOrderEdges::kCommitOrder).EdgesOf(EdgeKind::kCommitOrder)),
      (std::vector<std::string>{"T1 committed at version 1, before T2 committed at version 2",
                                "T2 committed at version 2, before T3 committed at version 3"}));
}

TEST(DependencyGraphTest, OptimizeGetsNoEdges) {
  CommittedHistory h = Start({Values(1, "a")});
  h.commits.push_back({"T1", 0, Optimize{}});
  h.commits.push_back({"T2", 0, Update{Where("id", Op::kEq, 1), {{"value", std::string("b")}}}});
  const ObservedHistory o = Observe(h);
  EXPECT_TRUE(BuildDependencyGraph(o, CommitOrderEdges::kCommitOrder).edges.empty());
  EXPECT_EQ(CheckIsolation(o, IsolationLevel::kSerializable).verdict, GraphVerdict::kValid);
}

// ---------------------------------------------------------------------------------------------
// Budget

TEST(DependencyGraphTest, ExhaustedBudgetIsUnknownNeverValid) {
  CommittedHistory h = Start({Values(1, "a"), Values(2, "b")});
  h.commits.push_back({"T1", 0, Update{Where("id", Op::kLe, 2), {{"value", std::string("t1")}}}});
  h.commits.push_back({"T2", 0, Update{Where("id", Op::kEq, 2), {{"value", std::string("t2")}}}});
  const ObservedHistory o = Observe(h);
  const GraphResult r = CheckIsolation(o, IsolationLevel::kSerializable, {0, kAnomalyCyclesMax});
  EXPECT_EQ(r.verdict, GraphVerdict::kUnknown);
  EXPECT_TRUE(r.budget_exhausted);
  EXPECT_TRUE(r.anomalies.empty());
}

TEST(DependencyGraphTest, CycleCapStopsTheSearchButKeepsTheVerdict) {
  CommittedHistory h = Start({Values(1, "a"), Values(2, "b")});
  h.commits.push_back({"T1", 0, Update{Where("id", Op::kLe, 2), {{"value", std::string("t1")}}}});
  h.commits.push_back({"T2", 0, Update{Where("id", Op::kEq, 2), {{"value", std::string("t2")}}}});
  const GraphResult r =
      CheckIsolation(Observe(h), IsolationLevel::kSerializable, {kCycleSearchStepsMax, 1});
  EXPECT_EQ(r.verdict, GraphVerdict::kInvalid);
  EXPECT_EQ(Names(r), std::vector<std::string>{"G-single"});
}

}  // namespace
}  // namespace rlc::model
