// libFuzzer target: rlc::delta::ParseCompositionTags, both overloads, and WriteCompositionTags.
//
// Input: the bytes before the first 0x00 are the compactedInto JSON, the bytes after it the
// compactionInfo JSON (no 0x00: all of it is compactedInto, compactionInfo is empty).
// Checks:
//   - the StringMap overload agrees with the two-string one when the map holds the two tags
//     (in either order, next to an unrelated tag), and says nullopt when a tag is duplicated or
//     null;
//   - on success both numbers are >= 0, and the written tags (WriteCompositionTags into an empty
//     map) parse back to the same CompositionTag; writing over a map that holds old values
//     replaces them in place and keeps the unrelated tag.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz/targets/fuzz_check.h"
#include "impl/delta/actions.h"
#include "impl/delta/composition_tags.h"

namespace {

using rlc::delta::CompositionTag;
using rlc::delta::StringMap;

const std::string kInto(rlc::delta::kCompactedIntoTag);
const std::string kInfo(rlc::delta::kCompactionInfoTag);

void CheckWrite(const CompositionTag& tag, const StringMap& existing) {
  StringMap written;
  rlc::delta::WriteCompositionTags(tag, &written);
  FUZZ_CHECK(written.size() == 2);
  std::optional<CompositionTag> back = rlc::delta::ParseCompositionTags(written);
  FUZZ_CHECK(back.has_value());
  FUZZ_CHECK(*back == tag);

  StringMap over = existing;
  rlc::delta::WriteCompositionTags(tag, &over);
  FUZZ_CHECK(over.size() == existing.size());
  for (size_t i = 0; i < over.size(); ++i) {
    FUZZ_CHECK(over[i].first == existing[i].first);
    if (over[i].first != kInto && over[i].first != kInfo)
      FUZZ_CHECK(over[i].second == existing[i].second);
  }
  back = rlc::delta::ParseCompositionTags(over);
  FUZZ_CHECK(back.has_value());
  FUZZ_CHECK(*back == tag);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t split = input.find('\0');
  const std::string into(input.substr(0, split));
  const std::string info(split == std::string_view::npos ? std::string_view()
                                                         : input.substr(split + 1));

  const std::optional<CompositionTag> direct = rlc::delta::ParseCompositionTags(into, info);

  const StringMap in_order = {{kInto, into}, {kInfo, info}};
  const StringMap reversed = {{"other", std::nullopt}, {kInfo, info}, {"x", "y"}, {kInto, into}};
  FUZZ_CHECK(rlc::delta::ParseCompositionTags(in_order) == direct);
  FUZZ_CHECK(rlc::delta::ParseCompositionTags(reversed) == direct);
  FUZZ_CHECK(
      !rlc::delta::ParseCompositionTags(StringMap{{kInto, into}, {kInfo, info}, {kInto, into}}));
  FUZZ_CHECK(!rlc::delta::ParseCompositionTags(StringMap{{kInto, std::nullopt}, {kInfo, info}}));
  FUZZ_CHECK(!rlc::delta::ParseCompositionTags(StringMap{{kInto, into}}));

  if (!direct.has_value()) return 0;
  FUZZ_CHECK(direct->row_offset_in_target >= 0);
  FUZZ_CHECK(direct->source_num_physical_records >= 0);
  CheckWrite(*direct, reversed);
  return 0;
}
