#include "model/graph/cycle_search.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/strong_components.hpp>

namespace rlc::model {
namespace {

struct EdgeProps {
  size_t index = 0;  // into DependencyGraph::edges
};
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                    EdgeProps>;

unsigned Bit(EdgeKind kind) { return 1u << unsigned(kind); }
constexpr unsigned kData = 1u << unsigned(EdgeKind::kWW) | 1u << unsigned(EdgeKind::kWR);
constexpr unsigned kCo = 1u << unsigned(EdgeKind::kCommitOrder);
constexpr unsigned kRw = 1u << unsigned(EdgeKind::kRW);
constexpr unsigned kWw = 1u << unsigned(EdgeKind::kWW);

// A cycle shape: the edges it may use, the kind of edge the search starts on, how many rw
// edges it has, and whether it must use a commit-order edge.
struct Shape {
  AnomalyKind kind;
  unsigned allowed;
  EdgeKind start;
  int rw_min;
  int rw_max;  // 2 stands for "two or more"
  bool need_commit_order;
  AnomalyKind plain;  // the shape without commit-order edges (itself for a plain shape)
};

Shape ShapeOf(AnomalyKind kind) {
  using K = AnomalyKind;
  using E = EdgeKind;
  switch (kind) {
    case K::kG0:
      return {kind, kWw, E::kWW, 0, 0, false, kind};
    case K::kG1c:
      return {kind, kData, E::kWR, 0, 0, false, kind};
    case K::kGSingle:
      return {kind, kData | kRw, E::kRW, 1, 1, false, kind};
    case K::kG2:
      return {kind, kData | kRw, E::kRW, 2, 2, false, kind};
    case K::kG0CommitOrder:
      return {kind, kWw | kCo, E::kCommitOrder, 0, 0, true, K::kG0};
    case K::kG1cCommitOrder:
      return {kind, kData | kCo, E::kWR, 0, 0, true, K::kG1c};
    case K::kGSingleCommitOrder:
      return {kind, kData | kRw | kCo, E::kRW, 1, 1, true, K::kGSingle};
    case K::kG2CommitOrder:
      return {kind, kData | kRw | kCo, E::kRW, 2, 2, true, K::kG2};
  }
  return {kind, 0, E::kWW, 0, 0, false, kind};
}

struct KindFilter {
  const Graph* graph = nullptr;
  const DependencyGraph* deps = nullptr;
  unsigned allowed = 0;
  bool operator()(const Graph::edge_descriptor& e) const {
    return (allowed & Bit(deps->edges[(*graph)[e].index].explanation.kind)) != 0;
  }
};
using ShapeGraph = boost::filtered_graph<Graph, KindFilter>;

class Searcher {
 public:
  // graph_ is built in place: copying an adjacency_list trips GCC 12's -Wmaybe-uninitialized
  // false positive inside Boost.
  Searcher(const DependencyGraph& deps, SearchBudget budget)
      : deps_(deps), budget_(budget), graph_(deps.txns.size()) {
    for (size_t i = 0; i < deps.edges.size(); ++i) {
      boost::add_edge(deps.edges[i].from, deps.edges[i].to, EdgeProps{i}, graph_);
    }
  }

  // Appends one anomaly per component that holds a cycle of `shape`.
  void Search(const Shape& shape, std::vector<Anomaly>* out);
  bool exhausted() const { return exhausted_; }
  // Stops the search once it holds cycles_max anomalies (and at least one).
  bool full(const std::vector<Anomaly>& found) const {
    return !found.empty() && found.size() >= budget_.cycles_max;
  }

 private:
  std::optional<std::vector<size_t>> ShortestCycle(const ShapeGraph& g, const Shape& shape,
                                                   size_t start, const std::vector<int>& comp);
  bool Redundant(const Shape& shape, const std::vector<size_t>& cycle,
                 const std::vector<Anomaly>& found) const;
  std::vector<EdgeExplanation> Explain(std::vector<size_t> cycle) const;

