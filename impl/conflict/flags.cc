#include "impl/conflict/flags.h"

#include <charconv>

#include "impl/conflict/case_catalogue.h"

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

bool Flags::AnyOn() const { return cases.any(); }

bool Flags::EveryOn() const { return cases.count() == std::size(kCases); }

Flags Flags::Every() {
  Flags f;
  for (const CaseEntry& c : kCases) f.SetCase(c.case_id, true);
  return f;
}

Flags Flags::Subset(uint64_t bits) {
  Flags f;
  for (const CaseEntry& c : kCases)
    f.SetCase(c.case_id, (bits >> static_cast<size_t>(c.case_id)) & 1);
  return f;
}

Status Flags::Set(std::string_view name, std::string_view value) {
  std::string_view short_name = name;
  if (short_name.substr(0, kFlagPrefix.size()) == kFlagPrefix)
    short_name.remove_prefix(kFlagPrefix.size());
  for (const CaseEntry& c : kCases) {
    if (short_name != c.flag) continue;
    bool on = false;
    Status parsed = ParseBool(name, value, &on);
    if (parsed.ok()) SetCase(c.case_id, on);
    return parsed;
  }
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
  auto name = [](std::string_view n) { return std::string(kFlagPrefix) + std::string(n) + "="; };
  std::vector<std::string> out;
  for (const CaseEntry& c : kCases)
    out.push_back(name(c.flag) + (On(c.case_id) ? "true" : "false"));
  out.push_back(name(kValueExactMaxBytesFlag) + std::to_string(value_exact_max_bytes));
  return out;
}

}  // namespace rlc::conflict
