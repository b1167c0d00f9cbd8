#include "impl/conflict/flags.h"

#include <charconv>

namespace rlc::conflict {
namespace {

Status ParseBool(std::string_view name, std::string_view value, bool* out) {
  if (value == "true") {
    *out = true;
  } else if (value == "false") {
    *out = false;
  } else {
    return Status::InvalidArgument("flag " + std::string(name) + ": expected true or false, got '" +
                                   std::string(value) + "'");
  }
  return Status::Ok();
}

}  // namespace

bool Flags::AnyOn() const {
  return row_level_concurrency || exclude_no_data_change_files || data_skipping || value_exact ||
         optimize_reconcile || optimize_reconcile_reverse;
}

Status Flags::Set(std::string_view name, std::string_view value) {
  std::string_view short_name = name;
  if (short_name.substr(0, kFlagPrefix.size()) == kFlagPrefix) short_name.remove_prefix(kFlagPrefix.size());
  if (short_name == kRowLevelConcurrencyFlag) return ParseBool(name, value, &row_level_concurrency);
  if (short_name == kExcludeNoDataChangeFlag) return ParseBool(name, value, &exclude_no_data_change_files);
  if (short_name == kDataSkippingFlag) return ParseBool(name, value, &data_skipping);
  if (short_name == kValueExactFlag) return ParseBool(name, value, &value_exact);
  if (short_name == kOptimizeReconcileFlag) return ParseBool(name, value, &optimize_reconcile);
  if (short_name == kOptimizeReconcileReverseFlag) return ParseBool(name, value, &optimize_reconcile_reverse);
  if (short_name == kValueExactMaxBytesFlag) {
    int64_t bytes = 0;
    auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), bytes);
    if (error != std::errc() || end != value.data() + value.size()) {
      return Status::InvalidArgument("flag " + std::string(name) + ": expected an integer, got '" +
                                     std::string(value) + "'");
    }
    value_exact_max_bytes = bytes;
    return Status::Ok();
  }
  return Status::InvalidArgument("unknown flag '" + std::string(name) + "'");
}

Status Flags::SetFromAssignment(std::string_view assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string_view::npos) {
    return Status::InvalidArgument("flag '" + std::string(assignment) + "': expected NAME=VALUE");
  }
  return Set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

std::vector<std::string> Flags::ToAssignments() const {
  auto b = [](bool v) { return std::string(v ? "true" : "false"); };
  auto name = [](std::string_view n) { return std::string(kFlagPrefix) + std::string(n) + "="; };
  return {name(kRowLevelConcurrencyFlag) + b(row_level_concurrency),
          name(kExcludeNoDataChangeFlag) + b(exclude_no_data_change_files),
          name(kDataSkippingFlag) + b(data_skipping),
          name(kValueExactFlag) + b(value_exact),
          name(kValueExactMaxBytesFlag) + std::to_string(value_exact_max_bytes),
          name(kOptimizeReconcileFlag) + b(optimize_reconcile),
          name(kOptimizeReconcileReverseFlag) + b(optimize_reconcile_reverse)};
}

}  // namespace rlc::conflict
