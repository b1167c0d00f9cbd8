// Fixed-width integer loads and stores in a named byte order.
//
// Concern: the DV formats mix little-endian (the bitmap) and big-endian (the DV file, Z85 blocks).
// These helpers never read out of bounds: callers check the length first (REQUIRES lines), and
// they use memcpy so unaligned positions are defined behaviour.
#ifndef RLC_IMPL_BASE_BYTES_H_
#define RLC_IMPL_BASE_BYTES_H_

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace rlc {

// REQUIRES: p points at >= 2/4/8 readable bytes.
// On little-endian hosts a load is one memcpy, which compilers turn into one (vectorizable) move.
template <typename T>
inline T LoadLe(const uint8_t* p) {
  if constexpr (std::endian::native == std::endian::little) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else {
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v = T(v | (T(p[i]) << (8 * i)));
    return v;
  }
}
inline uint16_t LoadLe16(const uint8_t* p) { return LoadLe<uint16_t>(p); }
inline uint32_t LoadLe32(const uint8_t* p) { return LoadLe<uint32_t>(p); }
inline uint64_t LoadLe64(const uint8_t* p) { return LoadLe<uint64_t>(p); }
inline uint32_t LoadBe32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

inline void AppendLe16(std::string* out, uint16_t v) {
  out->push_back(char(v & 0xFF));
  out->push_back(char(v >> 8));
}
inline void AppendLe32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(char((v >> (8 * i)) & 0xFF));
}
inline void AppendLe64(std::string* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(char((v >> (8 * i)) & 0xFF));
}
inline void AppendBe32(std::string* out, uint32_t v) {
  for (int i = 3; i >= 0; --i) out->push_back(char((v >> (8 * i)) & 0xFF));
}

inline const uint8_t* AsBytes(const char* p) { return reinterpret_cast<const uint8_t*>(p); }

}  // namespace rlc

#endif  // RLC_IMPL_BASE_BYTES_H_
