// The oracle's reading of a log (fuzz/oracle/reference_log.h) and the checks built on it, on logs
// written here by hand: the plain fields of each add and remove, and a typed error (naming the
// version and the line) for every malformed shape, where a library's accessor would throw.
#include <gtest/gtest.h>

#include <map>

#include "fuzz/oracle/invariants.h"
#include "fuzz/oracle/reference_log.h"
#include "fuzz/oracle/reference_reader.h"

namespace {

using rlc::oracle::ReadReferenceLog;
using rlc::oracle::ReferenceLog;

class Bytes final : public rlc::oracle::ByteSource {
 public:
  std::optional<std::string> Read(const std::string& path) const override {
    const auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  void Commit(int64_t version, const std::string& text) {
    char name[32];
    std::snprintf(name, sizeof(name), "%020lld.json", static_cast<long long>(version));
    files[std::string("/t/_delta_log/") + name] = text;
  }
  std::map<std::string, std::string> files;
};

constexpr char kVersion0[] =
    R"({"commitInfo":{"operation":"CREATE TABLE"}})"
    "\n"
    R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7}})"
    "\n"
    R"({"add":{"path":"p=a/f%201.parquet","partitionValues":{"p":"a","q":null},"size":1,"modificationTime":0,)"
    R"("dataChange":true,"stats":"{\"numRecords\":5}",)"
    R"("deletionVector":{"storageType":"i","pathOrInlineDv":"abc","sizeInBytes":34,"cardinality":2}}})"
    "\r\n"
    "\n";

TEST(ReferenceLog, ReadsTheFieldsOfAddsAndRemoves) {
  Bytes bytes;
  bytes.Commit(0, kVersion0);
  bytes.Commit(
      1,
      R"({"remove":{"path":"p=a/f 1.parquet","dataChange":false,"deletionVector":)"
      R"({"storageType":"i","pathOrInlineDv":"abc","offset":null,"sizeInBytes":34,"cardinality":2},)"
      R"("tags":{"compactedInto":"[\"out.parquet\"]","compactionInfo":"[]","other":"x"}}})");
  const ReferenceLog log = ReadReferenceLog("/t", -1, bytes);
  ASSERT_TRUE(log.ok()) << log.error;
  ASSERT_EQ(log.commits.size(), 2u);
  ASSERT_EQ(log.commits[0].file_actions.size(), 1u);
  const rlc::oracle::ReferenceFileAction& add = log.commits[0].file_actions[0];
  EXPECT_TRUE(add.is_add);
  EXPECT_EQ(add.path, "p=a/f 1.parquet");
  EXPECT_EQ(add.num_records, 5);
  EXPECT_EQ(add.partition_values.at("p"), "a");
  EXPECT_EQ(add.partition_values.at("q"), std::nullopt);
  ASSERT_TRUE(add.dv.has_value());
  EXPECT_EQ(add.dv->Id(), "iabc");
  EXPECT_EQ(add.dv->cardinality, 2);
  const rlc::oracle::ReferenceFileAction& remove = log.commits[1].file_actions.at(0);
  EXPECT_FALSE(remove.is_add);
  EXPECT_FALSE(remove.data_change);
  EXPECT_EQ(remove.Key(), add.Key());  // the same file and DV: the remove cancels the add
  EXPECT_EQ(remove.compacted_into, R"(["out.parquet"])");
  EXPECT_EQ(remove.compaction_info, "[]");
  EXPECT_FALSE(remove.composition_tags_malformed);
}

TEST(ReferenceLog, StopsAtTheFirstMissingVersionOrFailsWhenOneWasAskedFor) {
  Bytes bytes;
  EXPECT_EQ(ReadReferenceLog("/t", -1, bytes).error, "version 0 has no JSON commit");
  bytes.Commit(0, kVersion0);
  EXPECT_TRUE(ReadReferenceLog("/t", -1, bytes).ok());
  EXPECT_TRUE(ReadReferenceLog("/t", 0, bytes).ok());
  EXPECT_EQ(ReadReferenceLog("/t", 1, bytes).error, "version 1 has no JSON commit");
}

