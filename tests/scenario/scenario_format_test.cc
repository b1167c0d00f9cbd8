// The scenario format: operations read back from the text model::Describe writes, scenario files
// parsed and written back, and every malformed line named with its file and line.
#include <gtest/gtest.h>

#include <cmath>

#include "fuzz/scenario/operation_text.h"
#include "fuzz/scenario/scenario.h"
#include "impl/conflict/case_catalogue.h"

namespace rlc::scenario {
namespace {

using model::Predicate;

const std::vector<model::Column>& Schema() {
  static const std::vector<model::Column> schema = model::MakeTable(false).schema;
  return schema;
}

model::Operation MustParse(const std::string& text) {
  Result<model::Operation> op = ParseOperation(text, Schema());
  EXPECT_TRUE(op.ok()) << text << ": " << op.status().ToString();
  return op.ok() ? *op : model::Operation{model::Optimize{}};
}

TEST(OperationText, EveryKindReadsBackFromItsDescription) {
  using Kind = model::MergeClause::Kind;
  model::Merge merge;
  merge.source_rows = {{int64_t{4}, std::string("it's")}, {int64_t{30}, model::Value{}}};
  merge.key_column = "id";
  merge.clauses = {{Kind::kMatchedUpdate,
                    Predicate::Compare("value", Predicate::Op::kNe, std::string("x")),
                    {{"value", std::string("m")}},
                    false},
                   {Kind::kMatchedUpdate, Predicate::True(), {}, true},
                   {Kind::kMatchedDelete, Predicate::True(), {}, false},
                   {Kind::kNotMatchedInsert, Predicate::IsNotNull("value"), {}, false},
                   {Kind::kNotMatchedBySourceDelete,
                    Predicate::Compare("id", Predicate::Op::kGe, int64_t{7}),
                    {},
                    false}};
  const std::vector<model::Operation> ops = {
      model::BlindInsert{{{int64_t{1}, std::string("a")}, {int64_t{-2}, model::Value{}}}},
      model::InsertSelect{Predicate::Compare("id", Predicate::Op::kLt, int64_t{3}),
                          {{"value", std::string("copy")}}},
      model::InsertSelect{Predicate::True(), {}},
      model::Delete{Predicate::Or({Predicate::Compare("id", Predicate::Op::kEq, int64_t{2}),
                                   Predicate::And({Predicate::IsNull("value"),
                                                   Predicate::Not(Predicate::Compare(
                                                       "id", Predicate::Op::kLe, int64_t{5}))})})},
      model::Delete{Predicate::True()},
      model::Delete{Predicate::CompareRemainder("id", 2, Predicate::Op::kEq, int64_t{1})},
      model::InsertSelect{
          Predicate::Not(Predicate::CompareRemainder("id", -3, Predicate::Op::kLt, int64_t{-1})),
          {}},
      model::Update{Predicate::Compare("value", Predicate::Op::kGt, std::string("v3")),
                    {{"value", std::string("u")}, {"id", int64_t{9}}}},
      merge,
      model::Optimize{},
      model::Optimize{{"value", "id"}},
      model::MetadataChange{"delta.appendOnly", "false"},
      model::ProtocolChange{"rowTracking"},
      model::IdempotentWrite{"app-1", 3, model::BlindInsert{{{int64_t{5}, std::string("e")}}}},
  };
  for (const model::Operation& op : ops) {
    const std::string text = model::Describe(op);
    const model::Operation back = MustParse(text);
    EXPECT_EQ(model::Describe(back), text);
    EXPECT_EQ(back.index(), op.index()) << text;
  }
  // Keywords in any case; blanks anywhere.
  EXPECT_EQ(model::Describe(MustParse("delete   where id>=2 and value is null")),
            "DELETE WHERE id >= 2 AND value IS NULL");
}

TEST(OperationText, ErrorsNameTheOffsetAndWhatWasExpected) {
  auto error = [](const std::string& text) {
    Result<model::Operation> op = ParseOperation(text, Schema());
    EXPECT_FALSE(op.ok()) << text;
    return op.ok() ? std::string() : op.status().message();
  };
  EXPECT_EQ(error("DELETE WHERE idd = 2"),
            "at offset 13: expected a column of the table (no column 'idd') before 'idd = 2'");
  EXPECT_EQ(error("DELETE WHERE id = 'two'"),
            "at offset 18: expected an integer or NULL before ''two''");
  EXPECT_EQ(error("DELETE WHERE value = 2"),
            "at offset 21: expected a 'string' or NULL before '2'");
  EXPECT_EQ(error("DELETE WHERE value % 2 = 1"),
            "at offset 23: expected a long column and a non-zero integer around '%' before '= 1'");
  EXPECT_EQ(error("DELETE WHERE id % 0 = 1"),
            "at offset 20: expected a long column and a non-zero integer around '%' before '= 1'");
  EXPECT_EQ(error("INSERT VALUES (1)"), "at offset 16: expected ',' before ')'");
  EXPECT_EQ(error("INSERT VALUES (1, 'a', 3)"),
            "at offset 21: expected ')' after 2 values (one per column) before ', 3)'");
  EXPECT_EQ(error("DELETE WHERE id = 1 trailing"),
            "at offset 20: expected the end of the operation before 'trailing'");
  EXPECT_EQ(error("TRUNCATE"),
            "at offset 0: expected an operation (INSERT, DELETE, UPDATE, MERGE, OPTIMIZE, SET "
            "TBLPROPERTIES, "
            "ADD FEATURE) before 'TRUNCATE'");
  EXPECT_EQ(error("MERGE USING (1, 'a') ON id"), "at offset 26: expected a WHEN clause at the end");
  EXPECT_EQ(error("INSERT VALUES (1, 'caf\xC3')"),
            "at offset 18: expected a string of well-formed UTF-8 before ''caf\xC3')'");
  EXPECT_EQ(model::Describe(MustParse("INSERT VALUES (1, 'caf\xC3\xA9 \xF0\x9F\x98\x80')")),
            "INSERT VALUES (1, 'caf\xC3\xA9 \xF0\x9F\x98\x80')");
  EXPECT_EQ(error("INSERT VALUES (1, 'unterminated)"),
            "at offset 18: expected the closing quote of a string before ''unterminated)'");
}

constexpr char kScenario[] = R"(scenario two deletes
# a comment
table files 3 statistics off isolation WriteSerializable optimize-target 4
rows (1, 'v1'), (2, 'v2'), (3, 'v3')
setup DELETE WHERE id = 3
txn A DELETE WHERE id = 2
txn B OPTIMIZE
txn C raw
{"commitInfo":{"timestamp":1,"operation":"WRITE"}}
flags A rowLevelConcurrency.enabled conflictDetection.dataSkipping.valueExact.maxBytes=64
flags B all
optimize B layout split target 2 capture off
reads C whole-table
reads A where value IS NOT NULL
A starts
B starts
B commits
A commits
expect A commits
expect A event delta.rowLevelConcurrency.deletionVectorsMerged
expect B aborts ConcurrentDeleteDeleteException
expect rows (1, 'v1'), (3, NULL)
expect dv 1: 1 2
expect dv-cardinalities 0 2
expect missed-reconcile
)";

TEST(ScenarioFormat, ParsesEveryStatement) {
  Result<Scenario> s = ParseScenario(kScenario, "x.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->title, "two deletes");
  EXPECT_EQ(s->table.files, 3);
  EXPECT_FALSE(s->table.statistics);
  EXPECT_EQ(s->table.isolation, model::IsolationLevel::kWriteSerializable);
  EXPECT_EQ(s->table.optimize_target, 4);
  EXPECT_EQ(s->table.rows.size(), 3u);
  ASSERT_EQ(s->setup.size(), 1u);
  EXPECT_EQ(s->setup[0].second, 5);
  ASSERT_EQ(s->txns.size(), 3u);
  EXPECT_TRUE(s->txns[0].flags.On(conflict::CaseId::kRowLevelConcurrency));
  EXPECT_FALSE(s->txns[0].flags.On(conflict::CaseId::kOptimizeReconcile));
  EXPECT_EQ(s->txns[0].flags.value_exact_max_bytes, 64);
  EXPECT_TRUE(s->txns[1].flags.On(conflict::CaseId::kOptimizeReconcileReverse));
  EXPECT_EQ(s->txns[1].optimize.layout, simulator::OptimizeLayout::kSplit);
  EXPECT_EQ(s->txns[1].optimize.target_rows, 2);
  EXPECT_FALSE(s->txns[1].optimize.capture);
  EXPECT_FALSE(s->txns[2].operation.has_value());
  EXPECT_EQ(s->txns[2].raw_actions.size(), 1u);
  EXPECT_TRUE(s->txns[2].reads_whole_table);
  EXPECT_EQ(s->txns[0].extra_reads.size(), 1u);
  ASSERT_EQ(s->steps.size(), 4u);
  EXPECT_EQ(s->steps[2].txn, "B");
  EXPECT_EQ(s->steps[2].kind, Step::Kind::kCommit);
  ASSERT_EQ(s->expectations.size(), 7u);
  EXPECT_EQ(s->expectations[2].name, "ConcurrentDeleteDeleteException");
  EXPECT_EQ(s->expectations[3].rows.size(), 2u);
  EXPECT_EQ(s->expectations[4].number, 1);
  EXPECT_EQ(s->expectations[4].numbers, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(s->expectations[6].kind, Expectation::Kind::kMissedReconcile);
}

TEST(ScenarioFormat, WritesTextThatReadsBackTheSame) {
  Result<Scenario> s = ParseScenario(kScenario, "x.scenario");
  ASSERT_TRUE(s.ok());
  const std::string text = FormatScenario(*s);
  Result<Scenario> again = ParseScenario(text, "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << text;
  EXPECT_EQ(FormatScenario(*again), text);
  EXPECT_EQ(again->txns[0].flags.value_exact_max_bytes, 64);
  EXPECT_FALSE(again->txns[1].optimize.capture);
  EXPECT_EQ(again->expectations.size(), s->expectations.size());
}

TEST(ScenarioFormat, TypedColumnsAndTheirLiteralsReadBack) {
  const std::string text =
      "table partitioned partition-type timestamp column-x double files 1 zone -08:00\n"
      "rows (1, 'v1', 1.5E0, TIMESTAMP '2024-03-10 05:00:00Z')\n"
      "rows (2, NULL, CAST('NaN' AS DOUBLE), TIMESTAMP '2024-03-10 05:00:00.000001+01:00')\n"
      "txn A DELETE WHERE x >= -0E0 AND part < TIMESTAMP '2024-03-10 04:00:00.000000Z'\n"
      "A starts\nA commits\n";
  Result<Scenario> s = ParseScenario(text, "typed.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->table.session_offset_minutes, -8 * 60);
  ASSERT_EQ(s->table.rows.size(), 2u);
  // 2024-03-10T05:00:00Z; the second row's +01:00 is an hour earlier, plus a microsecond.
  EXPECT_EQ(s->table.rows[0][3], model::Value{model::Timestamp{1710046800000000}});
  EXPECT_EQ(s->table.rows[1][3], model::Value{model::Timestamp{1710043200000001}});
  EXPECT_TRUE(std::isnan(std::get<model::Double>(s->table.rows[1][2]).value));
  Result<Scenario> again = ParseScenario(FormatScenario(*s), "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << FormatScenario(*s);
  EXPECT_EQ(FormatScenario(*again), FormatScenario(*s));
  EXPECT_EQ(again->table.rows, s->table.rows);
  // A timestamp literal must say its zone: a wall clock alone is no instant.
  EXPECT_FALSE(
      ParseScenario("table column-x timestamp\nrows (1, 'a', TIMESTAMP '2024-03-10 05:00:00')\n",
                    "t.scenario")
          .ok());
  EXPECT_FALSE(ParseScenario("table zone +19:00\n", "t.scenario").ok());
}

// Every other Delta primitive type as a column, its literals as model::ToString writes them, read
// back to the same values; a row holds only values of its column's type.
TEST(ScenarioFormat, EveryPrimitiveTypeAndItsLiteralsReadBack) {
  for (const char* type : {"boolean", "byte", "short", "integer", "float", "decimal(10,2)",
                           "binary", "timestamp_ntz"}) {
    const std::string text =
        std::string("table column-x ") + type + " files 1\nrows (1, 'a', NULL)\n";
    Result<Scenario> s = ParseScenario(text, "t.scenario");
    ASSERT_TRUE(s.ok()) << type << ": " << s.status().ToString();
    EXPECT_EQ(model::TypeName(*s->table.typed_column), std::string(type));
  }
  const std::string text =
      "table partitioned partition-type decimal(10,2) column-x float files 1\n"
      "rows (1, 'v1', 1.100000023841858E0, -12.5)\n"
      "rows (2, NULL, CAST('NaN' AS DOUBLE), 99999999.99)\n"
      "txn A DELETE WHERE x >= 1.1E0 AND part < 0.005\n"
      "A starts\nA commits\n";
  Result<Scenario> s = ParseScenario(text, "typed.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->table.rows[0][3], (model::Value{model::Decimal{-1250, 2}}));
  EXPECT_EQ(model::ToString(s->table.rows[0][3]), "-12.50");
  Result<Scenario> again = ParseScenario(FormatScenario(*s), "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << FormatScenario(*s);
  EXPECT_EQ(again->table.rows, s->table.rows);
  EXPECT_EQ(FormatScenario(*again), FormatScenario(*s));
  const std::string more =
      "table column-x timestamp_ntz files 1\n"
      "rows (1, 'a', TIMESTAMP_NTZ '2024-03-10 05:00:00.000001')\n";
  Result<Scenario> ntz = ParseScenario(more, "t.scenario");
  ASSERT_TRUE(ntz.ok()) << ntz.status().ToString();
  EXPECT_EQ(ntz->table.rows[0][2], (model::Value{model::TimestampNtz{1710046800000001}}));
  Result<Scenario> bin = ParseScenario("table column-x binary\nrows (1, 'a', X'ff00')\n", "b");
  ASSERT_TRUE(bin.ok()) << bin.status().ToString();
  EXPECT_EQ(bin->table.rows[0][2], (model::Value{model::Binary{std::string("\xff\x00", 2)}}));
  // Values out of the column's type are refused, named by the type.
  for (const char* bad :
       {"table column-x byte\nrows (1, 'a', 128)\n",
        "table column-x decimal(10,2)\nrows (1, 'a', 0.005)\n",
        "table column-x float\nrows (1, 'a', 1E300)\n",
        "table column-x timestamp_ntz\nrows (1, 'a', TIMESTAMP_NTZ '2024-03-10 05:00:00Z')\n",
        "table partitioned partition-type binary\n"}) {
    EXPECT_FALSE(ParseScenario(bad, "t.scenario").ok()) << bad;
  }
}

// SQL's other spellings read back as written: a literal on the left, an IN list with a NULL.
TEST(ScenarioFormat, LiteralsOnTheLeftAndInListsReadBack) {
  const std::string text =
      "table column-x decimal(10,2) files 1\nrows (1, 'a', 1.5)\n"
      "txn A DELETE WHERE 5 > id AND x IN (1.50, NULL) OR 'a' <> value\n"
      "txn B UPDATE SET value = 'b' WHERE NOT (id IN (1, 2)) AND TIMESTAMP_NTZ_IS_NO_COLUMN = 1\n";
  EXPECT_FALSE(ParseScenario(text, "t.scenario").ok());  // no such column: named
  const std::string good = text.substr(0, text.find("txn B"));
  Result<Scenario> s = ParseScenario(good + "A starts\nA commits\n", "t.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  const model::Operation& op = *s->txns[0].operation;
  const model::Predicate& where = std::get<model::Delete>(op).where;
  EXPECT_EQ(model::ToString(where), "(5 > id AND x IN (1.50, NULL)) OR 'a' <> value");
  const model::Predicate& first = where.children[0].children[0];
  EXPECT_EQ(first.op, model::Predicate::Op::kLt);  // 5 > id is id < 5
  EXPECT_TRUE(first.literal_first);
  EXPECT_TRUE(where.children[0].children[1].in_list);
  Result<Scenario> again = ParseScenario(FormatScenario(*s), "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << FormatScenario(*s);
  EXPECT_EQ(FormatScenario(*again), FormatScenario(*s));
}

// A column on the right of a comparison reads back as a column; one whose values do not compare
// with the left one's is refused, naming both types.
TEST(ScenarioFormat, TwoColumnsComparedReadBack) {
  const std::string table =
      "table column-x short partitioned partition-type string files 1\n"
      "rows (1, 'a', 2, 'p')\n";
  Result<Scenario> s = ParseScenario(
      table + "txn A DELETE WHERE id < x OR value = part OR id % 3 = x\nA starts\nA commits\n",
      "t.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  const model::Predicate& where = std::get<model::Delete>(*s->txns[0].operation).where;
  EXPECT_EQ(where.children.at(0).other_column, "x");
  EXPECT_EQ(where.children.at(1).other_column, "part");
  EXPECT_EQ(model::ToString(where), "id < x OR value = part OR id % 3 = x");
  Result<Scenario> again = ParseScenario(FormatScenario(*s), "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(FormatScenario(*again), FormatScenario(*s));
  Result<Scenario> bad = ParseScenario(table + "txn A DELETE WHERE id = value\n", "t.scenario");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("id (long), not value (string)"), std::string::npos)
      << bad.status().ToString();
}

// A table partitioned by several columns: `partition-types` lists them in order (split at the
// commas outside a decimal's parentheses), rows give one value per column, predicates name
// `part2`, and the text reads back the same; a one-column table keeps the older spelling.
TEST(ScenarioFormat, SeveralPartitionColumnsReadBack) {
  const std::string text =
      "table partition-types string,decimal(10,2),date files 1\n"
      "rows (1, 'v1', 'a', 1.25, DATE '2024-03-10'), (2, 'v2', NULL, NULL, NULL)\n"
      "txn A DELETE WHERE part2 > 1.00 AND part = part OR part3 IS NULL\nA starts\nA commits\n";
  Result<Scenario> s = ParseScenario(text, "t.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_TRUE(s->table.partitioned);
  ASSERT_EQ(s->table.PartitionTypes().size(), 3u);
  EXPECT_EQ(std::string(model::TypeName(s->table.PartitionTypes()[1])), "decimal(10,2)");
  EXPECT_EQ(s->table.rows[0][3], (model::Value{model::Decimal{125, 2}}));
  const model::LogicalTable start = s->StartingTable();
  ASSERT_EQ(start.schema.size(), 5u);
  EXPECT_EQ(start.schema[2].name, "part");
  EXPECT_EQ(start.schema[3].name, "part2");
  EXPECT_EQ(start.schema[4].name, "part3");
  EXPECT_TRUE(start.schema[4].is_partition);
  const std::string formatted = FormatScenario(*s);
  EXPECT_NE(formatted.find("partitioned partition-types string,decimal(10,2),date "),
            std::string::npos)
      << formatted;
  Result<Scenario> again = ParseScenario(formatted, "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << formatted;
  EXPECT_EQ(again->table.rows, s->table.rows);
  EXPECT_EQ(FormatScenario(*again), formatted);
  Result<Scenario> one = ParseScenario("table partition-types string\n", "t.scenario");
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_NE(FormatScenario(*one).find("table partitioned partition-type string "),
            std::string::npos);
  for (const char* bad :
       {"table partition-types long,binary\n", "table partition-types long,nothing\n",
        "table partition-types long,\n", "table partition-types long,long,long,long,long\n",
        "table partition-type long partition-types long,string\n",
        "table partition-types long,string\nrows (1, 'a', 1)\n"}) {
    Result<Scenario> refused = ParseScenario(bad, "t.scenario");
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.status().message().find("t.scenario:"), std::string::npos)
        << refused.status().ToString();
  }
}

// A UTF8_LCASE `value` reads back, and its schema column carries the collation; a value that is
// not ASCII text is refused (the model lowercases ASCII letters only), as is an unknown name.
TEST(ScenarioFormat, ACollatedValueReadsBack) {
  Result<Scenario> s = ParseScenario(
      "table value-collation UTF8_LCASE files 1\nrows (1, 'V1')\n"
      "txn A DELETE WHERE value = 'v1'\nA starts\nA commits\n",
      "t.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->table.value_collation, model::Collation::kUtf8Lcase);
  EXPECT_EQ(s->StartingTable().schema[1].collation, model::Collation::kUtf8Lcase);
  const std::string formatted = FormatScenario(*s);
  EXPECT_NE(formatted.find(" value-collation UTF8_LCASE"), std::string::npos) << formatted;
  Result<Scenario> again = ParseScenario(formatted, "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(FormatScenario(*again), formatted);
  for (const char* bad :
       {"table value-collation UTF8_LCASE\nrows (1, 'É')\n", "table value-collation UNICODE\n"}) {
    Result<Scenario> refused = ParseScenario(bad, "t.scenario");
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_NE(refused.status().message().find("t.scenario:"), std::string::npos);
  }
}

// Which file a `readds elsewhere` writer moves is part of the writer's grammar: the explorer
// draws it, and a counterexample must replay the same file.
TEST(ScenarioFormat, WhichFileAWriterReAddsElsewhereReadsBack) {
  const std::string head =
      "table partitioned files 2\nrows (1, 'a', 0)\nrows (2, 'b', 1)\n"
      "txn A INSERT VALUES (3, 'c', 0)\n";
  Result<Scenario> first = ParseScenario(head + "writer A readds elsewhere\n", "t.scenario");
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_TRUE(first->txns[0].writer.readd_elsewhere);
  EXPECT_EQ(first->txns[0].writer.readd_which, 0);
  Result<Scenario> third = ParseScenario(head + "writer A readds elsewhere:2\n", "t.scenario");
  ASSERT_TRUE(third.ok()) << third.status().ToString();
  EXPECT_EQ(third->txns[0].writer.readd_which, 2);
  EXPECT_NE(FormatScenario(*third).find("writer A readds elsewhere:2\n"), std::string::npos);
  Result<Scenario> again = ParseScenario(FormatScenario(*third), "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->txns[0].writer, third->txns[0].writer);
  for (const char* bad : {"elsewhere:256", "elsewhere:-1", "elsewhere:x", "elsewhere2"}) {
    Result<Scenario> s = ParseScenario(head + "writer A readds " + bad + "\n", "t.scenario");
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(
        s.status().message(),
        std::string("t.scenario:5: writer: readds elsewhere[:N] (N 0 to 255), not '") + bad + "'");
  }
}

TEST(ScenarioFormat, CheckpointLayoutsAndAWidenedColumnReadBack) {
  using L = rlc::parquet::CheckpointLayout::Kind;
  const std::string text =
      "table column-x double column-x-widened-from float files 1 checkpoints 2 "
      "checkpoint-layouts multi-part,sidecars,multi-part-incomplete\n"
      "rows (1, 'a', 1.100000023841858E0)\n";
  Result<Scenario> s = ParseScenario(text, "t.scenario");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->table.x_widened_from, rlc::model::ColumnType::kFloat);
  EXPECT_EQ(s->table.checkpoint_layouts,
            (std::vector<L>{L::kMultiPart, L::kSidecars, L::kMultiPartIncomplete}));
  const std::string written = FormatScenario(*s);
  EXPECT_NE(written.find(" column-x-widened-from float"), std::string::npos) << written;
  EXPECT_NE(written.find(" checkpoint-layouts multi-part,sidecars,multi-part-incomplete"),
            std::string::npos)
      << written;
  Result<Scenario> again = ParseScenario(written, "again.scenario");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->table.x_widened_from, s->table.x_widened_from);
  EXPECT_EQ(again->table.checkpoint_layouts, s->table.checkpoint_layouts);
  // The widened table's history starts after the widening, at version 1.
  EXPECT_EQ(s->StartingTable().version, 1);
}

TEST(ScenarioFormat, AWideningDeltaDoesNotAllowOrARowTheOldTypeCannotHoldIsRefused) {
  const auto error = [](const std::string& text) {
    Result<Scenario> s = ParseScenario(text, "t.scenario");
    return s.ok() ? std::string("parsed") : s.status().message();
  };
  EXPECT_EQ(error("table column-x float column-x-widened-from double\n"),
            "t.scenario:1: table: column-x-widened-from double needs a column-x of a type Delta "
            "widens it to (byte, short, integer to a wider integral type; float to double)");
  EXPECT_EQ(error("table column-x-widened-from short\n"),
            "t.scenario:1: table: column-x-widened-from short needs a column-x of a type Delta "
            "widens it to (byte, short, integer to a wider integral type; float to double)");
  EXPECT_EQ(error("table column-x double column-x-widened-from float\nrows (1, 'a', 1.1E0)\n"),
            "t.scenario:2: table: a row's x is no float, the type its file is written under");
  EXPECT_EQ(error("table column-x integer column-x-widened-from byte\nrows (1, 'a', 300)\n"),
            "t.scenario:2: table: a row's x is no byte, the type its file is written under");
  EXPECT_EQ(error("table column-x-widened-from text\n"),
            "t.scenario:1: table: column-x-widened-from byte|short|integer|float, not 'text'");
  EXPECT_EQ(error("table checkpoints 1 checkpoint-layouts classic,v2\n"),
            "t.scenario:1: table: checkpoint-layouts takes classic, multi-part, "
            "multi-part-incomplete or sidecars, comma-separated, not 'classic,v2'");
  EXPECT_EQ(error("table checkpoint-layouts classic,\n"),
            "t.scenario:1: table: checkpoint-layouts takes classic, multi-part, "
            "multi-part-incomplete or sidecars, comma-separated, not 'classic,'");
}

TEST(ScenarioFormat, MalformedLinesAreNamedByFileAndLine) {
  auto error = [](const std::string& text) {
    Result<Scenario> s = ParseScenario(text, "f.scenario");
    EXPECT_FALSE(s.ok()) << text;
    return s.ok() ? std::string() : s.status().message();
  };
  const std::string head = "table files 1\nrows (1, 'a')\ntxn A DELETE WHERE id = 1\n";
  EXPECT_EQ(error("txn A DELETE\n"),
            "f.scenario:1: the first statement (after the title) must be 'table ...'");
  EXPECT_EQ(error("table files 0\n"), "f.scenario:1: table: files must be 1..1000, not '0'");
  EXPECT_EQ(error("table colour blue\n"), "f.scenario:1: table: unknown option 'colour'");
  EXPECT_EQ(error(head + "A commits\n"), "f.scenario:4: A commits before it starts");
  EXPECT_EQ(error(head + "A starts\nA starts\n"), "f.scenario:5: A starts twice");
  EXPECT_EQ(error(head + "B starts\n"),
            "f.scenario:4: no transaction named 'B' (declare it with a 'txn' line first)");
  EXPECT_EQ(error(head + "txn A OPTIMIZE\n"), "f.scenario:4: transaction name 'A' is taken");
  EXPECT_EQ(error(head + "flags A rowLevelConcurrency.enable\n").substr(0, 19),
            "f.scenario:4: flags");
  EXPECT_EQ(error(head + "optimize A layout fast\n"),
            "f.scenario:4: optimize: A is not an OPTIMIZE");
  EXPECT_EQ(error(head + "expect A wins\n").substr(0, 24), "f.scenario:4: expect A: ");
  EXPECT_EQ(error(head + "expect dv-cardinalities 2 1\n"),
            "f.scenario:4: expect dv-cardinalities: list them ascending");
  EXPECT_EQ(error(head + "{\"add\":{}}\n"),
            "f.scenario:4: an action line '{...}' must follow a 'txn NAME raw' line");
  EXPECT_EQ(error(head + "txn B raw\n"), "f.scenario:4: raw transaction B has no action lines");
  EXPECT_EQ(error(head + "txn B DELETE WHERE nope = 1\n"),
            "f.scenario:4: txn B: at offset 13: expected a column of the table (no column 'nope') "
            "before 'nope = 1'");
  EXPECT_EQ(error(head + "frobnicate\n"), "f.scenario:4: unknown statement 'frobnicate'");
  EXPECT_EQ(error("scenario x\n"), "f.scenario: no 'table' line");
}

}  // namespace
}  // namespace rlc::scenario
