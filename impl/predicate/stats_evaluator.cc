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

bool MayMatchFile(const BoundExpr& bound, const delta::FileStats* stats,
                  const delta::StringMap& partition_values) {
  if (stats != nullptr && stats->num_records.has_value() && *stats->num_records == 0) return false;
  const Possible p = EvaluateOverDomains(bound, [&](const ResolvedColumn& column) {
    if (column.is_partition) {
      if (RLC_MUTANT("data-skipping-partition-ignored") && stats != nullptr) {
        ColumnDomain none;
        none.may_be_null = none.may_be_non_null = false;
        return none;
      }
      return PartitionDomain(column, partition_values);
    }
    if (stats == nullptr) return ColumnDomain::Anything();
    return DomainFromStats(column, *stats);
  });
  return p.can_be_true;
}

}  // namespace rlc::predicate
