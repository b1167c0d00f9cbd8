// Broken checkpoints, on copies of ../shared/checkpoint-tables: each is a typed error naming the
// file and what is wrong (exit 2), or, where the protocol says a reader skips the checkpoint (a
// multi-part checkpoint with a part missing), the same snapshot rebuilt another way.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_rlc.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using rlc::testing::RunResult;
using rlc::testing::RunRlc;
using rlc::testing::ShellQuote;

const fs::path kTables = fs::path(RLC_SHARED_DIR) / "checkpoint-tables";

class BrokenCheckpoint : public ::testing::Test {
 protected:
  // A private copy of the shared table `name`.
  fs::path Copy(const std::string& name) {
    if (!fs::is_directory(kTables / name)) {
      const char* ci = std::getenv("CI");
      if (ci != nullptr && std::string(ci) == "true") ADD_FAILURE() << "missing: " << kTables;
      return {};
    }
    root_ = fs::temp_directory_path() /
            ("rlc-broken-checkpoint-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::copy(kTables / name, root_, fs::copy_options::recursive);
    return root_;
  }
  void TearDown() override {
    if (!root_.empty()) fs::remove_all(root_);
  }
  static RunResult Inspect(const fs::path& table) {
    return RunRlc("inspect " + ShellQuote(table.string()) + " --json");
  }
  fs::path root_;
};

TEST_F(BrokenCheckpoint, AMissingSidecarIsNamed) {
  const fs::path t = Copy("delta-kernel-rs__v2-checkpoints-parquet-with-sidecars");
  if (t.empty()) GTEST_SKIP() << "shared tables missing";
  const std::string sidecar =
      "00000000000000000006.checkpoint.0000000002.0000000002.4367b29c-0e87-447f-8e81-"
      "9814cc01ad1f.parquet";
  fs::remove(t / "_delta_log" / "_sidecars" / sidecar);
  const RunResult r = Inspect(t);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("NotFound"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("_sidecars/" + sidecar), std::string::npos) << r.err;
}

TEST_F(BrokenCheckpoint, ATruncatedCheckpointIsCorruptAndNamed) {
  const fs::path t = Copy("delta-kernel-rs__app-txn-checkpoint");
  if (t.empty()) GTEST_SKIP() << "shared tables missing";
  const fs::path checkpoint = t / "_delta_log" / "00000000000000000001.checkpoint.parquet";
  fs::resize_file(checkpoint, fs::file_size(checkpoint) / 2);
  const RunResult r = Inspect(t);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("Corrupt"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("00000000000000000001.checkpoint.parquet"), std::string::npos) << r.err;
}

TEST_F(BrokenCheckpoint, ACheckpointWithoutMetadataIsCorrupt) {
  const fs::path t = Copy("delta-kernel-rs__v2-checkpoints-json-with-sidecars");
  if (t.empty()) GTEST_SKIP() << "shared tables missing";
  const fs::path top = t / "_delta_log" /
                       "00000000000000000006.checkpoint.2a15d0c6-8b11-4a98-bab4-957905d62f7f.json";
  std::ofstream(top, std::ios::trunc)
      << R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["v2Checkpoint"],"writerFeatures":["v2Checkpoint"]}})"
      << "\n";
  const RunResult r = Inspect(t);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("has no metaData action"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2a15d0c6"), std::string::npos) << r.err;
}

TEST_F(BrokenCheckpoint, ACheckpointNamingAnotherVersionIsCorrupt) {
  const fs::path t = Copy("delta-kernel-rs__v2-checkpoints-json-with-sidecars");
  if (t.empty()) GTEST_SKIP() << "shared tables missing";
  const fs::path top = t / "_delta_log" /
                       "00000000000000000006.checkpoint.2a15d0c6-8b11-4a98-bab4-957905d62f7f.json";
  std::ifstream in(top);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const std::string said = R"({"checkpointMetadata":{"version":6}})";
  ASSERT_EQ(text.rfind(said, 0), 0u);
  text.replace(0, said.size(), R"({"checkpointMetadata":{"version":5}})");
  std::ofstream(top, std::ios::trunc) << text;
  const RunResult r = Inspect(t);
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.err.find("checkpointMetadata says version 5, the file name 6"), std::string::npos)
      << r.err;
}

TEST_F(BrokenCheckpoint, AMultiPartCheckpointMissingAPartIsSkipped) {
  const fs::path t = Copy("delta__multi-part-checkpoint");
  if (t.empty()) GTEST_SKIP() << "shared tables missing";
  const RunResult whole = Inspect(t);
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  fs::remove(t / "_delta_log" / "00000000000000000001.checkpoint.0000000002.0000000002.parquet");
  const RunResult skipped = Inspect(t);  // the JSON history from version 0 rebuilds it
  ASSERT_EQ(skipped.exit_code, 0) << skipped.err;
  EXPECT_EQ(json::parse(skipped.out), json::parse(whole.out));
  fs::remove(t / "_delta_log" / "00000000000000000000.json");  // and now nothing can
  const RunResult none = Inspect(t);
  EXPECT_EQ(none.exit_code, 2) << none.out;
  EXPECT_NE(none.err.find("checkpoint 1 has 1 of its 2 parts"), std::string::npos) << none.err;
}

}  // namespace
