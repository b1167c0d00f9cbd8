#include "fuzz/oracle/reference_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rlc::oracle {
namespace {

using nlohmann::json;

constexpr uint32_t kMagic = 1681511377;
constexpr char kZ85[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

class LocalFileSource final : public ByteSource {
 public:
  std::optional<std::string> Read(const std::string& path) const override {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
};

std::string UrlDecode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      const std::string hex = s.substr(i + 1, 2);
      if (hex.size() == 2 && isxdigit(static_cast<unsigned char>(hex[0])) && isxdigit(static_cast<unsigned char>(hex[1]))) {
        out += static_cast<char>(std::stoi(hex, nullptr, 16));
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

// Z85 with Delta's alphabet, including the '#'-tail form some writers use for the last block.
std::optional<std::string> Z85Decode(const std::string& text) {
  if (text.size() % 5 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < text.size(); i += 5) {
    size_t hashes = 0;
    while (hashes < 5 && text[i + hashes] == '#' && i + 5 == text.size()) ++hashes;
    if (hashes >= 4) return std::nullopt;
    uint64_t v = 0;
    for (size_t j = i + hashes; j < i + 5; ++j) {
      const char* at = std::strchr(kZ85, text[j]);
      if (at == nullptr || *at == '\0') return std::nullopt;
      v = v * 85 + static_cast<uint64_t>(at - kZ85);
    }
    const size_t bytes = 4 - hashes;
    if (v >> (8 * bytes) != 0) return std::nullopt;
    for (size_t b = bytes; b-- > 0;) out += static_cast<char>((v >> (8 * b)) & 0xFF);
  }
  return out;
}

struct Cursor {
  const std::string& bytes;
  size_t at = 0;
  bool Take(size_t n, const char** p) {
    if (bytes.size() - at < n) return false;
    *p = bytes.data() + at;
    at += n;
    return true;
  }
  template <typename T>
  bool Le(T* out) {
    const char* p = nullptr;
    if (!Take(sizeof(T), &p)) return false;
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v |= static_cast<T>(static_cast<unsigned char>(p[i])) << (8 * i);
    *out = v;
    return true;
  }
};

bool DecodeRoaring32(Cursor& c, uint64_t high, std::set<uint64_t>& rows, std::string* why) {
  uint32_t cookie = 0;
  if (!c.Le(&cookie)) return *why = "truncated cookie", false;
  uint32_t size = 0;
  bool has_runs = false;
  std::string run_flags;
  if ((cookie & 0xFFFF) == 12347) {
    has_runs = true;
    size = (cookie >> 16) + 1;
    const char* p = nullptr;
    if (!c.Take((size + 7) / 8, &p)) return *why = "truncated run flags", false;
    run_flags.assign(p, (size + 7) / 8);
  } else if (cookie == 12346) {
    if (!c.Le(&size)) return *why = "truncated size", false;
  } else {
    return *why = "unknown cookie " + std::to_string(cookie), false;
  }
  if (size > 65536) return *why = "too many containers", false;
  std::vector<std::pair<uint16_t, uint32_t>> headers(size);
  for (auto& [key, card] : headers) {
    uint16_t k = 0, c1 = 0;
    if (!c.Le(&k) || !c.Le(&c1)) return *why = "truncated header", false;
    key = k;
    card = uint32_t{c1} + 1;
  }
  if (!has_runs || size >= 4) {
    const char* p = nullptr;
    if (!c.Take(4 * size, &p)) return *why = "truncated offsets", false;
  }
  for (uint32_t i = 0; i < size; ++i) {
    const uint64_t base = (high << 32) | (uint64_t{headers[i].first} << 16);
    const bool run = has_runs && (static_cast<unsigned char>(run_flags[i / 8]) >> (i % 8) & 1);
    uint64_t seen = 0;
    if (run) {
      uint16_t runs = 0;
      if (!c.Le(&runs)) return *why = "truncated run count", false;
      for (uint16_t r = 0; r < runs; ++r) {
        uint16_t start = 0, length = 0;
        if (!c.Le(&start) || !c.Le(&length)) return *why = "truncated run", false;
        if (uint32_t{start} + length > 0xFFFF) return *why = "run past the container", false;
        for (uint32_t v = start; v <= uint32_t{start} + length; ++v, ++seen) rows.insert(base | v);
      }
    } else if (headers[i].second > 4096) {
      for (uint32_t w = 0; w < 1024; ++w) {
        uint64_t word = 0;
        if (!c.Le(&word)) return *why = "truncated bitset", false;
        for (uint32_t b = 0; b < 64; ++b) {
          if (word >> b & 1) {
            rows.insert(base | (w * 64 + b));
            ++seen;
          }
        }
      }
    } else {
      for (uint32_t v = 0; v < headers[i].second; ++v, ++seen) {
        uint16_t low = 0;
        if (!c.Le(&low)) return *why = "truncated array", false;
        rows.insert(base | low);
      }
    }
    if (seen != headers[i].second) return *why = "a container's cardinality disagrees with its header", false;
  }
  return true;
}

// The DV's rows for one add, or an error.
std::optional<std::set<uint64_t>> DvRows(const ByteSource& files, const std::string& table, const json& dv,
                                         const std::string& prefix, std::string* why) {
  const std::string type = dv.at("storageType").get<std::string>();
  const std::string text = dv.at("pathOrInlineDv").get<std::string>();
  const int64_t size = dv.at("sizeInBytes").get<int64_t>();
  std::string bitmap;
  if (type == "i") {
    std::optional<std::string> raw = Z85Decode(text);
    if (!raw || static_cast<int64_t>(raw->size()) < size) return *why = "inline DV does not decode", std::nullopt;
    bitmap = raw->substr(0, static_cast<size_t>(size));
  } else {
    std::string path;
    if (type == "u") {
      if (text.size() < 20) return *why = "short 'u' DV", std::nullopt;
      std::optional<std::string> uuid = Z85Decode(text.substr(text.size() - 20));
      if (!uuid || uuid->size() != 16) return *why = "bad DV uuid", std::nullopt;
      char hex[33];
      for (int i = 0; i < 16; ++i) std::snprintf(hex + 2 * i, 3, "%02x", static_cast<unsigned char>((*uuid)[i]));
      const std::string h(hex);
      const std::string dir = text.size() > 20 ? "/" + text.substr(0, text.size() - 20) : "";
      path = table + dir + "/" + prefix + "deletion_vector_" + h.substr(0, 8) + "-" + h.substr(8, 4) + "-" +
             h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20) + ".bin";
    } else if (type == "p") {
      path = UrlDecode(text);
      if (path.rfind("file://", 0) == 0) {
        path = path.substr(7);
        path = path.substr(path.find('/'));
      } else if (path.rfind("file:", 0) == 0) {
        path = path.substr(5);
      }
      if (path.empty() || path[0] != '/') return *why = "'p' DV path is not absolute: " + path, std::nullopt;
    } else {
      return *why = "unknown DV storage type " + type, std::nullopt;
    }
    std::optional<std::string> file = files.Read(path);
    if (!file) return *why = "DV file not found: " + path, std::nullopt;
    const size_t offset = dv.contains("offset") ? dv.at("offset").get<size_t>() : 1;
    if (file->size() < offset + 8 + static_cast<size_t>(size)) return *why = "DV file too short: " + path, std::nullopt;
    const auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>((*file)[i])); };
    const uint32_t stored = byte(offset) << 24 | byte(offset + 1) << 16 | byte(offset + 2) << 8 | byte(offset + 3);
    if (stored != static_cast<uint32_t>(size)) return *why = "DV record size disagrees: " + path, std::nullopt;
    bitmap = file->substr(offset + 4, static_cast<size_t>(size));
    const size_t c = offset + 4 + static_cast<size_t>(size);
    const uint32_t crc = byte(c) << 24 | byte(c + 1) << 16 | byte(c + 2) << 8 | byte(c + 3);
    if (crc != static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(bitmap.data()), static_cast<uInt>(bitmap.size())))) {
      return *why = "DV record CRC disagrees: " + path, std::nullopt;
    }
  }
  std::optional<std::set<uint64_t>> rows = DecodeReferenceBitmap(bitmap, why);
  if (rows && static_cast<int64_t>(rows->size()) != dv.at("cardinality").get<int64_t>()) {
    return *why = "DV cardinality disagrees with its rows", std::nullopt;
  }
  return rows;
}

