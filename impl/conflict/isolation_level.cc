#include "impl/conflict/isolation_level.h"

namespace rlc::conflict {

std::string IsolationLevelName(IsolationLevel level) {
  switch (level) {
    case IsolationLevel::kSerializable:
      return "Serializable";
    case IsolationLevel::kWriteSerializable:
      return "WriteSerializable";
    case IsolationLevel::kSnapshotIsolation:
      return "SnapshotIsolation";
  }
  return "?";
}

Result<IsolationLevel> TableIsolationLevel(const delta::Metadata& metadata) {
  std::optional<std::string> value = metadata.Property("delta.isolationLevel");
  if (!value.has_value() || *value == "Serializable") return IsolationLevel::kSerializable;
  if (*value == "WriteSerializable") return IsolationLevel::kWriteSerializable;
  return Status::Corrupt("table property delta.isolationLevel is '" + *value +
                         "'; expected Serializable or WriteSerializable");
}

IsolationLevel CommitIsolationLevel(IsolationLevel table_level, const PendingTransaction& loser) {
  // B1 (docs/baseline.md#b1): every action (commitInfo aside) is a file action or the
  // row-tracking domain, and none changes data. An empty transaction qualifies too, as in Delta.
  for (const delta::Action& a : loser.actions) {
    if (std::holds_alternative<delta::CommitInfo>(a)) continue;
    if (const auto* domain = std::get_if<delta::DomainMetadata>(&a)) {
      if (domain->domain == "delta.rowTracking") continue;
      return table_level;
    }
    const bool file_action = std::holds_alternative<delta::AddFile>(a) ||
                             std::holds_alternative<delta::RemoveFile>(a) ||
                             std::holds_alternative<delta::AddCdcFile>(a);
    if (!file_action) return table_level;
  }
  return loser.ChangesData() ? table_level : IsolationLevel::kSnapshotIsolation;
}

}  // namespace rlc::conflict
