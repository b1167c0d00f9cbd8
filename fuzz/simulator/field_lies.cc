#include "fuzz/simulator/field_lies.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

namespace rlc::simulator {
namespace {

using Field = FieldLie::Field;
using Telling = FieldLie::Telling;

template <typename T>
T* Nth(std::vector<delta::Action>& actions, uint8_t which) {
  std::vector<T*> all;
  for (delta::Action& a : actions) {
    if (auto* x = std::get_if<T>(&a)) all.push_back(x);
  }
  return all.empty() ? nullptr : all[which % all.size()];
}

// The commit's remove of `path` (what an add of it replaces), or nullptr.
const delta::RemoveFile* RemoveOf(const std::vector<delta::Action>& actions,
                                  const std::string& path) {
  for (const delta::Action& a : actions) {
    const auto* r = std::get_if<delta::RemoveFile>(&a);
    if (r != nullptr && r->path == path) return r;
  }
  return nullptr;
}

// Another remove than `self` (a stale value from another file), or nullptr.
const delta::RemoveFile* OtherRemove(const std::vector<delta::Action>& actions,
                                     const delta::RemoveFile* self) {
  for (const delta::Action& a : actions) {
    const auto* r = std::get_if<delta::RemoveFile>(&a);
    if (r != nullptr && r != self) return r;
  }
  return nullptr;
}

// Statistics whose bounds and null counts no row of the file bears out.
std::optional<delta::StatsJson> ContradictedBounds(const std::optional<delta::StatsJson>& stats) {
  if (!stats.has_value()) return delta::StatsJson(R"({"numRecords":0})");
  nlohmann::json j = nlohmann::json::parse(stats->Json(), nullptr, false);
  if (!j.is_object()) return stats;
  for (const char* side : {"minValues", "maxValues"}) {
    if (!j.contains(side) || !j[side].is_object()) continue;
    for (auto& [column, value] : j[side].items()) {
      if (value.is_number_integer()) value = value.get<int64_t>() + 1000;
      if (value.is_number_float()) value = value.get<double>() * 2 + 1;
      if (value.is_string()) value = "~" + value.get<std::string>();
    }
  }
  if (j.contains("nullCount") && j["nullCount"].is_object()) {
    for (auto& [column, value] : j["nullCount"].items()) {
      if (value.is_number_integer()) value = value.get<int64_t>() + 1;
    }
  }
  return delta::StatsJson(j.dump());
}

// `stats` with numRecords left out, taken from `from`, or one more than it says.
std::optional<delta::StatsJson> WithNumRecords(const std::optional<delta::StatsJson>& stats,
                                               Telling telling,
                                               const std::optional<delta::StatsJson>& from) {
  if (!stats.has_value()) return stats;
  nlohmann::json j = nlohmann::json::parse(stats->Json(), nullptr, false);
  if (!j.is_object()) return stats;
  if (telling == Telling::kAbsent) j.erase("numRecords");
  if (telling == Telling::kContradicting && j.contains("numRecords") &&
      j["numRecords"].is_number_integer())
    j["numRecords"] = j["numRecords"].get<int64_t>() + 1;
  if (telling == Telling::kStale && from.has_value()) {
    const nlohmann::json old = nlohmann::json::parse(from->Json(), nullptr, false);
    if (old.is_object() && old.contains("numRecords")) j["numRecords"] = old["numRecords"];
  }
  return delta::StatsJson(j.dump());
}

// Partition values that put the file's rows elsewhere, each a value of its column's type: NULL
// for a value, and for NULL another action's value of the column (the log's own text).
delta::StringMap ContradictedPartition(const delta::StringMap& values,
                                       const std::vector<delta::Action>& actions) {
  const auto other_value = [&](const std::string& column) -> std::optional<std::string> {
    for (const delta::Action& a : actions) {
      const delta::StringMap* m = nullptr;
      if (const auto* add = std::get_if<delta::AddFile>(&a)) m = &add->partition_values;
      if (const auto* r = std::get_if<delta::RemoveFile>(&a); r && r->partition_values)
        m = &*r->partition_values;
      for (const auto& [name, value] : m ? *m : delta::StringMap{}) {
        if (name == column && value.has_value() && !value->empty()) return value;
      }
    }
    return std::nullopt;
  };
  delta::StringMap out = values;
  for (auto& [column, value] : out)
    value = value.has_value() && !value->empty() ? std::nullopt : other_value(column);
  return out;
}

void LieAboutAdd(const FieldLie& lie, std::vector<delta::Action>& actions) {
  delta::AddFile* add = Nth<delta::AddFile>(actions, lie.which);
  if (add == nullptr) return;
  const delta::RemoveFile* before = RemoveOf(actions, add->path);
  const Telling t = lie.telling;
  switch (lie.field) {
    case Field::kAddStats:
      if (t == Telling::kAbsent) add->stats.reset();
      if (t == Telling::kStale && before != nullptr) add->stats = before->stats;
      if (t == Telling::kContradicting) add->stats = ContradictedBounds(add->stats);
      break;
    case Field::kAddNumRecords:
      add->stats = WithNumRecords(add->stats, t, before ? before->stats : std::nullopt);
      break;
    case Field::kAddSize:
      if (t == Telling::kAbsent) add->size_bytes = 0;
      if (t == Telling::kStale && before && before->size_bytes)
        add->size_bytes = *before->size_bytes;
      if (t == Telling::kContradicting) add->size_bytes += 1000;
      break;
    case Field::kAddDeletionVector:
      if (t == Telling::kAbsent) add->deletion_vector.reset();
      if (t == Telling::kStale && before != nullptr) add->deletion_vector = before->deletion_vector;
      if (t == Telling::kContradicting && add->deletion_vector) ++add->deletion_vector->cardinality;
      break;
    case Field::kAddTags:
      if (t == Telling::kAbsent) add->tags.reset();
      if (t == Telling::kStale && before != nullptr) add->tags = before->tags;
      if (t == Telling::kContradicting && add->tags) {
        for (auto& [key, value] : *add->tags) value = "x";
      }
      break;
    case Field::kAddDataChange:
      add->data_change = !add->data_change;
      break;
    case Field::kAddPartitionValues:
      if (t == Telling::kAbsent) add->partition_values.clear();
      if (t == Telling::kStale && before && before->partition_values)
        add->partition_values = *before->partition_values;
      if (t == Telling::kContradicting)
        add->partition_values = ContradictedPartition(add->partition_values, actions);
      break;
    default:
      break;
  }
}

void LieAboutRemove(const FieldLie& lie, std::vector<delta::Action>& actions) {
  delta::RemoveFile* remove = Nth<delta::RemoveFile>(actions, lie.which);
  if (remove == nullptr) return;
  const delta::RemoveFile* other = OtherRemove(actions, remove);
  const Telling t = lie.telling;
  switch (lie.field) {
    case Field::kRemoveStats:
      if (t == Telling::kAbsent) remove->stats.reset();
      if (t == Telling::kStale && other != nullptr) remove->stats = other->stats;
      if (t == Telling::kContradicting) remove->stats = ContradictedBounds(remove->stats);
      break;
    case Field::kRemoveSize:
      if (t == Telling::kAbsent) remove->size_bytes.reset();
      if (t == Telling::kStale && other != nullptr) remove->size_bytes = other->size_bytes;
      if (t == Telling::kContradicting) remove->size_bytes = remove->size_bytes.value_or(0) + 1000;
      break;
    case Field::kRemoveDeletionVector:
      if (t == Telling::kAbsent) remove->deletion_vector.reset();
      if (t == Telling::kStale && other != nullptr)
        remove->deletion_vector = other->deletion_vector;
      if (t == Telling::kContradicting && remove->deletion_vector)
        ++remove->deletion_vector->cardinality;
      break;
    case Field::kRemoveDataChange:
      remove->data_change = !remove->data_change;
      break;
    case Field::kRemovePartitionValues:
      if (t == Telling::kAbsent) remove->partition_values.reset();
      if (t == Telling::kStale && other != nullptr)
        remove->partition_values = other->partition_values;
      if (t == Telling::kContradicting && remove->partition_values)
        remove->partition_values = ContradictedPartition(*remove->partition_values, actions);
      break;
    case Field::kRemoveTags:
      if (t == Telling::kAbsent) remove->tags.reset();
      if (t == Telling::kStale && other != nullptr) remove->tags = other->tags;
      if (t == Telling::kContradicting && remove->tags) {
        for (auto& [key, value] : *remove->tags) value = "x";
      }
      break;
    default:
      break;
  }
}

void LieAboutCommitInfo(const FieldLie& lie, std::vector<delta::Action>& actions) {
  delta::CommitInfo* info = Nth<delta::CommitInfo>(actions, lie.which);
  if (info == nullptr) return;
  const Telling t = lie.telling;
  switch (lie.field) {
    case Field::kCommitReadVersion:
      if (t == Telling::kAbsent) info->read_version.reset();
      if (t == Telling::kStale && info->read_version.value_or(0) > 0) --*info->read_version;
      // A version after its own: what no writer can have read.
      if (t == Telling::kContradicting) info->read_version = info->read_version.value_or(0) + 1000;
      break;
    case Field::kCommitIsBlindAppend:
      if (t != Telling::kContradicting) info->is_blind_append.reset();
      if (t == Telling::kContradicting)
        info->is_blind_append = !info->is_blind_append.value_or(false);
      break;
    case Field::kCommitOperation:
      if (t != Telling::kContradicting) info->operation.reset();
      if (t == Telling::kContradicting)
        info->operation = info->operation == "WRITE" ? "DELETE" : "WRITE";
      break;
    case Field::kCommitOperationParameters:
      if (t != Telling::kContradicting) info->operation_parameters.clear();
      if (t == Telling::kContradicting)
        info->operation_parameters = {{"predicate", R"("[\"true\"]")"}, {"zOrderBy", R"("[]")"}};
      break;
    default:
      break;
  }
}

}  // namespace

std::string_view FieldName(Field field) {
  static constexpr std::string_view kNames[kFieldCount] = {
      "add.stats",
      "add.stats.numRecords",
      "add.size",
      "add.deletionVector",
      "add.tags",
      "add.dataChange",
      "add.partitionValues",
      "remove.stats",
      "remove.size",
      "remove.deletionVector",
      "remove.dataChange",
      "remove.partitionValues",
      "remove.tags",
      "commitInfo.readVersion",
      "commitInfo.isBlindAppend",
      "commitInfo.operation",
      "commitInfo.operationParameters",
      "actions.order",
  };
  return kNames[static_cast<int>(field)];
}

std::string_view TellingName(Telling telling) {
  switch (telling) {
    case Telling::kAbsent:
      return "absent";
    case Telling::kStale:
      return "stale";
    case Telling::kContradicting:
      break;
  }
  return "contradicting";
}

bool IsTrustedClaim(Field field) {
  switch (field) {
    case Field::kAddStats:
    case Field::kAddNumRecords:
    case Field::kAddDataChange:
    case Field::kRemoveDataChange:
    case Field::kCommitIsBlindAppend:
    case Field::kCommitOperationParameters:
      return true;
    default:
      return false;
  }
}

std::string FieldLieText(const FieldLie& lie) {
  return std::string(FieldName(lie.field)) + ":" + std::string(TellingName(lie.telling)) + ":" +
         std::to_string(lie.which);
}

std::optional<FieldLie> ParseFieldLie(std::string_view text) {
  const size_t first = text.find(':');
  const size_t second = first == std::string_view::npos ? first : text.find(':', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  FieldLie lie;
  bool named = false;
  for (int f = 0; f < kFieldCount; ++f) {
    if (FieldName(static_cast<Field>(f)) != text.substr(0, first)) continue;
    lie.field = static_cast<Field>(f);
    named = true;
  }
  const std::string_view telling = text.substr(first + 1, second - first - 1);
  bool told = false;
  for (Telling t : {Telling::kAbsent, Telling::kStale, Telling::kContradicting}) {
    if (TellingName(t) == telling) lie.telling = t, told = true;
  }
  const std::string_view which = text.substr(second + 1);
  if (!named || !told || which.empty() || which.size() > 2) return std::nullopt;
  int n = 0;
  for (char c : which) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  lie.which = static_cast<uint8_t>(n);
  return lie;
}

void ApplyFieldLies(const std::vector<FieldLie>& lies, std::vector<delta::Action>& actions) {
  for (const FieldLie& lie : lies) {
    if (lie.field == Field::kActionOrder) {
      std::reverse(actions.begin(), actions.end());
    } else if (lie.field <= Field::kAddPartitionValues) {
      LieAboutAdd(lie, actions);
    } else if (lie.field <= Field::kRemoveTags) {
      LieAboutRemove(lie, actions);
    } else {
      LieAboutCommitInfo(lie, actions);
    }
  }
}

}  // namespace rlc::simulator
