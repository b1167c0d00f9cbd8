#include "impl/predicate/stats_evaluator.h"

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

// MayMatchFile's rule, the non-partition columns' domains from `from_stats` (has_stats false:
// no statistics at all).
template <typename FromStats>
bool MayMatchWith(const BoundExpr& bound, bool has_stats, std::optional<int64_t> num_records,
                  const delta::StringMap& partition_values, const FromStats& from_stats) {
  if (has_stats && num_records.has_value() && *num_records == 0) return false;
  const auto domain = [&](const ResolvedColumn& column) {
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
  };
  // One reference captured, so that the DomainLookup holds it without allocating (this runs for
  // every file of every winner the statistics tier judges).
  const Possible p = EvaluateOverDomains(
      bound, [&domain](const ResolvedColumn& column) { return domain(column); });
  return p.can_be_true;
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
  return MayMatchWith(bound, true, stats.num_records, partition_values,
                      [&](const ResolvedColumn& column) {
                        const delta::ColumnStats* of = nullptr;
                        for (size_t i = 0; i < columns.size() && of == nullptr; ++i) {
                          if (column.physical_path == columns[i]) of = &stats.columns[i];
                        }
                        return DomainFromColumnStats(column, stats.num_records, of);
                      });
}

}  // namespace rlc::predicate
