#include "impl/predicate/lexer.h"

#include <array>
#include <utility>

namespace rlc::predicate {
namespace {

constexpr std::array<std::string_view, 11> kKeywords = {
    "AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE", "DATE", "TIMESTAMP", "TIMESTAMP_NTZ"};

constexpr size_t kDescribeCharsMax = 24;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

char Upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

bool EqualsUpper(std::string_view word, std::string_view upper) {
  if (word.size() != upper.size()) return false;
  for (size_t i = 0; i < word.size(); ++i) {
    if (Upper(word[i]) != upper[i]) return false;
  }
  return true;
}

// A quoted run ('...' or `...`) starting at text[start]; the quote doubled stands for itself.
Status Quoted(std::string_view text, size_t start, char quote, size_t* end, std::string* out) {
  size_t pos = start + 1;
  for (;;) {
    if (pos >= text.size()) {
      const std::string closing =
          quote == '\'' ? "a closing ' for the string" : "a closing ` for the name";
      return SyntaxError(start, closing + " that starts here", "end of text");
    }
    if (text[pos] == quote) {
      if (pos + 1 < text.size() && text[pos + 1] == quote) {
        out->push_back(quote);
        pos += 2;
        continue;
      }
      *end = pos + 1;
      return Status::Ok();
    }
    out->push_back(text[pos]);
    ++pos;
  }
}

// digits [. digits] [e [+-] digits]
Status Number(std::string_view text, size_t start, size_t* end) {
  size_t pos = start;
  while (pos < text.size() && IsDigit(text[pos])) ++pos;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    if (pos >= text.size() || !IsDigit(text[pos])) {
      Token t{Token::Kind::kEnd, pos, text.substr(pos, pos < text.size() ? 1 : 0), {}};
      return SyntaxError(pos, "a digit after the decimal point", DescribeToken(t));
    }
    while (pos < text.size() && IsDigit(text[pos])) ++pos;
  }
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) ++pos;
    if (pos >= text.size() || !IsDigit(text[pos])) {
      Token t{Token::Kind::kEnd, pos, text.substr(pos, pos < text.size() ? 1 : 0), {}};
      return SyntaxError(pos, "a digit in the exponent", DescribeToken(t));
    }
    while (pos < text.size() && IsDigit(text[pos])) ++pos;
  }
  *end = pos;
  return Status::Ok();
}

// One- and two-character operators and punctuation, longest first; false when text[pos] starts
// none of them.
bool Punctuation(std::string_view text, size_t pos, Token::Kind* kind, size_t* length) {
  using K = Token::Kind;
  static constexpr std::pair<std::string_view, K> kSymbols[] = {
      {"==", K::kEq},   {"!=", K::kNe}, {"<>", K::kNe},     {"<=", K::kLe},    {">=", K::kGe},
      {"=", K::kEq},    {"<", K::kLt},  {">", K::kGt},      {"(", K::kLParen}, {")", K::kRParen},
      {",", K::kComma}, {".", K::kDot}, {"%", K::kPercent}, {"-", K::kMinus}};
  for (const auto& [symbol, symbol_kind] : kSymbols) {
    if (text.substr(pos, symbol.size()) == symbol) {
      *kind = symbol_kind;
      *length = symbol.size();
      return true;
    }
  }
  return false;
}

}  // namespace

Result<std::vector<Token>> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t pos = 0;
  while (pos < text.size()) {
    const char c = text[pos];
    if (IsSpace(c)) {
      ++pos;
      continue;
    }
    Token token;
    token.offset = pos;
    size_t end = pos + 1;
    Token::Kind punct = Token::Kind::kEnd;
    size_t length = 0;
    if (IsIdentStart(c)) {
      while (end < text.size() && IsIdentChar(text[end])) ++end;
      token.kind = Token::Kind::kIdentifier;
      token.text = std::string(text.substr(pos, end - pos));
    } else if (c == '`' || c == '\'') {
      RLC_RETURN_IF_ERROR(Quoted(text, pos, c, &end, &token.text));
      token.kind = c == '`' ? Token::Kind::kQuotedIdentifier : Token::Kind::kString;
    } else if (IsDigit(c)) {
      RLC_RETURN_IF_ERROR(Number(text, pos, &end));
      token.kind = Token::Kind::kNumber;
      token.text = std::string(text.substr(pos, end - pos));
    } else if (Punctuation(text, pos, &punct, &length)) {
      token.kind = punct;
      end = pos + length;
    } else {
      const std::string found = "'" + std::string(text.substr(pos, 1)) + "'";
      return SyntaxError(pos, c == '!' ? "'!='" : "a name, a literal, an operator or '('", found);
    }
    token.raw = text.substr(pos, end - pos);
    tokens.push_back(std::move(token));
    pos = end;
  }
  Token end_token;
  end_token.kind = Token::Kind::kEnd;
  end_token.offset = text.size();
  tokens.push_back(std::move(end_token));
  return tokens;
}

bool IsKeyword(std::string_view word) {
  for (std::string_view k : kKeywords) {
    if (EqualsUpper(word, k)) return true;
  }
  return false;
}

bool IsKeywordToken(const Token& token, std::string_view upper) {
  return token.kind == Token::Kind::kIdentifier && EqualsUpper(token.text, upper);
}

std::string DescribeToken(const Token& token) {
  if (token.kind == Token::Kind::kEnd && token.raw.empty()) return "end of text";
  if (token.raw.size() > kDescribeCharsMax) {
    return "'" + std::string(token.raw.substr(0, kDescribeCharsMax)) + "...'";
  }
  return "'" + std::string(token.raw) + "'";
}

Status SyntaxError(size_t offset, std::string_view expected, std::string_view found) {
  return Status::InvalidArgument("predicate at character " + std::to_string(offset + 1) +
                                 ": expected " + std::string(expected) + ", found " +
                                 std::string(found));
}

}  // namespace rlc::predicate
