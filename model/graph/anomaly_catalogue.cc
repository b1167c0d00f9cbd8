#include "model/graph/anomaly_catalogue.h"

#include <cstdio>
#include <cstdlib>

namespace rlc::model {

std::string AnomalyName(AnomalyKind kind) {
  switch (kind) {
    case AnomalyKind::kG0:
      return "G0";
    case AnomalyKind::kG1c:
      return "G1c";
    case AnomalyKind::kGSingle:
      return "G-single";
    case AnomalyKind::kG2:
      return "G2";
    case AnomalyKind::kG0CommitOrder:
      return "G0-commit-order";
    case AnomalyKind::kG1cCommitOrder:
      return "G1c-commit-order";
    case AnomalyKind::kGSingleCommitOrder:
      return "G-single-commit-order";
    case AnomalyKind::kG2CommitOrder:
      return "G2-commit-order";
  }
  return "?";
}

const AnomalyRow& CatalogueRow(AnomalyKind kind) {
  for (const AnomalyRow& row : kAnomalyCatalogue) {
    if (row.kind == kind) return row;
  }
  std::fprintf(stderr, "model: anomaly %d missing from the catalogue\n", int(kind));
  std::abort();
}

bool Forbids(IsolationLevel level, AnomalyKind kind) {
  const AnomalyRow& row = CatalogueRow(kind);
  switch (level) {
    case IsolationLevel::kSerializable:
      return row.forbidden_by_serializable;
    case IsolationLevel::kWriteSerializable:
      return row.forbidden_by_write_serializable;
    case IsolationLevel::kSnapshotIsolation:
      return row.forbidden_by_snapshot_isolation;
  }
  return true;
}

CommitOrderEdges CommitOrderFor(IsolationLevel level) {
  switch (level) {
    case IsolationLevel::kSerializable:
      return CommitOrderEdges::kCommitOrder;
    case IsolationLevel::kWriteSerializable:
      return CommitOrderEdges::kWriteSerializable;
    case IsolationLevel::kSnapshotIsolation:
      return CommitOrderEdges::kNone;
  }
  return CommitOrderEdges::kCommitOrder;
}

}  // namespace rlc::model
