// Properties of the DV layer against plain models: std::set for the bitmap, the identity for
// the codecs. A fixed seed is set in CI through RC_PARAMS.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "impl/base/limits.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/dv_file.h"
#include "impl/dv/row_bitmap.h"
#include "impl/dv/z85.h"

namespace {

using rlc::dv::RowBitmap;

// Rows clustered so that array, bitset and run containers and several buckets all occur.
rc::Gen<std::vector<uint64_t>> GenRows() {
  auto cluster = rc::gen::mapcat(
      rc::gen::tuple(rc::gen::element<uint64_t>(0, 1, 2, uint64_t{1} << 32, uint64_t{5} << 32,
                                                rlc::kRowIndexMax >> 32),
                     rc::gen::inRange<uint32_t>(0, 8), rc::gen::inRange<uint32_t>(1, 9000),
                     rc::gen::element<uint32_t>(1, 2, 3, 97)),
      [](const std::tuple<uint64_t, uint32_t, uint32_t, uint32_t>& t) {
        auto [high, block, count, stride] = t;
        std::vector<uint64_t> rows;
        uint64_t base = (high << 32) + uint64_t(block) * 65536;
        for (uint32_t i = 0; i < count; ++i) {
          uint64_t row = base + uint64_t(i) * stride;
          if (row <= rlc::kRowIndexMax) rows.push_back(row);
        }
        return rc::gen::just(rows);
      });
  return rc::gen::map(
      rc::gen::resize(3, rc::gen::container<std::vector<std::vector<uint64_t>>>(cluster)),
      [](const std::vector<std::vector<uint64_t>>& parts) {
        std::vector<uint64_t> all;
        for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
        return all;
      });
}

RowBitmap FromRows(const std::vector<uint64_t>& rows) {
  RowBitmap b;
  for (uint64_t r : rows) b.Add(r);
  return b;
}

std::vector<uint64_t> SortedUnique(std::vector<uint64_t> rows) {
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  return rows;
}

RC_GTEST_PROP(DvCodecProperty, EncodeDecodeIsIdentity, ()) {
  const std::vector<uint64_t> rows = *GenRows();
  RowBitmap bitmap = FromRows(rows);
  if (*rc::gen::arbitrary<bool>()) bitmap.RunOptimize();
  const std::string bytes = rlc::dv::EncodeBitmap(bitmap);
  auto decoded = rlc::dv::DecodeBitmap(bytes);
  RC_ASSERT(decoded.ok());
  RC_ASSERT(decoded->ToVector() == SortedUnique(rows));
  RC_ASSERT(*decoded == bitmap);
  auto cardinality = rlc::dv::ValidateBitmapBytes(bytes);
  RC_ASSERT(cardinality.ok());
  RC_ASSERT(*cardinality == SortedUnique(rows).size());
}

RC_GTEST_PROP(DvCodecProperty, EveryTruncationIsRejected, ()) {
  RowBitmap bitmap = FromRows(*GenRows());
  const std::string bytes = rlc::dv::EncodeBitmap(bitmap);
  const size_t cut = *rc::gen::inRange<size_t>(0, bytes.size());
  RC_ASSERT(!rlc::dv::DecodeBitmap(std::string_view(bytes).substr(0, cut)).ok());
}

RC_GTEST_PROP(DvCodecProperty, SetAlgebraMatchesStdSet, ()) {
  const std::vector<uint64_t> a = *GenRows();
  const std::vector<uint64_t> b = *GenRows();
  std::set<uint64_t> sa(a.begin(), a.end()), sb(b.begin(), b.end());
  RowBitmap ba = FromRows(a), bb = FromRows(b);
  std::vector<uint64_t> u, i, d;
  std::set_union(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(u));
  std::set_intersection(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(i));
  std::set_difference(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(d));
  RC_ASSERT(ba.Union(bb).ToVector() == u);
  RC_ASSERT(ba.Intersect(bb).ToVector() == i);
  RC_ASSERT(ba.Difference(bb).ToVector() == d);
  RC_ASSERT(ba.Intersects(bb) == !i.empty());
  RC_ASSERT(ba.Cardinality() == sa.size());
  RC_ASSERT(ba.Union(bb).Validate().ok());
  RC_ASSERT(ba.Difference(bb).Validate().ok());
  if (!sa.empty()) {
    const uint64_t probe = *rc::gen::elementOf(a);
    RC_ASSERT(ba.Rank(probe) == uint64_t(std::distance(sa.begin(), sa.upper_bound(probe))));
  }
}

RC_GTEST_PROP(DvCodecProperty, Z85RoundTrips, (const std::string& bytes)) {
  const std::string text = rlc::dv::Z85Encode(bytes);
  RC_ASSERT(text.size() == (bytes.size() + 3) / 4 * 5);
  auto decoded = rlc::dv::Z85Decode(text, bytes.size());
  RC_ASSERT(decoded.ok());
  RC_ASSERT(*decoded == bytes);
}

RC_GTEST_PROP(DvCodecProperty, DvFileRecordsRoundTrip, ()) {
  const auto sets = *rc::gen::resize(
      3, rc::gen::nonEmpty(rc::gen::container<std::vector<std::vector<uint64_t>>>(GenRows())));
  std::vector<std::string> payloads;
  for (const auto& rows : sets) payloads.push_back(rlc::dv::EncodeBitmap(FromRows(rows)));
  std::vector<uint32_t> offsets;
  const std::string file = rlc::dv::EncodeDvFile(payloads, &offsets);
  RC_ASSERT(offsets.size() == payloads.size());
  for (size_t k = 0; k < payloads.size(); ++k) {
    auto payload = rlc::dv::ReadDvRecordFromFileBytes(file, offsets[k], payloads[k].size());
    RC_ASSERT(payload.ok());
    RC_ASSERT(std::string(*payload) == payloads[k]);
    auto decoded = rlc::dv::DecodeBitmap(*payload);
    RC_ASSERT(decoded.ok());
    RC_ASSERT(decoded->ToVector() == SortedUnique(sets[k]));
  }
  // Any single flipped payload byte is caught by the CRC.
  const size_t k = *rc::gen::inRange<size_t>(0, payloads.size());
  const size_t at = offsets[k] + 4 + *rc::gen::inRange<size_t>(0, payloads[k].size());
  std::string damaged = file;
  damaged[at] = char(damaged[at] ^ (1 << *rc::gen::inRange(0, 8)));
  RC_ASSERT(!rlc::dv::ReadDvRecordFromFileBytes(damaged, offsets[k], payloads[k].size()).ok());
}

}  // namespace
