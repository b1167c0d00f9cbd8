// Tests for model/explain/explanation.h: every sentence form, exactly, and Elle's cycle form.
#include "model/explain/explanation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/isolation/history.h"
#include "model/semantics/operation.h"
#include "model/semantics/predicate.h"
#include "model/semantics/table.h"

namespace rlc::model {
namespace {

EdgeExplanation Edge(EdgeKind kind, std::string from, std::string to, RowId row,
                     std::string from_action, std::string to_action, int64_t from_version,
                     int64_t to_version, std::string predicate = "") {
  return {kind,
          std::move(from),
          std::move(to),
          row,
          std::move(from_action),
          std::move(to_action),
          from_version,
          to_version,
          std::move(predicate)};
}

TEST(ExplanationTest, RwOverwriteOfARowRead) {
  EXPECT_EQ(RenderEdge(Edge(EdgeKind::kRW, "T1", "T2", 17, "read", "deleted", 3, 4)),
            "T2 deleted row 17, which T1 had read at version 3");
}

TEST(ExplanationTest, RwPhantomNamesThePredicate) {
  EXPECT_EQ(RenderEdge(Edge(EdgeKind::kRW, "T1", "T2", 9, "read", "inserted", 3, 4, "id > 10")),
            "T2 inserted row 9, which matches T1's read `id > 10` at version 3");
}

TEST(ExplanationTest, WrReadOfAWrite) {
  EXPECT_EQ(RenderEdge(Edge(EdgeKind::kWR, "T1", "T2", 5, "inserted", "read", 2, 3)),
            "T2 read row 5 at version 3, which T1 had inserted at version 2");
}

TEST(ExplanationTest, WrReadThatMissedADeletedRow) {
  EXPECT_EQ(RenderEdge(Edge(EdgeKind::kWR, "T1", "T2", 5, "deleted", "read", 2, 3, "id = 5")),
            "T2's read `id = 5` at version 3 missed row 5, which T1 had deleted at version 2");
}

TEST(ExplanationTest, WwOverwrite) {
  EXPECT_EQ(RenderEdge(Edge(EdgeKind::kWW, "T1", "T2", 5, "updated", "deleted", 2, 3)),
            "T2 deleted row 5, which T1 had updated at version 2");
}

TEST(ExplanationTest, CommitOrder) {
  EXPECT_EQ(RenderEdge(Edge(EdgeKind::kCommitOrder, "T1", "T2", 0, "committed", "committed", 2, 3)),
            "T1 committed at version 2, before T2 committed at version 3");
}

// A row whose values are known is named by them, not by the model's identity.
TEST(ExplanationTest, RowsAreNamedByTheirValuesWhenKnown) {
  EdgeExplanation rw = Edge(EdgeKind::kRW, "T1", "T2", 3, "read", "inserted", 0, 1, "id > 10");
  rw.row_values = "(12, 'b')";
  EXPECT_EQ(RenderEdge(rw),
            "T2 inserted row (12, 'b'), which matches T1's read `id > 10` at "
            "version 0");
  EdgeExplanation wr = Edge(EdgeKind::kWR, "T1", "T2", 5, "deleted", "read", 2, 3, "id = 5");
  wr.row_values = "(5, 'it''s')";
  EXPECT_EQ(RenderEdge(wr),
            "T2's read `id = 5` at version 3 missed row (5, 'it''s'), which T1 "
            "had deleted at version 2");
  EXPECT_EQ(RowValuesText(Row{9, {int64_t{5}, std::string("it's")}}), "(5, 'it''s')");
  EXPECT_EQ(RowValuesText(Row{9, {int64_t{7}, Value{}}}), "(7, NULL)");
}

TEST(ExplanationTest, EdgeKindNames) {
  EXPECT_EQ(EdgeKindName(EdgeKind::kWW), "ww");
  EXPECT_EQ(EdgeKindName(EdgeKind::kWR), "wr");
  EXPECT_EQ(EdgeKindName(EdgeKind::kRW), "rw");
  EXPECT_EQ(EdgeKindName(EdgeKind::kCommitOrder), "commit-order");
}

TEST(ExplanationTest, CycleInLetThenHoweverForm) {
  const std::vector<TxnLabel> txns = {{"T1", "INSERT VALUES (5, 'x')", 0, 1},
                                      {"T2", "DELETE WHERE id = 5", 0, 2}};
  const std::vector<EdgeExplanation> cycle = {
      Edge(EdgeKind::kCommitOrder, "T1", "T2", 0, "committed", "committed", 1, 2),
      Edge(EdgeKind::kRW, "T2", "T1", 1, "read", "inserted", 0, 1, "id = 5")};
  EXPECT_EQ(RenderCycle(txns, cycle),
            "Let:\n"
            "  T1 = INSERT VALUES (5, 'x') (read version 0, commit version 1)\n"
            "  T2 = DELETE WHERE id = 5 (read version 0, commit version 2)\n"
            "Then:\n"
            "  - T1 < T2, because T1 committed at version 1, before T2 committed at version 2\n"
            "However:\n"
            "  - T2 < T1, because T1 inserted row 1, which matches T2's read `id = 5` at "
            "version 0: a contradiction.\n");
}

TEST(ExplanationTest, ThreeEdgeCycleListsTwoUnderThen) {
  const std::vector<TxnLabel> txns = {{"T1", "A", 0, 1}, {"T2", "B", 0, 2}, {"T3", "C", 1, 3}};
  const std::vector<EdgeExplanation> cycle = {
      Edge(EdgeKind::kWR, "T1", "T3", 4, "inserted", "read", 1, 1),
      Edge(EdgeKind::kWW, "T3", "T2", 4, "updated", "updated", 3, 2),
      Edge(EdgeKind::kRW, "T2", "T1", 7, "read", "updated", 0, 1)};
  EXPECT_EQ(RenderCycle(txns, cycle),
            "Let:\n"
            "  T1 = A (read version 0, commit version 1)\n"
            "  T2 = B (read version 0, commit version 2)\n"
            "  T3 = C (read version 1, commit version 3)\n"
            "Then:\n"
            "  - T1 < T3, because T3 read row 4 at version 1, which T1 had inserted at version 1\n"
            "  - T3 < T2, because T2 updated row 4, which T3 had updated at version 3\n"
            "However:\n"
            "  - T2 < T1, because T1 updated row 7, which T2 had read at version 0: a "
            "contradiction.\n");
}

TEST(ExplanationTest, LabelCycleDescribesEachTransactionOnceInCycleOrder) {
  CommittedHistory h;
  h.initial = MakeTable();
  h.commits.push_back({"T1", 0, BlindInsert{{{int64_t(5), std::string("x")}}}});
  h.commits.push_back({"T2", 0, Delete{Predicate::Compare("id", Predicate::Op::kEq, int64_t(5))}});
  const std::vector<EdgeExplanation> cycle = {
      Edge(EdgeKind::kRW, "T2", "T1", 1, "read", "inserted", 0, 1, "id = 5"),
      Edge(EdgeKind::kCommitOrder, "T1", "T2", 0, "committed", "committed", 1, 2)};
  const std::vector<TxnLabel> labels = LabelCycle(cycle, h);
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_EQ(labels[0].name, "T2");
  EXPECT_EQ(labels[0].operation, "DELETE WHERE id = 5");
  EXPECT_EQ(labels[0].read_version, 0);
  EXPECT_EQ(labels[0].commit_version, 2);
  EXPECT_EQ(labels[1].name, "T1");
  EXPECT_EQ(labels[1].operation, "INSERT VALUES (5, 'x')");
  EXPECT_EQ(labels[1].commit_version, 1);
}

TEST(ExplanationTest, LabelCycleMarksAnUnknownTransaction) {
  const std::vector<EdgeExplanation> cycle = {
      Edge(EdgeKind::kWW, "T1", "T2", 1, "updated", "updated", 1, 2),
      Edge(EdgeKind::kWW, "T2", "T1", 2, "updated", "updated", 1, 2)};
  const std::vector<TxnLabel> labels = LabelCycle(cycle, CommittedHistory{});
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_EQ(labels[0].operation, "?");
}

}  // namespace
}  // namespace rlc::model
