// The predicate language's tokens, and the one shape of its syntax errors.
//
// Concern: split predicate text into tokens, each with its 0-based byte offset. Identifiers are
// [A-Za-z_][A-Za-z0-9_]* or backquoted (`` `a b` ``, a doubled backquote stands for one);
// strings are single-quoted ('it''s'); numbers are digits with an optional fraction and
// exponent (the sign is a separate token). Keywords are identifiers compared case-insensitively;
// a backquoted name is never a keyword.
//
// Thread-safety: stateless functions. Tokens view the text they were cut from: keep it alive.
//
// Invariants:
//   1. A token list ends with exactly one kEnd token, at offset text.size().
//   2. Every error is kInvalidArgument "predicate at character N: expected X, found Y", N counting
//      from 1 (SyntaxError below), so callers and tests see one format.
#ifndef RLC_IMPL_PREDICATE_LEXER_H_
#define RLC_IMPL_PREDICATE_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "impl/base/status.h"

namespace rlc::predicate {

struct Token {
  enum class Kind : uint8_t {
    kIdentifier,        // text: as written (a keyword is an identifier too)
    kQuotedIdentifier,  // text: unescaped
    kNumber,            // text: as written
    kString,            // text: unescaped
    kLParen,
    kRParen,
    kComma,
    kDot,
    kPercent,
    kMinus,
    kEq,
    kNe,
    kLt,
    kLe,
    kGt,
    kGe,
    kEnd,
  };
  Kind kind = Kind::kEnd;
  size_t offset = 0;     // 0-based byte offset of the first character
  std::string_view raw;  // the source characters of the token
  std::string text;
};

// REQUIRES: text.size() <= kPredicateTextBytesMax (the parser checks first).
Result<std::vector<Token>> Tokenize(std::string_view text);

// AND OR NOT IN IS NULL TRUE FALSE DATE TIMESTAMP TIMESTAMP_NTZ, in any case.
bool IsKeyword(std::string_view word);
// True when the token is the unquoted keyword `upper` (given in upper case) in any case.
bool IsKeywordToken(const Token& token, std::string_view upper);

// "'<the token's text>'" (shortened when long) or "end of text".
std::string DescribeToken(const Token& token);

// kInvalidArgument "predicate at character <offset + 1>: expected <expected>, found <found>".
Status SyntaxError(size_t offset, std::string_view expected, std::string_view found);

}  // namespace rlc::predicate

#endif  // RLC_IMPL_PREDICATE_LEXER_H_
