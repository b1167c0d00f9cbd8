#include "impl/dv/z85.h"

#include <array>

#include "impl/base/bytes.h"

namespace rlc::dv {
namespace {

constexpr std::string_view kAlphabet =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
static_assert(kAlphabet.size() == 85);
constexpr int kPadChar = 84;  // '#'

constexpr std::array<int8_t, 256> MakeDigitTable() {
  std::array<int8_t, 256> table{};
  for (auto& t : table) t = -1;
  for (size_t i = 0; i < kAlphabet.size(); ++i) table[uint8_t(kAlphabet[i])] = int8_t(i);
  return table;
}
constexpr std::array<int8_t, 256> kDigit = MakeDigitTable();

Status BadChar(size_t offset, char c) {
  return Status::Corrupt("Z85 character " + std::to_string(offset) + ": byte " +
                         std::to_string(uint8_t(c)) + " is not in the Z85 alphabet");
}

// Decodes `digits` base-85 characters at text[at]; fails on a value above `max`.
Status DecodeDigits(std::string_view text, size_t at, size_t digits, uint64_t max, uint64_t* out) {
  uint64_t value = 0;
  for (size_t i = 0; i < digits; ++i) {
    int d = kDigit[uint8_t(text[at + i])];
    if (d < 0) return BadChar(at + i, text[at + i]);
    value = value * 85 + uint64_t(d);
  }
  if (value > max) {
    return Status::Corrupt("Z85 block at character " + std::to_string(at) + " overflows " +
                           std::to_string(max));
  }
  *out = value;
  return Status::Ok();
}

}  // namespace

std::string Z85Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 3) / 4 * 5);
  for (size_t i = 0; i < bytes.size(); i += 4) {
    uint8_t block[4] = {0, 0, 0, 0};
    for (size_t j = 0; j < 4 && i + j < bytes.size(); ++j) block[j] = uint8_t(bytes[i + j]);
    uint32_t value = LoadBe32(block);
    char digits[5];
    for (int d = 4; d >= 0; --d) {
      digits[d] = kAlphabet[value % 85];
      value /= 85;
    }
    out.append(digits, 5);
  }
  return out;
}

Result<std::string> Z85Decode(std::string_view text, uint64_t size_bytes) {
  if (text.size() % 5 != 0) {
    return Status::Corrupt("Z85 text of " + std::to_string(text.size()) +
                           " characters is not a multiple of 5");
  }
  const uint64_t blocks = text.size() / 5;
  if (size_bytes > blocks * 4 || size_bytes + 4 <= blocks * 4) {
    return Status::Corrupt("Z85 text of " + std::to_string(text.size()) +
                           " characters cannot hold " + std::to_string(size_bytes) + " bytes");
  }
  std::string out;
  out.reserve(blocks * 4);
  for (uint64_t b = 0; b < blocks; ++b) {
    const size_t at = size_t(b * 5);
    const bool last = b + 1 == blocks;
    const size_t tail = size_t(size_bytes - b * 4);  // bytes this block must supply, if last
    if (last && text[at] == '#' && tail < 4) {
      // The padding extension: k '#' then 5-k digits for the 4-k tail bytes.
      size_t k = 0;
      while (k < 5 && kDigit[uint8_t(text[at + k])] == kPadChar) ++k;
      if (k != 4 - tail) {
        return Status::Corrupt("Z85 character " + std::to_string(at) + ": " + std::to_string(k) +
                               " padding marks where the length implies " +
                               std::to_string(4 - tail));
      }
      uint64_t value = 0;
      RLC_RETURN_IF_ERROR(
          DecodeDigits(text, at + k, 5 - k, (uint64_t{1} << (8 * tail)) - 1, &value));
      for (size_t j = 0; j < tail; ++j) out.push_back(char((value >> (8 * (tail - 1 - j))) & 0xFF));
      return out;
    }
    uint64_t value = 0;
    RLC_RETURN_IF_ERROR(DecodeDigits(text, at, 5, 0xFFFFFFFFu, &value));
    for (int j = 3; j >= 0; --j) out.push_back(char((value >> (8 * j)) & 0xFF));
  }
  for (size_t i = size_bytes; i < out.size(); ++i) {
    if (out[i] != 0) {
      return Status::Corrupt("Z85 padding byte " + std::to_string(i) + " is not zero");
    }
  }
  out.resize(size_bytes);
  return out;
}

Status Z85CheckUuid(std::string_view z85) {
  if (z85.size() != 20) {
    return Status::Corrupt("a Z85 UUID has 20 characters, got " + std::to_string(z85.size()));
  }
  for (size_t at = 0; at < z85.size(); at += 5) {
    uint64_t value = 0;
    RLC_RETURN_IF_ERROR(DecodeDigits(z85, at, 5, 0xFFFFFFFFu, &value));
  }
  return Status::Ok();
}

Result<std::string> Z85ToUuidText(std::string_view z85) {
  if (z85.size() != 20) {
    return Status::Corrupt("a Z85 UUID has 20 characters, got " + std::to_string(z85.size()));
  }
  RLC_ASSIGN_OR_RETURN(std::string bytes, Z85Decode(z85, 16));
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text;
  for (size_t i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) text.push_back('-');
    text.push_back(kHex[uint8_t(bytes[i]) >> 4]);
    text.push_back(kHex[uint8_t(bytes[i]) & 0xF]);
  }
  return text;
}

Result<std::string> UuidTextToZ85(std::string_view uuid_text) {
  std::string bytes;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  int pending = -1;
  for (size_t i = 0; i < uuid_text.size(); ++i) {
    char c = uuid_text[i];
    if (c == '-' && (i == 8 || i == 13 || i == 18 || i == 23)) continue;
    int v = hex(c);
    if (v < 0) {
      return Status::InvalidArgument("UUID text character " + std::to_string(i) + " is not hex");
    }
    if (pending < 0) {
      pending = v;
    } else {
      bytes.push_back(char(pending * 16 + v));
      pending = -1;
    }
  }
  if (bytes.size() != 16 || pending >= 0 || uuid_text.size() != 36) {
    return Status::InvalidArgument("not a canonical UUID: '" + std::string(uuid_text) + "'");
  }
  return Z85Encode(bytes);
}

}  // namespace rlc::dv
