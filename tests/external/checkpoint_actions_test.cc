// ArrowActionReader builds a checkpoint's adds straight from its columns; every action it gives
// must be the one the JSON way gives (each row written as its JSON line, then parsed by the commit
// parser). Checked on every Parquet checkpoint and sidecar of the shared real tables (written by
// Delta Spark, delta-rs and Delta Kernel) and on checkpoints rlc writes, so that the fast path
// can only ever be faster.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "impl/parquet/checkpoint_actions.h"

namespace {

namespace fs = std::filesystem;

std::string Bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(CheckpointActions, TheDirectAddsAreTheParsedOnesOnEveryRealCheckpoint) {
  const rlc::parquet::ArrowActionReader reader;
  const rlc::delta::ParquetActionReader& base = reader;
  if (!fs::exists(RLC_SHARED_DIR)) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true")
      FAIL() << "CI=true but " RLC_SHARED_DIR " is missing";
    GTEST_SKIP() << "shared tables missing at " RLC_SHARED_DIR;
  }
  int files = 0;
  int64_t adds = 0;
  for (const char* folder : {"/checkpoint-tables", "/delta-tables"}) {
    for (const auto& entry :
         fs::recursive_directory_iterator(std::string(RLC_SHARED_DIR) + folder)) {
      const std::string path = entry.path().string();
      if (!entry.is_regular_file() || entry.path().extension() != ".parquet" ||
          path.find("_delta_log") == std::string::npos)
        continue;
      const std::string bytes = Bytes(entry.path());
      const rlc::Result<std::vector<rlc::delta::Action>> direct = reader.Actions(path, bytes);
      std::vector<rlc::delta::Action> collected;
      const rlc::Status walked =
          base.ParquetActionReader::ForEachAction(path, bytes, [&](rlc::delta::Action&& a) {
            collected.push_back(std::move(a));
            return rlc::Status::Ok();
          });
      const rlc::Result<std::vector<rlc::delta::Action>> parsed =
          walked.ok() ? rlc::Result<std::vector<rlc::delta::Action>>(std::move(collected))
                      : rlc::Result<std::vector<rlc::delta::Action>>(walked);
      ASSERT_EQ(direct.ok(), parsed.ok()) << path;
      if (!direct.ok()) {
        EXPECT_EQ(direct.status().message(), parsed.status().message());
        continue;
      }
      EXPECT_EQ(*direct, *parsed) << path;
      ++files;
      for (const auto& a : *direct) adds += std::holds_alternative<rlc::delta::AddFile>(a);
    }
  }
  EXPECT_GE(files, 20);  // the shared folders hold about 55 such files
  EXPECT_GT(adds, 0);
}

}  // namespace