  const DependencyGraph& deps_;
  SearchBudget budget_;
  Graph graph_;
  size_t steps_ = 0;
  bool exhausted_ = false;
};

void Searcher::Search(const Shape& shape, std::vector<Anomaly>* out) {
  ShapeGraph g(graph_, KindFilter{&graph_, &deps_, shape.allowed});
  std::vector<int> comp(deps_.txns.size(), 0);
  boost::strong_components(
      g, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, g)));
  std::map<int, std::vector<size_t>> starts;  // component -> start edges, in edge order
  for (size_t i = 0; i < deps_.edges.size(); ++i) {
    const DependencyEdge& e = deps_.edges[i];
    if (e.explanation.kind == shape.start && comp[e.from] == comp[e.to]) {
      starts[comp[e.from]].push_back(i);
    }
  }
  for (const auto& [component, edges] : starts) {
    std::optional<std::vector<size_t>> best;
    for (size_t start : edges) {
      std::optional<std::vector<size_t>> cycle = ShortestCycle(g, shape, start, comp);
      if (cycle && (!best || cycle->size() < best->size())) best = std::move(cycle);
      if (exhausted_ || (best && best->size() == 2)) break;
    }
    if (best && !Redundant(shape, *best, *out)) {
      out->push_back({shape.kind, Explain(std::move(*best))});
    }
    if (exhausted_ || full(*out)) return;
  }
}

// A -commit-order cycle is reported only when the commit order is needed: not when the plain
// shape already has a cycle over the same transactions (a lost update is G-single by its data
// alone; that its commit-order twin exists too says nothing new).
bool Searcher::Redundant(const Shape& shape, const std::vector<size_t>& cycle,
                         const std::vector<Anomaly>& found) const {
  if (!shape.need_commit_order) return false;
  std::set<std::string> txns;
  for (size_t e : cycle) txns.insert(deps_.edges[e].explanation.from_txn);
  for (const Anomaly& a : found) {
    if (a.kind != shape.plain) continue;
    std::set<std::string> other;
    for (const EdgeExplanation& e : a.cycle) other.insert(e.from_txn);
    if (other == txns) return true;
  }
  return false;
}

// A BFS from the head of `start` back to its tail over states (vertex, rw edges taken capped
// at 2, commit-order edge taken). Returns the shortest cycle's edge indices, `start` first;
// nullopt when there is none or the budget runs out. A closed walk that repeats a transaction
// is skipped: its simple sub-cycles are shorter, and found from their own start edges.
std::optional<std::vector<size_t>> Searcher::ShortestCycle(const ShapeGraph& g, const Shape& shape,
                                                           size_t start,
                                                           const std::vector<int>& comp) {
  const DependencyEdge& first = deps_.edges[start];
  auto state = [](size_t v, int rw, int co) { return v * 6 + size_t(rw) * 2 + size_t(co); };
  const size_t none = SIZE_MAX;
  std::vector<size_t> parent_edge(deps_.txns.size() * 6, none);
  std::vector<size_t> parent_state(deps_.txns.size() * 6, none);
  const int rw0 = first.explanation.kind == EdgeKind::kRW ? 1 : 0;
  const int co0 = first.explanation.kind == EdgeKind::kCommitOrder ? 1 : 0;
  const size_t origin = state(first.to, rw0, co0);
  parent_state[origin] = origin;
  std::deque<size_t> queue{origin};
  while (!queue.empty()) {
    const size_t s = queue.front();
    queue.pop_front();
    const size_t v = s / 6;
    const int rw = int(s % 6) / 2;
    const int co = int(s % 2);
    if (v == first.from) {
      if (rw < shape.rw_min || (shape.need_commit_order && co == 0)) continue;
      std::vector<size_t> cycle;
      for (size_t t = s; t != origin; t = parent_state[t]) cycle.push_back(parent_edge[t]);
      cycle.push_back(start);
      std::reverse(cycle.begin(), cycle.end());
      std::set<size_t> seen;
      for (size_t e : cycle) seen.insert(deps_.edges[e].from);
      if (seen.size() == cycle.size()) return cycle;
      continue;
    }
    for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
      if (++steps_ > budget_.steps_max) {
        exhausted_ = true;
        return std::nullopt;
      }
      const size_t index = g[*it].index;
      const DependencyEdge& e = deps_.edges[index];
      if (comp[e.to] != comp[e.from]) continue;
      const EdgeKind kind = e.explanation.kind;
      const int taken = rw + (kind == EdgeKind::kRW ? 1 : 0);
      if (shape.rw_max < 2 && taken > shape.rw_max) continue;
      const int next_rw = std::min(2, taken);
      const size_t next = state(e.to, next_rw, co | (kind == EdgeKind::kCommitOrder ? 1 : 0));
      if (parent_state[next] != none) continue;
      parent_state[next] = s;
      parent_edge[next] = index;
      queue.push_back(next);
    }
  }
  return std::nullopt;
}

