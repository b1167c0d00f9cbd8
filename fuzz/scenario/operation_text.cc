#include "fuzz/scenario/operation_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "impl/predicate/datetime.h"

namespace rlc::scenario {
namespace {

// Whether `s` is well-formed UTF-8 (Delta's strings are; a data file could not hold others).
bool ValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t extra = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      extra = 1, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3, cp = c & 0x07;
    } else {
      return false;
    }
    if (i + extra >= s.size()) return false;
    for (size_t k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if ((extra == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF))) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

using model::Predicate;
using model::Value;

// A cursor over the text with the few token readers the grammar needs. Every reader skips
// leading blanks; a failed reader records the first error and everything after it fails too.
class Cursor {
 public:
  Cursor(std::string_view text, const std::vector<model::Column>& schema)
      : text_(text), schema_(schema) {}

  bool ok() const { return error_.empty(); }
  Status status() const { return Status::InvalidArgument(error_); }
  bool AtEnd() {
    SkipBlanks();
    return pos_ == text_.size();
  }
  void Fail(const std::string& expected) {
    if (!ok()) return;
    SkipBlanks();
    std::string near(text_.substr(pos_, 20));
    error_ = "at offset " + std::to_string(pos_) + ": expected " + expected +
             (pos_ == text_.size() ? " at the end" : " before '" + near + "'");
  }

