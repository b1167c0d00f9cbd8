#include "model/explain/explanation.h"

#include <algorithm>

#include "model/semantics/operation.h"
#include "model/semantics/value.h"

namespace rlc::model {
namespace {

std::string V(int64_t version) { return "version " + std::to_string(version); }
std::string RowText(const EdgeExplanation& e) {
  return "row " + (e.row_values.empty() ? std::to_string(e.row) : e.row_values);
}
std::string Quoted(const std::string& sql) { return "`" + sql + "`"; }

std::string RenderWw(const EdgeExplanation& e) {
  return e.to_txn + " " + e.to_action + " " + RowText(e) + ", which " + e.from_txn + " had " +
         e.from_action + " at " + V(e.from_version);
}

std::string RenderWr(const EdgeExplanation& e) {
  const std::string writer =
      ", which " + e.from_txn + " had " + e.from_action + " at " + V(e.from_version);
  if (e.predicate.empty()) {
    return e.to_txn + " read " + RowText(e) + " at " + V(e.to_version) + writer;
  }
  return e.to_txn + "'s read " + Quoted(e.predicate) + " at " + V(e.to_version) + " missed " +
         RowText(e) + writer;
}

std::string RenderRw(const EdgeExplanation& e) {
  const std::string write = e.to_txn + " " + e.to_action + " " + RowText(e);
  if (e.predicate.empty()) {
    return write + ", which " + e.from_txn + " had read at " + V(e.from_version);
  }
  return write + ", which matches " + e.from_txn + "'s read " + Quoted(e.predicate) + " at " +
         V(e.from_version);
}

std::string RenderCommitOrder(const EdgeExplanation& e) {
  return e.from_txn + " committed at " + V(e.from_version) + ", before " + e.to_txn +
         " committed at " + V(e.to_version);
}

std::string Ordering(const EdgeExplanation& e) {
  return "  - " + e.from_txn + " < " + e.to_txn + ", because " + RenderEdge(e);
}

}  // namespace

std::string RowValuesText(const Row& row) {
  std::string text = "(";
  for (size_t i = 0; i < row.values.size(); ++i)
    text += (i == 0 ? "" : ", ") + ToString(row.values[i]);
  return text + ")";
}

std::string EdgeKindName(EdgeKind kind) {
  switch (kind) {
    case EdgeKind::kWW:
      return "ww";
    case EdgeKind::kWR:
      return "wr";
    case EdgeKind::kRW:
      return "rw";
    case EdgeKind::kCommitOrder:
      return "commit-order";
  }
  return "?";
}

std::string RenderEdge(const EdgeExplanation& edge) {
  switch (edge.kind) {
    case EdgeKind::kWW:
      return RenderWw(edge);
    case EdgeKind::kWR:
      return RenderWr(edge);
    case EdgeKind::kRW:
      return RenderRw(edge);
    case EdgeKind::kCommitOrder:
      return RenderCommitOrder(edge);
  }
  return "?";
}

std::string RenderCycle(const std::vector<TxnLabel>& txns,
                        const std::vector<EdgeExplanation>& cycle) {
  std::string out = "Let:\n";
  for (const TxnLabel& t : txns) {
    out += "  " + t.name + " = " + t.operation + " (read " + V(t.read_version) + ", commit " +
           V(t.commit_version) + ")\n";
  }
  out += "Then:\n";
  for (size_t i = 0; i + 1 < cycle.size(); ++i) out += Ordering(cycle[i]) + "\n";
  out += "However:\n";
  if (!cycle.empty()) out += Ordering(cycle.back()) + ": a contradiction.\n";
  return out;
}

std::vector<TxnLabel> LabelCycle(const std::vector<EdgeExplanation>& cycle,
                                 const CommittedHistory& history) {
  std::vector<TxnLabel> labels;
  for (const EdgeExplanation& e : cycle) {
    auto seen = [&](const TxnLabel& l) { return l.name == e.from_txn; };
    if (std::any_of(labels.begin(), labels.end(), seen)) continue;
    TxnLabel label{e.from_txn, "?", 0, 0};
    for (size_t i = 0; i < history.commits.size(); ++i) {
      const Transaction& t = history.commits[i];
      if (t.name != e.from_txn) continue;
      label = {t.name, Describe(t.op), t.read_version, history.CommitVersion(i)};
    }
    labels.push_back(std::move(label));
  }
  return labels;
}

}  // namespace rlc::model
