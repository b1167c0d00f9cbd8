// Z85 with Delta's alphabet: how inline DVs and DV file UUIDs are written in the log.
//
// Concern: text <-> bytes. Each 4-byte block, read big-endian, becomes 5 base-85 digits, most
// significant first. Input that is not a multiple of 4 bytes is zero-padded before encoding;
// the decoder is told the true length and drops the padding.
//
// One extension is accepted on decode, and only there: a last block written as k '#' characters
// (1 <= k <= 3) followed by 5-k digits that encode the final 4-k bytes big-endian. A Rust Z85
// crate writes tails this way (delta-kernel-rs's cdf-table-with-dv, version 5). It cannot be
// confused with a standard block: any standard block starting with '#' (digit 84) overflows 32
// bits. The decoder accepts it only when k equals the padding that the true length implies.
//
// Thread-safety: stateless functions.
#ifndef RLC_IMPL_DV_Z85_H_
#define RLC_IMPL_DV_Z85_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "impl/base/status.h"

namespace rlc::dv {

// Encodes `bytes`, zero-padded to a multiple of 4. Output length = 5 * ceil(n / 4).
std::string Z85Encode(std::string_view bytes);

// Decodes `text` into exactly `size_bytes` bytes. Errors (kCorrupt) name the character offset:
// a character outside the alphabet, a length that is not a multiple of 5, a block above 2^32-1,
// a length that does not match size_bytes, nonzero padding.
Result<std::string> Z85Decode(std::string_view text, uint64_t size_bytes);

// Whether `z85` is the 20-character Z85 form of a UUID (Z85ToUuidText would decode it, with the
// same error otherwise), without building anything.
Status Z85CheckUuid(std::string_view z85);

// The 20-character Z85 form of a UUID <-> its canonical 8-4-4-4-12 lower-case text.
Result<std::string> Z85ToUuidText(std::string_view z85);
Result<std::string> UuidTextToZ85(std::string_view uuid_text);

}  // namespace rlc::dv

#endif  // RLC_IMPL_DV_Z85_H_
