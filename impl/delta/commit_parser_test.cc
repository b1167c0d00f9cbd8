#include "impl/delta/commit_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

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
        BadLine{
            R"({"add":{"path":"p","partitionValues":{"part":"1","part":"2"},"size":1,"modificationTime":2,"dataChange":true}})",
            "field 'add.partitionValues.part': expected a key given once"},
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

namespace rlc::delta {
namespace {

// What ParseCommit must return, found line by line with ParseActionLine (one line, parsed
// alone): the actions in order, or the first line's error with its place in the file.
Result<Commit> ParseLineByLine(const std::string& bytes, int64_t version, const std::string& file) {
  Commit commit;
  commit.version = version;
  size_t pos = 0;
  for (size_t line = 1; pos <= bytes.size(); ++line) {
    size_t end = bytes.find('\n', pos);
    if (end == std::string::npos) end = bytes.size();
    std::string text = bytes.substr(pos, end - pos);
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (!text.empty()) {
      Result<Action> action = ParseActionLine(text);
      if (!action.ok()) {
        return action.status().WithContext(file + " (version " + std::to_string(version) +
                                           ") line " + std::to_string(line) + " at byte " +
                                           std::to_string(pos));
      }
      commit.actions.push_back(*std::move(action));
    }
    pos = end + 1;
  }
  return commit;
}

std::string ValidLine(std::mt19937& rng, int i) {
  const std::string n = std::to_string(i);
  switch (rng() % 5) {
    case 0:
      return R"({"remove":{"path":"part-)" + n +
             R"(-c000.snappy.parquet","deletionTimestamp":1700000000000,"dataChange":true,)"
             R"("extendedFileMetadata":true,"partitionValues":{"p":"a"},"size":)" +
             n + "}}";
    case 1:
      return R"({"txn":{"appId":"app-)" + n + R"(","version":)" + n + "}}";
    case 2:
      return R"({"sidecar":{"path":"s)" + n + R"(","sizeInBytes":1,"tags":{"a":[1,2]}}})";
    default:
      return R"({"add":{"path":"part-)" + n +
             R"(-c000.snappy.parquet","partitionValues":{"p":"a"},"size":)" + n +
             R"(,"modificationTime":1700000000000,"dataChange":true,)"
             R"("stats":"{\"numRecords\":)" +
             n +
             R"(,\"minValues\":{\"id\":1},\"maxValues\":{\"id\":9}}",)"
             R"("deletionVector":{"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^",)"
             R"("offset":1,"sizeInBytes":36,"cardinality":2},)"
             R"("tags":{"INSERTION_TIME":"1700000000000000"}}})";
  }
}

// One way a line can differ from one action alone on it: some parse as a line alone does and
// must read the same, the others must fail at the same line with the same message.
constexpr int kDisturbances = 11;
std::string Disturbed(int kind, const std::string& line) {
  switch (kind) {
    case 0:
      return "";  // a blank line before the line's own
    case 1:
      return "  " + line;  // leading whitespace
    case 2:
      return line + " \t";  // trailing whitespace
    case 3:
      return line + " x";  // trailing characters
    case 4:
      return line + line;  // two actions on one line
    case 5: {              // one action over two lines (valid JSON across them)
      const size_t comma = line.find(',');
      return comma == std::string::npos
                 ? line
                 : line.substr(0, comma + 1) + "\n " + line.substr(comma + 1);
    }
    case 6:
      return line + "\r";  // CRLF
    case 7: {              // a byte that is not UTF-8, inside a string
      std::string bad = line;
      bad[bad.find('"') + 1] = '\xff';
      return bad;
    }
    case 8: {  // a control character inside a string
      std::string bad = line;
      bad[bad.find('"') + 1] = '\x01';
      return bad;
    }
    case 9:
      return R"({"add":{"path":"p","size":1}})";  // an action without its required fields
    default:
      return "\r\n" + line;  // a line of a carriage return alone
  }
}