  // The next word, case-insensitively, when it equals `word`; consumes it then.
  bool Keyword(std::string_view word) {
    SkipBlanks();
    size_t end = pos_;
    while (end < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_'))
      ++end;
    if (end - pos_ != word.size()) return false;
    for (size_t i = 0; i < word.size(); ++i) {
      if (std::toupper(static_cast<unsigned char>(text_[pos_ + i])) != word[i]) return false;
    }
    pos_ = end;
    return true;
  }
  void Expect(std::string_view word) {
    if (ok() && !Keyword(word)) Fail(std::string(word));
  }
  bool Symbol(std::string_view symbol) {
    SkipBlanks();
    if (text_.substr(pos_, symbol.size()) != symbol) return false;
    pos_ += symbol.size();
    return true;
  }
  void ExpectSymbol(std::string_view symbol) {
    if (ok() && !Symbol(symbol)) Fail("'" + std::string(symbol) + "'");
  }
  std::string Name() {
    SkipBlanks();
    size_t end = pos_;
    while (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) ||
                                  text_[end] == '_' || text_[end] == '.' || text_[end] == '-')) {
      ++end;
    }
    if (end == pos_) {
      Fail("a name");
      return "";
    }
    std::string name(text_.substr(pos_, end - pos_));
    pos_ = end;
    return name;
  }
  // A column of the schema; fails (naming the column) when there is none.
  size_t pos() const { return pos_; }
  void set_pos(size_t at) { pos_ = at; }
  // Whether a literal comes next (a comparison written literal first): a number, a quoted
  // string, X'..', or a keyword that starts a literal.
  bool AtLiteral() {
    if (!ok()) return false;
    SkipBlanks();
    if (pos_ >= text_.size()) return false;
    const char next = text_[pos_];
    const bool hex =
        (next == 'X' || next == 'x') && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\'';
    if (std::isdigit(static_cast<unsigned char>(next)) || next == '-' || next == '\'' || hex)
      return true;
    const size_t at = pos_;
    bool keyword = false;
    for (const char* word : {"TIMESTAMP", "TIMESTAMP_NTZ", "DATE", "CAST", "NULL"})
      keyword = keyword || Keyword(word);
    pos_ = at;
    return keyword;
  }
  // Whether a column comes next (the right side of `column op other`): a name that starts no
  // literal (TRUE and FALSE are a boolean's).
  bool AtColumn() {
    if (!ok() || AtLiteral()) return false;
    if (pos_ >= text_.size() ||
        !(std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      return false;
    const size_t at = pos_;
    const bool boolean = Keyword("TRUE") || Keyword("FALSE");
    pos_ = at;
    return !boolean;
  }
  // Past a literal of any type, up to the operator after it: a quoted string with its prefix
  // (TIMESTAMP '...', X'..'), CAST(...), or a word or number.
  bool SkipLiteral() {
    SkipBlanks();
    const size_t start = pos_;
    while (pos_ < text_.size() && std::strchr("<>=", text_[pos_]) == nullptr) {
      if (text_[pos_] == '\'') {
        const size_t close = text_.find('\'', pos_ + 1);
        if (close == std::string::npos) break;
        pos_ = close;
      }
      ++pos_;
    }
    if (pos_ == start || pos_ >= text_.size()) return Fail("a literal, then a comparison"), false;
    return true;
  }
  const model::Column* ColumnRef() {
    const size_t at = pos_;
    const std::string name = Name();
    if (!ok()) return nullptr;
    for (const model::Column& c : schema_) {
      if (c.name == name) return &c;
    }
    pos_ = at;
    Fail("a column of the table (no column '" + name + "')");
    return nullptr;
  }
  std::optional<int64_t> Integer() {
    SkipBlanks();
    size_t end = pos_;
    if (end < text_.size() && text_[end] == '-') ++end;
    while (end < text_.size() && std::isdigit(static_cast<unsigned char>(text_[end]))) ++end;
    int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text_.data() + pos_, text_.data() + end, v);
    if (ec != std::errc() || ptr != text_.data() + end || end == pos_) return std::nullopt;
    pos_ = end;
    return v;
  }
  // A literal of `type` (or NULL), as model::ToString writes one. A predicate's literal need not
  // be a value of the column (a byte compared with 1000, a float with the double 1.1E0).
  Value Literal(model::ColumnType type) {
    using T = model::ColumnType;
    if (!ok()) return Value{};
    if (Keyword("NULL")) return Value{};
    switch (type) {
      case T::kLong:
      case T::kInteger:
      case T::kShort:
      case T::kByte:
        if (std::optional<int64_t> v = Integer()) return *v;
        Fail("an integer or NULL");
        return Value{};
      case T::kTimestamp:
        return TimestampLiteral();
      case T::kTimestampNtz:
        return WallClockLiteral();
      case T::kDate:
        return DateLiteral();
      case T::kDouble:
      case T::kFloat:
        return DoubleLiteral();
      case T::kBoolean:
        if (Keyword("TRUE")) return model::Boolean{true};
        if (Keyword("FALSE")) return model::Boolean{false};
        return Fail("TRUE, FALSE or NULL"), Value{};
      case T::kDecimal:
        return DecimalLiteral();
      case T::kBinary:
        return BinaryLiteral();
      case T::kString:
        break;
    }
    return QuotedString();
  }
  // A value the column holds, for a row or an assignment: a literal of its type, a decimal at the
  // column's scale (12.5 is 12.50), a float the float nearest the literal (as Spark's store
  // assignment casts it).
  Value ColumnValue(model::ColumnType type) {
    Value v = Literal(type);
    if (auto* d = std::get_if<model::Decimal>(&v); d && d->scale < model::kDecimalScale) {
      for (; d->scale < model::kDecimalScale; ++d->scale) d->unscaled *= 10;
    }
    if (auto* x = std::get_if<model::Double>(&v); x && type == model::ColumnType::kFloat) {
      const double rounded = static_cast<double>(static_cast<float>(x->value));
      // Past the float's range Spark's cast fails (ANSI), where C++'s gives an infinity.
      if (std::isfinite(x->value) && !std::isfinite(rounded))
        return Fail("a value within the range of a float"), Value{};
      x->value = rounded;
    }
    if (ok() && !model::HoldsValueOf(type, v))
      Fail(std::string("a value of type ") + model::TypeName(type));
    return v;
  }
  // -12.50, 7, 0.005: the digits' own scale.
  Value DecimalLiteral() {
    SkipBlanks();
    size_t end = pos_ + (pos_ < text_.size() && text_[pos_] == '-' ? 1 : 0);
    int64_t unscaled = 0;
    int32_t scale = 0;
    bool digits = false, point = false;
    for (; end < text_.size(); ++end) {
      const char ch = text_[end];
      if (ch == '.' && !point) {
        point = true;
        continue;
      }
      if (!std::isdigit(static_cast<unsigned char>(ch))) break;
      if (unscaled > (INT64_MAX - 9) / 10) return Fail("a decimal of at most 18 digits"), Value{};
      unscaled = unscaled * 10 + (ch - '0');
      scale += point ? 1 : 0;
      digits = true;
    }
    if (!digits) return Fail("a decimal (-12.50) or NULL"), Value{};
    const bool negative = text_[pos_] == '-';
    pos_ = end;
    return model::Decimal{negative ? -unscaled : unscaled, scale};
  }
  // X'0A1B': bytes in hexadecimal.
  Value BinaryLiteral() {
    SkipBlanks();
    if (pos_ >= text_.size() || (text_[pos_] != 'X' && text_[pos_] != 'x'))
      return Fail("X'0A1B' or NULL"), Value{};
    ++pos_;
    const Value hex = QuotedString();
    if (!ok()) return Value{};
    const std::string& text = std::get<std::string>(hex);
    if (text.size() % 2 != 0) return Fail("hexadecimal digits in pairs"), Value{};
    std::string bytes;
    for (size_t i = 0; i < text.size(); i += 2) {
      unsigned byte = 0;
      const auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + i + 2, byte, 16);
      if (ec != std::errc() || ptr != text.data() + i + 2)
        return Fail("hexadecimal digits in pairs"), Value{};
      bytes += static_cast<char>(byte);
    }
    return model::Binary{std::move(bytes)};
  }
  // TIMESTAMP_NTZ 'YYYY-MM-DD HH:MM:SS[.ffffff]': a wall clock, so no zone.
  Value WallClockLiteral() {
    if (!Keyword("TIMESTAMP_NTZ")) return Fail("TIMESTAMP_NTZ '...' or NULL"), Value{};
    const Value text = QuotedString();
    if (!ok()) return Value{};
    const std::optional<predicate::ParsedTimestamp> ts =
        predicate::ParseTimestamp(std::get<std::string>(text));
    if (!ts || ts->has_zone) return Fail("a timestamp_ntz without a zone"), Value{};
    return model::TimestampNtz{ts->micros};
  }
  // TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.ffffff]Z' (or an offset): an instant, so the zone is required.
  Value TimestampLiteral() {
    if (!Keyword("TIMESTAMP")) return Fail("TIMESTAMP '...Z' or NULL"), Value{};
    const Value text = QuotedString();
    if (!ok()) return Value{};
    const std::optional<predicate::ParsedTimestamp> ts =
        predicate::ParseTimestamp(std::get<std::string>(text));
    if (!ts || !ts->has_zone) return Fail("a timestamp with a zone (Z or an offset)"), Value{};
    return model::Timestamp{ts->micros};
  }
  Value DateLiteral() {
    if (!Keyword("DATE")) return Fail("DATE 'YYYY-MM-DD' or NULL"), Value{};
    const Value text = QuotedString();
    if (!ok()) return Value{};
    const std::optional<int64_t> days = predicate::ParseDate(std::get<std::string>(text));
    if (!days || *days < INT32_MIN || *days > INT32_MAX) return Fail("a date YYYY-MM-DD"), Value{};
    return model::Date{static_cast<int32_t>(*days)};
  }
  // 1.5E0, -0.0E0, 1e+300; CAST('NaN' AS DOUBLE) and the infinities likewise.
  Value DoubleLiteral() {
    if (Keyword("CAST")) {
      const bool open = Symbol('(');
      const Value word = open ? QuotedString() : Value{};
      if (!ok() || !open || !Keyword("AS") || !Keyword("DOUBLE") || !Symbol(')'))
        return Fail("CAST('NaN' AS DOUBLE)"), Value{};
      const std::string& w = std::get<std::string>(word);
      if (w == "NaN") return model::Double{std::numeric_limits<double>::quiet_NaN()};
      if (w == "Infinity") return model::Double{std::numeric_limits<double>::infinity()};
      if (w == "-Infinity") return model::Double{-std::numeric_limits<double>::infinity()};
      return Fail("'NaN', 'Infinity' or '-Infinity'"), Value{};
    }
    SkipBlanks();
    size_t end = pos_;
    while (end < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[end])) ||
                                  std::strchr("+-.eE", text_[end]) != nullptr))
      ++end;
    double v = 0;
    const auto [ptr, ec] = std::from_chars(text_.data() + pos_, text_.data() + end, v);
    if (ec != std::errc() || ptr != text_.data() + end || end == pos_)
      return Fail("a double (1.5E0) or NULL"), Value{};
    pos_ = end;
    return model::Double{v};
  }
  bool Symbol(char c) {
    SkipBlanks();
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  // 'text', with '' for a quote.
  Value QuotedString() {
    if (!ok()) return Value{};
    SkipBlanks();
    if (pos_ >= text_.size() || text_[pos_] != '\'') {
      Fail("a 'string' or NULL");
      return Value{};
    }
    std::string s;
    for (size_t i = pos_ + 1; i < text_.size(); ++i) {
      if (text_[i] != '\'') {
        s += text_[i];
      } else if (i + 1 < text_.size() && text_[i + 1] == '\'') {
        s += '\'';
        ++i;
      } else {
        if (!ValidUtf8(s)) {
          Fail("a string of well-formed UTF-8");
          return Value{};
        }
        pos_ = i + 1;
        return s;
      }
    }
    Fail("the closing quote of a string");
    return Value{};
  }
  const std::vector<model::Column>& schema() const { return schema_; }

 private:
  void SkipBlanks() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  std::string_view text_;
  const std::vector<model::Column>& schema_;
  size_t pos_ = 0;
  std::string error_;
};

