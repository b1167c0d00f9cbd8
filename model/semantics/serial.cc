#include "model/semantics/serial.h"

#include <algorithm>
#include <map>

namespace rlc::model {
namespace {

Row Assign(const LogicalTable& table, Row row, const std::vector<Assignment>& set) {
  for (const Assignment& a : set) row.values.at(*table.ColumnIndex(a.column)) = a.value;
  return row;
}

// Collects the effect of one operation as it runs.
class EffectBuilder {
 public:
  EffectBuilder(const LogicalTable& table, RowId next_row_id) {
    effect_.after = table;
    effect_.after.next_row_id = next_row_id;
  }

  LogicalTable& table() { return effect_.after; }
  OperationEffect& effect() { return effect_; }

  // Records a read of the table through `p` and returns the matched rows.
  std::vector<RowId> Read(const Predicate& p) {
    PredicateRead read{p, {}};
    for (const auto& [id, row] : effect_.after.rows) {
      if (Qualifies(p, effect_.after, row)) read.matched.push_back(id);
    }
    effect_.reads.push_back(read);
    return read.matched;
  }

  void Insert(std::vector<Value> values) {
    const RowId id = effect_.after.Insert(std::move(values));
    effect_.writes.push_back(
        {RowWrite::Kind::kInsert, id, std::nullopt, effect_.after.rows.at(id)});
  }
  void Update(RowId id, Row after) {
    Row& row = effect_.after.rows.at(id);
    effect_.writes.push_back({RowWrite::Kind::kUpdate, id, row, after});
    row = std::move(after);
  }
  void Delete(RowId id) {
    effect_.writes.push_back(
        {RowWrite::Kind::kDelete, id, effect_.after.rows.at(id), std::nullopt});
    effect_.after.rows.erase(id);
  }

  OperationEffect Finish() {
    std::stable_sort(effect_.writes.begin(), effect_.writes.end(),
                     [](const RowWrite& a, const RowWrite& b) { return a.row < b.row; });
    // Writing no row and no metadata, a commit holds no file action: Delta runs it under
    // SnapshotIsolation (all of its file actions, none, have dataChange=false).
    if (effect_.writes.empty() && !effect_.changes_metadata && !effect_.changes_protocol)
      effect_.data_change = false;
    ++effect_.after.version;
    return std::move(effect_);
  }

