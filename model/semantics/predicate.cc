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
Predicate Predicate::CompareColumns(std::string column, Op op, std::string other_column) {
  Predicate p = Compare(std::move(column), op, Value{});
  p.other_column = std::move(other_column);
  return p;
}
Predicate Predicate::CompareRemainder(std::string column, int64_t modulus, Op op, Value literal) {
  Predicate p = Compare(std::move(column), op, std::move(literal));
  p.modulus = modulus;
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
Predicate Predicate::In(std::string column, const std::vector<Value>& values) {
  std::vector<Predicate> equalities;
  for (const Value& v : values) equalities.push_back(Compare(column, Op::kEq, v));
  if (equalities.size() == 1) equalities.push_back(equalities.front());  // an OR has two or more
  Predicate p = Or(std::move(equalities));
  p.in_list = true;
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

// The value a comparison reads: the cell, or its remainder (C++'s % truncates toward zero, so the
// remainder has the dividend's sign, as in Java). INT64_MIN % -1 is 0, computed without the trap.
Value Operand(const Predicate& p, const Value& cell) {
  if (p.modulus == 0 || IsNull(cell)) return cell;
  const int64_t* v = std::get_if<int64_t>(&cell);
  if (v == nullptr) {
    std::fprintf(stderr, "model: remainder of non-long column '%s'\n", p.column.c_str());
    std::abort();
  }
  if (p.modulus == -1) return int64_t{0};
  return *v % p.modulus;
}

// The collation a comparison takes: its column's (a literal adopts it), or the other column's;
// the two columns of one comparison share one (Spark refuses two: COLLATION_MISMATCH).
Collation CollationOf(const Predicate& p, const LogicalTable& table) {
  for (const std::string* column : {&p.column, &p.other_column}) {
    if (column->empty()) continue;
    const std::optional<size_t> index = table.ColumnIndex(*column);
    if (index && table.schema[*index].collation != Collation::kUtf8Binary)
      return table.schema[*index].collation;
  }
  return Collation::kUtf8Binary;
}

std::string AsciiLowercase(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

// Compare under the comparison's collation: UTF8_LCASE compares the lowercased texts by bytes.
std::optional<int> CompareCollated(const Predicate& p, const LogicalTable& table, const Value& a,
                                   const Value& b) {
  const auto* x = std::get_if<std::string>(&a);
  const auto* y = std::get_if<std::string>(&b);
  if (x == nullptr || y == nullptr || CollationOf(p, table) != Collation::kUtf8Lcase)
    return Compare(a, b);
  return Compare(Value{AsciiLowercase(*x)}, Value{AsciiLowercase(*y)});
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
      const Value& rhs = p.other_column.empty() ? p.literal : Cell(table, row, p.other_column);
      std::optional<int> c = CompareCollated(p, table, Operand(p, Cell(table, row, p.column)), rhs);
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

namespace {

// "id IN (1, 2, NULL)": the equalities' column once, their literals in order.
std::string InListText(const Predicate& p, const std::string& qualifier) {
  const std::string& name = p.children.front().column;
  std::string s = (qualifier.empty() ? name : qualifier + "." + name) + " IN (";
  for (size_t i = 0; i < p.children.size(); ++i)
    s += (i == 0 ? "" : ", ") + ToString(p.children[i].literal);
  return s + ")";
}

}  // namespace

std::string ToString(const Predicate& p) { return ToString(p, ""); }

std::string ToString(const Predicate& p, const std::string& qualifier) {
  using Kind = Predicate::Kind;
  const std::string column = qualifier.empty() ? p.column : qualifier + "." + p.column;
  static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
  switch (p.kind) {
    case Kind::kTrue:
      return "TRUE";
    case Kind::kFalse:
      return "FALSE";
    case Kind::kIsNull:
      return column + " IS NULL";
    case Kind::kIsNotNull:
      return column + " IS NOT NULL";
    case Kind::kCompare: {
      const std::string operand =
          column + (p.modulus == 0 ? "" : " % " + std::to_string(p.modulus));
      // The mirror of each operator, for the literal on the left: id < 5 is 5 > id.
      static const char* kMirrored[] = {"=", "<>", ">", ">=", "<", "<="};
      if (!p.other_column.empty()) {
        const std::string other =
            qualifier.empty() ? p.other_column : qualifier + "." + p.other_column;
        return operand + " " + kOps[int(p.op)] + " " + other;
      }
      if (p.literal_first) return ToString(p.literal) + " " + kMirrored[int(p.op)] + " " + operand;
      return operand + " " + kOps[int(p.op)] + " " + ToString(p.literal);
    }
    case Kind::kNot:
      return "NOT (" + ToString(p.children.at(0), qualifier) + ")";
    case Kind::kAnd:
    case Kind::kOr: {
      if (p.in_list) return InListText(p, qualifier);
      std::string s;
      for (const Predicate& c : p.children) {
        if (!s.empty()) s += p.kind == Kind::kAnd ? " AND " : " OR ";
        bool nested = (c.kind == Kind::kAnd || c.kind == Kind::kOr) && !c.in_list;
        s += nested ? "(" + ToString(c, qualifier) + ")" : ToString(c, qualifier);
      }
      return s;
    }
  }
  return "?";
}

}  // namespace rlc::model
