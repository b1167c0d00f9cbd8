// Isolation levels as the serial orders each allows for a committed history
// (docs/decisions.md#isolation):
//   Serializable      - commit order, only.
//   WriteSerializable - commit order, except that a blind append may move later, past
//                       transactions that did not observe its rows (ObservedRowsOf); never
//                       earlier.
//   SnapshotIsolation - the level of a commit whose file actions are all dataChange=false
//                       (OPTIMIZE); such a commit leaves the logical rows unchanged, so where it
//                       sits in an order does not change any result.
//
// Concern: enumerate (bounded) or check serial orders, and replay one serially. The oracle
// accepts an outcome when it equals the serial result of some allowed order.
//
// Thread-safety: stateless functions.
#ifndef RLC_MODEL_ISOLATION_ISOLATION_H_
#define RLC_MODEL_ISOLATION_ISOLATION_H_

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "model/isolation/history.h"
#include "model/semantics/table.h"

namespace rlc::model {

// "Serializable", "WriteSerializable", "SnapshotIsolation".
std::string IsolationLevelName(IsolationLevel level);
// Parses the table property's value; nullopt for anything else.
std::optional<IsolationLevel> ParseIsolationLevel(const std::string& text);

// Whether `reader` observed a row `writer` inserted: one of its reads matched it, or it wrote it.
// Under WriteSerializable a blind append may be serialized after a later commit exactly when that
// commit did not observe any of its rows (docs/decisions.md#isolation: a commit whose read
// version predates the append cannot observe it; one that read a later version but none of the
// append's rows behaves the same, and Delta's own checker treats it so).
bool ObservedRowsOf(const OperationEffect& reader, const OperationEffect& writer);

// The level one commit runs under: SnapshotIsolation when it changes no data, else the table's.
IsolationLevel CommitIsolationLevel(IsolationLevel table_level, const OperationEffect& effect);

// A serial order: indexes into history.commits.
using SerialOrder = std::vector<size_t>;

// Whether `order` (a permutation of the commits) is allowed at `table_level`. When it is not,
// *why says which pair is out of order and why that is not allowed.
bool IsAllowedOrder(const CommittedHistory& history, const ObservedHistory& observed,
                    IsolationLevel table_level, const SerialOrder& order,
                    std::string* why = nullptr);

struct AllowedOrders {
  std::vector<SerialOrder> orders;  // commit order first
  bool complete = true;             // false when max_orders cut the enumeration
};

AllowedOrders EnumerateAllowedOrders(const CommittedHistory& history,
                                     const ObservedHistory& observed, IsolationLevel table_level,
                                     size_t max_orders);

// Runs the commits one after another in `order`, each on the result of the previous one.
// Returns the final table; failed operations (a MERGE with several matches) commit nothing.
LogicalTable RunSerially(const CommittedHistory& history, const SerialOrder& order);

enum class OracleVerdict { kValid, kInvalid, kUnknown };

struct OracleResult {
  OracleVerdict verdict = OracleVerdict::kUnknown;
  std::optional<SerialOrder> matching_order;  // kValid: an order whose result equals the actual
  size_t orders_checked = 0;
};

// Compares the actual final rows (values only, sorted: LogicalTable::SortedContents) with the
// serial result of each allowed order. kUnknown when the enumeration was cut and none matched.
OracleResult CheckFinalRows(const CommittedHistory& history, const ObservedHistory& observed,
                            IsolationLevel table_level,
                            const std::vector<std::vector<Value>>& actual_rows, size_t max_orders);

}  // namespace rlc::model

#endif  // RLC_MODEL_ISOLATION_ISOLATION_H_
