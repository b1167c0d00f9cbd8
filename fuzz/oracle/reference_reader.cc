#include "fuzz/oracle/reference_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

#include "fuzz/oracle/json_reader.h"
#include "fuzz/oracle/reference_log.h"
#include "fuzz/oracle/reference_parquet.h"

namespace rlc::oracle {
namespace {

constexpr uint32_t kMagic = 1681511377;
constexpr char kZ85[] =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

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
    for (size_t i = 0; i < sizeof(T); ++i)
      v |= static_cast<T>(static_cast<unsigned char>(p[i])) << (8 * i);
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
    if (seen != headers[i].second)
      return *why = "a container's cardinality disagrees with its header", false;
  }
  return true;
}

// The DV's rows, or an error.
std::optional<std::set<uint64_t>> DvRows(const ByteSource& files, const std::string& table,
                                         const ReferenceDv& dv, const std::string& prefix,
                                         std::string* why) {
  const std::string& type = dv.storage_type;
  const std::string& text = dv.path_or_inline;
  if (!dv.size_in_bytes || *dv.size_in_bytes < 0)
    return *why = "the DV has no valid sizeInBytes", std::nullopt;
  if (!dv.cardinality) return *why = "the DV has no cardinality", std::nullopt;
  const size_t size = static_cast<size_t>(*dv.size_in_bytes);
  std::string bitmap;
  if (type == "i") {
    std::optional<std::string> raw = Z85Decode(text);
    if (!raw || raw->size() < size) return *why = "inline DV does not decode", std::nullopt;
    bitmap = raw->substr(0, size);
  } else {
    std::string path;
    if (type == "u") {
      if (text.size() < 20) return *why = "short 'u' DV", std::nullopt;
      std::optional<std::string> uuid = Z85Decode(text.substr(text.size() - 20));
      if (!uuid || uuid->size() != 16) return *why = "bad DV uuid", std::nullopt;
      static constexpr char kHex[] = "0123456789abcdef";
      std::string h(32, '0');
      for (size_t i = 0; i < 16; ++i) {
        const auto byte = static_cast<unsigned char>((*uuid)[i]);
        h[2 * i] = kHex[byte >> 4];
        h[2 * i + 1] = kHex[byte & 0xF];
      }
      const std::string dir = text.size() > 20 ? "/" + text.substr(0, text.size() - 20) : "";
      path = table + dir + "/" + prefix + "deletion_vector_" + h.substr(0, 8) + "-" +
             h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20) +
             ".bin";
    } else if (type == "p") {
      path = UrlDecodePath(text);
      if (path.rfind("file://", 0) == 0) {
        path = path.substr(7);
        const size_t slash = path.find('/');
        path = slash == std::string::npos ? "" : path.substr(slash);
      } else if (path.rfind("file:", 0) == 0) {
        path = path.substr(5);
      }
      if (path.empty() || path[0] != '/')
        return *why = "'p' DV path is not absolute: " + path, std::nullopt;
    } else {
      return *why = "unknown DV storage type " + type, std::nullopt;
    }
    std::optional<std::string> file = files.Read(path);
    if (!file) return *why = "DV file not found: " + path, std::nullopt;
    if (dv.offset && *dv.offset < 0) return *why = "negative DV offset: " + path, std::nullopt;
    const size_t offset = dv.offset ? static_cast<size_t>(*dv.offset) : 1;
    if (file->size() < 8 || file->size() - 8 < size || file->size() - 8 - size < offset) {
      return *why = "DV file too short: " + path, std::nullopt;
    }
    const auto byte = [&](size_t i) {
      return static_cast<uint32_t>(static_cast<unsigned char>((*file)[i]));
    };
    const uint32_t stored =
        byte(offset) << 24 | byte(offset + 1) << 16 | byte(offset + 2) << 8 | byte(offset + 3);
    if (stored != size) return *why = "DV record size disagrees: " + path, std::nullopt;
    bitmap = file->substr(offset + 4, size);
    const size_t c = offset + 4 + size;
    const uint32_t crc = byte(c) << 24 | byte(c + 1) << 16 | byte(c + 2) << 8 | byte(c + 3);
    if (crc != static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(bitmap.data()),
                                           static_cast<uInt>(bitmap.size())))) {
      return *why = "DV record CRC disagrees: " + path, std::nullopt;
    }
  }
  std::optional<std::set<uint64_t>> rows = DecodeReferenceBitmap(bitmap, why);
  if (rows && static_cast<int64_t>(rows->size()) != *dv.cardinality) {
    return *why = "DV cardinality disagrees with its rows", std::nullopt;
  }
  return rows;
}