Predicate ParseOr(Cursor& c);

std::optional<Predicate::Op> ParseOp(Cursor& c) {
  using Op = Predicate::Op;
  // Longer symbols first, so "<=" is not read as "<".
  static const std::pair<const char*, Op> kOps[] = {{"<>", Op::kNe}, {"<=", Op::kLe},
                                                    {">=", Op::kGe}, {"=", Op::kEq},
                                                    {"<", Op::kLt},  {">", Op::kGt}};
  for (const auto& [symbol, op] : kOps) {
    if (c.Symbol(symbol)) return op;
  }
  c.Fail("a comparison (= <> < <= > >=), IN or IS [NOT] NULL");
  return std::nullopt;
}

// `literal op column` (model::ToString's literal_first): the literal's type is the column's, so
// the column after the operator is read first, then the literal before it.
Predicate ParseLiteralFirst(Cursor& c) {
  using Op = Predicate::Op;
  const size_t literal_at = c.pos();
  if (!c.SkipLiteral()) return Predicate::False();
  const std::optional<Op> op = ParseOp(c);
  if (!op) return Predicate::False();
  const model::Column* column = c.ColumnRef();
  if (!c.ok()) return Predicate::False();
  const size_t after = c.pos();
  c.set_pos(literal_at);
  Value literal = c.Literal(column->type);
  c.set_pos(after);
  static constexpr Op kMirrored[] = {Op::kEq, Op::kNe, Op::kGt, Op::kGe, Op::kLt, Op::kLe};
  Predicate p = Predicate::Compare(column->name, kMirrored[static_cast<int>(*op)], literal);
  p.literal_first = true;
  return p;
}

