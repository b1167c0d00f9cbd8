// Tests for model/graph/anomaly_catalogue.h: the level -> forbidden-anomalies table.
#include "model/graph/anomaly_catalogue.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/graph/isolation_check.h"

namespace rlc::model {
namespace {

std::vector<std::string> Forbidden(IsolationLevel level) {
  std::vector<std::string> out;
  for (AnomalyKind kind : ForbiddenAnomalies(level)) out.push_back(AnomalyName(kind));
  return out;
}

TEST(AnomalyCatalogueTest, SerializableForbidsEveryShape) {
  EXPECT_EQ(
      Forbidden(IsolationLevel::kSerializable),
      (std::vector<std::string>{"G0", "G1c", "G-single", "G2", "G0-commit-order",
                                "G1c-commit-order", "G-single-commit-order", "G2-commit-order"}));
}

TEST(AnomalyCatalogueTest, WriteSerializableForbidsEveryShapeOverItsOwnCommitOrder) {
  EXPECT_EQ(Forbidden(IsolationLevel::kWriteSerializable),
            Forbidden(IsolationLevel::kSerializable));
  EXPECT_EQ(CommitOrderFor(IsolationLevel::kWriteSerializable),
            CommitOrderEdges::kWriteSerializable);
  EXPECT_EQ(CommitOrderFor(IsolationLevel::kSerializable), CommitOrderEdges::kCommitOrder);
}

TEST(AnomalyCatalogueTest, SnapshotIsolationAllowsWriteSkewAndIgnoresCommitOrder) {
  EXPECT_EQ(Forbidden(IsolationLevel::kSnapshotIsolation),
            (std::vector<std::string>{"G0", "G1c", "G-single"}));
  EXPECT_EQ(CommitOrderFor(IsolationLevel::kSnapshotIsolation), CommitOrderEdges::kNone);
}

TEST(AnomalyCatalogueTest, EveryRowCitesASource) {
  for (const AnomalyRow& row : kAnomalyCatalogue) {
    EXPECT_GT(std::string(row.source).size(), 10u) << AnomalyName(row.kind);
    EXPECT_EQ(&CatalogueRow(row.kind), &row);
  }
}

}  // namespace
}  // namespace rlc::model
