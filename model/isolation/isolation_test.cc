#include "model/isolation/isolation.h"

#include <gtest/gtest.h>

#include "model/isolation/conflict_matrix.h"

namespace rlc::model {
namespace {

using P = Predicate;
using Op = Predicate::Op;

const std::vector<Value> kRowFive = {int64_t{5}, std::string("new")};

// A DELETE of id 5 that also deletes row 1, so that it writes (a commit that writes nothing holds
// no file action and runs under SnapshotIsolation, where every order is allowed).
Operation StaleDelete() {
  return Delete{
      P::Or({P::Compare("id", Op::kEq, int64_t{5}), P::Compare("id", Op::kEq, int64_t{1})})};
}

// T1: INSERT id 5 (blind, read v0, commits v1); T2: the stale DELETE (read v0, commits v2).
CommittedHistory BlindAppendThenStaleDelete() {
  CommittedHistory h;
  h.initial = MakeTable();
  h.initial.Insert({int64_t{1}, std::string("old")});
  h.commits = {{"T1", 0, BlindInsert{{kRowFive}}}, {"T2", 0, StaleDelete()}};
  return h;
}

TEST(Isolation, SerializableAllowsOnlyTheCommitOrder) {
  CommittedHistory h = BlindAppendThenStaleDelete();
  ObservedHistory o = Observe(h);
  AllowedOrders orders = EnumerateAllowedOrders(h, o, IsolationLevel::kSerializable, 100);
  EXPECT_TRUE(orders.complete);
  EXPECT_EQ(orders.orders, (std::vector<SerialOrder>{{0, 1}}));
  std::string why;
  EXPECT_FALSE(IsAllowedOrder(h, o, IsolationLevel::kSerializable, {1, 0}, &why));
  EXPECT_EQ(why,
            "T1 committed at version 1 but is placed after T2 (read version 0): "
            "Serializable allows only the commit order");
}

TEST(Isolation, WriteSerializableAcceptsABlindAppendMovedLater) {
  CommittedHistory h = BlindAppendThenStaleDelete();
  ObservedHistory o = Observe(h);
  // T2's snapshot missed T1's row, so the row survives: only "T2, then T1" explains that.
  const auto actual = o.versions.back().SortedContents();
  ASSERT_EQ(actual.size(), 1u);
  EXPECT_TRUE(IsAllowedOrder(h, o, IsolationLevel::kWriteSerializable, {1, 0}));
  OracleResult ws = CheckFinalRows(h, o, IsolationLevel::kWriteSerializable, actual, 100);
  EXPECT_EQ(ws.verdict, OracleVerdict::kValid);
  EXPECT_EQ(ws.matching_order, (SerialOrder{1, 0}));
  OracleResult ser = CheckFinalRows(h, o, IsolationLevel::kSerializable, actual, 100);
  EXPECT_EQ(ser.verdict, OracleVerdict::kInvalid);
}

TEST(Isolation, WriteSerializableRejectsABlindAppendMovedEarlier) {
  // T1: the stale DELETE (read v0, commits v1); T2: INSERT id 5 (blind, commits v2).
  CommittedHistory h;
  h.initial = MakeTable();
  h.initial.Insert({int64_t{1}, std::string("old")});
  h.commits = {{"T1", 0, StaleDelete()}, {"T2", 0, BlindInsert{{kRowFive}}}};
  ObservedHistory o = Observe(h);
  std::string why;
  EXPECT_FALSE(IsAllowedOrder(h, o, IsolationLevel::kWriteSerializable, {1, 0}, &why));
  EXPECT_EQ(why,
            "T1 committed at version 1 but is placed after T2 (read version 0): "
            "only a blind append may move later");
  // An outcome in which the row is gone needs the insert before the delete: not allowed.
  OracleResult r = CheckFinalRows(h, o, IsolationLevel::kWriteSerializable, {}, 100);
  EXPECT_EQ(r.verdict, OracleVerdict::kInvalid);
  EXPECT_EQ(r.orders_checked, 1u);
}

TEST(Isolation, ABlindAppendCannotMovePastATransactionThatSawIt) {
  CommittedHistory h = BlindAppendThenStaleDelete();
  h.commits[1].read_version = 1;  // T2 read after T1 committed
  ObservedHistory o = Observe(h);
  std::string why;
  EXPECT_FALSE(IsAllowedOrder(h, o, IsolationLevel::kWriteSerializable, {1, 0}, &why));
  EXPECT_EQ(
      why,
      "T1 committed at version 1 but is placed after T2 (read version 1): T2 had already seen it");
}

TEST(Isolation, DataChangeFalseCommitsRunUnderSnapshotIsolationAndMayMove) {
  CommittedHistory h;
  h.initial = MakeTable();
  h.initial.Insert({int64_t{1}, std::string("a")});
  h.commits = {{"T1", 0, Optimize{}}, {"T2", 0, Delete{P::True()}}};
  ObservedHistory o = Observe(h);
  EXPECT_EQ(CommitIsolationLevel(IsolationLevel::kSerializable, o.txns[0].effect),
            IsolationLevel::kSnapshotIsolation);
  EXPECT_EQ(CommitIsolationLevel(IsolationLevel::kSerializable, o.txns[1].effect),
            IsolationLevel::kSerializable);
  EXPECT_TRUE(IsAllowedOrder(h, o, IsolationLevel::kSerializable, {1, 0}));
}

TEST(Isolation, EnumerationIsBoundedAndSaysSo) {
  CommittedHistory h;
  h.initial = MakeTable();
  for (int i = 0; i < 5; ++i) {
    h.commits.push_back({"T" + std::to_string(i + 1), 0, BlindInsert{{{int64_t{i}, Value{}}}}});
  }
  ObservedHistory o = Observe(h);
  // Every blind append may move past every later one: 5! orders.
  EXPECT_EQ(EnumerateAllowedOrders(h, o, IsolationLevel::kWriteSerializable, 1000).orders.size(),
            120u);
  AllowedOrders cut = EnumerateAllowedOrders(h, o, IsolationLevel::kWriteSerializable, 10);
  EXPECT_FALSE(cut.complete);
  EXPECT_EQ(cut.orders.size(), 10u);
  // A wrong outcome that no enumerated order explains is unknown, not invalid, when cut.
  OracleResult r = CheckFinalRows(h, o, IsolationLevel::kWriteSerializable, {}, 10);
  EXPECT_EQ(r.verdict, OracleVerdict::kUnknown);
}

TEST(Isolation, LevelNamesRoundTrip) {
  for (IsolationLevel l : {IsolationLevel::kSerializable, IsolationLevel::kWriteSerializable,
                           IsolationLevel::kSnapshotIsolation}) {
    EXPECT_EQ(ParseIsolationLevel(IsolationLevelName(l)), l);
  }
  EXPECT_EQ(ParseIsolationLevel("ReadCommitted"), std::nullopt);
}

TEST(ConflictMatrix, DocumentedCellsWithRowLevelConcurrency) {
  using C = OperationClass;
  constexpr auto kSer = IsolationLevel::kSerializable;
  constexpr auto kWs = IsolationLevel::kWriteSerializable;
  EXPECT_EQ(LookUpContract(C::kInsert, C::kInsert, kSer, true), Contract::kCannotConflict);
  EXPECT_EQ(LookUpContract(C::kDml, C::kInsert, kWs, true), Contract::kCannotConflict);
  EXPECT_EQ(LookUpContract(C::kInsert, C::kDml, kSer, true), Contract::kSameRowOnly);
  EXPECT_EQ(LookUpContract(C::kDml, C::kDml, kWs, true), Contract::kSameRowOnly);
  EXPECT_EQ(LookUpContract(C::kOptimize, C::kInsert, kSer, true), Contract::kCannotConflict);
  EXPECT_EQ(LookUpContract(C::kOptimize, C::kDml, kSer, true), Contract::kCannotConflict);
  EXPECT_EQ(LookUpContract(C::kOptimize, C::kOptimize, kWs, true), Contract::kCannotConflict);
  EXPECT_EQ(LookUpContract(C::kOptimizeZOrder, C::kDml, kSer, true), Contract::kDeferred);
  EXPECT_EQ(LookUpContract(C::kMergeNetNew, C::kDml, kSer, true), Contract::kDeferred);
  EXPECT_EQ(LookUpContract(C::kMetadata, C::kInsert, kWs, true), Contract::kCanConflict);
}

TEST(ConflictMatrix, DocumentedCellsWithoutRowLevelConcurrency) {
  using C = OperationClass;
  EXPECT_EQ(LookUpContract(C::kDml, C::kInsert, IsolationLevel::kSerializable, false),
            Contract::kCanConflict);
  EXPECT_EQ(LookUpContract(C::kDml, C::kInsert, IsolationLevel::kWriteSerializable, false),
            Contract::kCannotConflict);
  EXPECT_EQ(LookUpContract(C::kDml, C::kDml, IsolationLevel::kWriteSerializable, false),
            Contract::kCanConflict);
  EXPECT_EQ(LookUpContract(C::kOptimize, C::kDml, IsolationLevel::kSerializable, false),
            Contract::kCannotConflict);
}

TEST(ConflictMatrix, EveryPairHasOneCellPerLevelAndSetting) {
  // 6 classes: 21 unordered pairs, x 2 levels x 2 settings.
  EXPECT_EQ(DocumentedConflictMatrix().size(), 84u);
  for (const MatrixCell& cell : DocumentedConflictMatrix()) EXPECT_NE(std::string(cell.source), "");
}

TEST(ConflictMatrix, ClassifiesOperations) {
  using K = MergeClause::Kind;
  EXPECT_EQ(Classify(BlindInsert{}), OperationClass::kInsert);
  EXPECT_EQ(Classify(InsertSelect{}), OperationClass::kDml);
  EXPECT_EQ(Classify(Merge{{}, "id", {{K::kMatchedDelete, P::True(), {}, false}}}),
            OperationClass::kDml);
  EXPECT_EQ(Classify(Merge{{}, "id", {{K::kNotMatchedInsert, P::True(), {}, false}}}),
            OperationClass::kMergeNetNew);
  EXPECT_EQ(Classify(Optimize{{"id"}}), OperationClass::kOptimizeZOrder);
  EXPECT_EQ(Classify(ProtocolChange{"x"}), OperationClass::kMetadata);
}

}  // namespace
}  // namespace rlc::model

