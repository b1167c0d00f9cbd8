#include "model/isolation/history.h"

#include <cstdio>
#include <cstdlib>
#include <set>

namespace rlc::model {

std::optional<std::string> CommittedHistory::Validate() const {
  std::set<std::string> names;
  for (size_t i = 0; i < commits.size(); ++i) {
    const Transaction& t = commits[i];
    if (!names.insert(t.name).second) return "transaction name " + t.name + " is used twice";
    if (t.read_version < initial.version || t.read_version >= CommitVersion(i)) {
      return t.name + " reads version " + std::to_string(t.read_version) +
             " but commits at version " + std::to_string(CommitVersion(i));
    }
  }
  return std::nullopt;
}

ObservedHistory Observe(const CommittedHistory& history) {
  if (auto broken = history.Validate()) {
    std::fprintf(stderr, "model: invalid history: %s\n", broken->c_str());
    std::abort();
  }
  ObservedHistory observed;
  observed.versions.push_back(history.initial);
  RowId next_row_id = history.initial.next_row_id;
  for (size_t i = 0; i < history.commits.size(); ++i) {
    const Transaction& t = history.commits[i];
    const LogicalTable& snapshot =
        observed.versions.at(size_t(t.read_version - history.initial.version));
    TxnObservation o;
    o.name = t.name;
    o.read_version = t.read_version;
    o.commit_version = history.CommitVersion(i);
    o.effect =
        Apply(snapshot, t.op, next_row_id);  // identities stay unique across concurrent inserts
    for (const Predicate& p : t.extra_reads) {
      PredicateRead read{p, {}};
      for (const auto& [id, row] : snapshot.rows) {
        if (Qualifies(p, snapshot, row)) read.matched.push_back(id);
      }
      o.effect.reads.push_back(std::move(read));
      o.effect.is_blind_append = false;
    }
    next_row_id = std::max(next_row_id, o.effect.after.next_row_id);
    LogicalTable next = ApplyWrites(observed.versions.back(), o.effect.writes, &o.lost_writes);
    if (o.effect.changes_metadata) next.properties = o.effect.after.properties;
    if (o.effect.changes_protocol) next.protocol_features = o.effect.after.protocol_features;
    // Only the appIds this transaction itself advanced: its snapshot may predate newer ones.
    for (const auto& [app, version] : o.effect.after.app_versions) {
      auto before = snapshot.app_versions.find(app);
      if (before == snapshot.app_versions.end() || before->second != version)
        next.app_versions[app] = version;
    }
    next.next_row_id = std::max(next.next_row_id, next_row_id);
    observed.versions.push_back(std::move(next));
    // The table after the operation on its own snapshot is no part of the observation (the
    // versions are): its rows go, so that a long history holds one table per version, not two.
    o.effect.after.rows.clear();
    observed.txns.push_back(std::move(o));
  }
  return observed;
}

}  // namespace rlc::model
