#include "impl/predicate/ast.h"

#include <charconv>
#include <cmath>

#include "impl/predicate/datetime.h"
#include "impl/predicate/lexer.h"

namespace rlc::predicate {
namespace {

bool IsPlainName(std::string_view name) {
  if (name.empty() || IsKeyword(name)) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

std::string Quote(std::string_view text, char quote) {
  std::string out(1, quote);
  for (char c : text) {
    out.push_back(c);
    if (c == quote) out.push_back(quote);
  }
  out.push_back(quote);
  return out;
}

std::string DoubleToString(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, v);
  RLC_ASSERT(r.ec == std::errc());
  std::string out(buf, r.ptr);
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

std::string Joined(const std::vector<Expr>& children, std::string_view separator,
                   Expr::Kind parent) {
  std::string out;
  for (size_t i = 0; i < children.size(); ++i) {
    if (i > 0) out += separator;
    const Expr& child = children[i];
    // Parenthesize exactly what the parser would otherwise group differently, so that the text
    // reads back to the same tree: any AND/OR under AND, an OR under OR.
    const bool group = child.kind == Expr::Kind::kOr ||
                       (child.kind == Expr::Kind::kAnd && parent == Expr::Kind::kAnd);
    out += group ? "(" + ToString(child) + ")" : ToString(child);
  }
  return out;
}

Expr WithChildren(Expr::Kind kind, std::vector<Expr> children) {
  Expr e;
  e.kind = kind;
  e.children = std::move(children);
  return e;
}

}  // namespace

const char* CompareOpText(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "!=";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
  }
  return "?";
}

CompareOp FlipCompareOp(CompareOp op) {
  switch (op) {
    case CompareOp::kLt:
      return CompareOp::kGt;
    case CompareOp::kLe:
      return CompareOp::kGe;
    case CompareOp::kGt:
      return CompareOp::kLt;
    case CompareOp::kGe:
      return CompareOp::kLe;
    case CompareOp::kEq:
    case CompareOp::kNe:
      return op;
  }
  return op;
}

Expr Expr::Column(ColumnPath path) {
  Expr e;
  e.kind = Kind::kColumn;
  e.column = std::move(path);
  return e;
}
Expr Expr::Lit(Literal literal) {
  Expr e;
  e.kind = Kind::kLiteral;
  e.literal = std::move(literal);
  return e;
}
Expr Expr::Modulo(ColumnPath path, int64_t modulus) {
  Expr e = Column(std::move(path));
  e.kind = Kind::kModulo;
  e.modulus = modulus;
  return e;
}
Expr Expr::Compare(Expr lhs, CompareOp op, Expr rhs) {
  std::vector<Expr> children;
  children.push_back(std::move(lhs));
  children.push_back(std::move(rhs));
  Expr e = WithChildren(Kind::kCompare, std::move(children));
  e.op = op;
  return e;
}
Expr Expr::In(Expr operand, std::vector<Literal> list) {
  std::vector<Expr> children;
  children.push_back(std::move(operand));
  Expr e = WithChildren(Kind::kIn, std::move(children));
  e.in_list = std::move(list);
  return e;
}
Expr Expr::IsNull(Expr operand) {
  std::vector<Expr> children;
  children.push_back(std::move(operand));
  return WithChildren(Kind::kIsNull, std::move(children));
}
Expr Expr::IsNotNull(Expr operand) {
  Expr e = IsNull(std::move(operand));
  e.kind = Kind::kIsNotNull;
  return e;
}
Expr Expr::And(std::vector<Expr> children) { return WithChildren(Kind::kAnd, std::move(children)); }
Expr Expr::Or(std::vector<Expr> children) { return WithChildren(Kind::kOr, std::move(children)); }
Expr Expr::Not(Expr child) {
  std::vector<Expr> children;
  children.push_back(std::move(child));
  return WithChildren(Kind::kNot, std::move(children));
}

bool Expr::is_value() const {
  return kind == Kind::kColumn || kind == Kind::kLiteral || kind == Kind::kModulo;
}

std::string ColumnPathToString(const ColumnPath& path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    if (i > 0) out += '.';
    out += IsPlainName(path[i]) ? path[i] : Quote(path[i], '`');
  }
  return out;
}

std::string ToString(const Literal& literal) {
  switch (literal.kind) {
    case Literal::Kind::kNull:
      return "NULL";
    case Literal::Kind::kBool:
      return literal.int_value != 0 ? "TRUE" : "FALSE";
    case Literal::Kind::kLong:
      return std::to_string(literal.int_value);
    case Literal::Kind::kDouble:
      return DoubleToString(literal.double_value);
    case Literal::Kind::kString:
      return Quote(literal.string_value, '\'');
    case Literal::Kind::kDate:
      return "DATE '" + FormatDate(literal.int_value) + "'";
    case Literal::Kind::kTimestamp:
      if (literal.wall_clock) return "'" + FormatTimestamp(literal.int_value) + "'";
      return "TIMESTAMP '" + FormatTimestamp(literal.int_value) +
             (literal.session_zone ? "'" : "Z'");
  }
  return "?";
}

std::string ToString(const Expr& expr) {
  using K = Expr::Kind;
  switch (expr.kind) {
    case K::kColumn:
      return ColumnPathToString(expr.column);
    case K::kLiteral:
      return ToString(expr.literal);
    case K::kModulo:
      return ColumnPathToString(expr.column) + " % " + std::to_string(expr.modulus);
    case K::kCompare:
      return ToString(expr.children.at(0)) + " " + CompareOpText(expr.op) + " " +
             ToString(expr.children.at(1));
    case K::kIn: {
      std::string out = ToString(expr.children.at(0)) + " IN (";
      for (size_t i = 0; i < expr.in_list.size(); ++i) {
        if (i > 0) out += ", ";
        out += ToString(expr.in_list[i]);
      }
      return out + ")";
    }
    case K::kIsNull:
      return ToString(expr.children.at(0)) + " IS NULL";
    case K::kIsNotNull:
      return ToString(expr.children.at(0)) + " IS NOT NULL";
    case K::kAnd:
      return Joined(expr.children, " AND ", K::kAnd);
    case K::kOr:
      return Joined(expr.children, " OR ", K::kOr);
    case K::kNot: {
      const Expr& child = expr.children.at(0);
      if (child.is_value() || child.kind == K::kNot) return "NOT " + ToString(child);
      return "NOT (" + ToString(child) + ")";
    }
  }
  return "?";
}

}  // namespace rlc::predicate
