// The isolation level a loser commits under (docs/baseline.md#b1, docs/decisions.md#isolation).
//
// Concern: the table property `delta.isolationLevel` (absent: Serializable, the OSS default;
// WriteSerializable is accepted because Databricks writes it) and the SnapshotIsolation
// downgrade of a commit whose file actions all have dataChange=false (under WriteSerializable,
// of an operation that does not change data either).
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_CONFLICT_ISOLATION_LEVEL_H_
#define RLC_IMPL_CONFLICT_ISOLATION_LEVEL_H_

#include <string>

#include "impl/base/status.h"
#include "impl/conflict/pending_transaction.h"
#include "impl/delta/actions.h"

namespace rlc::conflict {

enum class IsolationLevel { kSerializable, kWriteSerializable, kSnapshotIsolation };

std::string IsolationLevelName(IsolationLevel level);

// The table's level. A value other than Serializable or WriteSerializable is kCorrupt.
Result<IsolationLevel> TableIsolationLevel(const delta::Metadata& metadata);

// SnapshotIsolation when every action but commitInfo is a file action (or the row-tracking
// domain) and none changes data (OPTIMIZE, or an empty transaction), unless the table is
// WriteSerializable and the commitInfo names an operation Delta counts as changing data (or none);
// the table's level otherwise.
IsolationLevel CommitIsolationLevel(IsolationLevel table_level, const PendingTransaction& loser);

}  // namespace rlc::conflict

#endif  // RLC_IMPL_CONFLICT_ISOLATION_LEVEL_H_