 private:
  OperationEffect effect_;
};

const MergeClause* FirstClause(const Merge& m, MergeClause::Kind kind_a,
                               std::optional<MergeClause::Kind> kind_b, const LogicalTable& table,
                               const Row& row) {
  for (const MergeClause& c : m.clauses) {
    if (c.kind != kind_a && (!kind_b.has_value() || c.kind != *kind_b)) continue;
    if (Qualifies(c.condition, table, row)) return &c;
  }
  return nullptr;
}

// What a MERGE's outcome depends on, as one predicate read:
//   - the target rows whose key equals a source key and that some matched clause's condition
//     may act on; every such key row when a not-matched insert exists (then the absence of a
//     match decides too);
//   - for a not-matched-by-source clause, the rows its condition holds for (whether each is
//     matched decides its fate);
//   - the rows of any key the source holds twice (two matches fail the MERGE, whatever the
//     clauses' conditions).
// A row outside all of these cannot change the outcome, so it is not read.
Predicate MergeRead(const Merge& m, size_t key) {
  bool reads_all = false, inserts = false, matched_always = false;
  std::vector<Predicate> reads, keys, matched_conditions;
  for (const auto& source : m.source_rows) {
    if (!IsNull(source[key]))
      keys.push_back(Predicate::Compare(m.key_column, Predicate::Op::kEq, source[key]));
  }
  for (const MergeClause& c : m.clauses) {
    if (c.kind == MergeClause::Kind::kNotMatchedInsert) inserts = true;
    if (c.kind == MergeClause::Kind::kMatchedUpdate ||
        c.kind == MergeClause::Kind::kMatchedDelete) {
      if (c.condition.kind == Predicate::Kind::kTrue) matched_always = true;
      matched_conditions.push_back(c.condition);
    }
  }
  if (!keys.empty() && (inserts || !matched_conditions.empty())) {
    Predicate key_rows = keys.size() == 1 ? keys[0] : Predicate::Or(std::move(keys));
    if (inserts || matched_always) {
      reads.push_back(std::move(key_rows));
    } else {
      Predicate acted_on = matched_conditions.size() == 1 ? matched_conditions[0]
                                                          : Predicate::Or(matched_conditions);
      reads.push_back(Predicate::And({std::move(key_rows), std::move(acted_on)}));
    }
  }
  for (const MergeClause& c : m.clauses) {
    if (c.kind != MergeClause::Kind::kNotMatchedBySourceDelete) continue;
    if (c.condition.kind == Predicate::Kind::kTrue) reads_all = true;
    reads.push_back(c.condition);
  }
  for (size_t i = 0; i < m.source_rows.size(); ++i) {
    const Value& k = m.source_rows[i][key];
    if (IsNull(k)) continue;
    for (size_t j = i + 1; j < m.source_rows.size(); ++j) {
      if (Compare(k, m.source_rows[j][key]) == std::optional<int>(0)) {
        reads.push_back(Predicate::Compare(m.key_column, Predicate::Op::kEq, k));
        break;
      }
    }
  }
  if (reads_all) return Predicate::True();
  if (reads.empty()) return Predicate::False();
  return reads.size() == 1 ? reads[0] : Predicate::Or(std::move(reads));
}

// What a matched target row becomes under the first matched clause that qualifies it.
void ApplyMatched(const LogicalTable& table, const Merge& m, size_t key, RowId id, const Row& row,
                  const std::vector<Value>& source, EffectBuilder& b) {
  using K = MergeClause::Kind;
  const MergeClause* c = FirstClause(m, K::kMatchedUpdate, K::kMatchedDelete, table, row);
  if (c == nullptr) return;
  if (c->kind == K::kMatchedDelete) {
    b.Delete(id);
    return;
  }
  Row updated = row;
  if (c->set_from_source) {
    for (size_t i = 0; i < updated.values.size(); ++i) {
      if (i != key) updated.values[i] = source[i];
    }
  }
  b.Update(id, Assign(table, std::move(updated), c->set));
}

OperationEffect ApplyMerge(const LogicalTable& table, const Merge& m, RowId next_row_id) {
  EffectBuilder b(table, next_row_id);
  const size_t key = *table.ColumnIndex(m.key_column);
  b.Read(MergeRead(m, key));
  std::map<RowId, const std::vector<Value>*> match;  // target row -> its source row
  std::vector<bool> source_matched(m.source_rows.size(), false);
  for (const auto& [id, row] : table.rows) {
    for (size_t s = 0; s < m.source_rows.size(); ++s) {
      if (Compare(row.values[key], m.source_rows[s][key]) != std::optional<int>(0)) continue;
      if (match.count(id) != 0) {
        OperationEffect failed;
        failed.after = table;
        failed.error = "MERGE: several source rows matched target row " + std::to_string(id);
        return failed;
      }
      match[id] = &m.source_rows[s];
      source_matched[s] = true;
    }
  }
  using K = MergeClause::Kind;
  for (const auto& [id, row] : table.rows) {
    auto it = match.find(id);
    if (it != match.end()) {
      ApplyMatched(table, m, key, id, row, *it->second, b);
    } else if (FirstClause(m, K::kNotMatchedBySourceDelete, std::nullopt, table, row) != nullptr) {
      b.Delete(id);
    }
  }
  for (size_t s = 0; s < m.source_rows.size(); ++s) {
    if (source_matched[s]) continue;
    Row source{0, m.source_rows[s]};
    if (FirstClause(m, K::kNotMatchedInsert, std::nullopt, table, source) != nullptr)
      b.Insert(m.source_rows[s]);
  }
  return b.Finish();
}

struct Applier {
  const LogicalTable& table;
  RowId next_row_id;  // the first identity new rows take