std::string DvId(const json& add) {
  if (!add.contains("deletionVector") || add.at("deletionVector").is_null()) return "";
  const json& dv = add.at("deletionVector");
  std::string id = dv.at("storageType").get<std::string>() + dv.at("pathOrInlineDv").get<std::string>();
  if (dv.contains("offset") && !dv.at("offset").is_null()) id += "@" + std::to_string(dv.at("offset").get<int64_t>());
  return id;
}

// A row file's rows as canonical JSON objects; nullopt (and why) when malformed.
std::optional<std::vector<std::string>> RowFileRows(const ByteSource& files, const std::string& path, std::string* why) {
  std::optional<std::string> text = files.Read(path);
  if (!text) return *why = "row file not found: " + path, std::nullopt;
  std::istringstream lines(*text);
  std::string line;
  if (!std::getline(lines, line) || line != "rlc-rows 1") return *why = "not a row file: " + path, std::nullopt;
  if (!std::getline(lines, line)) return *why = "row file without columns: " + path, std::nullopt;
  const json header = json::parse(line, nullptr, false);
  if (header.is_discarded() || !header.contains("columns")) return *why = "bad row file header: " + path, std::nullopt;
  std::vector<std::string> names;
  for (const json& c : header.at("columns")) names.push_back(c.at("name").get<std::string>());
  std::vector<std::string> rows;
  while (std::getline(lines, line)) {
    const json values = json::parse(line, nullptr, false);
    if (values.is_discarded() || !values.is_array() || values.size() != names.size()) {
      return *why = "bad row in " + path, std::nullopt;
    }
    json row = json::object();  // nlohmann's object keeps keys sorted
    for (size_t i = 0; i < names.size(); ++i) row[names[i]] = values[i];
    rows.push_back(row.dump());
  }
  return rows;
}

}  // namespace

