// Fuzz target: the predicate parser, binder, row evaluator and statistics evaluator.
//
// Checks, for any text: parsing never crashes; a parsed predicate prints (ToString) as text
// that parses back to the same tree; a predicate that binds to the fixed schema evaluates on a
// fixed row without crashing, and if it is True on that row, the statistics computed from that
// one row (tight, and wide) cannot rule the file out: the soundness the checker relies on.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/targets/fuzz_check.h"
#include "impl/delta/stats.h"
#include "impl/predicate/bind.h"
#include "impl/predicate/parser.h"
#include "impl/predicate/row_evaluator.h"
#include "impl/predicate/schema.h"
#include "impl/predicate/stats_evaluator.h"

namespace {

using namespace rlc;

const predicate::TableSchema& Schema() {
  static const predicate::TableSchema schema = *predicate::TableSchema::Parse(
      R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},)"
      R"({"name":"s","type":"string","nullable":true,"metadata":{}},)"
      R"({"name":"d","type":"double","nullable":true,"metadata":{}},)"
      R"({"name":"n","type":{"type":"struct","fields":[{"name":"x","type":"long","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}}]})",
      predicate::ColumnMappingMode::kNone, {});
  return schema;
}

// The one row: id 7, s 'abc', d 2.5, n.x NULL; and statistics describing exactly that row.
std::optional<predicate::Literal> Cell(const predicate::ColumnPath& path) {
  if (path == predicate::ColumnPath{"id"}) return predicate::Literal::Long(7);
  if (path == predicate::ColumnPath{"s"}) return predicate::Literal::String("abc");
  if (path == predicate::ColumnPath{"d"}) return predicate::Literal::Double(2.5);
  if (path == predicate::ColumnPath{"n", "x"}) return predicate::Literal::Null();
  return std::nullopt;
}

const delta::FileStats& Stats(bool tight) {
  static const delta::FileStats tight_stats = *delta::ParseStats(
      R"({"numRecords":1,"minValues":{"id":7,"s":"abc","d":2.5},"maxValues":{"id":7,"s":"abc","d":2.5},)"
      R"("nullCount":{"id":0,"s":0,"d":0,"n":{"x":1}},"tightBounds":true})");
  static const delta::FileStats wide_stats = *delta::ParseStats(
      R"({"numRecords":3,"minValues":{"id":-5,"s":"a","d":-1.0},"maxValues":{"id":70,"s":"abd","d":9.5},)"
      R"("nullCount":{"id":0,"s":1,"d":2,"n":{"x":3}},"tightBounds":false})");
  return tight ? tight_stats : wide_stats;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<predicate::Expr> expr = predicate::ParsePredicate(text);
  if (!expr.ok()) return 0;
  const std::string printed = predicate::ToString(*expr);
  Result<predicate::Expr> again = predicate::ParsePredicate(printed);
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(*again == *expr);
  Result<predicate::BoundExpr> bound = predicate::Bind(*expr, Schema());
  if (!bound.ok()) return 0;
  Result<predicate::Truth> truth = predicate::EvaluateRow(*bound, predicate::RowLookup(Cell));
  if (!truth.ok()) return 0;
  if (*truth == predicate::Truth::kTrue) {
    FUZZ_CHECK(predicate::MayMatch(*bound, Stats(true)));
    FUZZ_CHECK(predicate::MayMatch(*bound, Stats(false)));
  }
  return 0;
}
