// One reading of a commit, held over generated winners: a commit `rlc inspect` (log replay)
// refuses is one `rlc check` refuses (exit 2) or aborts a loser against, never one it judges in
// part and commits past (docs/trust.md#one-reading).
//
// Method: a table of three files at version 0; a winner commit at version 1 drawn from a grammar
// of file actions: adds and removes of known and new paths, each field honest, absent, or
// contradicting the log (stats that do not parse, a negative size, a DV descriptor that does not
// decode, a path twice, an add and a remove of one key, a remove of a path the table never held),
// with or without a commitInfo whose isBlindAppend and readVersion are drawn too; a DV kept in a
// file beside the data, the file honest, missing, with a wrong version byte or CRC, or its
// descriptor's offset, size or cardinality lying; and the log read through a classic checkpoint
// at version 0 or 1, beside its JSON commit or instead of it, whole or cut short. A loser that read
// at version 0 (a predicate, a file, or the whole table) deletes or appends, with every flag off
// or every flag on. The three commands run as a user runs them: `rlc inspect TABLE --version 1`,
// `rlc audit TABLE` and `rlc check TABLE --txn`. A fixed seed and count in CI through RC_PARAMS.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "impl/delta/log.h"
#include "impl/delta/snapshot.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/descriptor.h"
#include "impl/dv/dv_file.h"
#include "impl/dv/row_bitmap.h"
#include "impl/parquet/checkpoint_writer.h"
#include "impl/storage/storage.h"
#include "tests/support/run_rlc.h"

namespace {

namespace fs = std::filesystem;
using rlc::testing::RunRlc;
using rlc::testing::ShellQuote;

constexpr char kVersion0[] =
    R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],"writerFeatures":["deletionVectors"]}}
{"metaData":{"id":"t","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":[],"configuration":{"delta.enableDeletionVectors":"true"}}}
{"add":{"path":"f1","partitionValues":{},"size":10,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":10,\"minValues\":{\"id\":0},\"maxValues\":{\"id\":9},\"nullCount\":{\"id\":0}}"}}
{"add":{"path":"f2","partitionValues":{},"size":10,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":10,\"minValues\":{\"id\":10},\"maxValues\":{\"id\":19},\"nullCount\":{\"id\":0}}"}}
{"add":{"path":"f3","partitionValues":{},"size":10,"modificationTime":1,"dataChange":true,"stats":"{\"numRecords\":10,\"minValues\":{\"id\":20},\"maxValues\":{\"id\":29},\"nullCount\":{\"id\":0}}"}}
)";

// An inline DV of rows {1, 3} (docs/formats.md#a7), and descriptors that do not decode or lie.
const std::string& InlineDv() {
  static const std::string* text = [] {
    const rlc::dv::DvDescriptor d = rlc::dv::InlineDescriptor(rlc::dv::RowBitmap{1, 3});
    return new std::string(nlohmann::json{
        {"storageType", "i"},
        {"pathOrInlineDv", d.path_or_inline_dv},
        {"sizeInBytes", d.size_bytes},
        {"cardinality",
         d.cardinality}}.dump());
  }();
  return *text;
}
const std::vector<std::string> kBadDvs = {
    R"({"storageType":"i","pathOrInlineDv":"!!!","sizeInBytes":3,"cardinality":1})",
    R"({"storageType":"u","pathOrInlineDv":"ab","offset":1,"sizeInBytes":40,"cardinality":2})",
    R"({"storageType":"q","pathOrInlineDv":"x","sizeInBytes":1,"cardinality":1})",
};

// A DV kept in a file (storage type 'u'): the descriptor an add names and the file's bytes, each
// honest or lying in one way. Empty bytes: the file is missing.
struct DvInFile {
  std::string descriptor;
  std::string bytes;
};
constexpr char kDvUuid[] = "ab2d8a04-0e83-4a39-9d3e-1f1f3c3fe0a2";

DvInFile DrawDvInFile() {
  const std::string payload = rlc::dv::EncodeBitmap(rlc::dv::RowBitmap{1, 3});
  std::vector<uint32_t> offsets;
  std::string bytes = rlc::dv::EncodeDvFile({payload}, &offsets);
  uint64_t offset = offsets.at(0), size = payload.size(), cardinality = 2;
  switch (*rc::gen::inRange(0, 12)) {
    case 0:
      bytes.clear();  // missing
      break;
    case 1:
      bytes[0] = 7;  // an unknown version
      break;
    case 2:
      bytes.back() = static_cast<char>(bytes.back() ^ 0x5a);  // the CRC
      break;
    case 3:
      bytes.resize(bytes.size() - 3);  // cut short
      break;
    case 4:
      offset += 2;
      break;
    case 5:
      size += 1;
      break;
    case 6:
      cardinality = 3;
      break;
    default:
      break;  // honest
  }
  const rlc::Result<std::string> path = rlc::dv::UuidPathOrInlineDv("", kDvUuid);
  RC_ASSERT(path.ok());
  return {nlohmann::json{{"storageType", "u"},
                         {"pathOrInlineDv", *path},
                         {"offset", offset},
                         {"sizeInBytes", size},
                         {"cardinality", cardinality}}
              .dump(),
          bytes};
}

