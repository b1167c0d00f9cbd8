#include "impl/delta/commit_parser.h"

#include <gtest/gtest.h>

#include "impl/delta/commit_writer.h"

namespace rlc::delta {
namespace {

// A DELETE commit as OSS Delta 2.4 writes it (delta__basic-dv-no-checkpoint, version 1),
// commitInfo shortened: the new add comes before the old remove.
constexpr char kDeleteCommit[] =
    R"({"commitInfo":{"timestamp":1686191563139,"operation":"DELETE","operationParameters":{"predicate":"[\"(id#378L < 2)\"]"},"readVersion":0,"isolationLevel":"Serializable","isBlindAppend":false,"engineInfo":"Apache-Spark/3.4.0 Delta-Lake/2.4.0"}})"
    "\n"
    R"({"add":{"path":"part-00000-a489737f-d477-4d9a-8b4a-bd6a6536df5b-c000.snappy.parquet","partitionValues":{},"size":500,"modificationTime":1686191545000,"dataChange":true,"stats":"{\"numRecords\":5,\"tightBounds\":false}","deletionVector":{"storageType":"u","pathOrInlineDv":"IjB3V2d3#qUP%s94R0WF","offset":1,"sizeInBytes":36,"cardinality":2}}})"
    "\n"
    R"({"remove":{"path":"part-00000-a489737f-d477-4d9a-8b4a-bd6a6536df5b-c000.snappy.parquet","deletionTimestamp":1686191562047,"dataChange":true,"extendedFileMetadata":true,"partitionValues":{},"size":500}})"
    "\n";

TEST(CommitParser, ParsesADeleteCommitAsWritten) {
  Result<Commit> commit = ParseCommit(kDeleteCommit, 1, "00000000000000000001.json");
  ASSERT_TRUE(commit.ok()) << commit.status().ToString();
  ASSERT_EQ(commit->actions.size(), 3u);
  const CommitInfo* info = commit->commit_info();
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->operation, "DELETE");
  EXPECT_EQ(info->read_version, 0);
  EXPECT_EQ(info->isolation_level, "Serializable");
  EXPECT_EQ(info->is_blind_append, false);
  ASSERT_EQ(info->operation_parameters.size(), 1u);
  EXPECT_EQ(info->operation_parameters[0].key, "predicate");
  EXPECT_EQ(info->operation_parameters[0].raw_json, R"("[\"(id#378L < 2)\"]")");
  ASSERT_EQ(info->unknown_fields.size(), 1u);
  EXPECT_EQ(info->unknown_fields[0].key, "engineInfo");

  const AddFile& add = std::get<AddFile>(commit->actions[1]);
  EXPECT_EQ(add.path, "part-00000-a489737f-d477-4d9a-8b4a-bd6a6536df5b-c000.snappy.parquet");
  EXPECT_TRUE(add.partition_values.empty());
  EXPECT_EQ(add.size_bytes, 500);
  EXPECT_EQ(add.stats, R"({"numRecords":5,"tightBounds":false})");
  ASSERT_TRUE(add.deletion_vector.has_value());
  EXPECT_EQ(add.deletion_vector->storage_type, 'u');
  EXPECT_EQ(add.deletion_vector->offset, 1);
  EXPECT_EQ(add.deletion_vector->size_bytes, 36);
  EXPECT_EQ(add.deletion_vector->cardinality, 2);
  EXPECT_EQ(add.deletion_vector->UniqueId(), "uIjB3V2d3#qUP%s94R0WF@1");

  const RemoveFile& remove = std::get<RemoveFile>(commit->actions[2]);
  EXPECT_EQ(remove.extended_file_metadata, true);
  EXPECT_EQ(remove.size_bytes, 500);
  EXPECT_FALSE(remove.deletion_vector.has_value());
}

