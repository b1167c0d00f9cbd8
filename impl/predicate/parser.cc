#include "impl/predicate/parser.h"

#include <charconv>
#include <vector>

#include "impl/base/limits.h"
#include "impl/predicate/datetime.h"
#include "impl/predicate/lexer.h"

namespace rlc::predicate {
namespace {

using K = Token::Kind;

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  Result<Expr> Predicate() {
    RLC_ASSIGN_OR_RETURN(Expr e, Or(0));
    if (Peek().kind != K::kEnd) return Fail(ContinuationExpected("end of text"));
    return e;
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool Accept(K kind) {
    if (Peek().kind != kind) return false;
    Next();
    return true;
  }
  bool AcceptKeyword(std::string_view upper) {
    if (!IsKeywordToken(Peek(), upper)) return false;
    Next();
    return true;
  }
  Status Fail(std::string_view expected) const {
    return SyntaxError(Peek().offset, expected, DescribeToken(Peek()));
  }
  // What may follow a complete condition; after a bare operand an operator may too.
  std::string ContinuationExpected(std::string_view closer) const {
    return std::string(last_was_bare_operand_ ? "an operator, " : "") + "AND, OR or " +
           std::string(closer);
  }
  Status Deeper(int depth) const {
    if (depth < kPredicateNestingMax) return Status::Ok();
    return Status::OverLimit("predicate at character " + std::to_string(Peek().offset + 1) +
                             ": nesting deeper than kPredicateNestingMax (" +
                             std::to_string(kPredicateNestingMax) + ")");
  }

  Result<Expr> Or(int depth);
  Result<Expr> And(int depth);
  Result<Expr> Not(int depth);
  Result<Expr> Primary(int depth);
  Result<Expr> Operand();
  Result<ColumnPath> Column();
  Result<Literal> LiteralValue();
  Result<Literal> Number(bool negative);
  Result<Literal> DateOrTimestamp(bool is_date);
  Result<Literal> WallClock();
  Result<std::vector<Literal>> InList();

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  bool last_was_bare_operand_ = false;
};

Result<Expr> Parser::Or(int depth) {
  std::vector<Expr> children;
  RLC_ASSIGN_OR_RETURN(Expr first, And(depth));
  children.push_back(std::move(first));
  while (AcceptKeyword("OR")) {
    RLC_ASSIGN_OR_RETURN(Expr next, And(depth));
    children.push_back(std::move(next));
  }
  if (children.size() == 1) return std::move(children[0]);
  return Expr::Or(std::move(children));
}

Result<Expr> Parser::And(int depth) {
  std::vector<Expr> children;
  RLC_ASSIGN_OR_RETURN(Expr first, Not(depth));
  children.push_back(std::move(first));
  while (AcceptKeyword("AND")) {
    RLC_ASSIGN_OR_RETURN(Expr next, Not(depth));
    children.push_back(std::move(next));
  }
  if (children.size() == 1) return std::move(children[0]);
  return Expr::And(std::move(children));
}

Result<Expr> Parser::Not(int depth) {
  if (!IsKeywordToken(Peek(), "NOT")) return Primary(depth);
  RLC_RETURN_IF_ERROR(Deeper(depth));
  Next();
  RLC_ASSIGN_OR_RETURN(Expr child, Not(depth + 1));
  return Expr::Not(std::move(child));
}

Result<Expr> Parser::Primary(int depth) {
  if (Peek().kind == K::kLParen) {
    RLC_RETURN_IF_ERROR(Deeper(depth));
    Next();
    RLC_ASSIGN_OR_RETURN(Expr inner, Or(depth + 1));
    if (!Accept(K::kRParen)) return Fail(ContinuationExpected("')'"));
    last_was_bare_operand_ = false;
    return inner;
  }
  if (Peek().kind == K::kEnd || IsKeywordToken(Peek(), "AND") || IsKeywordToken(Peek(), "OR") ||
      IsKeywordToken(Peek(), "IN") || IsKeywordToken(Peek(), "IS") ||
      (Peek().kind != K::kIdentifier && Peek().kind != K::kQuotedIdentifier &&
       Peek().kind != K::kNumber && Peek().kind != K::kString && Peek().kind != K::kMinus)) {
    return Fail("a column, a literal, NOT or '('");
  }
  RLC_ASSIGN_OR_RETURN(Expr lhs, Operand());
  last_was_bare_operand_ = false;
  const K kind = Peek().kind;
  if (kind == K::kEq || kind == K::kNe || kind == K::kLt || kind == K::kLe || kind == K::kGt ||
      kind == K::kGe) {
    Next();
    static constexpr CompareOp kOps[] = {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt,
                                         CompareOp::kLe, CompareOp::kGt, CompareOp::kGe};
    const CompareOp op = kOps[static_cast<int>(kind) - static_cast<int>(K::kEq)];
    RLC_ASSIGN_OR_RETURN(Expr rhs, Operand());
    return Expr::Compare(std::move(lhs), op, std::move(rhs));
  }
  if (AcceptKeyword("IN")) {
    RLC_ASSIGN_OR_RETURN(std::vector<Literal> list, InList());
    return Expr::In(std::move(lhs), std::move(list));
  }
  if (AcceptKeyword("NOT")) {
    if (!AcceptKeyword("IN")) return Fail("IN after NOT");
    RLC_ASSIGN_OR_RETURN(std::vector<Literal> list, InList());
    return Expr::Not(Expr::In(std::move(lhs), std::move(list)));
  }
  if (AcceptKeyword("IS")) {
    const bool negated = AcceptKeyword("NOT");
    if (!AcceptKeyword("NULL")) return Fail(negated ? "NULL" : "NULL or NOT NULL");
    return negated ? Expr::IsNotNull(std::move(lhs)) : Expr::IsNull(std::move(lhs));
  }
  last_was_bare_operand_ = true;
  return lhs;
}

Result<std::vector<Literal>> Parser::InList() {
  if (!Accept(K::kLParen)) return Fail("'(' after IN");
  std::vector<Literal> list;
  do {
    RLC_ASSIGN_OR_RETURN(Literal value, LiteralValue());
    list.push_back(std::move(value));
  } while (Accept(K::kComma));
  if (!Accept(K::kRParen)) return Fail("',' or ')'");
  return list;
}

Result<Expr> Parser::Operand() {
  const Token& t = Peek();
  const bool name =
      t.kind == K::kQuotedIdentifier || (t.kind == K::kIdentifier && !IsKeyword(t.text));
  if (!name) {
    RLC_ASSIGN_OR_RETURN(Literal value, LiteralValue());
    return Expr::Lit(std::move(value));
  }
  RLC_ASSIGN_OR_RETURN(ColumnPath path, Column());
  if (!Accept(K::kPercent)) return Expr::Column(std::move(path));
  const bool negative = Accept(K::kMinus);
  const Token& number = Peek();
  Result<Literal> modulus =
      number.kind == K::kNumber ? Number(negative) : Result<Literal>(Fail("an integer modulus"));
  if (!modulus.ok()) return modulus.status();
  if (modulus->kind != Literal::Kind::kLong || modulus->int_value == 0) {
    return SyntaxError(number.offset, "a non-zero integer modulus", DescribeToken(number));
  }
  return Expr::Modulo(std::move(path), modulus->int_value);
}

Result<ColumnPath> Parser::Column() {
  ColumnPath path;
  path.push_back(Next().text);
  while (Accept(K::kDot)) {
    if (Peek().kind != K::kIdentifier && Peek().kind != K::kQuotedIdentifier) {
      return Fail("a name after '.'");
    }
    path.push_back(Next().text);
  }
  return path;
}

Result<Literal> Parser::LiteralValue() {
  const Token& t = Peek();
  if (AcceptKeyword("NULL")) return Literal::Null();
  if (AcceptKeyword("TRUE")) return Literal::Bool(true);
  if (AcceptKeyword("FALSE")) return Literal::Bool(false);
  if (AcceptKeyword("DATE")) return DateOrTimestamp(true);
  if (AcceptKeyword("TIMESTAMP")) return DateOrTimestamp(false);
  if (AcceptKeyword("TIMESTAMP_NTZ")) return WallClock();
  if (t.kind == K::kString) return Literal::String(Next().text);
  const bool negative = Accept(K::kMinus);
  if (Peek().kind == K::kNumber) return Number(negative);
  return Fail(negative ? "a number after '-'" : "a literal");
}

Result<Literal> Parser::Number(bool negative) {
  const Token& t = Next();
  const std::string text = (negative ? "-" : "") + t.text;
  if (t.text.find_first_of(".eE") != std::string::npos) {
    double v = 0;
    const std::from_chars_result r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
      return SyntaxError(t.offset, "a number within the range of a double", DescribeToken(t));
    }
    return Literal::Double(v);
  }
  int64_t v = 0;
  const std::from_chars_result r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) {
    return SyntaxError(t.offset, "an integer within 64 bits", DescribeToken(t));
  }
  return Literal::Long(v);
}

