// Value: one cell of the logical table: NULL, a 64-bit integer (long) or a string.
//
// Concern: SQL comparison with three-valued logic. Comparing NULL with anything is Unknown;
// comparing a long with a string is a type error the model refuses to build (Compare asserts),
// because the predicates it generates are typed against the schema.
//
// Thread-safety: plain value.
#ifndef RLC_MODEL_SEMANTICS_VALUE_H_
#define RLC_MODEL_SEMANTICS_VALUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace rlc::model {

using Value = std::variant<std::monostate, int64_t, std::string>;

inline bool IsNull(const Value& v) { return std::holds_alternative<std::monostate>(v); }

// SQL's three truth values.
enum class Truth { kFalse, kTrue, kUnknown };

Truth Not(Truth t);
Truth And(Truth a, Truth b);
Truth Or(Truth a, Truth b);

// -1, 0, 1 for two non-null values of one type; nullopt when either is NULL.
// REQUIRES: a and b are not a long and a string.
std::optional<int> Compare(const Value& a, const Value& b);

// "NULL", "42", "'text'".
std::string ToString(const Value& v);

}  // namespace rlc::model

#endif  // RLC_MODEL_SEMANTICS_VALUE_H_
