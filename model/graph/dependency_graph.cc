#include "model/graph/dependency_graph.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <set>
#include <tuple>

#include "model/graph/version_order.h"
#include "model/isolation/isolation.h"
#include "model/semantics/predicate.h"

namespace rlc::model {
namespace {

// The first image there is, as the sentence names the row ("" when none: it names the identity).
std::string ImageText(std::initializer_list<const Row*> images) {
  for (const Row* image : images) {
    if (image != nullptr) return RowValuesText(*image);
  }
  return "";
}

const Row* Image(const std::optional<Row>& row) { return row.has_value() ? &*row : nullptr; }

const Row* RowAt(const LogicalTable& table, RowId row) {
  const auto it = table.rows.find(row);
  return it == table.rows.end() ? nullptr : &it->second;
}

class GraphBuilder {
 public:
  explicit GraphBuilder(const ObservedHistory& observed)
      : observed_(observed), order_(BuildVersionOrder(observed)) {
    for (const TxnObservation& t : observed.txns) {
      graph_.txns.push_back({t.name, t.read_version, t.commit_version, t.effect.is_blind_append,
                             t.effect.data_change});
    }
  }

  void AddWw();
  void AddReads();
  void AddCommitOrder(CommitOrderEdges commit_order);
  DependencyGraph Finish() { return std::move(graph_); }

 private:
  void AddWr(size_t reader, const PredicateRead& read, const std::vector<RowId>& matched);
  void AddRw(size_t reader, const PredicateRead& read, const std::vector<RowId>& matched);
  void AddCommitEdge(size_t from, size_t to);
  void AddWsCommitEdges(const std::vector<size_t>& commits, size_t p);
  void Add(size_t from, size_t to, EdgeExplanation e);
  const std::string& Name(size_t txn) const { return graph_.txns[txn].name; }

