#include "model/semantics/value.h"

#include <cstdio>
#include <cstdlib>

namespace rlc::model {

Truth Not(Truth t) {
  if (t == Truth::kUnknown) return t;
  return t == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
}

Truth And(Truth a, Truth b) {
  if (a == Truth::kFalse || b == Truth::kFalse) return Truth::kFalse;
  if (a == Truth::kTrue && b == Truth::kTrue) return Truth::kTrue;
  return Truth::kUnknown;
}

Truth Or(Truth a, Truth b) {
  if (a == Truth::kTrue || b == Truth::kTrue) return Truth::kTrue;
  if (a == Truth::kFalse && b == Truth::kFalse) return Truth::kFalse;
  return Truth::kUnknown;
}

std::optional<int> Compare(const Value& a, const Value& b) {
  if (IsNull(a) || IsNull(b)) return std::nullopt;
  if (a.index() != b.index()) {
    std::fprintf(stderr, "model: comparing a long with a string\n");
    std::abort();
  }
  if (const auto* x = std::get_if<int64_t>(&a)) {
    int64_t y = std::get<int64_t>(b);
    return *x < y ? -1 : (*x > y ? 1 : 0);
  }
  int c = std::get<std::string>(a).compare(std::get<std::string>(b));
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

std::string ToString(const Value& v) {
  if (IsNull(v)) return "NULL";
  if (const auto* x = std::get_if<int64_t>(&v)) return std::to_string(*x);
  // SQL's quoting: a quote inside the string is doubled, so the text reads back unchanged.
  std::string quoted = "'";
  for (char c : std::get<std::string>(v))
    quoted += c == '\'' ? std::string("''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace rlc::model
