// DvDescriptor: the `deletionVector` struct of an add or remove action.
//
// Concern: the descriptor's fields, its identity (uniqueId) and where its bytes live. It holds no
// bitmap; impl/delta/deletion_vector_loader.h reads one.
//
// Fields (docs/formats.md#a3):
//   storageType 'u' (UUID-named file relative to the table root, with an optional random prefix
//   before the final 20 Z85 characters), 'i' (inline: Z85 of the bitmap), 'p' (absolute path).
//   'r' exists in Delta behind a feature rlc does not support.
//
// Invariants (Validate() names the first one broken):
//   1. storage_type is 'u', 'i' or 'p'.
//   2. size_bytes >= 0, cardinality >= 0; cardinality 0 iff the DV deletes nothing.
//   3. 'u': path_or_inline_dv has at least 20 characters and the last 20 decode to a UUID.
//   4. 'i': no offset.
//   5. 'u'/'p': offset, when present, >= 1 (byte 0 of a DV file is its version).
// Objects parsed from a log are trusted only after Validate().
//
// Thread-safety: plain value.
#ifndef RLC_IMPL_DV_DESCRIPTOR_H_
#define RLC_IMPL_DV_DESCRIPTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "impl/base/status.h"

namespace rlc::dv {

struct DvDescriptor {
  char storage_type = 'i';
  std::string path_or_inline_dv;
  std::optional<int32_t> offset;         // byte position of the record's size field; absent = 0
  int32_t size_bytes = 0;                // the serialized bitmap's length, before Z85
  int64_t cardinality = 0;               // rows the DV deletes
  std::optional<int64_t> max_row_index;  // in-memory hint; Delta does not store it in the log

  // storageType + pathOrInlineDv, plus "@" + offset when the offset is present.
  std::string UniqueId() const;
  Status Validate() const;

  friend bool operator==(const DvDescriptor&, const DvDescriptor&) = default;
};

// Where a file-backed DV lives, absolute. `table_root` has no trailing slash. `file_name_prefix`
// is put in front of "deletion_vector_<uuid>.bin" for writers that use a non-standard name
// (Delta's own test tables use "test%dv%prefix-"); it is empty for the protocol's naming.
// 'p' paths are URL-decoded and may carry a "file:" scheme; other schemes are Unsupported.
// REQUIRES: d.storage_type is 'u' or 'p'
Result<std::string> ResolveDvFilePath(const DvDescriptor& d, std::string_view table_root,
                                      std::string_view file_name_prefix = "");

class RowBitmap;  // row_bitmap.h (not included: it brings CRoaring to every user of actions)

// An inline ('i') descriptor holding `rows` (EncodeBitmap, then Z85), as writers put small DVs
// straight into the log.
DvDescriptor InlineDescriptor(const RowBitmap& rows);

// The 'u' descriptor path for a DV file named deletion_vector_<uuid>.bin under `prefix`.
Result<std::string> UuidPathOrInlineDv(std::string_view prefix, std::string_view uuid_text);

// Decodes %XX escapes. Errors name the offset of a malformed escape.
Result<std::string> UrlDecode(std::string_view text);

}  // namespace rlc::dv

#endif  // RLC_IMPL_DV_DESCRIPTOR_H_
