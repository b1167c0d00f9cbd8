#include "model/semantics/predicate.h"

#include <cstdio>
#include <cstdlib>

namespace rlc::model {

Predicate Predicate::True() { return Predicate{}; }
Predicate Predicate::False() {
  Predicate p;
  p.kind = Kind::kFalse;
  return p;
}
Predicate Predicate::Compare(std::string column, Op op, Value literal) {
  Predicate p;
  p.kind = Kind::kCompare;
  p.op = op;
  p.column = std::move(column);
  p.literal = std::move(literal);
  return p;
}
Predicate Predicate::IsNull(std::string column) {
  Predicate p;
  p.kind = Kind::kIsNull;
  p.column = std::move(column);
  return p;
}
Predicate Predicate::IsNotNull(std::string column) {
  Predicate p = IsNull(std::move(column));
  p.kind = Kind::kIsNotNull;
  return p;
}
Predicate Predicate::And(std::vector<Predicate> children) {
  Predicate p;
  p.kind = Kind::kAnd;
  p.children = std::move(children);
  return p;
}
Predicate Predicate::Or(std::vector<Predicate> children) {
  Predicate p = And(std::move(children));
  p.kind = Kind::kOr;
  return p;
}
Predicate Predicate::Not(Predicate child) {
  Predicate p;
  p.kind = Kind::kNot;
  p.children.push_back(std::move(child));
  return p;
}

namespace {

const Value& Cell(const LogicalTable& table, const Row& row, const std::string& column) {
  std::optional<size_t> index = table.ColumnIndex(column);
  if (!index.has_value()) {
    std::fprintf(stderr, "model: predicate names unknown column '%s'\n", column.c_str());
    std::abort();
  }
  return row.values[*index];
}

}  // namespace

Truth Evaluate(const Predicate& p, const LogicalTable& table, const Row& row) {
  using Kind = Predicate::Kind;
  switch (p.kind) {
    case Kind::kTrue:
      return Truth::kTrue;
    case Kind::kFalse:
      return Truth::kFalse;
    case Kind::kIsNull:
      return IsNull(Cell(table, row, p.column)) ? Truth::kTrue : Truth::kFalse;
    case Kind::kIsNotNull:
      return IsNull(Cell(table, row, p.column)) ? Truth::kFalse : Truth::kTrue;
    case Kind::kNot:
      return Not(Evaluate(p.children.at(0), table, row));
    case Kind::kAnd: {
      Truth t = Truth::kTrue;
      for (const Predicate& c : p.children) t = And(t, Evaluate(c, table, row));
      return t;
    }
    case Kind::kOr: {
      Truth t = Truth::kFalse;
      for (const Predicate& c : p.children) t = Or(t, Evaluate(c, table, row));
      return t;
    }
    case Kind::kCompare: {
      std::optional<int> c = Compare(Cell(table, row, p.column), p.literal);
      if (!c.has_value()) return Truth::kUnknown;
      bool holds = false;
      switch (p.op) {
        case Predicate::Op::kEq:
          holds = *c == 0;
          break;
        case Predicate::Op::kNe:
          holds = *c != 0;
          break;
        case Predicate::Op::kLt:
          holds = *c < 0;
          break;
        case Predicate::Op::kLe:
          holds = *c <= 0;
          break;
        case Predicate::Op::kGt:
          holds = *c > 0;
          break;
        case Predicate::Op::kGe:
          holds = *c >= 0;
          break;
      }
      return holds ? Truth::kTrue : Truth::kFalse;
    }
  }
  return Truth::kUnknown;
}

std::string ToString(const Predicate& p) {
  using Kind = Predicate::Kind;
  static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
  switch (p.kind) {
    case Kind::kTrue:
      return "TRUE";
    case Kind::kFalse:
      return "FALSE";
    case Kind::kIsNull:
      return p.column + " IS NULL";
    case Kind::kIsNotNull:
      return p.column + " IS NOT NULL";
    case Kind::kCompare:
      return p.column + " " + kOps[int(p.op)] + " " + ToString(p.literal);
    case Kind::kNot:
      return "NOT (" + ToString(p.children.at(0)) + ")";
    case Kind::kAnd:
    case Kind::kOr: {
      std::string s;
      for (const Predicate& c : p.children) {
        if (!s.empty()) s += p.kind == Kind::kAnd ? " AND " : " OR ";
        bool nested = c.kind == Kind::kAnd || c.kind == Kind::kOr;
        s += nested ? "(" + ToString(c) + ")" : ToString(c);
      }
      return s;
    }
  }
  return "?";
}

}  // namespace rlc::model
