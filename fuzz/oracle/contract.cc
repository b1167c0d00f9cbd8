#include "fuzz/oracle/contract.h"

#include <algorithm>

#include "model/isolation/isolation.h"
#include "model/semantics/predicate.h"

namespace rlc::oracle {
namespace {

std::set<model::RowId> WrittenRows(const model::OperationEffect& e) {
  std::set<model::RowId> rows;
  for (const model::RowWrite& w : e.writes) {
    if (w.kind != model::RowWrite::Kind::kInsert) rows.insert(w.row);
  }
  return rows;
}

// A row of `writer` that `reader` depends on, described; empty when none.
std::string CommonRow(const model::OperationEffect& writer, const std::string& writer_name,
                      const model::OperationEffect& reader,
                      const std::vector<model::Predicate>& reader_extra_reads,
                      const std::string& reader_name, const model::LogicalTable& table) {
  const std::set<model::RowId> written = WrittenRows(writer);
  for (const model::Predicate& p : reader_extra_reads) {
    for (const model::RowWrite& w : writer.writes) {
      for (const std::optional<model::Row>& image : {w.before, w.after}) {
        if (image.has_value() && model::Qualifies(p, table, *image)) {
          return "the " + writer_name + " writes row #" + std::to_string(w.row) + ", which the " +
                 reader_name + "'s read " + model::ToString(p) + " covers";
        }
      }
    }
  }
  for (model::RowId row : WrittenRows(reader)) {
    if (written.count(row)) return "both write row #" + std::to_string(row);
  }
  for (const model::PredicateRead& read : reader.reads) {
    for (model::RowId row : read.matched) {
      if (written.count(row))
        return "the " + writer_name + " writes row #" + std::to_string(row) + ", which the " +
               reader_name + " read";
    }
    for (const model::RowWrite& w : writer.writes) {
      if (w.after.has_value() && model::Qualifies(read.predicate, table, *w.after)) {
        return "a row the " + writer_name + " writes satisfies the " + reader_name + "'s read " +
               model::ToString(read.predicate);
      }
    }
  }
  return "";
}

// A transaction of `between` that read a row the blind-append winner wrote, described; empty when
// none (contract.h).
std::string AppendSeenBetween(const ContractParty& winner,
                              const std::vector<std::pair<std::string, ContractParty>>& between,
                              const model::LogicalTable& table) {
  for (const auto& [name, party] : between) {
    if (party.read_version < winner.commit_version || party.effect == nullptr) continue;
    const std::string seen = CommonRow(*winner.effect, "winner", *party.effect, party.extra_reads,
                                       "transaction " + name, table);
    if (!seen.empty()) {
      return name + ", committed between them, depends on the append (" + seen +
             "): WriteSerializable cannot order the append after the loser";
    }
  }
  return "";
}

}  // namespace

std::string ContractVerdictName(ContractVerdict verdict) {
  switch (verdict) {
    case ContractVerdict::kHolds:
      return "holds";
    case ContractVerdict::kMissedReconcile:
      return "missed reconcile";
    case ContractVerdict::kDeferred:
      return "deferred";
    case ContractVerdict::kNotJudged:
      return "not judged";
  }
  return "?";
}

ContractCheck CheckContract(const ContractParty& winner, const ContractParty& loser,
                            bool loser_committed, model::IsolationLevel level,
                            bool rlc_preconditions, const model::LogicalTable& table,
                            const std::vector<std::pair<std::string, ContractParty>>& between) {
  ContractCheck check;
  auto classify = [](const ContractParty& p) {
    const model::OperationClass c = model::Classify(*p.operation);
    return c == model::OperationClass::kInsert && !p.extra_reads.empty()
               ? model::OperationClass::kDml
               : c;
  };
  const model::OperationClass a = classify(winner);
  const model::OperationClass b = classify(loser);
  if (level == model::IsolationLevel::kSnapshotIsolation)
    level = model::IsolationLevel::kSerializable;
  const bool rlc = winner.every_flag_on && loser.every_flag_on;
  check.contract = model::LookUpContract(a, b, level, rlc);
  check.cell = model::OperationClassName(a) + " (winner) vs " + model::OperationClassName(b) +
               " (loser), " + model::IsolationLevelName(level) +
               (rlc ? ", with RLC: " : ", without RLC: ") + model::ContractName(check.contract);
  if (!rlc || !rlc_preconditions) {
    check.verdict = ContractVerdict::kNotJudged;
    check.explanation =
        !rlc ? "the documented matrix with RLC needs every flag on for both transactions"
             : "the documented matrix with RLC needs an unpartitioned table with DVs written "
               "merge-on-read and honest writers";
    return check;
  }
  if (check.contract == model::Contract::kDeferred) {
    check.verdict = ContractVerdict::kDeferred;
    check.explanation = "out of scope (docs/decisions.md#scope): an abort is expected";
    return check;
  }
  if (loser_committed) {
    check.verdict = ContractVerdict::kHolds;
    check.explanation = "the loser committed";
    return check;
  }
  if (check.contract == model::Contract::kCanConflict) {
    check.verdict = ContractVerdict::kHolds;
    check.explanation = "the cell allows an abort";
    return check;
  }
  std::string common;
  for (const std::string& source : winner.compacted_sources) {
    if (loser.compacted_sources.count(source)) common = "both compact " + source;
  }
  if (common.empty() && check.contract == model::Contract::kSameRowOnly) {
    common = CommonRow(*winner.effect, "winner", *loser.effect, loser.extra_reads, "loser", table);
    if (common.empty())
      common =
          CommonRow(*loser.effect, "loser", *winner.effect, winner.extra_reads, "winner", table);
  }
  if (!common.empty()) {
    check.verdict = ContractVerdict::kHolds;
    check.explanation = "the two touch a common row: " + common;
    return check;
  }
  if (level == model::IsolationLevel::kWriteSerializable && a == model::OperationClass::kInsert) {
    const std::string seen = AppendSeenBetween(winner, between, table);
    if (!seen.empty()) {
      check.verdict = ContractVerdict::kHolds;
      check.explanation = seen;
      return check;
    }
  }
  check.verdict = ContractVerdict::kMissedReconcile;
  check.explanation = check.contract == model::Contract::kCannotConflict
                          ? "the cell says the pair cannot conflict, yet the loser aborted"
                          : "the two touch no common row, yet the loser aborted";
  return check;
}

}  // namespace rlc::oracle
