#include "impl/predicate/bind.h"

#include <cmath>
#include <optional>
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
  // The type of a column or modulo operand (a literal has none).
  std::optional<ColumnType> TypeOf(const Expr& operand) const;
  Status BooleanValue(Expr* e);

  const TableSchema& schema_;
  std::map<ColumnPath, ResolvedColumn> columns_;
};

// A string literal meant as a date or a timestamp becomes one; false when it does not parse.
// Spark casts the string to the column's type: a zone-less text to a `timestamp` in the session's
// zone (unknown here: kept a session-zone literal, which Compare refuses), a text with a zone to a
// `timestamp_ntz` ignoring or refusing the zone by version (made a session-zone literal too).
bool CoerceString(Literal* literal, ValueCategory target, std::optional<ColumnType> column) {
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
    if (column == ColumnType::kTimestampNtz) {
      *literal =
          ts->has_zone ? Literal::SessionTimestamp(ts->micros) : Literal::WallClock(ts->micros);
    } else {
      *literal =
          ts->has_zone ? Literal::Timestamp(ts->micros) : Literal::SessionTimestamp(ts->micros);
    }
    return true;
  }
  return false;
}

constexpr double kTwoTo52 = 4503599627370496.0;

// Spark compares two numbers in their common type (a float column with an integer as floats, a
// long with a double as doubles), rlc compares their exact values; a timestamp_ntz with a
// timestamp as instants in the session's zone, a zone-less TIMESTAMP literal in that zone. Why
// the two may answer differently for the pair (a, b), or nullopt when they cannot
// (docs/predicate-semantics.md). `ta`, `tb`: the column types of column operands.
const char* CoercionDiffers(std::optional<ColumnType> ta, const Literal* la,
                            std::optional<ColumnType> tb, const Literal* lb) {
  using K = Literal::Kind;
  if ((la && la->kind == K::kTimestamp && la->session_zone) ||
      (lb && lb->kind == K::kTimestamp && lb->session_zone))
    return "a timestamp without a zone is read in the session's time zone, which rlc does not know";
  if (!ta) return nullptr;
  const ColumnType a = *ta;
  if (a != ColumnType::kTimestampNtz && lb && lb->kind == K::kTimestamp && lb->wall_clock)
    return "Spark compares a TIMESTAMP_NTZ literal with anything but a timestamp_ntz by placing "
           "its wall clock in the session's zone";
  if (a == ColumnType::kTimestampNtz &&
      ((lb && lb->kind == K::kTimestamp && !lb->wall_clock) || tb == ColumnType::kTimestamp))
    return "Spark compares a timestamp_ntz with a timestamp as an instant in the session's zone";
  const bool b_wide_integer = tb == ColumnType::kInteger || tb == ColumnType::kLong;
  const bool b_long = lb && lb->kind == K::kLong;
  if (a == ColumnType::kFloat &&
      (b_wide_integer || (b_long && std::llabs(lb->int_value) > (int64_t{1} << 24))))
    return "Spark compares a float with an integer as floats, which round integers past 2^24";
  if (a == ColumnType::kDouble &&
      (tb == ColumnType::kLong || (b_long && std::llabs(lb->int_value) > (int64_t{1} << 53))))
    return "Spark compares a double with a long as doubles, which round integers past 2^53";
  if (IsIntegral(a) && lb && lb->kind == K::kDouble &&
      (std::fabs(lb->double_value) >= kTwoTo52 || std::trunc(lb->double_value) == lb->double_value))
    return "a number with a fraction or an exponent reads as a double here, as an exact decimal "
           "(or a double) in Spark: past 2^52, or where the double is a whole number, the two "
           "may compare otherwise with an integer";
  return nullptr;
}

std::optional<ColumnType> Binder::TypeOf(const Expr& operand) const {
  if (operand.kind != Expr::Kind::kColumn && operand.kind != Expr::Kind::kModulo)
    return std::nullopt;
  const auto it = columns_.find(operand.column);
  if (it == columns_.end()) return std::nullopt;
  return it->second.type;
}

// An error naming the pair when CoercionDiffers finds a reason.
Status CoercionError(const Expr& a, std::optional<ColumnType> ta, const Literal* la, const Expr& b,
                     std::optional<ColumnType> tb, const Literal* lb) {
  const char* why = CoercionDiffers(ta, la, tb, lb);
  if (why == nullptr) why = CoercionDiffers(tb, lb, ta, la);
  if (why == nullptr) return Status::Ok();
  return Error(ToString(a) + " compared with " + (lb ? ToString(*lb) : ToString(b)) +
               ": refused, " + why);
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
  const std::optional<ColumnType> tl = TypeOf(*lhs), tr = TypeOf(*rhs);
  bool fits = false;
  if (lc != ValueCategory::kNone && rc != ValueCategory::kNone) {
    fits = lc == ValueCategory::kNull || rc == ValueCategory::kNull || lc == rc ||
           (rhs->kind == Expr::Kind::kLiteral && CoerceString(&rhs->literal, lc, tl)) ||
           (lhs->kind == Expr::Kind::kLiteral && CoerceString(&lhs->literal, rc, tr));
  }
  if (!fits) return Error(Describe(*lhs, lc) + " cannot be compared with " + Describe(*rhs, rc));
  const Literal* ll = lhs->kind == Expr::Kind::kLiteral ? &lhs->literal : nullptr;
  const Literal* rl = rhs->kind == Expr::Kind::kLiteral ? &rhs->literal : nullptr;
  return CoercionError(*lhs, tl, ll, *rhs, tr, rl);
}

Status Binder::ListItem(const Expr& operand, ValueCategory* target, Literal* item) {
  const ValueCategory ic = CategoryOf(*item);
  if (ic == ValueCategory::kNull) return Status::Ok();
  if (*target == ValueCategory::kNull) *target = ic;
  const std::optional<ColumnType> type = TypeOf(operand);
  if (ic == *target || CoerceString(item, *target, type)) {
    const Literal* operand_literal =
        operand.kind == Expr::Kind::kLiteral ? &operand.literal : nullptr;
    return CoercionError(operand, type, operand_literal, Expr::Lit(*item), std::nullopt, item);
  }
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