// `column op other`: the other column's values must compare with the first's.
Predicate ParseOtherColumn(Cursor& c, const model::Column& column, Predicate::Op op) {
  const model::Column* other = c.ColumnRef();
  if (!c.ok()) return Predicate::False();
  if (!model::ComparableTypes(column.type, other->type)) {
    c.Fail(std::string("a column that compares with ") + column.name + " (" +
           model::TypeName(column.type) + "), not " + other->name + " (" +
           model::TypeName(other->type) + ")");
    return Predicate::False();
  }
  return Predicate::CompareColumns(column.name, op, other->name);
}

Predicate ParseAtom(Cursor& c) {
  if (c.Keyword("TRUE")) return Predicate::True();
  if (c.Keyword("FALSE")) return Predicate::False();
  if (c.Keyword("NOT")) {
    c.ExpectSymbol("(");
    Predicate inner = ParseOr(c);
    c.ExpectSymbol(")");
    return Predicate::Not(std::move(inner));
  }
  if (c.Symbol("(")) {
    Predicate inner = ParseOr(c);
    c.ExpectSymbol(")");
    return inner;
  }
  if (c.AtLiteral()) return ParseLiteralFirst(c);
  const model::Column* column = c.ColumnRef();
  if (!c.ok()) return Predicate::False();
  if (c.Keyword("IS")) {
    const bool negated = c.Keyword("NOT");
    c.Expect("NULL");
    return negated ? Predicate::IsNotNull(column->name) : Predicate::IsNull(column->name);
  }
  if (c.Keyword("IN")) {  // `column IN (v, ...)`, the OR of its equalities
    std::vector<Value> values;
    c.ExpectSymbol("(");
    do {
      values.push_back(c.Literal(column->type));
    } while (c.ok() && c.Symbol(","));
    c.ExpectSymbol(")");
    return Predicate::In(column->name, values);
  }
  // `column % N`: a long column's remainder (N a non-zero integer).
  int64_t modulus = 0;
  if (c.Symbol("%")) {
    const std::optional<int64_t> n = c.Integer();
    if (column->type != model::ColumnType::kLong || !n.has_value() || *n == 0) {
      c.Fail("a long column and a non-zero integer around '%'");
      return Predicate::False();
    }
    modulus = *n;
  }
  const std::optional<Predicate::Op> op = ParseOp(c);
  if (!op) return Predicate::False();
  Predicate p = c.AtColumn() ? ParseOtherColumn(c, *column, *op)
                             : Predicate::Compare(column->name, *op, c.Literal(column->type));
  p.modulus = modulus;
  return p;
}

