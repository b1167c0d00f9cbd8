#include "model/isolation/conflict_matrix.h"

#include <cstdio>
#include <cstdlib>

namespace rlc::model {
namespace {

using C = OperationClass;
using K = Contract;
constexpr IsolationLevel kSer = IsolationLevel::kSerializable;
constexpr IsolationLevel kWs = IsolationLevel::kWriteSerializable;

constexpr char kDocsRlc[] =
    "Databricks docs, row-level concurrency, matrix with RLC (docs/matrix.md#f1)";
constexpr char kDocsNoRlc[] =
    "Databricks docs, isolation levels, matrix without RLC (docs/matrix.md#f2)";
constexpr char kDocsMetadata[] =
    "Databricks docs: metadata changes make every concurrent write fail (docs/matrix.md#f)";
constexpr char kScope[] = "docs/decisions.md#scope: out of scope";
constexpr char kInsertSelect[] =
    "Databricks docs: INSERT with a subquery on the same table behaves like MERGE";

// The documented cells for the four in-scope classes, one level and RLC setting.
K Documented(C a, C b, IsolationLevel level, bool rlc) {
  auto is = [&](C x, C y) { return (a == x && b == y) || (a == y && b == x); };
  if (is(C::kInsert, C::kInsert)) return K::kCannotConflict;
  if (is(C::kDml, C::kInsert)) {
    if (level == kWs) return K::kCannotConflict;
    return rlc ? K::kSameRowOnly : K::kCanConflict;
  }
  if (is(C::kDml, C::kDml)) return rlc ? K::kSameRowOnly : K::kCanConflict;
  if (is(C::kOptimize, C::kInsert)) return K::kCannotConflict;
  // "cannot conflict on DV-enabled tables unless ZORDER BY" (without RLC) and "can conflict
  // only with ZORDER BY" (with RLC): compaction against DML or compaction cannot conflict.
  if (is(C::kOptimize, C::kDml) || is(C::kOptimize, C::kOptimize)) return K::kCannotConflict;
  std::fprintf(stderr, "model: no documented cell\n");
  std::abort();
}

std::vector<MatrixCell> Build() {
  const C classes[] = {C::kInsert,         C::kDml,     C::kMergeNetNew, C::kOptimize,
                       C::kOptimizeZOrder, C::kMetadata};
  std::vector<MatrixCell> cells;
  for (bool rlc : {false, true}) {
    for (IsolationLevel level : {kSer, kWs}) {
      for (size_t i = 0; i < 6; ++i) {
        for (size_t j = i; j < 6; ++j) {
          C a = classes[i], b = classes[j];
          MatrixCell cell{a, b, rlc, level, K::kCanConflict, rlc ? kDocsRlc : kDocsNoRlc};
          if (a == C::kMetadata || b == C::kMetadata) {
            cell.source = kDocsMetadata;
          } else if (a == C::kOptimizeZOrder || b == C::kOptimizeZOrder) {
            // Documented as "can conflict"; pairs with a blind append cannot (it reads nothing).
            cell.contract =
                (a == C::kInsert || b == C::kInsert) ? K::kCannotConflict : K::kDeferred;
            cell.source = cell.contract == K::kDeferred ? kScope : cell.source;
          } else if (a == C::kMergeNetNew || b == C::kMergeNetNew) {
            C other = a == C::kMergeNetNew ? b : a;
            cell.contract =
                Documented(C::kDml, other == C::kMergeNetNew ? C::kDml : other, level, rlc);
            if (cell.contract == K::kSameRowOnly) {
              cell.contract = K::kDeferred;
              cell.source = kScope;
            } else {
              cell.source = kInsertSelect;
            }
          } else {
            cell.contract = Documented(a, b, level, rlc);
          }
          cells.push_back(cell);
        }
      }
    }
  }
  return cells;
}

struct ClassOf {
  C operator()(const BlindInsert&) { return C::kInsert; }
  C operator()(const IdempotentWrite&) { return C::kInsert; }
  C operator()(const RowDelta& d) { return d.removed.empty() ? C::kInsert : C::kDml; }
  C operator()(const InsertSelect&) { return C::kDml; }
  C operator()(const Delete&) { return C::kDml; }
  C operator()(const Update&) { return C::kDml; }
  C operator()(const Merge& m) {
    for (const MergeClause& c : m.clauses) {
      if (c.kind == MergeClause::Kind::kNotMatchedInsert ||
          c.kind == MergeClause::Kind::kNotMatchedBySourceDelete) {
        return C::kMergeNetNew;
      }
    }
    return C::kDml;
  }
  C operator()(const Optimize& o) {
    return o.zorder_by.empty() ? C::kOptimize : C::kOptimizeZOrder;
  }
  C operator()(const MetadataChange&) { return C::kMetadata; }
  C operator()(const ProtocolChange&) { return C::kMetadata; }
};

}  // namespace

std::string OperationClassName(OperationClass c) {
  switch (c) {
    case C::kInsert:
      return "INSERT";
    case C::kDml:
      return "UPDATE/DELETE/MERGE";
    case C::kMergeNetNew:
      return "MERGE (net-new / by source)";
    case C::kOptimize:
      return "OPTIMIZE";
    case C::kOptimizeZOrder:
      return "OPTIMIZE ZORDER";
    case C::kMetadata:
      return "METADATA";
  }
  return "?";
}

std::string ContractName(Contract c) {
  switch (c) {
    case K::kCannotConflict:
      return "cannot conflict";
    case K::kSameRowOnly:
      return "same row only";
    case K::kCanConflict:
      return "can conflict";
    case K::kDeferred:
      return "deferred";
  }
  return "?";
}

OperationClass Classify(const Operation& op) { return std::visit(ClassOf{}, op); }

const std::vector<MatrixCell>& DocumentedConflictMatrix() {
  static const std::vector<MatrixCell> cells = Build();
  return cells;
}

Contract LookUpContract(OperationClass a, OperationClass b, IsolationLevel level,
                        bool row_level_concurrency) {
  if (level == IsolationLevel::kSnapshotIsolation) level = kSer;
  for (const MatrixCell& cell : DocumentedConflictMatrix()) {
    if (cell.level != level || cell.row_level_concurrency != row_level_concurrency) continue;
    if ((cell.a == a && cell.b == b) || (cell.a == b && cell.b == a)) return cell.contract;
  }
  std::fprintf(stderr, "model: no matrix cell\n");
  std::abort();
}

}  // namespace rlc::model
