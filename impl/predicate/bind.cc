#include "impl/predicate/bind.h"

#include <utility>

#include "impl/predicate/datetime.h"

namespace rlc::predicate {
namespace {

Status Error(std::string message) { return Status::InvalidArgument("predicate: " + message); }

// The value's text and category for messages: "column s (string)", "5 (numeric)".
std::string Describe(const Expr& value, ValueCategory category) {
  std::string text =
      value.kind == Expr::Kind::kLiteral ? ToString(value.literal) : "column " + ToString(value);
  return text + " (" + CategoryName(category) + ")";
}

class Binder {
 public:
  explicit Binder(const TableSchema& schema) : schema_(schema) {}

  Status Condition(Expr* e, int depth);
  std::map<ColumnPath, ResolvedColumn> TakeColumns() { return std::move(columns_); }

 private:
  Result<ValueCategory> Value(Expr* e);
  Result<ResolvedColumn> Column(ColumnPath* path);
  Status Comparable(Expr* lhs, ValueCategory lc, Expr* rhs, ValueCategory rc);
  Status ListItem(const Expr& operand, ValueCategory* target, Literal* item);
  Status BooleanValue(Expr* e);

  const TableSchema& schema_;
  std::map<ColumnPath, ResolvedColumn> columns_;
};

// A string literal meant as a date or a timestamp becomes one; false when it does not parse.
bool CoerceString(Literal* literal, ValueCategory target) {
  if (literal->kind != Literal::Kind::kString) return false;
  if (target == ValueCategory::kDate) {
    std::optional<int64_t> days = ParseDate(literal->string_value);
    if (!days.has_value()) return false;
    *literal = Literal::Date(*days);
    return true;
  }
  if (target == ValueCategory::kTimestamp) {
    std::optional<ParsedTimestamp> ts = ParseTimestamp(literal->string_value);
    if (!ts.has_value()) ts = ParseTimestamp(literal->string_value + " 00:00:00");
    if (!ts.has_value()) return false;
    *literal = Literal::Timestamp(ts->micros);
    return true;
  }
  return false;
}

Result<ResolvedColumn> Binder::Column(ColumnPath* path) {
  Result<ResolvedColumn> resolved = schema_.Resolve(*path);
  if (!resolved.ok()) return resolved.status().WithContext("predicate");
  *path = resolved->logical_path;
  columns_.emplace(*path, *resolved);
  return resolved;
}

Result<ValueCategory> Binder::Value(Expr* e) {
  switch (e->kind) {
    case Expr::Kind::kLiteral:
      return CategoryOf(e->literal);
    case Expr::Kind::kColumn: {
      RLC_ASSIGN_OR_RETURN(ResolvedColumn c, Column(&e->column));
      return CategoryOf(c.type);
    }
    case Expr::Kind::kModulo: {
      RLC_ASSIGN_OR_RETURN(ResolvedColumn c, Column(&e->column));
      if (!IsIntegral(c.type)) {
        return Error("column " + ColumnPathToString(e->column) + " (" +
                     std::string(ColumnTypeName(c.type)) + "): % needs an integral column");
      }
      if (e->modulus == 0) return Error(ToString(*e) + ": the modulus must not be 0");
      return ValueCategory::kNumeric;
    }
    default:
      return Error("expected a value, found the condition " + ToString(*e));
  }
}

Status Binder::Comparable(Expr* lhs, ValueCategory lc, Expr* rhs, ValueCategory rc) {
  if (lc != ValueCategory::kNone && rc != ValueCategory::kNone) {
    if (lc == ValueCategory::kNull || rc == ValueCategory::kNull || lc == rc) return Status::Ok();
    if (rhs->kind == Expr::Kind::kLiteral && CoerceString(&rhs->literal, lc)) return Status::Ok();
    if (lhs->kind == Expr::Kind::kLiteral && CoerceString(&lhs->literal, rc)) return Status::Ok();
  }
  return Error(Describe(*lhs, lc) + " cannot be compared with " + Describe(*rhs, rc));
}

Status Binder::ListItem(const Expr& operand, ValueCategory* target, Literal* item) {
  const ValueCategory ic = CategoryOf(*item);
  if (ic == ValueCategory::kNull) return Status::Ok();
  if (*target == ValueCategory::kNull) *target = ic;
  if (ic == *target || CoerceString(item, *target)) return Status::Ok();
  return Error(Describe(operand, *target) + " IN (...): " + ToString(*item) + " (" +
               CategoryName(ic) + ") does not fit");
}

Status Binder::BooleanValue(Expr* e) {
  RLC_ASSIGN_OR_RETURN(ValueCategory c, Value(e));
  if (c == ValueCategory::kBoolean || c == ValueCategory::kNull) return Status::Ok();
  return Error(Describe(*e, c) + " stands as a condition but is not boolean");
}

Status Binder::Condition(Expr* e, int depth) {
  if (depth > kBoundNestingMax) {
    return Status::OverLimit("predicate: nesting deeper than kBoundNestingMax (" +
                             std::to_string(kBoundNestingMax) + ")");
  }
  using K = Expr::Kind;
  const size_t arity = e->children.size();
  switch (e->kind) {
    case K::kColumn:
    case K::kLiteral:
    case K::kModulo:
      return BooleanValue(e);
    case K::kCompare: {
      if (arity != 2) return Error("a comparison needs two operands");
      RLC_ASSIGN_OR_RETURN(ValueCategory lc, Value(&e->children[0]));
      RLC_ASSIGN_OR_RETURN(ValueCategory rc, Value(&e->children[1]));
      return Comparable(&e->children[0], lc, &e->children[1], rc);
    }
    case K::kIn: {
      if (arity != 1 || e->in_list.empty()) return Error("IN needs an operand and a list");
      RLC_ASSIGN_OR_RETURN(ValueCategory target, Value(&e->children[0]));
      if (target == ValueCategory::kNone) {
        return Error(Describe(e->children[0], target) + " cannot be compared");
      }
      for (Literal& item : e->in_list) {
        RLC_RETURN_IF_ERROR(ListItem(e->children[0], &target, &item));
      }
      return Status::Ok();
    }
    case K::kIsNull:
    case K::kIsNotNull: {
      if (arity != 1) return Error("IS [NOT] NULL needs one operand");
      return Value(&e->children[0]).status();
    }
    case K::kAnd:
    case K::kOr:
    case K::kNot: {
      if (e->kind == K::kNot ? arity != 1 : arity < 2) {
        return Error(std::string(e->kind == K::kNot ? "NOT needs one" : "AND/OR need two or more") +
                     " conditions");
      }
      for (Expr& child : e->children) RLC_RETURN_IF_ERROR(Condition(&child, depth + 1));
      return Status::Ok();
    }
  }
  return Error("unknown node");
}

}  // namespace

ValueCategory CategoryOf(ColumnType type) {
  switch (type) {
    case ColumnType::kByte:
    case ColumnType::kShort:
    case ColumnType::kInteger:
    case ColumnType::kLong:
    case ColumnType::kFloat:
    case ColumnType::kDouble:
    case ColumnType::kDecimal:
      return ValueCategory::kNumeric;
    case ColumnType::kString:
      return ValueCategory::kString;
    case ColumnType::kBoolean:
      return ValueCategory::kBoolean;
    case ColumnType::kDate:
      return ValueCategory::kDate;
    case ColumnType::kTimestamp:
    case ColumnType::kTimestampNtz:
      return ValueCategory::kTimestamp;
    default:
      return ValueCategory::kNone;
  }
}

ValueCategory CategoryOf(const Literal& literal) {
  switch (literal.kind) {
    case Literal::Kind::kNull:
      return ValueCategory::kNull;
    case Literal::Kind::kBool:
      return ValueCategory::kBoolean;
    case Literal::Kind::kLong:
    case Literal::Kind::kDouble:
      return ValueCategory::kNumeric;
    case Literal::Kind::kString:
      return ValueCategory::kString;
    case Literal::Kind::kDate:
      return ValueCategory::kDate;
    case Literal::Kind::kTimestamp:
      return ValueCategory::kTimestamp;
  }
  return ValueCategory::kNone;
}

const char* CategoryName(ValueCategory category) {
  switch (category) {
    case ValueCategory::kNull:
      return "null";
    case ValueCategory::kNumeric:
      return "numeric";
    case ValueCategory::kString:
      return "string";
    case ValueCategory::kBoolean:
      return "boolean";
    case ValueCategory::kDate:
      return "date";
    case ValueCategory::kTimestamp:
      return "timestamp";
    case ValueCategory::kNone:
      return "not comparable";
  }
  return "?";
}

const ResolvedColumn& BoundExpr::column(const ColumnPath& path) const {
  auto it = columns_.find(path);
  RLC_ASSERT(it != columns_.end());
  return it->second;
}

Result<BoundExpr> Bind(const Expr& expr, const TableSchema& schema) {
  BoundExpr bound;
  bound.expr_ = expr;
  Binder binder(schema);
  RLC_RETURN_IF_ERROR(binder.Condition(&bound.expr_, 0));
  bound.columns_ = binder.TakeColumns();
  return bound;
}

}  // namespace rlc::predicate