TEST(CommitParser, WrittenCommitParsesBackEqual) {
  Result<Commit> commit = ParseCommit(kDeleteCommit, 1, "c.json");
  ASSERT_TRUE(commit.ok());
  Result<Commit> again = ParseCommit(WriteCommitFile(commit->actions), 1, "again.json");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->actions, commit->actions);
}

TEST(CommitParser, UnknownActionsAreKeptByteForByte) {
  const std::string line = R"({"checkpointMetadata":{"version":  3, "tags":{}}})";
  Result<Action> action = ParseActionLine(line);
  ASSERT_TRUE(action.ok()) << action.status().ToString();
  const UnknownAction& unknown = std::get<UnknownAction>(*action);
  EXPECT_EQ(unknown.key, "checkpointMetadata");
  EXPECT_EQ(WriteActionLine(*action), line);
}

TEST(CommitParser, UnknownFieldsOfKnownActionsSurvive) {
  const std::string line =
      R"({"add":{"path":"p","partitionValues":{"k":null},"size":1,"modificationTime":2,"dataChange":false,"newField":{"a":[1,2]},"other":7}})";
  Result<Action> action = ParseActionLine(line);
  ASSERT_TRUE(action.ok()) << action.status().ToString();
  const AddFile& add = std::get<AddFile>(*action);
  ASSERT_EQ(add.unknown_fields.size(), 2u);
  EXPECT_EQ(add.unknown_fields[0].raw_json, R"({"a":[1,2]})");
  EXPECT_EQ(add.unknown_fields[1].raw_json, "7");
  EXPECT_EQ(add.partition_values[0].second, std::nullopt);
  EXPECT_EQ(WriteActionLine(*action), line);
}

TEST(CommitParser, CrLfAndBlankLinesAreTolerated) {
  Result<Commit> commit = ParseCommit(
      "{\"txn\":{\"appId\":\"a\",\"version\":3}}\r\n\n{\"txn\":{\"appId\":\"b\",\"version\":4}}", 0,
      "c");
  ASSERT_TRUE(commit.ok()) << commit.status().ToString();
  ASSERT_EQ(commit->actions.size(), 2u);
  EXPECT_EQ(std::get<Txn>(commit->actions[1]).version, 4);
}

// A string without an escape is read as it stands in the line, one with escapes is unescaped:
// both give the string's value, whatever whitespace surrounds them.
TEST(CommitParser, StringsReadAsTheirValuesWithOrWithoutEscapes) {
  const std::string line =
      "{\"add\": {\"path\" : \"a\\/b%20c\\u00e9\\\"q\" ,\"partitionValues\":{},\"size\":1,"
      "\"modificationTime\":2,\"dataChange\":true,\"clusteringProvider\":  \"liquid\"\t,"
      "\"deletionVector\":{\"storageType\": \"u\" ,\"pathOrInlineDv\":\"ab^-aqEH.-t@S}K{vb[*k^\","
      "\"sizeInBytes\":36,\"cardinality\":1} }}";
  Result<Action> action = ParseActionLine(line);
  ASSERT_TRUE(action.ok()) << action.status().ToString();
  const AddFile& add = std::get<AddFile>(*action);
  EXPECT_EQ(add.path, "a/b%20c\xc3\xa9\"q");
  EXPECT_EQ(add.clustering_provider, "liquid");
  ASSERT_TRUE(add.deletion_vector.has_value());
  EXPECT_EQ(add.deletion_vector->storage_type, 'u');
  EXPECT_EQ(add.deletion_vector->path_or_inline_dv, "ab^-aqEH.-t@S}K{vb[*k^");

  Result<Action> plain =
      ParseActionLine(R"({"remove":{"path":"part-0.parquet","dataChange":true,"tags":{"k":"v"}}})");
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ(std::get<RemoveFile>(*plain).path, "part-0.parquet");
}

struct BadLine {
  const char* line;
  const char* reason;
};

class CommitParserRejects : public ::testing::TestWithParam<BadLine> {};