std::string Stats(int lo, int hi) {
  return "\"{\\\"numRecords\\\":10,\\\"minValues\\\":{\\\"id\\\":" + std::to_string(lo) +
         "},\\\"maxValues\\\":{\\\"id\\\":" + std::to_string(hi) +
         "},\\\"nullCount\\\":{\\\"id\\\":0}}\"";
}

// One add: each field honest, absent or contradicting; its DV inline, undecodable, or the one
// kept in `dv_file` (which the winner writes beside the table).
std::string DrawAdd(const DvInFile& dv_file) {
  const std::string path = *rc::gen::element<std::string>("f1", "f2", "f3", "g1", "g2");
  std::string fields = "\"path\":\"" + path + "\",\"partitionValues\":{}";
  switch (*rc::gen::inRange(0, 16)) {
    case 0:
      fields += ",\"size\":-4";
      break;
    case 1:
      fields += ",\"size\":\"ten\"";
      break;
    case 2:
      break;  // no size
    default:
      fields += ",\"size\":10";
  }
  fields += ",\"modificationTime\":2,\"dataChange\":" +
            std::string(*rc::gen::inRange(0, 4) == 0 ? "false" : "true");
  switch (*rc::gen::inRange(0, 16)) {
    case 0:
      break;  // no statistics
    case 1:
      fields += ",\"stats\":\"{\\\"numRecords\\\":\\\"x\\\"}\"";
      break;
    case 2:
      fields += ",\"stats\":\"not json\"";
      break;
    default:
      fields += ",\"stats\":" + Stats(*rc::gen::inRange(0, 40), 40);
  }
  switch (*rc::gen::inRange(0, 10)) {
    case 0:
    case 1:
      fields += ",\"deletionVector\":" + InlineDv();
      break;
    case 2:
      fields += ",\"deletionVector\":" + *rc::gen::elementOf(kBadDvs);
      break;
    case 3:
    case 4:
      fields += ",\"deletionVector\":" + dv_file.descriptor;
      break;
    default:
      break;
  }
  return "{\"add\":{" + fields + "}}";
}

std::string DrawRemove() {
  const std::string path =
      *rc::gen::element<std::string>("f1", "f2", "f3", "f1", "f2", "f3", "g1", "h9");
  std::string fields = "\"path\":\"" + path + "\",\"deletionTimestamp\":2,\"dataChange\":" +
                       std::string(*rc::gen::inRange(0, 4) == 0 ? "false" : "true");
  if (*rc::gen::inRange(0, 6) == 0) fields += ",\"deletionVector\":" + InlineDv();
  if (*rc::gen::inRange(0, 16) == 0) fields += ",\"size\":\"big\"";
  return "{\"remove\":{" + fields + "}}";
}

std::string DrawCommitInfo() {
  std::string fields = "\"timestamp\":2,\"operation\":\"" +
                       *rc::gen::element<std::string>("WRITE", "DELETE", "OPTIMIZE", "MERGE") +
                       "\"";
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      fields += ",\"isBlindAppend\":true";
      break;
    case 1:
      fields += ",\"isBlindAppend\":false";
      break;
    default:
      break;
  }
  if (*rc::gen::arbitrary<bool>())
    fields += ",\"readVersion\":" + std::to_string(*rc::gen::element(0, 1, 7));
  return "{\"commitInfo\":{" + fields + "}}";
}