TEST(ReferenceLog, NamesTheVersionAndLineOfEveryMalformedAction) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"add\":",
       "version 1: line 2 is not a JSON object (offset 7: the text ends where a value should "
       "start)"},
      {"[1]", "version 1: line 2 is not a JSON object"},
      {R"({"add":[]})", "version 1: line 2: an add is not an object"},
      {R"({"remove":{"path":7}})", "version 1: line 2: a remove without a string path"},
      {R"({"add":{"path":"f","deletionVector":"x"}})",
       "version 1: line 2: add f: deletionVector is not an object"},
      {R"({"add":{"path":"f","deletionVector":{"pathOrInlineDv":"x"}}})",
       "version 1: line 2: add f: the DV lacks a string storageType"},
      {R"({"add":{"path":"f","deletionVector":{"storageType":"u"}}})",
       "version 1: line 2: add f: the DV lacks a string pathOrInlineDv"},
      {R"({"add":{"path":"f","deletionVector":{"storageType":"u","pathOrInlineDv":"x","offset":"1"}}})",
       "version 1: line 2: add f: the DV's offset is not an integer"},
      {R"({"add":{"path":"f","deletionVector":{"storageType":"u","pathOrInlineDv":"x","cardinality":1.5}}})",
       "version 1: line 2: add f: the DV's cardinality is not an integer"},
      {R"({"add":{"path":"f","dataChange":"yes"}})",
       "version 1: line 2: add f: dataChange is not a boolean"},
      {R"({"add":{"path":"f","partitionValues":{"p":1}}})",
       "version 1: line 2: add f: partition value p is not a string"},
  };
  for (const auto& [line, error] : cases) {
    SCOPED_TRACE(line);
    Bytes bytes;
    bytes.Commit(0, R"({"add":{"path":"g","dataChange":true,"stats":"{\"numRecords\":5}"}})");
    bytes.Commit(1, "{\"commitInfo\":{}}\n" + line + "\n");
    const ReferenceLog log = ReadReferenceLog("/t", -1, bytes);
    EXPECT_EQ(log.error, error);
    EXPECT_EQ(log.commits.size(), 1u);  // the versions before it are kept
    // The snapshot reader and the invariants report the same error instead of reading on.
    EXPECT_EQ(rlc::oracle::ReadReferenceSnapshot("/t", -1, "", bytes).error, error);
    std::string invariants_error;
    rlc::oracle::CheckLogInvariants("/t", &invariants_error, "", bytes);
    EXPECT_EQ(invariants_error, error);
  }
}

TEST(ReferenceLog, ComposedTagsOfAnyOtherShapeAreAFindingNotACrash) {
  const std::vector<std::string> tags = {
      R"({"compactedInto":7,"compactionInfo":"[]"})",
      R"({"compactedInto":"[\"o\"]"})",
      R"({"compactedInto":"not json","compactionInfo":"[]"})",
      R"({"compactedInto":"[\"o\"]","compactionInfo":"[{\"rowOffsetInTarget\":-1,\"sourceNumPhysicalRecords\":5}]"})",
      R"({"compactedInto":"[\"o\"]","compactionInfo":"[{\"rowOffsetInTarget\":0,\"sourceNumPhysicalRecords\":1e40}]"})",
      R"({"compactedInto":"[1]","compactionInfo":"[{\"rowOffsetInTarget\":0,\"sourceNumPhysicalRecords\":5}]"})",
  };
  for (const std::string& t : tags) {
    SCOPED_TRACE(t);
    Bytes bytes;
    bytes.Commit(0, R"({"add":{"path":"s","dataChange":true,"stats":"{\"numRecords\":5}"}})");
    bytes.Commit(1, R"({"remove":{"path":"s","dataChange":false,"tags":)" + t + "}}\n" +
                        R"({"add":{"path":"o","dataChange":false,"stats":"{\"numRecords\":5}"}})");
    std::string error;
    const std::vector<rlc::oracle::InvariantFinding> findings =
        rlc::oracle::CheckLogInvariants("/t", &error, "", bytes);
    EXPECT_EQ(error, "");
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].rule, "tags-tile-output");
    EXPECT_EQ(findings[0].detail, "malformed composition tags");
  }
  // Well-formed tags that tile the output are no finding.
  Bytes bytes;
  bytes.Commit(0, R"({"add":{"path":"s","dataChange":true,"stats":"{\"numRecords\":5}"}})");
  bytes.Commit(1,
               R"({"remove":{"path":"s","dataChange":false,"tags":{"compactedInto":"[\"o\"]",)"
               R"("compactionInfo":"[{\"rowOffsetInTarget\":0,\"sourceNumPhysicalRecords\":5}]"}}})"
               "\n"
               R"({"add":{"path":"o","dataChange":false,"stats":"{\"numRecords\":5}"}})");
  std::string error;
  EXPECT_TRUE(rlc::oracle::CheckLogInvariants("/t", &error, "", bytes).empty());
  EXPECT_EQ(error, "");
}

