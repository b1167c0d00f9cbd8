#include "impl/conflict/partition_filter.h"

#include <algorithm>
#include <optional>

#include "impl/base/assert.h"
#include "impl/predicate/bind.h"
#include "impl/predicate/parser.h"
#include "impl/predicate/schema.h"
#include "impl/predicate/stats_evaluator.h"

namespace rlc::conflict {

struct ReadPredicateMatcher::State {
  std::vector<predicate::BoundExpr> predicates;
  std::vector<delta::ColumnPath> stats_columns;
  // The predicates compiled, over the two vectors above (State never moves).
  std::optional<predicate::FilePredicates> compiled;
  std::string match_all_reason;  // non-empty: match every file
};

namespace {

// Whether some answer is true. The answers' memory is the thread's: no allocation per file.
template <typename Ask>
bool AnyMayMatch(const Ask& ask) {
  thread_local std::vector<bool> answers;
  ask(&answers);
  return std::find(answers.begin(), answers.end(), true) != answers.end();
}

}  // namespace

ReadPredicateMatcher::ReadPredicateMatcher(const std::vector<std::string>& predicates,
                                           const delta::Metadata& read_metadata)
    : state_(std::make_unique<State>()) {
  Result<predicate::TableSchema> schema = predicate::TableSchema::FromMetadata(read_metadata);
  if (!schema.ok()) {
    state_->match_all_reason = "the read schema cannot be used: " + schema.status().message();
    return;
  }
  for (const std::string& text : predicates) {
    Result<predicate::Expr> expr = predicate::ParsePredicate(text);
    Result<predicate::BoundExpr> bound =
        expr.ok() ? predicate::Bind(*expr, *schema) : Result<predicate::BoundExpr>(expr.status());
    if (!bound.ok()) {
      state_->match_all_reason = "read predicate '" + text + "': " + bound.status().message();
      state_->predicates.clear();
      return;
    }
    state_->predicates.push_back(std::move(bound).value());
  }
  std::vector<delta::ColumnPath>& columns = state_->stats_columns;
  for (const predicate::BoundExpr& p : state_->predicates) {
    for (const auto& [path, column] : p.columns()) {
      if (column.is_partition || !column.physical_path.has_value()) continue;
      if (std::find(columns.begin(), columns.end(), *column.physical_path) == columns.end())
        columns.push_back(*column.physical_path);
    }
  }
  state_->compiled.emplace(state_->predicates, columns);
}

ReadPredicateMatcher::~ReadPredicateMatcher() = default;
ReadPredicateMatcher::ReadPredicateMatcher(ReadPredicateMatcher&&) noexcept = default;

bool ReadPredicateMatcher::MayMatch(const delta::StringMap& partition_values) const {
  if (!state_->match_all_reason.empty()) return true;
  return AnyMayMatch([&](std::vector<bool>* answers) {
    state_->compiled->MayMatchPerPredicate(partition_values, answers);
  });
}

const std::string& ReadPredicateMatcher::match_all_reason() const {
  return state_->match_all_reason;
}

size_t ReadPredicateMatcher::size() const { return state_->predicates.size(); }

bool ReadPredicateMatcher::NamesPartitionColumnsOnly() const {
  if (!state_->match_all_reason.empty()) return false;
  return std::all_of(state_->predicates.begin(), state_->predicates.end(), [](const auto& p) {
    return std::all_of(p.columns().begin(), p.columns().end(),
                       [](const auto& column) { return column.second.is_partition; });
  });
}

std::vector<bool> ReadPredicateMatcher::MayMatchFilePerRead(
    const delta::FileStats& stats, const delta::StringMap& partition_values) const {
  RLC_ASSERT(bound());
  std::vector<bool> answers;
  state_->compiled->MayMatchPerPredicate(stats, partition_values, &answers);
  return answers;
}

const std::vector<delta::ColumnPath>& ReadPredicateMatcher::stats_columns() const {
  return state_->stats_columns;
}

std::vector<bool> ReadPredicateMatcher::MayMatchFilePerRead(
    const delta::StatsView& stats, const delta::StringMap& partition_values) const {
  std::vector<bool> answers;
  MayMatchFilePerRead(stats, partition_values, &answers);
  return answers;
}

void ReadPredicateMatcher::MayMatchFilePerRead(const delta::StatsView& stats,
                                               const delta::StringMap& partition_values,
                                               std::vector<bool>* answers) const {
  RLC_ASSERT(bound());
  state_->compiled->MayMatchPerPredicate(stats, partition_values, answers);
}

bool ReadPredicateMatcher::RowMayMatch(const predicate::RowLookup& row) const {
  RLC_ASSERT(bound());
  for (const predicate::BoundExpr& p : state_->predicates) {
    Result<predicate::Truth> truth = predicate::EvaluateRow(p, row);
    if (!truth.ok() || *truth == predicate::Truth::kTrue) return true;
  }
  return false;
}

}  // namespace rlc::conflict