// The winner: 1-4 file actions (sometimes one repeated) and maybe a commitInfo first.
std::string DrawWinner(const DvInFile& dv_file) {
  std::vector<std::string> lines;
  if (*rc::gen::inRange(0, 4) != 0) lines.push_back(DrawCommitInfo());
  for (int i = *rc::gen::inRange(1, 5); i > 0; --i)
    lines.push_back(*rc::gen::arbitrary<bool>() ? DrawAdd(dv_file) : DrawRemove());
  if (*rc::gen::inRange(0, 12) == 0) lines.push_back(lines.back());  // a path twice
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::string DrawLoser() {
  std::string reads;
  switch (*rc::gen::inRange(0, 3)) {
    case 0:
      reads = "\"readPredicates\":[\"id > 25\"],\"readFiles\":[\"f3\"]";
      break;
    case 1:
      reads = "\"readPredicates\":[],\"readFiles\":[\"f1\"]";
      break;
    default:
      reads = "\"readWholeTable\":true,\"readFiles\":[\"f1\",\"f2\",\"f3\"]";
      break;
  }
  const bool append = *rc::gen::arbitrary<bool>();
  const std::string actions =
      append
          ? R"({"commitInfo":{"operation":"WRITE","isBlindAppend":false}},{"add":{"path":"n1","partitionValues":{},"size":5,"modificationTime":3,"dataChange":true,"stats":"{\"numRecords\":1}"}})"
          : R"({"commitInfo":{"operation":"DELETE","isBlindAppend":false}},{"remove":{"path":"f3","deletionTimestamp":3,"dataChange":true}})";
  return "{\"readVersion\":0," + reads + ",\"actions\":[" + actions + "]}";
}

const char* kAllFlags[] = {"conflictDetection.excludeNoDataChangeFiles.enabled",
                           "conflictDetection.dataSkipping.enabled",
                           "conflictDetection.dataSkipping.valueExact.enabled",
                           "rowLevelConcurrency.enabled",
                           "optimize.conflictReconciliation.enabled",
                           "optimize.conflictReconciliation.reverse.enabled"};

class Table {
 public:
  Table() {
    static int next = 0;
    root_ = fs::temp_directory_path() /
            ("rlc-one-reading-" + std::to_string(::getpid()) + "-" + std::to_string(next++));
    fs::remove_all(root_);
  }
  ~Table() {
    fs::remove_all(root_);
    fs::remove(root_.string() + "-txn.json");
  }

  std::string Root() const { return root_.string(); }
  void Commit(int64_t version, const std::string& text) {
    auto storage = rlc::storage::NewLocalStorage();
    RC_ASSERT(storage
                  ->PutIfAbsent(rlc::delta::LogDir(root_.string()) + "/" +
                                    rlc::delta::CommitFileName(version),
                                text)
                  .ok());
  }
  void Put(const std::string& name, const std::string& bytes) {
    auto storage = rlc::storage::NewLocalStorage();
    RC_ASSERT(storage->PutIfAbsent(root_.string() + "/" + name, bytes).ok());
  }
  // A classic checkpoint of `version`, written by rlc's writer, then left whole or cut short,
  // and the JSON commit of that version kept beside it or deleted (readers must then start from
  // the checkpoint).
  void Checkpoint(int64_t version, bool cut_short, bool drop_json) {
    auto storage = rlc::storage::NewLocalStorage();
    rlc::Result<rlc::delta::Snapshot> snapshot =
        rlc::delta::ReplayLog(*storage, root_.string(), version);
    RC_ASSERT(snapshot.ok());
    rlc::Result<std::string> name =
        rlc::parquet::WriteCheckpoint(*storage, root_.string(), *snapshot);
    RC_ASSERT(name.ok());
    const fs::path log = rlc::delta::LogDir(root_.string());
    const fs::path file = fs::path(*name).is_absolute() ? fs::path(*name) : log / *name;
    if (cut_short) fs::resize_file(file, fs::file_size(file) / 2);
    if (drop_json) fs::remove(log / rlc::delta::CommitFileName(version));
  }
  rlc::testing::RunResult Run(const std::string& command, const std::string& extra = "") const {
    return RunRlc(command + " " + ShellQuote(root_.string()) + " " + extra);
  }
  std::string Txn(const std::string& json) const {
    const std::string file = root_.string() + "-txn.json";
    std::ofstream(file) << json;
    return file;
  }

 private:
  fs::path root_;
};

