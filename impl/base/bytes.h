// Fixed-width integer loads and stores in a named byte order.
//
// Concern: the DV formats mix little-endian (the bitmap) and big-endian (the DV file, Z85 blocks).
// These helpers never read out of bounds: callers check the length first (REQUIRES lines), and
// they use memcpy so unaligned positions are defined behaviour.
#ifndef RLC_IMPL_BASE_BYTES_H_
#define RLC_IMPL_BASE_BYTES_H_

#include <cstdint>
#include <cstring>
#include <string>

namespace rlc {

// REQUIRES: p points at >= 2/4/8 readable bytes.
inline uint16_t LoadLe16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
inline uint32_t LoadLe32(const uint8_t* p) {
  return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}
inline uint64_t LoadLe64(const uint8_t* p) {
  return uint64_t(LoadLe32(p)) | (uint64_t(LoadLe32(p + 4)) << 32);
}
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
