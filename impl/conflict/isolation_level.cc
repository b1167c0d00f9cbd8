#include "impl/conflict/isolation_level.h"

#include <algorithm>
#include <iterator>
#include <string_view>

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

namespace {

// Whether the commitInfo names an operation Delta says changes data (its Operation.changesData),
// or names none: Delta always knows its operation, so a commit that does not say is taken as
// changing data (the stricter level).
bool OperationChangesData(const PendingTransaction& loser) {
  static constexpr std::string_view kChangesData[] = {"WRITE",
                                                      "STREAMING UPDATE",
                                                      "DELETE",
                                                      "TRUNCATE",
                                                      "CONVERT",
                                                      "MERGE",
                                                      "UPDATE",
                                                      "CREATE TABLE AS SELECT",
                                                      "REPLACE TABLE",
                                                      "REPLACE TABLE AS SELECT",
                                                      "CREATE OR REPLACE TABLE",
                                                      "CREATE OR REPLACE TABLE AS SELECT",
                                                      "RESTORE",
                                                      "CLONE"};
  for (const delta::Action& a : loser.actions) {
    const auto* info = std::get_if<delta::CommitInfo>(&a);
    if (info == nullptr || !info->operation.has_value()) continue;
    return std::find(std::begin(kChangesData), std::end(kChangesData), *info->operation) !=
           std::end(kChangesData);
  }
  return true;
}

}  // namespace

IsolationLevel CommitIsolationLevel(IsolationLevel table_level, const PendingTransaction& loser) {
  // B1 (docs/baseline.md#b1): every action (commitInfo aside) is a file action or the
  // row-tracking domain, and none changes data. An empty transaction qualifies too, as in Delta.
  // Under WriteSerializable the operation must not be one that changes data either: an empty
  // DELETE keeps the table's level, and so its read checks.
  if (table_level == IsolationLevel::kWriteSerializable && OperationChangesData(loser))
    return table_level;
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
