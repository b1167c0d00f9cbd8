#include "impl/predicate/stats_evaluator.h"

#include "impl/base/assert.h"
#include "impl/base/mutants.h"
#include "impl/predicate/column_domain.h"
#include "impl/predicate/domain_evaluator.h"

namespace rlc::predicate {
namespace {

ColumnDomain PartitionDomain(const ResolvedColumn& column, const delta::StringMap& values) {
  if (!column.physical_path.has_value() || column.physical_path->size() != 1) {
    return ColumnDomain::Anything();
  }
  const std::string& key = column.physical_path->front();
  for (const auto& [name, value] : values) {
    if (name == key) return DomainFromPartitionValue(column, value);
  }
  return ColumnDomain::Anything();  // not recorded: say nothing
}

}  // namespace

bool MayMatch(const BoundExpr& bound, const delta::FileStats& stats) {
  return MayMatchFile(bound, &stats, {});
}

bool MayMatchPartition(const BoundExpr& bound, const delta::StringMap& partition_values) {
  return MayMatchFile(bound, nullptr, partition_values);
}

namespace {

// A column's domain in a file: partition columns from the partition values, the others from
// `from_stats` (has_stats false: no statistics at all).
template <typename FromStats>
ColumnDomain DomainInFile(const ResolvedColumn& column, bool has_stats,
                          const delta::StringMap& partition_values, const FromStats& from_stats) {
  if (column.is_partition) {
    if (RLC_MUTANT("data-skipping-partition-ignored") && has_stats) {
      ColumnDomain none;
      none.may_be_null = none.may_be_non_null = false;
      return none;
    }
    return PartitionDomain(column, partition_values);
  }
  if (!has_stats) return ColumnDomain::Anything();
  return from_stats(column);
}

// MayMatchFile's rule, the non-partition columns' domains from `from_stats`.
template <typename FromStats>
bool MayMatchWith(const BoundExpr& bound, bool has_stats, std::optional<int64_t> num_records,
                  const delta::StringMap& partition_values, const FromStats& from_stats) {
  if (has_stats && num_records.has_value() && *num_records == 0) return false;
  const Possible p = EvaluateOverDomains(bound, [&](const ResolvedColumn& column) {
    return DomainInFile(column, has_stats, partition_values, from_stats);
  });
  return p.can_be_true;
}

// What the statistics of `columns` say of `column` (nullptr: nothing).
const delta::ColumnStats* StatsOf(const ResolvedColumn& column, const delta::StatsView& stats,
                                  const std::vector<ColumnPath>& columns) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (column.physical_path == columns[i]) return &stats.columns[i];
  }
  return nullptr;
}

}  // namespace

bool MayMatchFile(const BoundExpr& bound, const delta::FileStats* stats,
                  const delta::StringMap& partition_values) {
  return MayMatchWith(bound, stats != nullptr, stats != nullptr ? stats->num_records : std::nullopt,
                      partition_values, [&](const ResolvedColumn& column) {
                        return DomainFromStats(column, *stats);
                      });
}

bool MayMatchFile(const BoundExpr& bound, const delta::StatsView& stats,
                  const std::vector<ColumnPath>& columns,
                  const delta::StringMap& partition_values) {
  return MayMatchWith(
      bound, true, stats.num_records, partition_values, [&](const ResolvedColumn& column) {
        return DomainFromColumnStats(column, stats.num_records, StatsOf(column, stats, columns));
      });
}

FilePredicates::FilePredicates(const std::vector<BoundExpr>& predicates,
                               const std::vector<ColumnPath>& stats_columns)
    : stats_columns_(stats_columns.size()) {
  programs_.reserve(predicates.size());
  for (const BoundExpr& p : predicates) programs_.emplace_back(p, &columns_);
  for (const ResolvedColumn* column : columns_) {
    int index = -1;
    for (size_t i = 0; i < stats_columns.size() && index < 0; ++i) {
      if (column->physical_path == stats_columns[i]) index = static_cast<int>(i);
    }
    stats_index_.push_back(index);
  }
}

template <typename FromStats>
void FilePredicates::Judge(bool has_stats, std::optional<int64_t> num_records,
                           const delta::StringMap& partition_values, const FromStats& from_stats,
                           std::vector<bool>* answers) const {
  answers->assign(programs_.size(), false);
  if (has_stats && num_records.has_value() && *num_records == 0) return;  // no row at all
  // The thread's memory, reused from file to file: each domain is overwritten below.
  thread_local std::vector<ColumnDomain> domains;
  domains.resize(columns_.size());
  const auto unread = [](const ResolvedColumn&) -> ColumnDomain {
    RLC_ASSERT(false);  // DomainInFile reads statistics only for a data column with statistics
    return ColumnDomain::Anything();
  };
  for (size_t i = 0; i < columns_.size(); ++i) {
    const ResolvedColumn& column = *columns_[i];
    if (column.is_partition || !has_stats)
      domains[i] = DomainInFile(column, has_stats, partition_values, unread);
    else
      from_stats(column, i, &domains[i]);  // in place: no domain built and copied per file
  }
  for (size_t i = 0; i < programs_.size(); ++i) (*answers)[i] = programs_[i].MayBeTrue(domains);
}

void FilePredicates::MayMatchPerPredicate(const delta::StatsView& stats,
                                          const delta::StringMap& partition_values,
                                          std::vector<bool>* answers) const {
  RLC_ASSERT(stats.columns.size() == stats_columns_);  // read for the columns compiled against
  Judge(
      true, stats.num_records, partition_values,
      [&](const ResolvedColumn& column, size_t i, ColumnDomain* out) {
        const int index = stats_index_[i];
        SetDomainFromColumnStats(column, stats.num_records,
                                 index < 0 ? nullptr : &stats.columns[index], out);
      },
      answers);
}

void FilePredicates::MayMatchPerPredicate(const delta::FileStats& stats,
                                          const delta::StringMap& partition_values,
                                          std::vector<bool>* answers) const {
  Judge(
      true, stats.num_records, partition_values,
      [&](const ResolvedColumn& column, size_t, ColumnDomain* out) {
        *out = DomainFromStats(column, stats);
      },
      answers);
}

void FilePredicates::MayMatchPerPredicate(const delta::StringMap& partition_values,
                                          std::vector<bool>* answers) const {
  Judge(
      false, std::nullopt, partition_values,
      [](const ResolvedColumn&, size_t, ColumnDomain* out) { *out = ColumnDomain::Anything(); },
      answers);
}

}  // namespace rlc::predicate