  const ObservedHistory& observed_;
  VersionOrder order_;
  DependencyGraph graph_;
  std::set<std::tuple<size_t, size_t, EdgeKind>> seen_;
};

void GraphBuilder::Add(size_t from, size_t to, EdgeExplanation e) {
  if (from == to || !seen_.insert({from, to, e.kind}).second) return;
  graph_.edges.push_back({from, to, std::move(e)});
}

void GraphBuilder::AddWw() {
  for (const auto& [row, writes] : order_) {
    for (size_t k = 1; k < writes.size(); ++k) {
      const InstalledWrite& a = writes[k - 1];
      const InstalledWrite& b = writes[k];
      Add(a.txn, b.txn,
          {EdgeKind::kWW, Name(a.txn), Name(b.txn), row, WriteAction(a.write->kind),
           WriteAction(b.write->kind), a.version, b.version, "",
           ImageText({Image(a.write->after), Image(a.write->before)})});
    }
  }
}

void GraphBuilder::AddReads() {
  for (size_t j = 0; j < observed_.txns.size(); ++j) {
    const OperationEffect& effect = observed_.txns[j].effect;
    if (!effect.data_change) continue;
    for (const PredicateRead& read : effect.reads) {
      std::vector<RowId> matched = read.matched;
      std::sort(matched.begin(), matched.end());
      AddWr(j, read, matched);
      AddRw(j, read, matched);
    }
  }
}

void GraphBuilder::AddWr(size_t reader, const PredicateRead& read,
                         const std::vector<RowId>& matched) {
  const int64_t v = observed_.txns[reader].read_version;
  const LogicalTable* table = TableAt(observed_, v);
  if (table == nullptr) table = &observed_.versions.front();
  for (const auto& [row, writes] : order_) {
    const InstalledWrite* last = nullptr;
    for (const InstalledWrite& w : writes) {
      if (w.visible && w.version <= v) last = &w;
    }
    if (last == nullptr) continue;
    const RowWrite& w = *last->write;
    EdgeExplanation e{EdgeKind::kWR,
                      Name(last->txn),
                      Name(reader),
                      row,
                      WriteAction(w.kind),
                      "read",
                      last->version,
                      v,
                      ""};
    if (std::binary_search(matched.begin(), matched.end(), row)) {
      e.row_values = ImageText({RowAt(*table, row), Image(w.after), Image(w.before)});
      Add(last->txn, reader, std::move(e));
      continue;
    }
    if (read.rows_only) continue;  // no other row was read, whatever its values
    const bool matched_before =
        w.before.has_value() && Qualifies(read.predicate, *table, *w.before);
    const bool matches_after = w.after.has_value() && Qualifies(read.predicate, *table, *w.after);
    if (matched_before && !matches_after) {
      e.predicate = ToString(read.predicate);
      e.row_values = ImageText({Image(w.before)});
      Add(last->txn, reader, std::move(e));
    }
  }
}

void GraphBuilder::AddRw(size_t reader, const PredicateRead& read,
                         const std::vector<RowId>& matched) {
  const int64_t v = observed_.txns[reader].read_version;
  const LogicalTable* table = TableAt(observed_, v);
  if (table == nullptr) table = &observed_.versions.front();
  for (const auto& [row, writes] : order_) {
    const bool read_row = std::binary_search(matched.begin(), matched.end(), row);
    for (const InstalledWrite& w : writes) {
      if (w.version <= v || w.txn == reader) continue;
      EdgeExplanation e{EdgeKind::kRW,
                        Name(reader),
                        Name(w.txn),
                        row,
                        "read",
                        WriteAction(w.write->kind),
                        v,
                        w.version,
                        ""};
      if (read_row) {
        e.row_values =
            ImageText({RowAt(*table, row), Image(w.write->before), Image(w.write->after)});
        Add(reader, w.txn, std::move(e));
      } else if (!read.rows_only && w.write->after.has_value() &&
                 Qualifies(read.predicate, *table, *w.write->after)) {
        e.predicate = ToString(read.predicate);
        e.row_values = ImageText({Image(w.write->after)});
        Add(reader, w.txn, std::move(e));
      }
    }
  }
}

void GraphBuilder::AddCommitEdge(size_t from, size_t to) {
  const GraphTxn& a = graph_.txns[from];
  const GraphTxn& b = graph_.txns[to];
  Add(from, to,
      {EdgeKind::kCommitOrder, a.name, b.name, 0, "committed", "committed", a.commit_version,
       b.commit_version, ""});
}

// The WriteSerializable edges out of commits[p] (anomaly_catalogue.h): a transaction that is
// not a blind append precedes the next such transaction and every blind append in between; a
// blind append precedes the later transactions that observed its rows (isolation.h:
// ObservedRowsOf), up to the first of them that is not a blind append (the rest follow that one).
void GraphBuilder::AddWsCommitEdges(const std::vector<size_t>& commits, size_t p) {
  const GraphTxn& t = graph_.txns[commits[p]];
  for (size_t q = p + 1; q < commits.size(); ++q) {
    const GraphTxn& later = graph_.txns[commits[q]];
    if (!t.is_blind_append) {
      AddCommitEdge(commits[p], commits[q]);
      if (!later.is_blind_append) return;
    } else if (later.read_version >= t.commit_version &&
               ObservedRowsOf(observed_.txns[commits[q]].effect,
                              observed_.txns[commits[p]].effect)) {
      AddCommitEdge(commits[p], commits[q]);
      if (!later.is_blind_append) return;
    }
  }
}

void GraphBuilder::AddCommitOrder(CommitOrderEdges commit_order) {
  if (commit_order == CommitOrderEdges::kNone) return;
  std::vector<size_t> commits;  // data-changing transactions, in commit order
  for (size_t i = 0; i < graph_.txns.size(); ++i) {
    if (graph_.txns[i].data_change) commits.push_back(i);
  }
  for (size_t p = 0; p + 1 < commits.size(); ++p) {
    if (commit_order == CommitOrderEdges::kCommitOrder) {
      AddCommitEdge(commits[p], commits[p + 1]);
    } else {
      AddWsCommitEdges(commits, p);
    }
  }
}

}  // namespace

std::vector<EdgeExplanation> DependencyGraph::EdgesOf(EdgeKind kind) const {
  std::vector<EdgeExplanation> out;
  for (const DependencyEdge& e : edges) {
    if (e.explanation.kind == kind) out.push_back(e.explanation);
  }
  return out;
}

DependencyGraph BuildDependencyGraph(const ObservedHistory& observed,
                                     CommitOrderEdges commit_order) {
  GraphBuilder builder(observed);
  builder.AddWw();
  builder.AddReads();
  builder.AddCommitOrder(commit_order);
  return builder.Finish();
}

}  // namespace rlc::model