TEST_P(CommitParserRejects, NamesFileLineOffsetAndReason) {
  std::string commit = "{\"txn\":{\"appId\":\"a\",\"version\":1}}\n";
  commit.append(GetParam().line);
  commit.push_back('\n');
  const std::string file_name = "log/00000000000000000012.json";
  Result<Commit> parsed = ParseCommit(commit, 12, file_name);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kCorrupt);
  const std::string m = parsed.status().message();
  EXPECT_NE(m.find("log/00000000000000000012.json (version 12) line 2 at byte 34"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find(GetParam().reason), std::string::npos) << m;
}

INSTANTIATE_TEST_SUITE_P(
    Lines, CommitParserRejects,
    ::testing::Values(
        BadLine{
            R"({"add":{"path":"p","partitionValues":{},"modificationTime":2,"dataChange":true}})",
            "field 'add.size'"},
        BadLine{
            R"({"add":{"path":"p","partitionValues":{},"size":"12","modificationTime":2,"dataChange":true}})",
            "field 'add.size': expected a 64-bit integer"},
        BadLine{R"({"remove":{"path":"p","dataChange":"yes"}})",
                "field 'remove.dataChange': expected true or false"},
        BadLine{R"({"remove":{"path":7,"dataChange":true}})",
                "field 'remove.path': expected a string"},
        BadLine{R"({"remove":{"path":null,"dataChange":true}})",
                "field 'remove.path': expected a string"},
        BadLine{R"({"txn":{"appId":"a","version":1},"add":{}})", "exactly one action"},
        BadLine{R"({})", "exactly one action"}, BadLine{R"([1,2])", "must be one JSON object"},
        BadLine{R"({"txn":{"appId":"a","version":1}} trailing)", "must be one JSON object"},
        BadLine{R"({"txn":{"appId":"a","version":1}} {})", "trailing characters"},
        BadLine{R"({"txn":{"appId":"a","version":1})", "malformed JSON object"},
        BadLine{R"({"protocol":{"minReaderVersion":3}})", "protocol.minWriterVersion"},
        BadLine{R"({"protocol":{"minReaderVersion":3000000000,"minWriterVersion":7}})",
                "32-bit integer"},
        BadLine{
            R"({"add":{"path":"p","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true,"deletionVector":{"storageType":"u","pathOrInlineDv":"short","sizeInBytes":1,"cardinality":1}}})",
            "20 Z85 characters"},
        BadLine{
            R"({"add":{"path":"p","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true,"deletionVector":{"storageType":"x","pathOrInlineDv":"","sizeInBytes":1,"cardinality":1}}})",
            "is not one of u, i, p"},
        BadLine{
            R"({"add":{"path":"p","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true,"deletionVector":{"storageType":"i","pathOrInlineDv":"","cardinality":1}}})",
            "storageType, pathOrInlineDv, sizeInBytes and cardinality"},
        BadLine{R"({"metaData":{"id":"x","schemaString":"{}","configuration":{"a":1}}})",
                "metaData.configuration.a"}));

}  // namespace
}  // namespace rlc::delta

namespace rlc::delta {
namespace {

// Unknown values are written back verbatim, so malformed ones must be refused, not copied.
TEST(CommitParser, MalformedUnknownValuesAreRejected) {
  for (
      const char* line :
      {R"({"":[}}})", R"({"sidecar":{"a":[1 2]}})",
       R"({"add":{"path":"p","partitionValues":{},"size":1,"modificationTime":2,"dataChange":true,"x":[1 2]}})",
       R"({"commitInfo":{"operationMetrics":{"a":}}})"}) {
    Result<Action> a = ParseActionLine(line);
    ASSERT_FALSE(a.ok()) << line;
    EXPECT_NE(a.status().message().find("a valid JSON value"), std::string::npos)
        << a.status().message();
  }
}

}  // namespace
}  // namespace rlc::delta