const ByteSource& LocalFiles() {
  static const LocalFileSource local;
  return local;
}

std::optional<std::set<uint64_t>> ReadReferenceDv(const std::string& table_dir, const std::string& descriptor_json,
                                                  const std::string& dv_file_prefix, std::string* why,
                                                  const ByteSource& files) {
  const json dv = json::parse(descriptor_json, nullptr, false);
  if (dv.is_discarded() || !dv.is_object()) return *why = "a DV descriptor is not a JSON object", std::nullopt;
  return DvRows(files, table_dir, dv, dv_file_prefix, why);
}

std::vector<std::string> LiveRows(const ReferenceSnapshot& snapshot) {
  std::vector<std::string> live;
  for (const ReferenceFile& f : snapshot.files) {
    for (size_t i = 0; i < f.physical_rows.size(); ++i) {
      if (f.deleted.count(i) == 0) live.push_back(f.physical_rows[i]);
    }
  }
  std::sort(live.begin(), live.end());
  return live;
}

std::optional<std::set<uint64_t>> DecodeReferenceBitmap(const std::string& bytes, std::string* why) {
  Cursor c{bytes};
  uint32_t magic = 0;
  uint64_t buckets = 0;
  if (!c.Le(&magic) || magic != kMagic) return *why = "bad bitmap magic", std::nullopt;
  if (!c.Le(&buckets) || buckets > (1u << 31)) return *why = "bad bucket count", std::nullopt;
  std::set<uint64_t> rows;
  for (uint64_t b = 0; b < buckets; ++b) {
    uint32_t high = 0;
    if (!c.Le(&high)) return *why = "truncated bucket key", std::nullopt;
    if (!DecodeRoaring32(c, high, rows, why)) return std::nullopt;
  }
  if (c.at != bytes.size()) return *why = "trailing bytes after the bitmap", std::nullopt;
  return rows;
}

