// ParsePredicate: SQL-like predicate text -> Expr (ast.h).
//
// Concern: the grammar below, keywords in any case, precedence NOT > AND > OR, comparisons bind
// tighter than NOT (`NOT a = 1` is `NOT (a = 1)`), AND/OR chains become one n-ary node.
//
//   predicate := or END
//   or        := and { OR and }
//   and       := not { AND not }
//   not       := NOT not | primary
//   primary   := '(' or ')' | operand [ op operand | [NOT] IN '(' literal {',' literal} ')'
//                                     | IS [NOT] NULL ]
//   operand   := column [ '%' ['-'] integer ] | literal
//   column    := name { '.' name }            name := identifier | `back quoted`
//   literal   := NULL | TRUE | FALSE | ['-'] number | 'string' | DATE 'YYYY-MM-DD'
//              | TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.ffffff]'   (or ISO-8601 with T and Z/offset)
//              | TIMESTAMP_NTZ 'YYYY-MM-DD HH:MM:SS[.ffffff]'   (a wall clock: no zone)
//   op        := = | == | != | <> | < | <= | > | >=
//
// `a NOT IN (...)` becomes NOT (a IN (...)). A number with a fraction or an exponent is a double,
// otherwise a long (a long outside 64 bits is an error). A timestamp without a zone is in the
// session's time zone, as Spark reads it (Literal::session_zone): it parses, and Bind refuses to
// compare it.
//
// Thread-safety: stateless.
//
// Errors:
//   - kInvalidArgument "predicate at character N: expected X, found Y": N counts bytes from 1 and
//     points at the first character of the offending token (text length + 1 for end of text);
//     Y is the token in quotes or "end of text".
//   - kOverLimit for text over kPredicateTextBytesMax or nesting over kPredicateNestingMax.
//   Types and columns are not checked here: that is Bind's job (bind.h).
#ifndef RLC_IMPL_PREDICATE_PARSER_H_
#define RLC_IMPL_PREDICATE_PARSER_H_

#include <string_view>

#include "impl/base/status.h"
#include "impl/predicate/ast.h"

namespace rlc::predicate {

Result<Expr> ParsePredicate(std::string_view text);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_PARSER_H_