Predicate ParseAnd(Cursor& c) {
  std::vector<Predicate> terms = {ParseAtom(c)};
  while (c.ok() && c.Keyword("AND")) terms.push_back(ParseAtom(c));
  return terms.size() == 1 ? terms[0] : Predicate::And(std::move(terms));
}

Predicate ParseOr(Cursor& c) {
  std::vector<Predicate> terms = {ParseAnd(c)};
  while (c.ok() && c.Keyword("OR")) terms.push_back(ParseAnd(c));
  return terms.size() == 1 ? terms[0] : Predicate::Or(std::move(terms));
}

std::vector<Value> ParseTuple(Cursor& c) {
  std::vector<Value> values;
  c.ExpectSymbol("(");
  for (size_t i = 0; c.ok() && i < c.schema().size(); ++i) {
    if (i > 0) c.ExpectSymbol(",");
    values.push_back(c.ColumnValue(c.schema()[i].type));
  }
  if (c.ok() && !c.Symbol(")"))
    c.Fail("')' after " + std::to_string(c.schema().size()) + " values (one per column)");
  return values;
}

std::vector<std::vector<Value>> ParseTuples(Cursor& c) {
  std::vector<std::vector<Value>> rows = {ParseTuple(c)};
  while (c.ok() && c.Symbol(",")) rows.push_back(ParseTuple(c));
  return rows;
}

std::vector<model::Assignment> ParseAssignments(Cursor& c) {
  std::vector<model::Assignment> set;
  do {
    const model::Column* column = c.ColumnRef();
    c.ExpectSymbol("=");
    if (!c.ok()) break;
    set.push_back({column->name, c.ColumnValue(column->type)});
  } while (c.ok() && c.Symbol(","));
  return set;
}

Predicate OptionalWhere(Cursor& c) { return c.Keyword("WHERE") ? ParseOr(c) : Predicate::True(); }
Predicate OptionalAnd(Cursor& c) { return c.Keyword("AND") ? ParseOr(c) : Predicate::True(); }

model::Operation ParseMerge(Cursor& c) {
  model::Merge merge;
  merge.source_rows = ParseTuples(c);
  c.Expect("ON");
  if (const model::Column* key = c.ColumnRef()) merge.key_column = key->name;
  using Kind = model::MergeClause::Kind;
  while (c.ok() && c.Keyword("WHEN")) {
    model::MergeClause clause;
    if (c.Keyword("MATCHED")) {
      clause.condition = OptionalAnd(c);
      c.Expect("THEN");
      if (c.Keyword("DELETE")) {
        clause.kind = Kind::kMatchedDelete;
      } else {
        c.Expect("UPDATE");
        c.Expect("SET");
        clause.kind = Kind::kMatchedUpdate;
        if (c.Symbol("*")) {
          clause.set_from_source = true;
        } else {
          clause.set = ParseAssignments(c);
        }
      }
    } else {
      c.Expect("NOT");
      c.Expect("MATCHED");
      if (c.Keyword("BY")) {
        c.Expect("SOURCE");
        clause.kind = Kind::kNotMatchedBySourceDelete;
        clause.condition = OptionalAnd(c);
        c.Expect("THEN");
        c.Expect("DELETE");
      } else {
        clause.kind = Kind::kNotMatchedInsert;
        clause.condition = OptionalAnd(c);
        c.Expect("THEN");
        c.Expect("INSERT");
      }
    }
    merge.clauses.push_back(std::move(clause));
  }
  if (c.ok() && merge.clauses.empty()) c.Fail("a WHEN clause");
  return merge;
}