// The positions of `names` in name order (stable).
std::vector<size_t> NameOrder(const std::vector<std::string>& names) {
  std::vector<size_t> order(names.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return names[a] < names[b]; });
  return order;
}

// A row file's columns and rows into `file`; false (and why) when malformed.
bool ReadRowFile(const ByteSource& files, const std::string& path, ReferenceFile* file,
                 std::string* why) {
  const std::optional<std::string> text = files.Read(path);
  if (!text) return *why = "row file not found: " + path, false;
  std::string_view rest = *text;
  const auto next_line = [&rest](std::string_view* line) {
    if (rest.empty()) return false;
    const size_t end = rest.find('\n');
    *line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    return true;
  };
  std::string_view line;
  if (!next_line(&line) || line != "rlc-rows 1") return *why = "not a row file: " + path, false;
  if (!next_line(&line)) return *why = "row file without columns: " + path, false;
  std::string parse_error;
  const std::optional<json::Value> header = json::Parse(line, &parse_error);
  const json::Value* columns = header ? header->Find("columns") : nullptr;
  if (columns == nullptr || !columns->is_array())
    return *why = "bad row file header: " + path, false;
  std::vector<std::string> names;
  for (const json::Value& c : columns->items) {
    const json::Value* name = c.Find("name");
    if (name == nullptr || !name->is_string())
      return *why = "a row file column without a name: " + path, false;
    names.push_back(name->text);
  }
  std::vector<size_t> order = NameOrder(names);
  for (size_t k = 1; k < order.size(); ++k) {
    if (names[order[k]] == names[order[k - 1]])
      return *why = "a row file names a column twice: " + path, false;
  }
  size_t line_number = 2;
  while (next_line(&line)) {
    ++line_number;
    std::optional<json::Value> values = json::Parse(line, &parse_error);
    if (!values || !values->is_array() || values->items.size() != names.size()) {
      return *why = "bad row in " + path + " at line " + std::to_string(line_number), false;
    }
    file->physical_values.push_back(std::move(*values));
  }
  file->columns = std::move(names);
  return true;
}

bool EndsWith(const std::string& text, std::string_view suffix) {
  return text.size() > suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A file the simulator writes rows in: a row file or a Parquet file.
bool IsDataFile(const std::string& path) {
  return EndsWith(path, ".rows") || EndsWith(path, ".parquet");
}

// A Parquet file's columns (partition columns are not there: the log's partition values stand for
// them) and rows into `file`, through reference_parquet.h.
bool ReadParquetDataFile(const ByteSource& files, const std::string& path, ReferenceFile* file,
                         std::string* why) {
  const std::optional<std::string> bytes = files.Read(path);
  if (!bytes) return *why = "parquet file not found: " + path, false;
  ParquetColumnsAndRows read;
  if (!ReadParquetRows(path, *bytes, &read, why)) return false;
  if (read.unsupported_column) {
    file->rows_unknown = path + " has a column of a type the oracle does not read";
    return true;
  }
  std::vector<size_t> order = NameOrder(read.columns);
  for (size_t k = 1; k < order.size(); ++k) {
    if (read.columns[order[k]] == read.columns[order[k - 1]])
      return *why = "a parquet file names a column twice: " + path, false;
  }
  file->columns = std::move(read.columns);
  file->physical_values = std::move(read.rows);
  return true;
}

bool ReadDataFile(const ByteSource& files, const std::string& path, ReferenceFile* file,
                  std::string* why) {
  if (EndsWith(path, ".rows")) return ReadRowFile(files, path, file, why);
  if (EndsWith(path, ".parquet")) return ReadParquetDataFile(files, path, file, why);
  return *why = "not a data file the simulator writes: " + path, false;
}

}  // namespace

const ByteSource& LocalFiles() {
  static const LocalFileSource local;
  return local;
}

std::optional<std::set<uint64_t>> ReadReferenceDv(const std::string& table_dir,
                                                  const ReferenceDv& dv,
                                                  const std::string& dv_file_prefix,
                                                  std::string* why, const ByteSource& files) {
  return DvRows(files, table_dir, dv, dv_file_prefix, why);
}

