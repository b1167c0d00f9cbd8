// Predicate: a WHERE condition over one row, evaluated with SQL's three-valued logic.
//
// Concern: the conditions the model's operations use (DELETE/UPDATE WHERE, MERGE clause
// conditions, INSERT ... SELECT's source filter). A row qualifies only when the predicate is
// True; Unknown (any comparison with NULL) does not qualify, as in SQL.
//
// Thread-safety: plain value.
#ifndef RLC_MODEL_SEMANTICS_PREDICATE_H_
#define RLC_MODEL_SEMANTICS_PREDICATE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "model/semantics/table.h"
#include "model/semantics/value.h"

namespace rlc::model {

struct Predicate {
  enum class Kind { kTrue, kFalse, kCompare, kIsNull, kIsNotNull, kAnd, kOr, kNot };
  enum class Op { kEq, kNe, kLt, kLe, kGt, kGe };

  Kind kind = Kind::kTrue;
  Op op = Op::kEq;     // kCompare only
  std::string column;  // kCompare, kIsNull, kIsNotNull
  // kCompare only: when non-zero, `column % modulus` is compared instead of the column (a long
  // column; the remainder takes the dividend's sign, as in Java and Spark SQL). Delta's
  // statistics skipping never evaluates a remainder, so a Delta scan never skips a file by it:
  // the reads that tell a scan's file set from the files of the matched rows.
  int64_t modulus = 0;
  Value literal;  // kCompare only
  // kCompare only: when not empty, the column's value (or remainder) is compared with this
  // column's value instead of `literal` ("id < x"): a comparison no statistics tier of Delta's
  // evaluates, and one whose answer for a file no single column's bounds decide.
  std::string other_column;
  std::vector<Predicate> children;  // kAnd, kOr (two or more), kNot (one)
  // How the text reads, not what it means: a kCompare written literal first ("5 > id" for
  // id < 5), a kOr of equalities of one column written as an IN list ("id IN (1, NULL)": SQL's IN
  // is that OR, NULLs included).
  bool literal_first = false;
  bool in_list = false;

  static Predicate True();
  static Predicate False();
  static Predicate Compare(std::string column, Op op, Value literal);
  // `column op other_column`. REQUIRES: the columns' types compare (ComparableTypes, table.h).
  static Predicate CompareColumns(std::string column, Op op, std::string other_column);
  // `column % modulus op literal`. REQUIRES: modulus != 0.
  static Predicate CompareRemainder(std::string column, int64_t modulus, Op op, Value literal);
  static Predicate IsNull(std::string column);
  static Predicate IsNotNull(std::string column);
  static Predicate And(std::vector<Predicate> children);
  static Predicate Or(std::vector<Predicate> children);
  static Predicate Not(Predicate child);
  // `column IN (values...)`: the OR of `column = value`. REQUIRES: values not empty.
  static Predicate In(std::string column, const std::vector<Value>& values);

  friend bool operator==(const Predicate&, const Predicate&) = default;
};

// REQUIRES: every column the predicate names exists in `table`'s schema.
Truth Evaluate(const Predicate& p, const LogicalTable& table, const Row& row);
inline bool Qualifies(const Predicate& p, const LogicalTable& table, const Row& row) {
  return Evaluate(p, table, row) == Truth::kTrue;
}

// SQL-like text: "id > 3 AND value IS NULL", "id % 2 = 1", "3 < id", "id IN (1, 2)", "id < x".
std::string ToString(const Predicate& p);
// The same with every column qualified: ToString(p, "t") is "t.id > 3 AND t.value IS NULL".
std::string ToString(const Predicate& p, const std::string& qualifier);

}  // namespace rlc::model

#endif  // RLC_MODEL_SEMANTICS_PREDICATE_H_