TEST(ReferenceLog, DecodesPercentEscapesAndKeepsStrayPercents) {
  EXPECT_EQ(rlc::oracle::UrlDecodePath("a%20b%2Fc"), "a b/c");
  EXPECT_EQ(rlc::oracle::UrlDecodePath("100%"), "100%");
  EXPECT_EQ(rlc::oracle::UrlDecodePath("%zz%4"), "%zz%4");
}

// A partition column an add's partitionValues leaves out reads as NULL (as Delta Spark reads a
// missing key): a relocation that writes the NULL explicitly keeps the rows in their partition
// (explorer seed 20261207, history 160201: an OPTIMIZE compacted a liar's add without
// partitionValues into the NULL partition, and the check took the rows for moved). Another
// value than NULL still moves them.
TEST(ReferenceLog, AnAbsentPartitionValueIsTheNullPartition) {
  const auto judge = [](const std::string& output_values) {
    Bytes bytes;
    bytes.files["/t/s.rows"] =
        "rlc-rows 1\n"
        R"({"columns":[{"name":"_rid"},{"name":"id"},{"name":"part"}]})"
        "\n[7,1,null]\n";
    bytes.files["/t/o.rows"] = bytes.files["/t/s.rows"];
    bytes.Commit(0, R"({"add":{"path":"s.rows","dataChange":true,"stats":"{\"numRecords\":1}"}})");
    bytes.Commit(1, R"({"remove":{"path":"s.rows","dataChange":false}})"
                    "\n"
                    R"({"add":{"path":"o.rows","dataChange":false,"partitionValues":)" +
                        output_values + R"(,"stats":"{\"numRecords\":1}"}})");
    std::string error;
    std::vector<rlc::oracle::InvariantFinding> findings =
        rlc::oracle::CheckLogInvariants("/t", &error, "", bytes);
    EXPECT_EQ(error, "");
    return findings;
  };
  EXPECT_TRUE(judge(R"({"part":null})").empty());
  const std::vector<rlc::oracle::InvariantFinding> moved = judge(R"({"part":"1"})");
  ASSERT_EQ(moved.size(), 2u);  // one partition loses the row, the other gains it
  for (const auto& f : moved) EXPECT_EQ(f.rule, "no-data-change-conserves");
}

// A relocation's rows are compared whole when every file carries the simulator's identity column,
// and on the columns both sides hold when another engine's rewrite dropped it: the same values
// are no finding, another value is, and so is another identity where both sides carry one.
TEST(ReferenceLog, ARelocationIsJudgedOnTheColumnsItsFilesShare) {
  const auto judge = [](const std::string& output_rows) {
    Bytes bytes;
    bytes.files["/t/s.rows"] =
        "rlc-rows 1\n"
        R"({"columns":[{"name":"_rid"},{"name":"id"},{"name":"value"}]})"
        "\n[7,1,\"a\"]\n[8,2,\"b\"]\n";
    bytes.files["/t/o.rows"] = output_rows;
    bytes.Commit(0, R"({"add":{"path":"s.rows","dataChange":true,"stats":"{\"numRecords\":2}"}})");
    bytes.Commit(1, R"({"remove":{"path":"s.rows","dataChange":false}})"
                    "\n"
                    R"({"add":{"path":"o.rows","dataChange":false,"stats":"{\"numRecords\":2}"}})");
    std::string error;
    std::vector<rlc::oracle::InvariantFinding> findings =
        rlc::oracle::CheckLogInvariants("/t", &error, "", bytes);
    EXPECT_EQ(error, "");
    return findings;
  };
  const std::string without_identity =
      "rlc-rows 1\n"
      R"({"columns":[{"name":"id"},{"name":"value"}]})"
      "\n";
  const std::string with_identity =
      "rlc-rows 1\n"
      R"({"columns":[{"name":"_rid"},{"name":"id"},{"name":"value"}]})"
      "\n";
  EXPECT_TRUE(judge(without_identity + "[2,\"b\"]\n[1,\"a\"]\n").empty());
  EXPECT_TRUE(judge(with_identity + "[7,1,\"a\"]\n[8,2,\"b\"]\n").empty());
  for (const std::string& rows : {without_identity + "[1,\"a\"]\n[2,\"c\"]\n",
                                  with_identity + "[7,1,\"a\"]\n[9,2,\"b\"]\n"}) {
    SCOPED_TRACE(rows);
    const std::vector<rlc::oracle::InvariantFinding> findings = judge(rows);
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].rule, "no-data-change-conserves");
    EXPECT_EQ(findings[0].detail,
              "partition []: the live rows it removes are not the rows it adds");
  }
}

}  // namespace