namespace rlc::model {
namespace {

TEST(Observe, AStaleSnapshotDoesNotRollBackAnAppVersion) {
  CommittedHistory h;
  h.initial = MakeTable();
  h.initial.app_versions["a"] = 3;
  h.commits = {{"T1", 0, IdempotentWrite{"a", 5, BlindInsert{{{int64_t{1}, Value{}}}}}},
               {"T2", 0, BlindInsert{{{int64_t{2}, Value{}}}}}};
  ObservedHistory o = Observe(h);
  EXPECT_EQ(o.versions[1].app_versions.at("a"), 5);
  EXPECT_EQ(o.versions[2].app_versions.at("a"), 5);
}

TEST(Observe, MergeReadsOnlyTheKeysItJoinsOn) {
  using K = MergeClause::Kind;
  LogicalTable t = MakeTable();
  t.Insert({int64_t{1}, Value{}});
  t.Insert({int64_t{2}, Value{}});
  Merge m{{{int64_t{2}, std::string("s")}, {Value{}, std::string("n")}},
          "id",
          {{K::kMatchedUpdate, Predicate::True(), {}, true}}};
  OperationEffect e = Apply(t, m);
  ASSERT_EQ(e.reads.size(), 1u);
  EXPECT_EQ(ToString(e.reads[0].predicate), "id = 2");
  EXPECT_EQ(e.reads[0].matched, (std::vector<RowId>{2}));
  m.clauses.push_back({K::kNotMatchedBySourceDelete, Predicate::True(), {}, false});
  EXPECT_EQ(ToString(Apply(t, m).reads[0].predicate), "TRUE");
}

}  // namespace
}  // namespace rlc::model
