// libFuzzer target: rlc::dv::Z85Decode, Z85ToUuidText and UuidTextToZ85 on hostile text.
//
// Input: byte 0 is a mode, bytes 1..4 a big-endian u32 N, the rest is the text T.
//   mode & 1 == 0: size_bytes = N, or ~N (a size near 2^64) when mode & 2;
//   mode & 1 == 1: size_bytes = 4 * (|T| / 5) - ((mode >> 1) & 3), a size T's length can hold,
//                  so the padding rules (zero padding, the '#' tail) are reached at once.
// On success it checks: the result has size_bytes bytes; Z85Encode(result) decodes back to it;
// for standard text (the last block does not start with '#', i.e. not the '#' tail form) the
// re-encoding equals T exactly. Z85ToUuidText runs on T and on T's first 20 characters; on
// success UuidTextToZ85 gives the 20 characters back. UuidTextToZ85 runs on T; on success
// Z85ToUuidText gives T back, lower-cased.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/targets/fuzz_check.h"
#include "impl/base/bytes.h"
#include "impl/dv/z85.h"

namespace {

void CheckUuid(std::string_view z85) {
  rlc::Result<std::string> uuid = rlc::dv::Z85ToUuidText(z85);
  if (!uuid.ok()) return;
  FUZZ_CHECK(z85.size() == 20);
  FUZZ_CHECK(uuid->size() == 36);
  rlc::Result<std::string> back = rlc::dv::UuidTextToZ85(*uuid);
  FUZZ_CHECK(back.ok());
  FUZZ_CHECK(*back == z85);
}

void CheckUuidText(std::string_view text) {
  rlc::Result<std::string> z85 = rlc::dv::UuidTextToZ85(text);
  if (!z85.ok()) return;
  FUZZ_CHECK(z85->size() == 20);
  rlc::Result<std::string> back = rlc::dv::Z85ToUuidText(*z85);
  FUZZ_CHECK(back.ok());
  std::string lower(text);
  for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
  FUZZ_CHECK(*back == lower);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 5) return 0;
  const uint8_t mode = data[0];
  const uint32_t n = rlc::LoadBe32(data + 1);
  const std::string_view text(reinterpret_cast<const char*>(data + 5), size - 5);

  uint64_t size_bytes = 0;
  if (mode & 1) {
    const uint64_t capacity = 4 * uint64_t(text.size() / 5);
    const uint64_t short_by = (mode >> 1) & 3;
    size_bytes = capacity >= short_by ? capacity - short_by : 0;
  } else {
    size_bytes = (mode & 2) ? ~uint64_t{n} : uint64_t{n};
  }

  rlc::Result<std::string> decoded = rlc::dv::Z85Decode(text, size_bytes);
  if (decoded.ok()) {
    FUZZ_CHECK(decoded->size() == size_bytes);
    const std::string encoded = rlc::dv::Z85Encode(*decoded);
    FUZZ_CHECK(encoded.size() == text.size());
    const bool hash_tail = !text.empty() && text[text.size() - 5] == '#';
    if (!hash_tail) FUZZ_CHECK(encoded == text);
    rlc::Result<std::string> again = rlc::dv::Z85Decode(encoded, size_bytes);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(*again == *decoded);
  }

  CheckUuid(text);
  if (text.size() >= 20) CheckUuid(text.substr(0, 20));
  CheckUuidText(text);
  return 0;
}