std::optional<std::vector<std::string>> ReadReferenceRows(const std::string& table_dir,
                                                          const std::string& path, std::string* why,
                                                          const ByteSource& files) {
  ReferenceFile file;
  if (!ReadDataFile(files, table_dir + "/" + path, &file, why)) return std::nullopt;
  if (!file.rows_unknown.empty()) return *why = file.rows_unknown, std::nullopt;
  std::vector<std::string> rows;
  for (size_t i = 0; i < file.physical_values.size(); ++i) rows.push_back(RowText(file, i));
  return rows;
}

std::string RowText(const ReferenceFile& file, size_t position) {
  const json::Value& values = file.physical_values.at(position);
  std::string row = "{";
  bool first = true;
  for (size_t k : NameOrder(file.columns)) {
    if (!first) row.push_back(',');
    first = false;
    json::AppendQuoted(file.columns[k], &row);
    row.push_back(':');
    json::AppendCanonical(values.items[k], &row);
  }
  row.push_back('}');
  return row;
}

std::vector<std::string> LiveRows(const ReferenceSnapshot& snapshot) {
  std::vector<std::string> live;
  for (const ReferenceFile& f : snapshot.files) {
    for (size_t i = 0; i < f.physical_values.size(); ++i) {
      if (f.deleted.count(i) == 0) live.push_back(RowText(f, i));
    }
  }
  std::sort(live.begin(), live.end());
  return live;
}

std::optional<std::set<uint64_t>> DecodeReferenceBitmap(const std::string& bytes,
                                                        std::string* why) {
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

ReferenceResult ReadReferenceSnapshot(const std::string& table_dir, int64_t version,
                                      const std::string& dv_file_prefix, const ByteSource& files) {
  return SnapshotOfLog(ReadReferenceLog(table_dir, version, files), table_dir, dv_file_prefix,
                       files);
}

ReferenceResult SnapshotOfLog(const ReferenceLog& log, const std::string& table_dir,
                              const std::string& dv_file_prefix, const ByteSource& files) {
  ReferenceResult result;
  if (!log.ok()) {
    result.error = log.error;
    return result;
  }
  std::map<std::string, const ReferenceFileAction*> active;  // (path, DV id) -> its add
  std::map<std::string, std::string> physical_names;
  for (const ReferenceCommit& commit : log.commits) {
    if (commit.physical_names) physical_names = *commit.physical_names;
    for (const ReferenceFileAction& action : commit.file_actions) {
      if (action.is_add) {
        active[action.Key()] = &action;
      } else {
        active.erase(action.Key());
      }
    }
  }
  ReferenceSnapshot snapshot;
  snapshot.version = log.commits.empty() ? -1 : log.commits.back().version;
  snapshot.physical_names = std::move(physical_names);
  for (const auto& [key, add] : active) {
    ReferenceFile file;
    file.path = add->path;
    file.partition_values = add->partition_values;
    file.num_records = add->num_records;
    if (add->dv) {
      std::string why;
      std::optional<std::set<uint64_t>> rows =
          DvRows(files, table_dir, *add->dv, dv_file_prefix, &why);
      if (!rows) {
        result.error =
            "version " + std::to_string(snapshot.version) + ", " + file.path + ": " + why;
        return result;
      }
      file.deleted = std::move(*rows);
    }
    if (IsDataFile(file.path)) {
      std::string why;
      if (!ReadDataFile(files, table_dir + "/" + file.path, &file, &why)) {
        result.error = "version " + std::to_string(snapshot.version) + ": " + why;
        return result;
      }
      // Statistics that do not parse leave numRecords unknown: the row file's own count stands
      // (dv-within-file still requires it of a file with a DV).
      if (file.rows_unknown.empty() && file.num_records.has_value() &&
          static_cast<int64_t>(file.physical_values.size()) != *file.num_records) {
        result.error = "version " + std::to_string(snapshot.version) + ", " + file.path +
                       ": the row file's row count disagrees with numRecords";
        return result;
      }
    }
    snapshot.files.push_back(std::move(file));
  }
  result.snapshot = std::move(snapshot);
  return result;
}

}  // namespace rlc::oracle
