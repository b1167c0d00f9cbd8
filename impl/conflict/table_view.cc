#include "impl/conflict/table_view.h"

#include "impl/base/mutants.h"
#include "impl/conflict/baseline_rules.h"
#include "impl/delta/stats.h"

namespace rlc::conflict {
namespace {}  // namespace

bool StatisticsAgree(const delta::StatsJson& remove, const delta::StatsJson& add) {
  if (remove == add) return true;
  Result<delta::FileStats> r = delta::ParseStats(remove);
  Result<delta::FileStats> a = delta::ParseStats(add);
  if (!r.ok() || !a.ok()) return false;
  if (r->num_records.has_value() && r->num_records != a->num_records) return false;
  const auto within = [](const auto& claimed, const auto& table) {
    for (const auto& [column, value] : claimed) {
      auto it = table.find(column);
      if (it == table.end() || !(it->second == value)) return false;
    }
    return true;
  };
  return within(r->min_values, a->min_values) && within(r->max_values, a->max_values) &&
         within(r->null_count, a->null_count);
}

const delta::AddFile* TableView::Active(const std::string& decoded_path) const {
  Settle();
  return Lookup(decoded_path);
}

const delta::AddFile* TableView::Lookup(const std::string& decoded_path) const {
  if (auto it = changed_.find(decoded_path); it != changed_.end()) return it->second;
  auto it = read_files_.find(decoded_path);
  return it == read_files_.end() ? nullptr : &it->second;
}

const delta::AddFile* TableView::ActiveVersion(const std::string& decoded_path,
                                               const std::optional<dv::DvDescriptor>& dv) const {
  const delta::AddFile* add = Active(decoded_path);
  return add != nullptr && SameDv(add->deletion_vector, dv) ? add : nullptr;
}

std::optional<TableView::Removed> TableView::RemovedFile(const delta::RemoveFile& remove) const {
  const delta::AddFile* add = ActiveVersion(DecodedPath(remove.path), remove.deletion_vector);
  if (RLC_MUTANT("removed-stats-from-remove")) {  // the remover's word first
    Removed r{remove.stats, remove.partition_values.value_or(delta::StringMap{}),
              remove.size_bytes.value_or(0)};
    if (!r.stats.has_value() && add != nullptr) r.stats = add->stats;
    return r;
  }
  if (add == nullptr) return std::nullopt;  // doubt: no active version
  if (remove.stats.has_value() &&
      (!add->stats.has_value() ||
       !StatisticsAgree(*remove.stats,
                        *add->stats))) {  // doubt: statistics that contradict the table
    return std::nullopt;
  }
  return Removed{add->stats, add->partition_values, add->size_bytes};
}

void TableView::Apply(std::shared_ptr<const WinnerSummary> winner) {
  winners_.push_back(std::move(winner));
}

void TableView::Settle() const {
  while (settled_ < winners_.size()) {
    const WinnerSummary& winner = *winners_[settled_++];
    for (const delta::RemoveFile& r : winner.removed_files) {
      const std::string path = DecodedPath(r.path);
      const delta::AddFile* active = Lookup(path);  // as the winners before this one left it
      if (active != nullptr && SameDv(active->deletion_vector, r.deletion_vector))
        changed_[path] = nullptr;
    }
    for (const delta::AddFile& a : winner.added_files) changed_[DecodedPath(a.path)] = &a;
  }
}

}  // namespace rlc::conflict