Result<Literal> Parser::DateOrTimestamp(bool is_date) {
  const Token& t = Peek();
  if (t.kind != K::kString) {
    return Fail(is_date ? "a string 'YYYY-MM-DD' after DATE"
                        : "a string 'YYYY-MM-DD HH:MM:SS' after TIMESTAMP");
  }
  Next();
  if (is_date) {
    std::optional<int64_t> days = ParseDate(t.text);
    if (!days.has_value())
      return SyntaxError(t.offset, "a valid date 'YYYY-MM-DD'", DescribeToken(t));
    return Literal::Date(*days);
  }
  std::optional<ParsedTimestamp> ts = ParseTimestamp(t.text);
  if (!ts.has_value()) {
    return SyntaxError(t.offset, "a valid timestamp 'YYYY-MM-DD HH:MM:SS[.ffffff]'",
                       DescribeToken(t));
  }
  return ts->has_zone ? Literal::Timestamp(ts->micros) : Literal::SessionTimestamp(ts->micros);
}

// TIMESTAMP_NTZ 'YYYY-MM-DD HH:MM:SS[.ffffff]': a wall clock, which has no zone to give.
Result<Literal> Parser::WallClock() {
  const Token& t = Peek();
  if (t.kind != K::kString) return Fail("a string 'YYYY-MM-DD HH:MM:SS' after TIMESTAMP_NTZ");
  Next();
  std::optional<ParsedTimestamp> ts = ParseTimestamp(t.text);
  if (!ts.has_value() || ts->has_zone) {
    return SyntaxError(t.offset, "a wall clock 'YYYY-MM-DD HH:MM:SS[.ffffff]' without a zone",
                       DescribeToken(t));
  }
  return Literal::WallClock(ts->micros);
}

}  // namespace

Result<Expr> ParsePredicate(std::string_view text) {
  if (text.size() > kPredicateTextBytesMax) {
    return Status::OverLimit("predicate: " + std::to_string(text.size()) +
                             " bytes, more than kPredicateTextBytesMax (" +
                             std::to_string(kPredicateTextBytesMax) + ")");
  }
  RLC_ASSIGN_OR_RETURN(std::vector<Token> tokens, Tokenize(text));
  Parser parser(std::move(tokens));
  return parser.Predicate();
}

}  // namespace rlc::predicate
