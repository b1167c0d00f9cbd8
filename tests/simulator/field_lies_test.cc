// The foreign writers' grammar: every field lie names its field and telling in text that reads
// back, and changes exactly the field of the action it names.
#include "fuzz/simulator/field_lies.h"

#include <gtest/gtest.h>

#include <vector>

namespace rlc::simulator {
namespace {

using Field = FieldLie::Field;
using Telling = FieldLie::Telling;

// A DV update of f (remove, then add with a DV), a second remove, and the commitInfo.
std::vector<delta::Action> ACommit() {
  delta::CommitInfo info;
  info.operation = "DELETE";
  info.read_version = 4;
  info.is_blind_append = false;
  delta::RemoveFile before;
  before.path = "f.parquet";
  before.size_bytes = 100;
  before.stats = R"({"numRecords":3,"minValues":{"id":1},"maxValues":{"id":3}})";
  before.partition_values = delta::StringMap{{"part", std::string("1")}};
  delta::RemoveFile other = before;
  other.path = "g.parquet";
  other.size_bytes = 7;
  delta::AddFile after;
  after.path = "f.parquet";
  after.size_bytes = 100;
  after.stats = R"({"numRecords":3,"minValues":{"id":1},"maxValues":{"id":3}})";
  after.partition_values = {{"part", std::string("1")}};
  dv::DvDescriptor dv;
  dv.cardinality = 1;
  after.deletion_vector = dv;
  return {info, before, other, after};
}

TEST(FieldLies, TextReadsBackForEveryFieldAndTelling) {
  for (int f = 0; f < kFieldCount; ++f) {
    for (Telling t : {Telling::kAbsent, Telling::kStale, Telling::kContradicting}) {
      const FieldLie lie{static_cast<Field>(f), t, 2};
      EXPECT_EQ(ParseFieldLie(FieldLieText(lie)), lie) << FieldLieText(lie);
    }
  }
  EXPECT_EQ(FieldLieText({Field::kAddStats, Telling::kContradicting, 1}),
            "add.stats:contradicting:1");
  EXPECT_FALSE(ParseFieldLie("add.stats:lying:1"));
  EXPECT_FALSE(ParseFieldLie("add.colour:absent:1"));
  EXPECT_FALSE(ParseFieldLie("add.stats:absent"));
  EXPECT_FALSE(ParseFieldLie("add.stats:absent:x"));
}

TEST(FieldLies, EachLieChangesTheFieldItNames) {
  std::vector<delta::Action> a = ACommit();
  ApplyFieldLies({{Field::kAddDeletionVector, Telling::kContradicting, 0}}, a);
  EXPECT_EQ(std::get<delta::AddFile>(a[3]).deletion_vector->cardinality, 2);
  ApplyFieldLies({{Field::kAddNumRecords, Telling::kContradicting, 0}}, a);
  EXPECT_NE(std::get<delta::AddFile>(a[3]).stats->Json().find("\"numRecords\":4"),
            std::string::npos);
  ApplyFieldLies({{Field::kAddDeletionVector, Telling::kStale, 0}}, a);  // the remove's: none
  EXPECT_FALSE(std::get<delta::AddFile>(a[3]).deletion_vector.has_value());
  ApplyFieldLies({{Field::kRemoveSize, Telling::kStale, 0}}, a);  // the other remove's
  EXPECT_EQ(std::get<delta::RemoveFile>(a[1]).size_bytes, 7);
  ApplyFieldLies({{Field::kRemoveStats, Telling::kAbsent, 1}}, a);  // the second remove
  EXPECT_FALSE(std::get<delta::RemoveFile>(a[2]).stats.has_value());
  EXPECT_TRUE(std::get<delta::RemoveFile>(a[1]).stats.has_value());
  ApplyFieldLies({{Field::kAddPartitionValues, Telling::kContradicting, 0}}, a);
  EXPECT_FALSE(std::get<delta::AddFile>(a[3]).partition_values[0].second.has_value());  // NULL
  ApplyFieldLies({{Field::kCommitReadVersion, Telling::kContradicting, 0},
                  {Field::kCommitIsBlindAppend, Telling::kContradicting, 0},
                  {Field::kCommitOperation, Telling::kAbsent, 0}},
                 a);
  const auto& info = std::get<delta::CommitInfo>(a[0]);
  EXPECT_EQ(info.read_version, 1004);  // after its own version: no writer read it
  EXPECT_EQ(info.is_blind_append, true);
  EXPECT_FALSE(info.operation.has_value());
  ApplyFieldLies({{Field::kActionOrder, Telling::kContradicting, 0}}, a);
  EXPECT_TRUE(std::holds_alternative<delta::CommitInfo>(a[3]));
  // The truth is told of any field no lie names.
  EXPECT_EQ(std::get<delta::AddFile>(a[0]).size_bytes, 100);
}

TEST(FieldLies, ACommitWithoutTheActionIsLeftAsItIs) {
  std::vector<delta::Action> only_info = {delta::CommitInfo{}};
  ApplyFieldLies(
      {{Field::kAddStats, Telling::kAbsent, 0}, {Field::kRemoveSize, Telling::kAbsent, 0}},
      only_info);
  EXPECT_EQ(only_info.size(), 1u);
}

}  // namespace
}  // namespace rlc::simulator