  OperationEffect operator()(const BlindInsert& op) {
    EffectBuilder b(table, next_row_id);
    for (const auto& values : op.rows) b.Insert(values);
    b.effect().is_blind_append = true;
    return b.Finish();
  }
  OperationEffect operator()(const InsertSelect& op) {
    EffectBuilder b(table, next_row_id);
    for (RowId id : b.Read(op.source)) {
      b.Insert(Assign(table, table.rows.at(id), op.overrides).values);
    }
    return b.Finish();
  }
  OperationEffect operator()(const Delete& op) {
    EffectBuilder b(table, next_row_id);
    for (RowId id : b.Read(op.where)) b.Delete(id);
    return b.Finish();
  }
  OperationEffect operator()(const Update& op) {
    EffectBuilder b(table, next_row_id);
    for (RowId id : b.Read(op.where)) b.Update(id, Assign(table, table.rows.at(id), op.set));
    return b.Finish();
  }
  OperationEffect operator()(const Merge& op) { return ApplyMerge(table, op, next_row_id); }
  OperationEffect operator()(const Optimize&) {
    EffectBuilder b(table, next_row_id);
    b.effect().data_change = false;
    return b.Finish();
  }
  OperationEffect operator()(const MetadataChange& op) {
    EffectBuilder b(table, next_row_id);
    TableProperties& p = b.table().properties;
    if (op.key == "delta.isolationLevel") {
      p.isolation_level = op.value == "WriteSerializable" ? IsolationLevel::kWriteSerializable
                                                          : IsolationLevel::kSerializable;
    } else if (op.key == "delta.enableDeletionVectors") {
      p.deletion_vectors_enabled = op.value == "true";
    } else {
      p.other[op.key] = op.value;
    }
    b.effect().changes_metadata = true;
    return b.Finish();
  }
  OperationEffect operator()(const ProtocolChange& op) {
    EffectBuilder b(table, next_row_id);
    b.table().protocol_features.insert(op.add_feature);
    b.effect().changes_protocol = true;
    return b.Finish();
  }
  OperationEffect operator()(const IdempotentWrite& op) {
    auto seen = table.app_versions.find(op.app_id);
    if (seen != table.app_versions.end() && seen->second >= op.version) {
      EffectBuilder b(table, next_row_id);
      b.effect().skipped = true;
      b.effect().is_blind_append = true;
      return b.Finish();
    }
    OperationEffect effect = (*this)(op.insert);
    effect.after.app_versions[op.app_id] = op.version;
    return effect;
  }
  OperationEffect operator()(const RowDelta& op) {
    EffectBuilder b(table, next_row_id);
    std::vector<RowId> gone;
    for (const std::vector<Value>& values : op.removed) {
      const auto row = std::find_if(table.rows.begin(), table.rows.end(), [&](const auto& e) {
        return e.second.values == values &&
               std::find(gone.begin(), gone.end(), e.first) == gone.end();
      });
      if (row == table.rows.end()) {
        OperationEffect failed;
        failed.after = table;
        failed.error = "a row the commit removed is not in the table";
        return failed;
      }
      gone.push_back(row->first);
    }
    if (!gone.empty()) {
      std::vector<Predicate> rows;
      for (const std::vector<Value>& values : op.removed) rows.push_back(RowEquals(values));
      std::vector<RowId> read = gone;
      std::sort(read.begin(), read.end());
      b.effect().reads.push_back(
          {rows.size() == 1 ? rows[0] : Predicate::Or(std::move(rows)), std::move(read), true});
    }
    for (RowId id : gone) b.Delete(id);
    for (const std::vector<Value>& values : op.added) b.Insert(values);
    b.effect().is_blind_append = gone.empty();
    std::vector<std::vector<Value>> removed = op.removed, added = op.added;
    std::sort(removed.begin(), removed.end());
    std::sort(added.begin(), added.end());
    if (removed == added) b.effect().data_change = false;  // a relocation: the same rows
    return b.Finish();
  }

  // The predicate a row with exactly these values satisfies (NULLs by IS NULL).
  Predicate RowEquals(const std::vector<Value>& values) const {
    std::vector<Predicate> columns;
    for (size_t i = 0; i < values.size(); ++i) {
      const std::string& name = table.schema.at(i).name;
      columns.push_back(IsNull(values[i])
                            ? Predicate::IsNull(name)
                            : Predicate::Compare(name, Predicate::Op::kEq, values[i]));
    }
    return columns.size() == 1 ? columns[0] : Predicate::And(std::move(columns));
  }
};

}  // namespace

OperationEffect Apply(const LogicalTable& table, const Operation& op) {
  return Apply(table, op, table.next_row_id);
}

OperationEffect Apply(const LogicalTable& table, const Operation& op, RowId next_row_id) {
  return std::visit(Applier{table, next_row_id}, op);
}

LogicalTable ApplyWrites(const LogicalTable& table, const std::vector<RowWrite>& writes,
                         int* lost_writes) {
  LogicalTable out = table;
  int lost = 0;
  for (const RowWrite& w : writes) {
    switch (w.kind) {
      case RowWrite::Kind::kInsert:
        out.rows[w.row] = *w.after;
        out.next_row_id = std::max(out.next_row_id, w.row + 1);
        break;
      case RowWrite::Kind::kUpdate:
        if (out.rows.count(w.row) == 0) {
          ++lost;
        } else {
          out.rows[w.row] = *w.after;
        }
        break;
      case RowWrite::Kind::kDelete:
        if (out.rows.erase(w.row) == 0) ++lost;
        break;
    }
  }
  ++out.version;
  if (lost_writes != nullptr) *lost_writes = lost;
  return out;
}

}  // namespace rlc::model