RC_GTEST_PROP(OneReadingProperty, ACommitReplayRefusesIsNeverCommittedPast, ()) {
  Table table;
  table.Commit(0, kVersion0);
  const DvInFile dv_file = DrawDvInFile();
  const std::string winner = DrawWinner(dv_file);
  table.Commit(1, winner);
  const bool dv_in_file = winner.find(dv_file.descriptor) != std::string::npos;
  if (dv_in_file && !dv_file.bytes.empty())
    table.Put("deletion_vector_" + std::string(kDvUuid) + ".bin", dv_file.bytes);
  // A checkpoint now and then, of the read version or of the winner's (whose replay must then
  // succeed: one that replay refuses has no snapshot to write).
  // The commit as log replay reads it from the JSON log, before any checkpoint stands for it.
  const rlc::testing::RunResult replay = table.Run("inspect", "--version 1 --json");
  const int checkpoint = *rc::gen::inRange(0, 8);  // 0: of version 0, 1: of version 1, else none
  const bool cut_short = *rc::gen::inRange(0, 4) == 0, drop_json = *rc::gen::arbitrary<bool>();
  bool checkpointed = false;
  if (checkpoint == 0 || checkpoint == 1) {
    auto storage = rlc::storage::NewLocalStorage();
    checkpointed = checkpoint == 0 || rlc::delta::ReplayLog(*storage, table.Root(), 1).ok();
    if (checkpointed) table.Checkpoint(checkpoint, cut_short, drop_json);
  }
  const std::string loser = DrawLoser();
  std::string flags;
  if (*rc::gen::arbitrary<bool>()) {
    for (const char* f : kAllFlags)
      flags += " --flag spark.databricks.delta." + std::string(f) + "=true";
  }
  const rlc::testing::RunResult inspect = table.Run("inspect", "--version 1 --json");
  const rlc::testing::RunResult audit = table.Run("audit", "--json");
  const rlc::testing::RunResult check =
      table.Run("check", "--json --txn " + ShellQuote(table.Txn(loser)) + flags);
  RC_LOG() << "winner:\n"
           << winner << "loser: " << loser << "\nflags:" << flags << "\ninspect "
           << inspect.exit_code << ": " << inspect.err << "audit " << audit.exit_code << ": "
           << audit.out.substr(0, 300) << "\ncheck " << check.exit_code << ": "
           << check.out.substr(0, 300) << check.err << "\nreplay before any checkpoint "
           << replay.exit_code << ": " << replay.err << "\n";
  RC_ASSERT(inspect.exit_code == 0 || inspect.exit_code == 2);
  RC_ASSERT(check.exit_code >= 0 && check.exit_code <= 2);
  // A whole checkpoint rlc wrote reads as the JSON log it stands for (one cut short, or one whose
  // JSON commit is gone, may make the table unreadable: that is the storage's, not the commit's).
  if (checkpointed && !cut_short && !drop_json) RC_ASSERT(inspect.exit_code == replay.exit_code);
  const bool replay_refuses = replay.exit_code == 2;
  const bool check_refuses = check.exit_code == 2;
  const bool committed = check.exit_code == 0;
  RC_CLASSIFY(replay_refuses, "replay refuses the winner");
  RC_CLASSIFY(check_refuses, "check refuses the winner");
  RC_CLASSIFY(committed, "the loser commits");
  RC_CLASSIFY(audit.exit_code == 1, "audit flags the log");
  RC_CLASSIFY(dv_in_file, "a DV kept in a file");
  RC_CLASSIFY(checkpointed, "a checkpoint of version " + std::to_string(checkpoint) +
                                (cut_short ? ", cut short" : "") +
                                (drop_json ? ", its JSON commit gone" : ""));
  // The rule: a commit replay refuses is never committed past.
  if (replay_refuses) RC_ASSERT(!committed);
  // Nor one whose actions no longer exist: a checkpoint holds the winner's outcome, not what it
  // added and removed, which is what a check judges.
  if (checkpoint == 1 && checkpointed && drop_json) RC_ASSERT(!committed);
  // The other way is allowed (a check may need a field replay does not read: the statistics
  // Case 1 judges by), and counted.
  RC_CLASSIFY(check_refuses && !replay_refuses, "check refuses a winner replay accepts");
}

// The class the property found: a winner whose commit file is gone, the log naming its version
// only by a checkpoint. The check once listed commit files alone, judged no winner and
// committed the loser at that very version.
TEST(OneReading, AWinnerKnownOnlyByACheckpointIsRefused) {
  Table table;
  table.Commit(0, kVersion0);
  table.Commit(1, R"({"remove":{"path":"f3","deletionTimestamp":2,"dataChange":true}})"
                  "\n");
  table.Checkpoint(1, /*cut_short=*/false, /*drop_json=*/true);
  const std::string loser =
      R"({"readVersion":0,"readPredicates":["id > 25"],"readFiles":["f3"],"actions":[)"
      R"({"add":{"path":"n1","partitionValues":{},"size":5,"modificationTime":3,)"
      R"("dataChange":true,"stats":"{\"numRecords\":1}"}}]})";
  const rlc::testing::RunResult check = table.Run("check", "--txn " + ShellQuote(table.Txn(loser)));
  EXPECT_EQ(check.exit_code, 2) << check.out << check.err;
  EXPECT_NE(check.err.find("00000000000000000001.json: version 1 has no commit file"),
            std::string::npos)
      << check.err;
}

}  // namespace
