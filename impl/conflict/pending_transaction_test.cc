#include "impl/conflict/pending_transaction.h"

#include <gtest/gtest.h>

#include "impl/conflict/case_catalogue.h"

namespace rlc::conflict {
namespace {

TEST(PendingTransaction, ParsesTheDocumentedFormat) {
  Result<PendingTransaction> t = ParsePendingTransaction(R"({
    "readVersion": 3,
    "readPredicates": ["id >= 100 AND part = 'a'"],
    "readFiles": ["part=a/f1.parquet"],
    "readWholeTable": false,
    "readAppIds": ["stream-1"],
    "actions": [{"commitInfo": {"operation": "DELETE", "isBlindAppend": false}},
                {"remove": {"path": "part=a/f1.parquet", "dataChange": true}}],
    "flags": {"rowLevelConcurrency.enabled": true,
              "spark.databricks.delta.conflictDetection.dataSkipping.valueExact.maxBytes": 4096}})");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->read_version, 3);
  EXPECT_EQ(t->read_predicates, std::vector<std::string>{"id >= 100 AND part = 'a'"});
  EXPECT_EQ(t->read_files, std::vector<std::string>{"part=a/f1.parquet"});
  EXPECT_EQ(t->read_app_ids, std::vector<std::string>{"stream-1"});
  ASSERT_EQ(t->actions.size(), 2u);
  EXPECT_TRUE(std::holds_alternative<delta::RemoveFile>(t->actions[1]));
  EXPECT_TRUE(t->flags.On(CaseId::kRowLevelConcurrency));
  EXPECT_EQ(t->flags.value_exact_max_bytes, 4096);
  EXPECT_FALSE(t->IsBlindAppend());
  EXPECT_TRUE(t->ChangesData());
}

TEST(PendingTransaction, BlindAppendIsAddsAndNoReads) {
  Result<PendingTransaction> t = ParsePendingTransaction(
      R"({"readVersion": 0, "actions": [{"add": {"path": "a", "partitionValues": {}, "size": 1, "modificationTime": 1, "dataChange": true}}]})");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_TRUE(t->IsBlindAppend());
  t->read_files = {"x"};
  EXPECT_FALSE(t->IsBlindAppend());
}

TEST(PendingTransaction, ErrorsNameTheField) {
  auto message = [](const char* json) { return ParsePendingTransaction(json).status().message(); };
  EXPECT_NE(message(R"({"actions": []})").find("'readVersion'"), std::string::npos);
  EXPECT_NE(message(R"({"readVersion": 1})").find("'actions'"), std::string::npos);
  EXPECT_NE(message(R"({"readVersion": 1, "actions": [], "readVersoin": 2})")
                .find("unknown field 'readVersoin'"),
            std::string::npos);
  EXPECT_NE(message(R"({"readVersion": 1, "actions": [], "flags": {"nope.enabled": true}})")
                .find("unknown flag 'nope.enabled'"),
            std::string::npos);
  EXPECT_NE(
      message(R"({"readVersion": 1, "actions": [{"add": {"path": "a"}}]})").find("actions[0]"),
      std::string::npos);
  EXPECT_NE(message(R"({"readVersion": -1, "actions": []})").find("non-negative"),
            std::string::npos);
}

TEST(Flags, FullAndShortNamesAndBadValues) {
  Flags f;
  EXPECT_FALSE(f.AnyOn());
  ASSERT_TRUE(f.SetFromAssignment("spark.databricks.delta.rowLevelConcurrency.enabled=true").ok());
  ASSERT_TRUE(f.SetFromAssignment("optimize.conflictReconciliation.reverse.enabled=true").ok());
  EXPECT_TRUE(f.On(CaseId::kRowLevelConcurrency));
  EXPECT_TRUE(f.On(CaseId::kOptimizeReconcileReverse));
  EXPECT_TRUE(f.AnyOn());
  EXPECT_EQ(f.Set("rowLevelConcurrency.enabled", "yes").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(f.SetFromAssignment("rowLevelConcurrency.enabled").code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(f.Set("conflictDetection.dataSkipping.valueExact.maxBytes", "1k").code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(f.ToAssignments().front(), "spark.databricks.delta.rowLevelConcurrency.enabled=true");
}

}  // namespace
}  // namespace rlc::conflict
