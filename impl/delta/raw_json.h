// RawJsonValue: the exact text of one JSON value met by simdjson's On Demand parser, validated.
//
// Concern: fields rlc does not model (unknown action fields, statistics rlc does not read) are
// written back byte for byte, so their text must be captured and, since On Demand skips objects
// and arrays without validating them, checked to be valid JSON first. Scalars lose trailing
// whitespace (On Demand's raw token includes it).
//
// Internal to impl/delta: it exposes simdjson, so only .cc files include it.
//
// Thread-safety: uses a thread_local validating parser.
#ifndef RLC_IMPL_DELTA_RAW_JSON_H_
#define RLC_IMPL_DELTA_RAW_JSON_H_

#include <simdjson.h>

#include <string>
#include <string_view>

namespace rlc::delta {

// False when `v` is not a valid JSON value; `out` is then unspecified.
bool RawJsonValue(simdjson::ondemand::value& v, std::string* out);

// `text` without the JSON whitespace at its end (On Demand's raw tokens carry it).
std::string_view WithoutTrailingWhitespace(std::string_view text);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_RAW_JSON_H_
