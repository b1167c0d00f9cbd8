#include "impl/predicate/row_evaluator.h"

#include "impl/predicate/value_order.h"

namespace rlc::predicate {
namespace {

Status RowError(const ColumnPath& path, const std::string& what) {
  return Status::InvalidArgument("row: column " + ColumnPathToString(path) + ": " + what);
}

// Whether a row value fits the column's type.
bool Fits(const Literal& value, ColumnType type) {
  if (value.is_null()) return true;
  if (IsIntegral(type)) return value.kind == Literal::Kind::kLong;
  return CategoryOf(value) == CategoryOf(type) && CategoryOf(type) != ValueCategory::kNone;
}

Truth FromBool(bool b) { return b ? Truth::kTrue : Truth::kFalse; }

class RowEval {
 public:
  RowEval(const BoundExpr& bound, const RowLookup& row) : bound_(bound), row_(row) {}

  Result<Truth> Condition(const Expr& e);

 private:
  Result<Literal> Value(const Expr& e);
  Result<Literal> ColumnValue(const ColumnPath& path);
  Result<Truth> In(const Expr& e);

  const BoundExpr& bound_;
  const RowLookup& row_;
};

Result<Literal> RowEval::ColumnValue(const ColumnPath& path) {
  std::optional<Literal> value = row_(path);
  if (!value.has_value()) return RowError(path, "the row has no value");
  const ResolvedColumn& column = bound_.column(path);
  if (!Fits(*value, column.type)) {
    return RowError(path, "the value " + ToString(*value) + " does not fit its type " +
                              std::string(ColumnTypeName(column.type)));
  }
  return *value;
}

Result<Literal> RowEval::Value(const Expr& e) {
  switch (e.kind) {
    case Expr::Kind::kLiteral:
      return e.literal;
    case Expr::Kind::kColumn:
      return ColumnValue(e.column);
    case Expr::Kind::kModulo: {
      RLC_ASSIGN_OR_RETURN(Literal v, ColumnValue(e.column));
      if (v.is_null()) return v;
      RLC_ASSERT(v.kind == Literal::Kind::kLong);
      RLC_ASSERT(e.modulus != 0);
      if (e.modulus == -1) return Literal::Long(0);  // also avoids MIN % -1 overflow
      return Literal::Long(v.int_value % e.modulus);
    }
    default:
      break;
  }
  RLC_ASSERT(e.is_value());  // Bind's invariant 3
  return Literal::Null();
}

Result<Truth> RowEval::In(const Expr& e) {
  RLC_ASSIGN_OR_RETURN(Literal v, Value(e.children.at(0)));
  if (v.is_null()) return Truth::kUnknown;
  bool saw_null = false;
  for (const Literal& item : e.in_list) {
    if (item.is_null()) {
      saw_null = true;
      continue;
    }
    std::optional<int> cmp = CompareValues(v, item);
    RLC_ASSERT(cmp.has_value());  // Bind checked the categories; Fits the row's value
    if (*cmp == 0) return Truth::kTrue;
  }
  return saw_null ? Truth::kUnknown : Truth::kFalse;
}

Result<Truth> RowEval::Condition(const Expr& e) {
  using K = Expr::Kind;
  switch (e.kind) {
    case K::kColumn:
    case K::kLiteral:
    case K::kModulo: {
      RLC_ASSIGN_OR_RETURN(Literal v, Value(e));
      if (v.is_null()) return Truth::kUnknown;
      RLC_ASSERT(v.kind == Literal::Kind::kBool);
      return FromBool(v.int_value != 0);
    }
    case K::kCompare: {
      RLC_ASSIGN_OR_RETURN(Literal a, Value(e.children.at(0)));
      RLC_ASSIGN_OR_RETURN(Literal b, Value(e.children.at(1)));
      if (a.is_null() || b.is_null()) return Truth::kUnknown;
      std::optional<int> cmp = CompareValues(a, b);
      RLC_ASSERT(cmp.has_value());
      return FromBool(Satisfies(*cmp, e.op));
    }
    case K::kIn:
      return In(e);
    case K::kIsNull:
    case K::kIsNotNull: {
      RLC_ASSIGN_OR_RETURN(Literal v, Value(e.children.at(0)));
      return FromBool(v.is_null() == (e.kind == K::kIsNull));
    }
    case K::kNot: {
      RLC_ASSIGN_OR_RETURN(Truth t, Condition(e.children.at(0)));
      return Not(t);
    }
    case K::kAnd:
    case K::kOr: {
      Truth acc = e.kind == K::kAnd ? Truth::kTrue : Truth::kFalse;
      for (const Expr& child : e.children) {
        RLC_ASSIGN_OR_RETURN(Truth t, Condition(child));
        acc = e.kind == K::kAnd ? And(acc, t) : Or(acc, t);
      }
      return acc;
    }
  }
  return Truth::kUnknown;
}

}  // namespace

Truth Not(Truth t) {
  if (t == Truth::kUnknown) return t;
  return t == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
}

Truth And(Truth a, Truth b) {
  if (a == Truth::kFalse || b == Truth::kFalse) return Truth::kFalse;
  if (a == Truth::kUnknown || b == Truth::kUnknown) return Truth::kUnknown;
  return Truth::kTrue;
}

Truth Or(Truth a, Truth b) {
  if (a == Truth::kTrue || b == Truth::kTrue) return Truth::kTrue;
  if (a == Truth::kUnknown || b == Truth::kUnknown) return Truth::kUnknown;
  return Truth::kFalse;
}

const char* TruthName(Truth t) {
  switch (t) {
    case Truth::kFalse:
      return "FALSE";
    case Truth::kTrue:
      return "TRUE";
    case Truth::kUnknown:
      return "UNKNOWN";
  }
  return "?";
}

Result<Truth> EvaluateRow(const BoundExpr& bound, const RowLookup& row) {
  RowEval eval(bound, row);
  return eval.Condition(bound.expr());
}

Result<Truth> EvaluateRow(const BoundExpr& bound, const RowValues& row) {
  return EvaluateRow(bound, [&row](const ColumnPath& path) -> std::optional<Literal> {
    auto it = row.find(path);
    if (it == row.end()) return std::nullopt;
    return it->second;
  });
}

}  // namespace rlc::predicate
