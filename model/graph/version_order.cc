#include "model/graph/version_order.h"

#include <algorithm>

namespace rlc::model {
namespace {

// Rule 1: does the table change at `version` the way `w` says?
bool TakesEffectAt(const ObservedHistory& observed, const RowWrite& w, int64_t version) {
  const LogicalTable* before = TableAt(observed, version - 1);
  const LogicalTable* after = TableAt(observed, version);
  if (before == nullptr || after == nullptr) return false;
  const bool was = before->rows.count(w.row) != 0;
  auto now = after->rows.find(w.row);
  const bool is = now != after->rows.end();
  switch (w.kind) {
    case RowWrite::Kind::kInsert:
      return !was && is && w.after.has_value() && now->second.values == w.after->values;
    case RowWrite::Kind::kUpdate:
      return was && is && w.after.has_value() && now->second.values == w.after->values;
    case RowWrite::Kind::kDelete:
      return was && !is;
  }
  return false;
}

// Rule 2.
InstalledWrite Install(const ObservedHistory& observed, size_t txn, const RowWrite& w) {
  const TxnObservation& t = observed.txns[txn];
  InstalledWrite installed{txn, &w, t.commit_version, true};
  if (TakesEffectAt(observed, w, t.commit_version)) return installed;
  installed.visible = false;
  if (t.lost_writes > 0) return installed;
  const int64_t first = observed.versions.front().version;
  for (size_t k = 1; k < observed.versions.size(); ++k) {
    if (TakesEffectAt(observed, w, first + int64_t(k))) {
      installed.version = first + int64_t(k);
      installed.visible = true;
      break;
    }
  }
  return installed;
}

}  // namespace

const LogicalTable* TableAt(const ObservedHistory& observed, int64_t version) {
  if (observed.versions.empty()) return nullptr;
  const int64_t index = version - observed.versions.front().version;
  if (index < 0 || index >= int64_t(observed.versions.size())) return nullptr;
  return &observed.versions[size_t(index)];
}

const char* WriteAction(RowWrite::Kind kind) {
  switch (kind) {
    case RowWrite::Kind::kInsert:
      return "inserted";
    case RowWrite::Kind::kUpdate:
      return "updated";
    case RowWrite::Kind::kDelete:
      return "deleted";
  }
  return "?";
}

VersionOrder BuildVersionOrder(const ObservedHistory& observed) {
  VersionOrder order;
  for (size_t i = 0; i < observed.txns.size(); ++i) {
    const OperationEffect& effect = observed.txns[i].effect;
    if (!effect.data_change) continue;
    for (const RowWrite& w : effect.writes) order[w.row].push_back(Install(observed, i, w));
  }
  for (auto& [row, writes] : order) {
    std::stable_sort(writes.begin(), writes.end(),
                     [](const InstalledWrite& a, const InstalledWrite& b) {
                       return a.version != b.version ? a.version < b.version : a.txn < b.txn;
                     });
  }
  return order;
}

}  // namespace rlc::model
