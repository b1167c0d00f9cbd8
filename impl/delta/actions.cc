#include "impl/delta/actions.h"

#include <algorithm>

namespace rlc::delta {

std::optional<std::string> Metadata::Property(std::string_view key) const {
  for (const auto& [k, v] : configuration) {
    if (k == key) return v;
  }
  return std::nullopt;
}

bool Protocol::HasWriterFeature(std::string_view name) const {
  return writer_features.has_value() && std::find(writer_features->begin(), writer_features->end(),
                                                  name) != writer_features->end();
}

const CommitInfo* Commit::commit_info() const {
  for (const Action& a : actions) {
    if (const auto* info = std::get_if<CommitInfo>(&a)) return info;
  }
  return nullptr;
}

}  // namespace rlc::delta