// The cycle's explanations, rotated to start at the transaction that committed first.
std::vector<EdgeExplanation> Searcher::Explain(std::vector<size_t> cycle) const {
  auto commit = [&](size_t e) { return deps_.txns[deps_.edges[e].from].commit_version; };
  auto earliest = std::min_element(cycle.begin(), cycle.end(),
                                   [&](size_t a, size_t b) { return commit(a) < commit(b); });
  std::rotate(cycle.begin(), earliest, cycle.end());
  std::vector<EdgeExplanation> out;
  for (size_t e : cycle) out.push_back(deps_.edges[e].explanation);
  return out;
}

// Whether the edges whose kind is in `allowed` close any cycle (Kahn's algorithm). Every shape
// is a cycle over its allowed kinds, so a graph without one holds no anomaly of those shapes;
// most histories are such, and this answers them without the per-shape searches.
bool HasCycle(const DependencyGraph& graph, unsigned allowed) {
  const size_t n = graph.txns.size();
  std::vector<size_t> in_degree(n, 0);
  std::vector<std::vector<size_t>> out(n);
  for (const DependencyEdge& e : graph.edges) {
    if ((allowed & Bit(e.explanation.kind)) == 0) continue;
    ++in_degree[e.to];
    out[e.from].push_back(e.to);
  }
  std::vector<size_t> ready;
  for (size_t v = 0; v < n; ++v) {
    if (in_degree[v] == 0) ready.push_back(v);
  }
  size_t removed = 0;
  while (!ready.empty()) {
    const size_t v = ready.back();
    ready.pop_back();
    ++removed;
    for (size_t w : out[v]) {
      if (--in_degree[w] == 0) ready.push_back(w);
    }
  }
  return removed < n;
}

}  // namespace

std::vector<AnomalyKind> AllAnomalyKinds() {
  std::vector<AnomalyKind> kinds;
  for (const AnomalyRow& row : kAnomalyCatalogue) kinds.push_back(row.kind);
  return kinds;
}

GraphResult FindAnomalies(const DependencyGraph& graph, const std::vector<AnomalyKind>& kinds,
                          SearchBudget budget) {
  GraphResult result;
  unsigned allowed = 0;
  for (AnomalyKind kind : kinds) allowed |= ShapeOf(kind).allowed;
  if (!HasCycle(graph, allowed)) {
    result.verdict = GraphVerdict::kValid;
    return result;
  }
  Searcher searcher(graph, budget);
  for (AnomalyKind kind : kinds) {
    if (searcher.exhausted() || searcher.full(result.anomalies)) break;
    searcher.Search(ShapeOf(kind), &result.anomalies);
  }
  result.budget_exhausted = searcher.exhausted();
  if (!result.anomalies.empty()) {
    result.verdict = GraphVerdict::kInvalid;
  } else {
    result.verdict = result.budget_exhausted ? GraphVerdict::kUnknown : GraphVerdict::kValid;
  }
  return result;
}

}  // namespace rlc::model
