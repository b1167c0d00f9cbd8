// The oracle's own reader (fuzz/oracle/reference_reader.h), checked two ways:
//   - against impl/'s DV encoder: bitmaps impl writes (array, bitset and run containers, several
//     buckets) decode to the same rows through the reader's independent decoder;
//   - against the 15 real tables: at every version, live rows, files and deleted rows equal
//     tests/external/expected_live_rows.json (computed by an independent Python replay). The
//     special-character table is a template (see inspect_real_tables_test.cc) and is left out.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "fuzz/oracle/reference_reader.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/row_bitmap.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

TEST(ReferenceReader, DecodesWhatImplEncodes) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 200; ++round) {
    rlc::dv::RowBitmap bitmap;
    std::set<uint64_t> rows;
    const int shape = round % 4;
    const uint64_t high = shape == 3 ? (static_cast<uint64_t>(1 + round % 3) << 32) : 0;
    for (int i = 0; i < 1 + round * 37; ++i) {
      uint64_t r = shape == 0   ? rng() % 1000000
                   : shape == 1 ? rng() % 70000
                                : (rng() % 50) * 1000 + i % 300;
      r += high;
      bitmap.Add(r);
      rows.insert(r);
    }
    if (round % 2 == 0) bitmap.RunOptimize();
    std::string why;
    const std::optional<std::set<uint64_t>> decoded =
        rlc::oracle::DecodeReferenceBitmap(rlc::dv::EncodeBitmap(bitmap), &why);
    ASSERT_TRUE(decoded.has_value()) << why;
    EXPECT_EQ(*decoded, rows) << "round " << round;
  }
}

TEST(ReferenceReader, RefusesMalformedBitmaps) {
  std::string why;
  EXPECT_FALSE(rlc::oracle::DecodeReferenceBitmap("", &why).has_value());
  std::string good = rlc::dv::EncodeBitmap(rlc::dv::RowBitmap{1, 2, 3});
  EXPECT_FALSE(
      rlc::oracle::DecodeReferenceBitmap(good.substr(0, good.size() - 1), &why).has_value());
  EXPECT_FALSE(rlc::oracle::DecodeReferenceBitmap(good + "x", &why).has_value());
  EXPECT_NE(why.find("trailing"), std::string::npos);
}

TEST(ReferenceReader, AgreesWithTheExpectedRowsOfEveryRealTable) {
  const fs::path tables = RLC_SHARED_TABLES_DIR;
  if (!fs::is_directory(tables)) {
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true")
      FAIL() << "CI=true but the shared tables are missing";
    GTEST_SKIP() << "shared tables missing";
  }
  std::ifstream in(RLC_EXPECTED_JSON);
  const json expected = json::parse(in);
  int versions = 0;
  for (const auto& [name, table] : expected.items()) {
    if (name == "delta__table-with-dv-special-char") continue;
    for (const json& v : table.at("versions")) {
      const int64_t version = v.at("version");
      SCOPED_TRACE(name + " version " + std::to_string(version));
      const rlc::oracle::ReferenceResult r = rlc::oracle::ReadReferenceSnapshot(
          (tables / name).string(), version, table.at("dvFilePrefix"));
      ASSERT_TRUE(r.snapshot.has_value()) << r.error;
      int64_t live = 0, deleted = 0;
      for (const rlc::oracle::ReferenceFile& f : r.snapshot->files) {
        ASSERT_TRUE(f.num_records.has_value()) << f.path;
        live += *f.num_records - static_cast<int64_t>(f.deleted.size());
        deleted += static_cast<int64_t>(f.deleted.size());
      }
      EXPECT_EQ(static_cast<int64_t>(r.snapshot->files.size()), v.at("numFiles").get<int64_t>());
      EXPECT_EQ(live, v.at("liveRows").get<int64_t>());
      EXPECT_EQ(deleted, v.at("deletedRows").get<int64_t>());
      ++versions;
    }
  }
  EXPECT_GT(versions, 100);
}

}  // namespace