model::Operation ParseInsert(Cursor& c) {
  if (c.Keyword("SELECT")) {
    model::InsertSelect op;
    if (c.Symbol("(")) {
      op.overrides = ParseAssignments(c);
      c.ExpectSymbol(")");
    }
    op.source = OptionalWhere(c);
    return op;
  }
  c.Expect("VALUES");
  model::BlindInsert insert{ParseTuples(c)};
  if (!c.Symbol("[")) return insert;
  c.Expect("TXN");
  model::IdempotentWrite write;
  write.app_id = c.Name();
  const std::string version = c.Name();
  int64_t v = -1;
  if (c.ok() && (version.size() < 2 || version[0] != 'v' ||
                 std::from_chars(version.data() + 1, version.data() + version.size(), v).ptr !=
                     version.data() + version.size())) {
    c.Fail("a version written vN");
  }
  c.ExpectSymbol("]");
  write.version = v;
  write.insert = std::move(insert);
  return write;
}

model::Operation ParseOne(Cursor& c) {
  if (c.Keyword("INSERT")) return ParseInsert(c);
  if (c.Keyword("DELETE")) return model::Delete{OptionalWhere(c)};
  if (c.Keyword("UPDATE")) {
    c.Expect("SET");
    model::Update op;
    op.set = ParseAssignments(c);
    op.where = OptionalWhere(c);
    return op;
  }
  if (c.Keyword("MERGE")) {
    c.Expect("USING");
    return ParseMerge(c);
  }
  if (c.Keyword("OPTIMIZE")) {
    model::Optimize op;
    if (c.Keyword("ZORDER")) {
      c.Expect("BY");
      c.ExpectSymbol("(");
      do {
        if (const model::Column* column = c.ColumnRef()) op.zorder_by.push_back(column->name);
      } while (c.ok() && c.Symbol(","));
      c.ExpectSymbol(")");
    }
    return op;
  }
  if (c.Keyword("SET")) {
    c.Expect("TBLPROPERTIES");
    c.ExpectSymbol("(");
    model::MetadataChange op;
    op.key = c.Name();
    c.ExpectSymbol("=");
    const Value v = c.Literal(model::ColumnType::kString);
    if (c.ok() && model::IsNull(v)) c.Fail("a 'string' value");
    if (c.ok()) op.value = std::get<std::string>(v);
    c.ExpectSymbol(")");
    return op;
  }
  if (c.Keyword("ADD")) {
    c.Expect("FEATURE");
    return model::ProtocolChange{c.Name()};
  }
  c.Fail("an operation (INSERT, DELETE, UPDATE, MERGE, OPTIMIZE, SET TBLPROPERTIES, ADD FEATURE)");
  return model::Optimize{};
}

}  // namespace

Result<model::Operation> ParseOperation(std::string_view text,
                                        const std::vector<model::Column>& schema) {
  Cursor c(text, schema);
  model::Operation op = ParseOne(c);
  if (c.ok() && !c.AtEnd()) c.Fail("the end of the operation");
  if (!c.ok()) return c.status();
  return op;
}

Result<model::Predicate> ParsePredicate(std::string_view text,
                                        const std::vector<model::Column>& schema) {
  Cursor c(text, schema);
  Predicate p = ParseOr(c);
  if (c.ok() && !c.AtEnd()) c.Fail("AND, OR or the end of the predicate");
  if (!c.ok()) return c.status();
  return p;
}

Result<std::vector<std::vector<model::Value>>> ParseRows(std::string_view text,
                                                         const std::vector<model::Column>& schema) {
  Cursor c(text, schema);
  std::vector<std::vector<Value>> rows = ParseTuples(c);
  if (c.ok() && !c.AtEnd()) c.Fail("',' or the end of the rows");
  if (!c.ok()) return c.status();
  return rows;
}

}  // namespace rlc::scenario