// Commits of 64 KiB to 2.5 MiB (so through the document stream, over several of its batches),
// a third of them clean, the rest with one to three disturbed lines anywhere (the first line
// too), parse as their lines parsed alone: the same actions, or the same error at the same line.
TEST(CommitParser, StreamedCommitsParseAsTheirLinesAlone) {
  std::mt19937 rng(20261205);
  int failed = 0, parsed = 0;
  for (int round = 0; round < 45; ++round) {
    const size_t target = (size_t{64} << 10) + rng() % (size_t{2500} << 10);
    std::vector<std::string> lines;
    size_t bytes = 0;
    for (int i = 0; bytes < target; ++i) {
      lines.push_back(ValidLine(rng, i));
      bytes += lines.back().size() + 1;
    }
    const int disturbances = round % 3 == 0 ? 0 : 1 + static_cast<int>(rng() % 3);
    for (int d = 0; d < disturbances; ++d) {
      const size_t at = d == 0 && rng() % 4 == 0 ? 0 : rng() % lines.size();
      lines[at] = Disturbed(static_cast<int>(rng() % kDisturbances), lines[at]);
    }
    std::string commit;
    for (const std::string& line : lines) commit += line + "\n";
    if (rng() % 2 == 0) commit.pop_back();  // no final newline
    const Result<Commit> expected = ParseLineByLine(commit, 3, "c.json");
    const Result<Commit> actual = ParseCommit(commit, 3, "c.json");
    ASSERT_EQ(actual.ok(), expected.ok())
        << "round " << round << ": " << (actual.ok() ? expected : actual).status().ToString();
    if (!expected.ok()) {
      EXPECT_EQ(actual.status().ToString(), expected.status().ToString()) << "round " << round;
      ++failed;
      continue;
    }
    ++parsed;
    ASSERT_EQ(actual->actions.size(), expected->actions.size()) << "round " << round;
    for (size_t i = 0; i < expected->actions.size(); ++i)
      ASSERT_EQ(actual->actions[i], expected->actions[i]) << "round " << round << " action " << i;
  }
  EXPECT_GT(failed, 5);  // both outcomes were compared
  EXPECT_GT(parsed, 15);
}

// Each disturbance on each of the lines about where the stream's first batch ends (1 MiB in):
// the document that ends a batch is judged apart from the others (the next is not yet scanned).
TEST(CommitParser, DisturbancesWhereTheStreamsBatchEndsParseAsAlone) {
  std::mt19937 rng(11);
  std::vector<std::string> clean;
  size_t boundary_line = 0;
  for (size_t bytes = 0; bytes < (size_t{3} << 19); bytes += clean.back().size() + 1) {
    clean.push_back(ValidLine(rng, static_cast<int>(clean.size())));
    if (bytes + clean.back().size() + 1 < (size_t{1} << 20)) boundary_line = clean.size();
  }
  for (int kind = 0; kind < kDisturbances; ++kind) {
    for (size_t at = boundary_line - 2; at <= boundary_line + 1; ++at) {
      std::vector<std::string> lines = clean;
      lines[at] = Disturbed(kind, lines[at]);
      std::string commit;
      for (const std::string& line : lines) commit += line + "\n";
      const Result<Commit> expected = ParseLineByLine(commit, 5, "c.json");
      const Result<Commit> actual = ParseCommit(commit, 5, "c.json");
      ASSERT_EQ(actual.ok(), expected.ok()) << "kind " << kind << " at line " << at;
      if (!expected.ok()) {
        EXPECT_EQ(actual.status().ToString(), expected.status().ToString());
      } else {
        EXPECT_EQ(actual->actions, expected->actions) << "kind " << kind << " at line " << at;
      }
    }
  }
}

// A walk's stream lives across its visits: a visit that parses a large commit itself (on the
// same thread) leaves the walk's stream as it was.
TEST(CommitParser, AVisitThatParsesACommitLeavesTheWalksStreamAlone) {
  std::mt19937 rng(5);
  std::string outer, inner;
  for (int i = 0; i < 3000; ++i) outer += ValidLine(rng, i) + "\n";
  for (int i = 0; i < 3000; ++i) inner += ValidLine(rng, 100000 + i) + "\n";
  const Result<Commit> expected = ParseLineByLine(outer, 6, "outer.json");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  std::vector<Action> visited;
  const Status walked =
      ForEachCommitAction(outer, 6, "outer.json", nullptr, [&](Action&& action) -> Status {
        if (visited.size() % 1000 == 0) {
          Result<Commit> nested = ParseCommit(inner, 7, "inner.json");
          if (!nested.ok()) return nested.status();
        }
        visited.push_back(std::move(action));
        return Status::Ok();
      });
  ASSERT_TRUE(walked.ok()) << walked.ToString();
  EXPECT_EQ(visited, expected->actions);
}

// A line longer than the stream's batch (1 MiB) and lines after it parse as they do alone.
TEST(CommitParser, ALineLongerThanTheStreamsBatchParses) {
  std::mt19937 rng(3);
  std::string commit;
  for (int i = 0; i < 2000; ++i) commit += ValidLine(rng, i) + "\n";
  commit += R"({"sidecar":{"path":")" + std::string(size_t{1} << 21, 'a') + "\"}}\n";
  for (int i = 2000; i < 4000; ++i) commit += ValidLine(rng, i) + "\n";
  const Result<Commit> expected = ParseLineByLine(commit, 4, "c.json");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  const Result<Commit> actual = ParseCommit(commit, 4, "c.json");
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  EXPECT_EQ(actual->actions, expected->actions);
}

}  // namespace
}  // namespace rlc::delta
