#include "fuzz/oracle/invariants.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "fuzz/oracle/reference_reader.h"

namespace rlc::oracle {
namespace {

using nlohmann::json;

struct Active {
  std::string key;
  std::optional<int64_t> num_records;
  std::set<uint64_t> deleted;
};

std::string Decode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string DvKey(const json& f) {
  if (!f.contains("deletionVector") || f.at("deletionVector").is_null()) return "";
  const json& dv = f.at("deletionVector");
  std::string id = dv.value("storageType", "") + dv.value("pathOrInlineDv", "");
  if (dv.contains("offset") && !dv.at("offset").is_null()) id += "@" + std::to_string(dv.at("offset").get<int64_t>());
  return id;
}

std::optional<int64_t> NumRecords(const json& f) {
  if (!f.contains("stats") || !f.at("stats").is_string()) return std::nullopt;
  const json stats = json::parse(f.at("stats").get<std::string>(), nullptr, false);
  if (stats.is_discarded() || !stats.contains("numRecords") || !stats.at("numRecords").is_number_integer()) return std::nullopt;
  return stats.at("numRecords").get<int64_t>();
}

std::optional<int64_t> LiveRows(const std::map<std::string, Active>& active) {
  int64_t total = 0;
  for (const auto& [path, a] : active) {
    if (!a.num_records) return std::nullopt;
    total += *a.num_records - static_cast<int64_t>(a.deleted.size());
  }
  return total;
}

}  // namespace

std::vector<InvariantFinding> CheckLogInvariants(const std::string& table_dir, std::string* error,
                                                 const std::string& dv_file_prefix, const ByteSource& files) {
  std::vector<InvariantFinding> findings;
  std::map<std::string, Active> active;  // decoded path -> its active version
  for (int64_t v = 0;; ++v) {
    char name[32];
    std::snprintf(name, sizeof(name), "%020lld.json", static_cast<long long>(v));
    const std::optional<std::string> text = files.Read(table_dir + "/_delta_log/" + name);
    if (!text) {
      if (v == 0) *error = "no version 0";
      return findings;
    }
    auto find = [&](const std::string& path, const char* rule, std::string detail) {
      findings.push_back({v, path, rule, std::move(detail)});
    };
    std::vector<json> adds, removes;
    bool file_actions = false, all_no_data_change = true;
    std::string line;
    std::istringstream in(*text);
    while (std::getline(in, line)) {
      if (line.empty() || line == "\r") continue;
      const json action = json::parse(line, nullptr, false);
      if (action.is_discarded()) {
        *error = "version " + std::to_string(v) + ": a line is not JSON";
        return findings;
      }
      for (const char* kind : {"add", "remove"}) {
        if (!action.contains(kind)) continue;
        const json& f = action.at(kind);
        file_actions = true;
        all_no_data_change = all_no_data_change && !f.value("dataChange", true);
        (std::string(kind) == "add" ? adds : removes).push_back(f);
      }
    }
    const std::optional<int64_t> live_before = LiveRows(active);
    // Removes first (their DVs as active before the commit), then adds.
    std::map<std::string, std::set<uint64_t>> removed_dvs;
    for (const json& r : removes) {
      const std::string path = Decode(r.at("path").get<std::string>());
      auto it = active.find(path);
      if (it != active.end() && it->second.key == DvKey(r)) {
        removed_dvs[path] = it->second.deleted;
        active.erase(it);
      }
    }
    std::set<std::string> added;
    for (const json& a : adds) {
      const std::string path = Decode(a.at("path").get<std::string>());
      if (!added.insert(path).second) find(path, "one-active-version", "the commit adds this path twice");
      if (active.count(path) != 0 && active.at(path).key != DvKey(a)) {
        find(path, "one-active-version", "a second version of an active path");
      }
      Active file{DvKey(a), NumRecords(a), {}};
      if (!file.key.empty()) {
        std::string why;
        std::optional<std::set<uint64_t>> rows = ReadReferenceDv(table_dir, a.at("deletionVector").dump(), dv_file_prefix, &why, files);
        if (!rows) {
          *error = "version " + std::to_string(v) + ", " + path + ": " + why;
          return findings;
        }
        file.deleted = std::move(*rows);
        if (!file.deleted.empty() && (!file.num_records || *file.deleted.rbegin() >= static_cast<uint64_t>(*file.num_records))) {
          find(path, "dv-within-file", "the DV deletes row " + std::to_string(*file.deleted.rbegin()));
        }
      }
      auto old = removed_dvs.find(path);
      if (old != removed_dvs.end() &&
          !std::includes(file.deleted.begin(), file.deleted.end(), old->second.begin(), old->second.end())) {
        find(path, "dv-never-shrinks", "a row the old DV deleted is live again");
      }
      active[path] = std::move(file);
    }
    // Composition tags, grouped by output.
    std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> runs;  // output -> (offset, live)
    for (const json& r : removes) {
      if (!r.contains("tags") || !r.at("tags").is_object() || !r.at("tags").contains("compactedInto")) continue;
      const json into = json::parse(r.at("tags").at("compactedInto").get<std::string>(), nullptr, false);
      const json info = r.at("tags").contains("compactionInfo")
                            ? json::parse(r.at("tags").at("compactionInfo").get<std::string>(), nullptr, false)
                            : json();
      const std::string path = Decode(r.at("path").get<std::string>());
      if (into.is_discarded() || !into.is_array() || into.size() != 1 || info.is_discarded() || !info.is_array() ||
          info.size() != 1 || !info[0].contains("rowOffsetInTarget") || !info[0].contains("sourceNumPhysicalRecords")) {
        find(path, "tags-tile-output", "malformed composition tags");
        continue;
      }
      const int64_t deleted = static_cast<int64_t>(removed_dvs.count(path) ? removed_dvs.at(path).size() : 0);
      runs[Decode(into[0].get<std::string>())].push_back(
          {info[0].at("rowOffsetInTarget").get<int64_t>(), info[0].at("sourceNumPhysicalRecords").get<int64_t>() - deleted});
    }
    for (auto& [output, list] : runs) {
      std::sort(list.begin(), list.end());
      int64_t next = 0;
      bool contiguous = true;
      for (const auto& [offset, live] : list) {
        contiguous = contiguous && offset == next && live >= 0;
        next = offset + live;
      }
      const auto out = active.find(output);
      const std::optional<int64_t> rows = out == active.end() ? std::nullopt : out->second.num_records;
      if (!contiguous || !rows || next != *rows) {
        find(output, "tags-tile-output", "the sources' runs do not tile the output");
      }
    }
    if (file_actions && all_no_data_change) {
      const std::optional<int64_t> live_after = LiveRows(active);
      if (live_before && live_after && *live_before != *live_after) {
        find("", "no-data-change-conserves",
             "live rows go from " + std::to_string(*live_before) + " to " + std::to_string(*live_after));
      }
    }
  }
}

}  // namespace rlc::oracle
