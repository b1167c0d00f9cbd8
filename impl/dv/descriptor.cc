#include "impl/dv/descriptor.h"

#include "impl/dv/bitmap_codec.h"
#include "impl/dv/row_bitmap.h"

#include "impl/dv/z85.h"

namespace rlc::dv {

std::string DvDescriptor::UniqueId() const {
  std::string id(1, storage_type);
  id += path_or_inline_dv;
  if (offset.has_value()) {
    id += '@';
    id += std::to_string(*offset);
  }
  return id;
}

Status DvDescriptor::Validate() const {
  if (storage_type == 'r') {
    return Status::Unsupported("deletionVector.storageType 'r' (relative path) is not supported");
  }
  if (storage_type != 'u' && storage_type != 'i' && storage_type != 'p') {
    return Status::Corrupt(std::string("deletionVector.storageType '") + storage_type +
                           "' is not one of u, i, p");
  }
  if (size_bytes < 0) return Status::Corrupt("deletionVector.sizeInBytes is negative");
  if (cardinality < 0) return Status::Corrupt("deletionVector.cardinality is negative");
  if (storage_type == 'u') {
    if (path_or_inline_dv.size() < 20) {
      return Status::Corrupt("deletionVector.pathOrInlineDv of a 'u' DV needs 20 Z85 characters");
    }
    Status uuid =
        Z85CheckUuid(std::string_view(path_or_inline_dv).substr(path_or_inline_dv.size() - 20));
    if (!uuid.ok()) return uuid.WithContext("deletionVector.pathOrInlineDv");
  }
  if (storage_type == 'i' && offset.has_value()) {
    return Status::Corrupt("deletionVector.offset must be absent for an inline DV");
  }
  if (storage_type != 'i' && offset.has_value() && *offset < 1) {
    return Status::Corrupt("deletionVector.offset " + std::to_string(*offset) +
                           " points before the first record (offset 1)");
  }
  return Status::Ok();
}

Result<std::string> UrlDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    if (i + 2 >= text.size()) {
      return Status::Corrupt("URL escape at character " + std::to_string(i) + " is truncated");
    }
    int hi = hex(text[i + 1]);
    int lo = hex(text[i + 2]);
    if (hi < 0 || lo < 0) {
      return Status::Corrupt("URL escape at character " + std::to_string(i) + " is not %XX");
    }
    out.push_back(char(hi * 16 + lo));
    i += 2;
  }
  return out;
}

Result<std::string> ResolveDvFilePath(const DvDescriptor& d, std::string_view table_root,
                                      std::string_view file_name_prefix) {
  RLC_ASSERT(d.storage_type == 'u' || d.storage_type == 'p');
  if (d.storage_type == 'u') {
    std::string_view text = d.path_or_inline_dv;
    if (text.size() < 20) return Status::Corrupt("deletionVector.pathOrInlineDv is too short");
    std::string_view prefix = text.substr(0, text.size() - 20);
    RLC_ASSIGN_OR_RETURN(std::string uuid, Z85ToUuidText(text.substr(text.size() - 20)));
    std::string path(table_root);
    path += '/';
    if (!prefix.empty()) {
      path += prefix;
      path += '/';
    }
    path += file_name_prefix;
    path += "deletion_vector_" + uuid + ".bin";
    return path;
  }
  RLC_ASSIGN_OR_RETURN(std::string decoded, UrlDecode(d.path_or_inline_dv));
  std::string_view path = decoded;
  if (path.substr(0, 5) == "file:") {
    path.remove_prefix(5);
    // file:///abs and file://localhost/abs name the same local path as file:/abs.
    if (path.substr(0, 2) == "//") {
      path.remove_prefix(2);
      size_t slash = path.find('/');
      if (slash == std::string_view::npos) return Status::Corrupt("file URI without a path");
      path.remove_prefix(slash);
    }
  } else if (path.find(':') != std::string_view::npos && path.find(':') < path.find('/')) {
    return Status::Unsupported("DV path '" + decoded + "': only local (file:) paths can be read");
  }
  if (path.empty() || path[0] != '/') {
    return Status::Corrupt("DV path '" + decoded + "' of storage type 'p' is not absolute");
  }
  return std::string(path);
}

DvDescriptor InlineDescriptor(const RowBitmap& rows) {
  const std::string bytes = EncodeBitmap(rows);
  DvDescriptor d;
  d.storage_type = 'i';
  d.path_or_inline_dv = Z85Encode(bytes);
  d.size_bytes = static_cast<int32_t>(bytes.size());
  d.cardinality = static_cast<int64_t>(rows.Cardinality());
  return d;
}

Result<std::string> UuidPathOrInlineDv(std::string_view prefix, std::string_view uuid_text) {
  RLC_ASSIGN_OR_RETURN(std::string z85, UuidTextToZ85(uuid_text));
  return std::string(prefix) + z85;
}

}  // namespace rlc::dv
