#include "model/isolation/isolation.h"

#include <set>

#include <algorithm>
#include <numeric>

namespace rlc::model {
namespace {

// Whether commit x (committed before y) may be serialized after y.
bool MayMovePast(const CommittedHistory& history, const ObservedHistory& observed,
                 IsolationLevel table_level, size_t x, size_t y) {
  const OperationEffect& ex = observed.txns[x].effect;
  const OperationEffect& ey = observed.txns[y].effect;
  // A commit that changes no rows can sit anywhere.
  if (!ex.data_change || !ey.data_change) return true;
  if (table_level != IsolationLevel::kWriteSerializable) return false;
  return ex.is_blind_append &&
         (history.commits[y].read_version < history.CommitVersion(x) || !ObservedRowsOf(ey, ex));
}

void Enumerate(const CommittedHistory& history, const ObservedHistory& observed,
               IsolationLevel level, size_t max_orders, SerialOrder& prefix,
               std::vector<bool>& used, AllowedOrders& out) {
  const size_t n = history.commits.size();
  if (out.orders.size() >= max_orders) {
    out.complete = false;
    return;
  }
  if (prefix.size() == n) {
    out.orders.push_back(prefix);
    return;
  }
  for (size_t y = 0; y < n; ++y) {
    if (used[y]) continue;
    // Placing y now puts it before every unused x; each earlier-committed x must be movable.
    bool ok = true;
    for (size_t x = 0; x < y && ok; ++x) {
      if (!used[x]) ok = MayMovePast(history, observed, level, x, y);
    }
    if (!ok) continue;
    used[y] = true;
    prefix.push_back(y);
    Enumerate(history, observed, level, max_orders, prefix, used, out);
    prefix.pop_back();
    used[y] = false;
    if (!out.complete) return;
  }
}

}  // namespace

bool ObservedRowsOf(const OperationEffect& reader, const OperationEffect& writer) {
  std::set<RowId> inserted;
  for (const RowWrite& w : writer.writes) {
    if (w.kind == RowWrite::Kind::kInsert) inserted.insert(w.row);
  }
  if (inserted.empty()) return false;
  for (const PredicateRead& read : reader.reads) {
    for (RowId row : read.matched) {
      if (inserted.count(row)) return true;
    }
  }
  for (const RowWrite& w : reader.writes) {
    if (inserted.count(w.row)) return true;
  }
  return false;
}

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

std::optional<IsolationLevel> ParseIsolationLevel(const std::string& text) {
  if (text == "Serializable") return IsolationLevel::kSerializable;
  if (text == "WriteSerializable") return IsolationLevel::kWriteSerializable;
  if (text == "SnapshotIsolation") return IsolationLevel::kSnapshotIsolation;
  return std::nullopt;
}

IsolationLevel CommitIsolationLevel(IsolationLevel table_level, const OperationEffect& effect) {
  return effect.data_change ? table_level : IsolationLevel::kSnapshotIsolation;
}

bool IsAllowedOrder(const CommittedHistory& history, const ObservedHistory& observed,
                    IsolationLevel table_level, const SerialOrder& order, std::string* why) {
  const size_t n = history.commits.size();
  std::vector<size_t> position(n, n);
  for (size_t p = 0; p < order.size(); ++p) {
    if (order[p] >= n || position[order[p]] != n) {
      if (why) *why = "not a permutation of the commits";
      return false;
    }
    position[order[p]] = p;
  }
  if (order.size() != n) {
    if (why) *why = "not a permutation of the commits";
    return false;
  }
  for (size_t x = 0; x < n; ++x) {
    for (size_t y = x + 1; y < n; ++y) {
      if (position[x] < position[y] || MayMovePast(history, observed, table_level, x, y)) continue;
      if (why) {
        const Transaction& tx = history.commits[x];
        const Transaction& ty = history.commits[y];
        *why = tx.name + " committed at version " + std::to_string(history.CommitVersion(x)) +
               " but is placed after " + ty.name + " (read version " +
               std::to_string(ty.read_version) + "): " +
               (table_level != IsolationLevel::kWriteSerializable
                    ? IsolationLevelName(table_level) + " allows only the commit order"
                : !observed.txns[x].effect.is_blind_append
                    ? std::string("only a blind append may move later")
                    : ty.name + " had already seen it");
      }
      return false;
    }
  }
  return true;
}

AllowedOrders EnumerateAllowedOrders(const CommittedHistory& history,
                                     const ObservedHistory& observed, IsolationLevel table_level,
                                     size_t max_orders) {
  AllowedOrders out;
  SerialOrder prefix;
  std::vector<bool> used(history.commits.size(), false);
  Enumerate(history, observed, table_level, max_orders, prefix, used, out);
  return out;
}

LogicalTable RunSerially(const CommittedHistory& history, const SerialOrder& order) {
  LogicalTable table = history.initial;
  for (size_t i : order) {
    OperationEffect effect = Apply(table, history.commits[i].op);
    if (effect.error.has_value()) continue;
    table = std::move(effect.after);
  }
  return table;
}

OracleResult CheckFinalRows(const CommittedHistory& history, const ObservedHistory& observed,
                            IsolationLevel table_level,
                            const std::vector<std::vector<Value>>& actual_rows, size_t max_orders) {
  OracleResult result;
  // The commit order is allowed at every level and is the answer for most histories: try it
  // before enumerating (with thousands of commits that may move, the enumeration is long).
  SerialOrder commit_order(history.commits.size());
  for (size_t i = 0; i < commit_order.size(); ++i) commit_order[i] = i;
  ++result.orders_checked;
  if (RunSerially(history, commit_order).SortedContents() == actual_rows) {
    result.verdict = OracleVerdict::kValid;
    result.matching_order = commit_order;
    return result;
  }
  AllowedOrders allowed = EnumerateAllowedOrders(history, observed, table_level, max_orders);
  for (const SerialOrder& order : allowed.orders) {
    if (order == commit_order) continue;  // tried first
    ++result.orders_checked;
    if (RunSerially(history, order).SortedContents() == actual_rows) {
      result.verdict = OracleVerdict::kValid;
      result.matching_order = order;
      return result;
    }
  }
  result.verdict = allowed.complete ? OracleVerdict::kInvalid : OracleVerdict::kUnknown;
  return result;
}

}  // namespace rlc::model