ReferenceResult ReadReferenceSnapshot(const std::string& table_dir, int64_t version, const std::string& dv_file_prefix,
                                      const ByteSource& files) {
  ReferenceResult result;
  std::map<std::string, json> active;  // key -> add
  int64_t v = 0;
  for (;; ++v) {
    if (version >= 0 && v > version) break;
    char name[32];
    std::snprintf(name, sizeof(name), "%020lld.json", static_cast<long long>(v));
    std::optional<std::string> text = files.Read(table_dir + "/_delta_log/" + name);
    if (!text) {
      if (version >= 0 || v == 0) {
        result.error = "version " + std::to_string(v) + " has no JSON commit";
        return result;
      }
      break;
    }
    std::istringstream lines(*text);
    std::string line;
    while (std::getline(lines, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty()) continue;
      json action = json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (action.is_discarded()) {
        result.error = "version " + std::to_string(v) + ": a line is not JSON";
        return result;
      }
      for (const char* kind : {"remove", "add"}) {
        if (!action.contains(kind)) continue;
        const json& f = action.at(kind);
        const std::string key = UrlDecode(f.at("path").get<std::string>()) + "\n" + DvId(f);
        if (std::string(kind) == "add") {
          active[key] = f;
        } else {
          active.erase(key);
        }
      }
    }
  }
  ReferenceSnapshot snapshot;
  snapshot.version = v - 1;
  for (const auto& [key, add] : active) {
    ReferenceFile file;
    file.path = key.substr(0, key.find('\n'));
    if (add.contains("partitionValues")) {
      for (const auto& [k, val] : add.at("partitionValues").items()) {
        file.partition_values[k] = val.is_null() ? std::nullopt : std::optional<std::string>(val.get<std::string>());
      }
    }
    if (add.contains("stats") && add.at("stats").is_string()) {
      json stats = json::parse(add.at("stats").get<std::string>(), nullptr, false);
      if (!stats.is_discarded() && stats.contains("numRecords")) file.num_records = stats.at("numRecords").get<int64_t>();
    }
    if (add.contains("deletionVector") && !add.at("deletionVector").is_null()) {
      std::string why;
      std::optional<std::set<uint64_t>> rows = DvRows(files, table_dir, add.at("deletionVector"), dv_file_prefix, &why);
      if (!rows) {
        result.error = "version " + std::to_string(snapshot.version) + ", " + file.path + ": " + why;
        return result;
      }
      file.deleted = std::move(*rows);
    }
    if (file.path.size() > 5 && file.path.substr(file.path.size() - 5) == ".rows") {
      std::string why;
      std::optional<std::vector<std::string>> rows = RowFileRows(files, table_dir + "/" + file.path, &why);
      if (!rows) {
        result.error = "version " + std::to_string(snapshot.version) + ": " + why;
        return result;
      }
      if (!file.num_records.has_value() || static_cast<int64_t>(rows->size()) != *file.num_records) {
        result.error = "version " + std::to_string(snapshot.version) + ", " + file.path +
                       ": the row file's row count disagrees with numRecords";
        return result;
      }
      file.physical_rows = std::move(*rows);
    }
    snapshot.files.push_back(std::move(file));
  }
  result.snapshot = std::move(snapshot);
  return result;
}

}  // namespace rlc::oracle
