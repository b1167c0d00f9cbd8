#include "fuzz/scenario/scenario.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "fuzz/scenario/operation_text.h"
#include "impl/delta/commit_parser.h"
#include "impl/delta/commit_writer.h"
#include "model/isolation/isolation.h"

namespace rlc::scenario {
namespace {

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The text after the first `n` words.
std::string_view After(std::string_view line, int n) {
  line = Trim(line);
  for (int i = 0; i < n; ++i) {
    const size_t blank = line.find_first_of(" \t");
    line = blank == std::string_view::npos ? std::string_view() : Trim(line.substr(blank));
  }
  return line;
}

std::optional<simulator::WriterQuirks::RemoveStats> RemoveStatsNamed(const std::string& name) {
  using R = simulator::WriterQuirks::RemoveStats;
  for (const auto& [r, text] :
       {std::pair{R::kCopied, "copied"}, std::pair{R::kAbsent, "absent"},
        std::pair{R::kLyingBounds, "lying-bounds"}, std::pair{R::kLyingCount, "lying-count"}}) {
    if (name == text) return r;
  }
  return std::nullopt;
}

// "+05:30" or "-08:00": minutes east of UTC, up to 18 hours (Java's bound).
std::optional<int> OffsetMinutes(const std::string& word) {
  if (word.size() != 6 || (word[0] != '+' && word[0] != '-') || word[3] != ':') return std::nullopt;
  for (size_t i : {1, 2, 4, 5}) {
    if (!std::isdigit(static_cast<unsigned char>(word[i]))) return std::nullopt;
  }
  const int hours = (word[1] - '0') * 10 + (word[2] - '0');
  const int minutes = (word[4] - '0') * 10 + (word[5] - '0');
  if (minutes > 59 || hours * 60 + minutes > 18 * 60) return std::nullopt;
  return (word[0] == '-' ? -1 : 1) * (hours * 60 + minutes);
}

std::string OffsetText(int minutes) {
  const int m = minutes < 0 ? -minutes : minutes;
  char text[24];
  std::snprintf(text, sizeof(text), "%c%02d:%02d", minutes < 0 ? '-' : '+', m / 60, m % 60);
  return text;
}

std::optional<int64_t> Number(const std::string& word) {
  int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (ec != std::errc() || ptr != word.data() + word.size()) return std::nullopt;
  return v;
}

// `elsewhere` or `elsewhere:N` after `readds`: the writer re-adds a file elsewhere, the N-th of
// those it may (N 0 to 255; 0 without it). False, and `q` untouched, on any other word.
bool ReAddsElsewhere(const std::string& word, simulator::WriterQuirks* q) {
  std::optional<int64_t> n = word == "elsewhere" ? std::optional<int64_t>(0) : std::nullopt;
  if (word.rfind("elsewhere:", 0) == 0) n = Number(word.substr(10));
  if (!n || *n < 0 || *n > 255) return false;
  q->readd_elsewhere = true;
  q->readd_which = static_cast<uint8_t>(*n);
  return true;
}

std::optional<bool> OnOff(const std::string& word) {
  if (word == "on" || word == "true") return true;
  if (word == "off" || word == "false") return false;
  return std::nullopt;
}

const char* LayoutName(simulator::OptimizeLayout layout) {
  switch (layout) {
    case simulator::OptimizeLayout::kBinPack:
      return "bin-pack";
    case simulator::OptimizeLayout::kInterleave:
      return "interleave";
    case simulator::OptimizeLayout::kSplit:
      return "split";
    case simulator::OptimizeLayout::kRepartition:
      return "repartition";
  }
  return "?";
}

class Parser {
 public:
  Parser(std::string file) { scenario_.file = std::move(file); }

  Result<Scenario> Run(std::string_view text) {
    std::vector<std::string> lines;
    for (size_t start = 0; start <= text.size();) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos) end = text.size();
      lines.emplace_back(text.substr(start, end - start));
      start = end + 1;
    }
    bool table_seen = false;
    for (size_t i = 0; i < lines.size(); ++i) {
      line_ = static_cast<int>(i) + 1;
      const std::string_view line = Trim(lines[i]);
      if (line.empty() || line[0] == '#') continue;
      if (line[0] == '{') {
        if (raw_txn_ == nullptr)
          return Error("an action line '{...}' must follow a 'txn NAME raw' line");
        Result<delta::Action> action = delta::ParseActionLine(line);
        if (!action.ok()) return Error("action: " + action.status().message());
        raw_txn_->raw_actions.push_back(*std::move(action));
        continue;
      }
      raw_txn_ = nullptr;
      const std::vector<std::string> w = Words(line);
      const std::string& head = w[0];
      if (head == "table") {
        if (table_seen) return Error("a second 'table' line");
        table_seen = true;
        RLC_RETURN_IF_ERROR(ParseTable(w));
      } else if (head == "scenario") {
        if (!scenario_.title.empty()) return Error("a second 'scenario' line");
        scenario_.title = std::string(After(line, 1));
      } else if (!table_seen) {
        return Error("the first statement (after the title) must be 'table ...'");
      } else if (head == "rows") {
        Result<std::vector<std::vector<model::Value>>> rows = ParseRows(After(line, 1), Schema());
        if (!rows.ok()) return Error("rows: " + rows.status().message());
        scenario_.table.rows.insert(scenario_.table.rows.end(), rows->begin(), rows->end());
        RLC_RETURN_IF_ERROR(CheckRows());
      } else if (head == "setup") {
        if (!scenario_.txns.empty()) return Error("'setup' lines come before the first 'txn'");
        Result<model::Operation> op = ParseOperation(After(line, 1), Schema());
        if (!op.ok()) return Error("setup: " + op.status().message());
        scenario_.setup.push_back({*std::move(op), line_});
      } else if (head == "txn") {
        RLC_RETURN_IF_ERROR(ParseTxn(w, line));
      } else if (head == "flags") {
        RLC_RETURN_IF_ERROR(ParseFlags(w));
      } else if (head == "optimize") {
        RLC_RETURN_IF_ERROR(ParseOptimize(w));
      } else if (head == "reads") {
        RLC_RETURN_IF_ERROR(ParseReads(w, line));
      } else if (head == "writer") {
        RLC_RETURN_IF_ERROR(ParseWriter(w));
      } else if (head == "expect") {
        RLC_RETURN_IF_ERROR(ParseExpect(w, line));
      } else if (w.size() == 2 && (w[1] == "starts" || w[1] == "commits" || w[1] == "rebases")) {
        RLC_RETURN_IF_ERROR(ParseStep(w));
      } else {
        return Error("unknown statement '" + head + "'");
      }
    }
    if (!table_seen) return Status::InvalidArgument(scenario_.file + ": no 'table' line");
    for (const TxnSpec& t : scenario_.txns) {
      if (!t.operation && t.raw_actions.empty()) {
        line_ = t.line;
        return Error("raw transaction " + t.name + " has no action lines");
      }
    }
    return std::move(scenario_);
  }

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidArgument(scenario_.file + ":" + std::to_string(line_) + ": " + what);
  }
  const std::vector<model::Column>& Schema() {
    schema_ =
        model::MakeTable(scenario_.table.PartitionTypes(), scenario_.table.typed_column).schema;
    schema_[1].collation = scenario_.table.value_collation;  // `value`
    return schema_;
  }
  Result<TxnSpec*> Txn(const std::string& name) {
    for (TxnSpec& t : scenario_.txns) {
      if (t.name == name) return &t;
    }
    return Error("no transaction named '" + name + "' (declare it with a 'txn' line first)");
  }

  // The options of typed columns and their text: nullopt for a key that is none of them.
  // A widened `x` widens as Delta's type widening may (simulator::Widens), and every row's value
  // is one the narrower type holds: the files of version 0 are written under it.
  Status CheckWidening() {
    const TableSpec& t = scenario_.table;
    if (!t.x_widened_from) return Status::Ok();
    if (!t.typed_column || !simulator::Widens(*t.x_widened_from, *t.typed_column)) {
      return Error(std::string("table: column-x-widened-from ") +
                   model::TypeName(*t.x_widened_from) +
                   " needs a column-x of a type Delta widens it to (byte, short, integer to a "
                   "wider integral type; float to double)");
    }
    const size_t x = 2;  // (id, value, x[, part])
    for (const std::vector<model::Value>& row : t.rows) {
      if (row.size() > x && !model::HoldsValueOf(*t.x_widened_from, row[x])) {
        return Error("table: a row's x is no " + std::string(model::TypeName(*t.x_widened_from)) +
                     ", the type its file is written under");
      }
    }
    return Status::Ok();
  }

  // Every row holds what its columns may (CheckWidening, CheckCollation).
  Status CheckRows() {
    RLC_RETURN_IF_ERROR(CheckWidening());
    return CheckCollation();
  }

  // A UTF8_LCASE `value` holds ASCII text only: the model lowercases ASCII letters alone, where
  // Spark lowercases every letter (model::Collation). Rows written later are the generators'.
  Status CheckCollation() {
    const TableSpec& t = scenario_.table;
    if (t.value_collation == model::Collation::kUtf8Binary) return Status::Ok();
    for (const std::vector<model::Value>& row : t.rows) {
      const auto* text = row.size() > 1 ? std::get_if<std::string>(&row[1]) : nullptr;
      if (text && std::any_of(text->begin(), text->end(), [](char c) { return c & 0x80; }))
        return Error("table: a UTF8_LCASE value holds ASCII text only, not '" + *text + "'");
    }
    return Status::Ok();
  }

  // `checkpoints N` and `checkpoint-layouts L,L,...`; nullopt for another key.
  std::optional<Status> ParseCheckpointOption(const std::string& key, const std::string& value) {
    TableSpec& t = scenario_.table;
    if (key == "checkpoints") {
      std::optional<int64_t> n = Number(value);
      if (!n || *n < 0 || *n > 1000)
        return Error("table: checkpoints must be 0..1000, not '" + value + "'");
      t.checkpoint_interval = static_cast<int>(*n);
      return Status::Ok();
    }
    if (key != "checkpoint-layouts") return std::nullopt;
    t.checkpoint_layouts.clear();
    size_t from = 0;
    while (from <= value.size()) {
      const size_t comma = std::min(value.find(',', from), value.size());
      const std::optional<parquet::CheckpointLayout::Kind> kind =
          parquet::ParseLayoutName(std::string_view(value).substr(from, comma - from));
      if (!kind) {
        return Error(
            "table: checkpoint-layouts takes classic, multi-part, multi-part-incomplete or "
            "sidecars, comma-separated, not '" +
            value + "'");
      }
      t.checkpoint_layouts.push_back(*kind);
      from = comma + 1;
    }
    return Status::Ok();
  }

  // `partition-types T1,T2,...`: the list is split at the commas outside parentheses, as
  // decimal(10,2) holds one.
  Status ParsePartitionTypes(const std::string& value) {
    TableSpec& t = scenario_.table;
    std::vector<model::ColumnType> types;
    size_t from = 0;
    int depth = 0;
    for (size_t i = 0; i <= value.size(); ++i) {
      if (i < value.size() && value[i] != ',') {
        depth += value[i] == '(' ? 1 : value[i] == ')' ? -1 : 0;
        continue;
      }
      if (i < value.size() && depth > 0) continue;
      const std::optional<model::ColumnType> type =
          model::ColumnTypeNamed(value.substr(from, i - from));
      if (!type || *type == model::ColumnType::kBinary) {
        return Error(
            "table: partition-types takes 1 to 4 types but binary, comma-separated, not '" + value +
            "'");
      }
      types.push_back(*type);
      from = i + 1;
    }
    if (types.size() > 4)
      return Error("table: partition-types takes 1 to 4 types, not " +
                   std::to_string(types.size()));
    t.partitioned = true;
    t.partition_type = types.front();
    t.more_partition_types.assign(types.begin() + 1, types.end());
    return Status::Ok();
  }

  std::optional<Status> ParseTypedOption(const std::string& key, const std::string& value) {
    TableSpec& t = scenario_.table;
    if (key == "partition-type" || key == "partition-types") {
      if (partition_types_given_)
        return Error("table: give partition-type or partition-types once, not both");
      partition_types_given_ = true;
      if (key == "partition-types") return ParsePartitionTypes(value);
    }
    if (key == "partition-type" || key == "column-x") {
      const std::optional<model::ColumnType> type = model::ColumnTypeNamed(value);
      if (!type) {
        return Error("table: " + key +
                     " long|string|timestamp|date|double|boolean|byte|short|integer|float|"
                     "decimal(10,2)|binary|timestamp_ntz, not '" +
                     value + "'");
      }
      // Spark writes a binary partition value as its bytes decoded as text, which no reader
      // reads back as the same bytes: the model keeps binaries out of partitions.
      if (key == "partition-type" && *type == model::ColumnType::kBinary)
        return Error("table: partition-type binary: a binary column is never a partition column");
      if (key == "column-x") t.typed_column = *type;
      if (key == "partition-type") t.partition_type = *type;
      return Status::Ok();
    }
    if (key == "column-x-widened-from") {
      t.x_widened_from = model::ColumnTypeNamed(value);
      if (!t.x_widened_from)
        return Error("table: column-x-widened-from byte|short|integer|float, not '" + value + "'");
      return Status::Ok();
    }
    if (key == "value-collation") {
      const std::optional<model::Collation> collation = model::CollationNamed(value);
      if (!collation)
        return Error("table: value-collation UTF8_BINARY|UTF8_LCASE, not '" + value + "'");
      t.value_collation = *collation;
      return Status::Ok();
    }
    if (key == "zone") {
      const std::optional<int> offset = OffsetMinutes(value);
      if (!offset) return Error("table: zone +HH:MM or -HH:MM (up to 18:00), not '" + value + "'");
      t.session_offset_minutes = *offset;
      return Status::Ok();
    }
    if (key == "column-mapping") {
      if (value != "name" && value != "none")
        return Error("table: column-mapping name|none, not '" + value + "'");
      t.column_mapping = value == "name";
      return Status::Ok();
    }
    if (key == "partition-timestamps") {
      if (value != "zoned" && value != "session")
        return Error("table: partition-timestamps zoned|session, not '" + value + "'");
      t.zoned_partition_timestamps = value == "zoned";
      return Status::Ok();
    }
    return std::nullopt;
  }

  Status ParseTable(const std::vector<std::string>& w) {
    TableSpec& t = scenario_.table;
    for (size_t i = 1; i < w.size(); ++i) {
      const std::string& key = w[i];
      if (key == "partitioned") {
        t.partitioned = true;
        continue;
      }
      if (i + 1 >= w.size()) return Error("table: '" + key + "' needs a value");
      const std::string& value = w[++i];
      if (key == "files") {
        std::optional<int64_t> n = Number(value);
        if (!n || *n < 1 || *n > 1000)
          return Error("table: files must be 1..1000, not '" + value + "'");
        t.files = static_cast<int>(*n);
      } else if (key == "statistics") {
        std::optional<bool> on = OnOff(value);
        if (!on) return Error("table: statistics on|off, not '" + value + "'");
        t.statistics = *on;
      } else if (key == "deletion-vectors") {
        if (value == "on")
          t.deletion_vectors = DeletionVectors::kOn;
        else if (value == "off")
          t.deletion_vectors = DeletionVectors::kOff;
        else if (value == "absent")
          t.deletion_vectors = DeletionVectors::kAbsent;
        else
          return Error("table: deletion-vectors on|off|absent, not '" + value + "'");
      } else if (key == "writes") {
        if (value != "merge-on-read" && value != "copy-on-write") {
          return Error("table: writes merge-on-read|copy-on-write, not '" + value + "'");
        }
        t.merge_on_read = value == "merge-on-read";
      } else if (key == "isolation") {
        std::optional<model::IsolationLevel> level = model::ParseIsolationLevel(value);
        if (!level || *level == model::IsolationLevel::kSnapshotIsolation) {
          return Error("table: isolation Serializable|WriteSerializable, not '" + value + "'");
        }
        t.isolation = level;
      } else if (key == "rows") {
        if (value != "readable" && value != "unreadable")
          return Error("table: rows readable|unreadable, not '" + value + "'");
        t.rows_readable = value == "readable";
      } else if (std::optional<Status> typed = ParseTypedOption(key, value)) {
        RLC_RETURN_IF_ERROR(*typed);
      } else if (key == "faults") {
        std::optional<int64_t> n = Number(value);
        if (!n || *n < 0 || *n > 1000)
          return Error("table: faults must be 0..1000, not '" + value + "'");
        t.checker_faults = static_cast<int>(*n);
      } else if (std::optional<Status> checkpoints = ParseCheckpointOption(key, value)) {
        RLC_RETURN_IF_ERROR(*checkpoints);
      } else if (key == "optimize-target") {
        std::optional<int64_t> n = Number(value);
        if (!n || *n < 1)
          return Error("table: optimize-target must be a positive number, not '" + value + "'");
        t.optimize_target = *n;
      } else {
        return Error("table: unknown option '" + key + "'");
      }
    }
    return CheckWidening();
  }

  Status ParseTxn(const std::vector<std::string>& w, std::string_view line) {
    if (w.size() < 3) return Error("txn NAME <operation> | txn NAME raw");
    const std::string& name = w[1];
    if (name == "all" || name == "none" || Txn(name).ok())
      return Error("transaction name '" + name + "' is taken");
    TxnSpec t;
    t.name = name;
    t.line = line_;
    if (w.size() == 3 && w[2] == "raw") {
      scenario_.txns.push_back(std::move(t));
      raw_txn_ = &scenario_.txns.back();
      return Status::Ok();
    }
    Result<model::Operation> op = ParseOperation(After(line, 2), Schema());
    if (!op.ok()) return Error("txn " + name + ": " + op.status().message());
    t.operation = *std::move(op);
    scenario_.txns.push_back(std::move(t));
    return Status::Ok();
  }

  Status ParseFlags(const std::vector<std::string>& w) {
    if (w.size() < 3) return Error("flags NAME all | none | <flag>[=<value>] ...");
    RLC_ASSIGN_OR_RETURN(TxnSpec * t, Txn(w[1]));
    for (size_t i = 2; i < w.size(); ++i) {
      if (w[i] == "all") {
        t->flags = conflict::Flags::Every();
      } else if (w[i] == "none") {
        t->flags = conflict::Flags{};
      } else {
        const Status s = w[i].find('=') == std::string::npos ? t->flags.Set(w[i], "true")
                                                             : t->flags.SetFromAssignment(w[i]);
        if (!s.ok()) return Error("flags: " + s.message());
      }
    }
    return Status::Ok();
  }

  Status ParseWriter(const std::vector<std::string>& w) {
    constexpr char kUsage[] =
        "writer NAME [adds-first] [remove-stats copied|absent|lying-bounds|lying-count] [tags "
        "miscounted|malformed] "
        "[stats malformed] [empty-output on] [removes ghost] [data-change false] [half-truth] "
        "[read-version absent|stale] [adds duplicated] [readds elsewhere[:N]] "
        "[dv-updates elsewhere] [lies FIELD:absent|stale|contradicting:WHICH]...";
    if (w.size() < 2) return Error(kUsage);
    RLC_ASSIGN_OR_RETURN(TxnSpec * t, Txn(w[1]));
    if (!t->operation) {
      if (w.size() == 3 && w[2] == "foreign") {
        t->foreign = true;
        return Status::Ok();
      }
      return Error("writer: " + t->name + " is raw: its actions are written as given (`writer " +
                   t->name + " foreign` declares what they break its engine's own)");
    }
    simulator::WriterQuirks& q = t->writer;
    for (size_t i = 2; i < w.size(); ++i) {
      if (w[i] == "adds-first") {
        q.adds_first = true;
        continue;
      }
      if (w[i] == "half-truth") {
        q.half_truth = true;
        continue;
      }
      if (i + 1 >= w.size())
        return Error(std::string("writer: '") + w[i] + "' needs a value; " + kUsage);
      const std::string& value = w[++i];
      if (w[i - 1] == "remove-stats") {
        const std::optional<simulator::WriterQuirks::RemoveStats> r = RemoveStatsNamed(value);
        if (!r)
          return Error("writer: remove-stats copied|absent|lying-bounds|lying-count, not '" +
                       value + "'");
        q.remove_stats = *r;
      } else if (w[i - 1] == "tags" && value == "miscounted") {
        q.miscounted_tags = true;
      } else if (w[i - 1] == "tags" && value == "malformed") {
        q.malformed_tags = true;
      } else if (w[i - 1] == "stats" && value == "malformed") {
        q.malformed_stats = true;
      } else if (w[i - 1] == "empty-output" && value == "on") {
        q.empty_output = true;
      } else if (w[i - 1] == "removes" && value == "ghost") {
        q.ghost_removes = true;
      } else if (w[i - 1] == "data-change" && value == "false") {
        q.no_data_change = true;
      } else if (w[i - 1] == "adds" && value == "duplicated") {
        q.duplicate_add = true;
      } else if (w[i - 1] == "readds" && value.rfind("elsewhere", 0) == 0) {
        if (!ReAddsElsewhere(value, &q))
          return Error("writer: readds elsewhere[:N] (N 0 to 255), not '" + value + "'");
      } else if (w[i - 1] == "dv-updates" && value == "elsewhere") {
        q.dv_update_elsewhere = true;
      } else if (w[i - 1] == "lies") {
        const std::optional<simulator::FieldLie> lie = simulator::ParseFieldLie(value);
        if (!lie)
          return Error("writer: lies FIELD:absent|stale|contradicting:WHICH, not '" + value + "'");
        q.field_lies.push_back(*lie);
      } else if (w[i - 1] == "read-version" && (value == "absent" || value == "stale")) {
        using RV = simulator::WriterQuirks::ReadVersion;
        q.read_version = value == "absent" ? RV::kAbsent : RV::kStale;
      } else {
        return Error("writer: unknown '" + w[i - 1] + " " + value + "'; " + kUsage);
      }
    }
    return Status::Ok();
  }

  Status ParseOptimize(const std::vector<std::string>& w) {
    if (w.size() < 2) return Error("optimize NAME [layout L] [target N] [capture on|off]");
    RLC_ASSIGN_OR_RETURN(TxnSpec * t, Txn(w[1]));
    if (!t->operation || !std::holds_alternative<model::Optimize>(*t->operation)) {
      return Error("optimize: " + t->name + " is not an OPTIMIZE");
    }
    for (size_t i = 2; i < w.size(); i += 2) {
      if (i + 1 >= w.size()) return Error("optimize: '" + w[i] + "' needs a value");
      const std::string& key = w[i];
      const std::string& value = w[i + 1];
      if (key == "layout") {
        bool found = false;
        for (auto layout :
             {simulator::OptimizeLayout::kBinPack, simulator::OptimizeLayout::kInterleave,
              simulator::OptimizeLayout::kSplit, simulator::OptimizeLayout::kRepartition}) {
          if (value == LayoutName(layout)) {
            t->optimize.layout = layout;
            found = true;
          }
        }
        if (!found)
          return Error("optimize: layout bin-pack|interleave|split|repartition, not '" + value +
                       "'");
      } else if (key == "target") {
        std::optional<int64_t> n = Number(value);
        if (!n || *n < 1)
          return Error("optimize: target must be a positive number, not '" + value + "'");
        t->optimize.target_rows = *n;
      } else if (key == "capture") {
        std::optional<bool> on = OnOff(value);
        if (!on) return Error("optimize: capture on|off, not '" + value + "'");
        t->optimize.capture = *on;
      } else {
        return Error("optimize: unknown option '" + key + "'");
      }
    }
    return Status::Ok();
  }

  Status ParseReads(const std::vector<std::string>& w, std::string_view line) {
    if (w.size() < 3) return Error("reads NAME whole-table | reads NAME where <predicate>");
    RLC_ASSIGN_OR_RETURN(TxnSpec * t, Txn(w[1]));
    if (w[2] == "whole-table" && w.size() == 3) {
      t->reads_whole_table = true;
      return Status::Ok();
    }
    if (w[2] != "where") return Error("reads NAME whole-table | reads NAME where <predicate>");
    Result<model::Predicate> p = ParsePredicate(After(line, 3), Schema());
    if (!p.ok()) return Error("reads: " + p.status().message());
    t->extra_reads.push_back(*std::move(p));
    return Status::Ok();
  }

  Status ParseStep(const std::vector<std::string>& w) {
    RLC_ASSIGN_OR_RETURN(TxnSpec * t, Txn(w[0]));
    if (w[1] == "rebases") {
      if (started_.count(t->name) == 0) return Error(t->name + " rebases before it starts");
      if (committed_.count(t->name) != 0) return Error(t->name + " rebases after it commits");
      scenario_.steps.push_back({Step::Kind::kRebase, t->name, line_});
      return Status::Ok();
    }
    const bool start = w[1] == "starts";
    const bool started = started_.count(t->name) > 0;
    if (start && started) return Error(t->name + " starts twice");
    if (!start && !started) return Error(t->name + " commits before it starts");
    if (!start && committed_.count(t->name)) return Error(t->name + " commits twice");
    (start ? started_ : committed_).insert(t->name);
    scenario_.steps.push_back({start ? Step::Kind::kStart : Step::Kind::kCommit, t->name, line_});
    return Status::Ok();
  }

  // A non-negative number of an expectation.
  Status ExpectNumber(const std::string& word, int64_t* out) {
    std::optional<int64_t> n = Number(word);
    if (!n || *n < 0) return Error("expect: a number, not '" + word + "'");
    *out = *n;
    return Status::Ok();
  }

  Status ExpectNumbers(const std::vector<std::string>& w, size_t from, std::vector<int64_t>* out) {
    for (size_t i = from; i < w.size(); ++i) {
      int64_t n = 0;
      RLC_RETURN_IF_ERROR(ExpectNumber(w[i], &n));
      out->push_back(n);
    }
    return Status::Ok();
  }

  // `expect T <verb> ...`: an expectation about one transaction.
  Status ParseTxnExpect(const std::vector<std::string>& w, Expectation& e) {
    using K = Expectation::Kind;
    RLC_ASSIGN_OR_RETURN(TxnSpec * t, Txn(w[1]));
    e.txn = t->name;
    if (w.size() < 3) return Error("expect " + e.txn + " what?");
    const std::string& verb = w[2];
    if (w.size() == 3 && (verb == "commits" || verb == "refuses" || verb == "skips" ||
                          verb == "any" || verb == "no-events")) {
      e.kind = verb == "commits"   ? K::kCommits
               : verb == "refuses" ? K::kRefuses
               : verb == "skips"   ? K::kSkips
               : verb == "any"     ? K::kAny
                                   : K::kNoEvents;
    } else if (verb == "aborts" && w.size() <= 4) {
      e.kind = K::kAborts;
      if (w.size() == 4) e.name = w[3];
    } else if (verb == "event" && w.size() == 4) {
      e.kind = K::kEvent;
      e.name = w[3];
    } else if (verb == "retries" && w.size() == 4) {
      e.kind = K::kRetries;
      RLC_RETURN_IF_ERROR(ExpectNumber(w[3], &e.number));
    } else if (verb == "data-change" && w.size() == 4 && OnOff(w[3])) {
      e.kind = K::kDataChange;
      e.flag = *OnOff(w[3]);
    } else {
      return Error(
          "expect " + e.txn +
          ": commits | aborts [Kind] | refuses | skips | any | event E | no-events | retries N | "
          "data-change true|false");
    }
    return Status::Ok();
  }

  Status ParseExpect(const std::vector<std::string>& w, std::string_view line) {
    using K = Expectation::Kind;
    Expectation e;
    e.line = line_;
    e.text = std::string(line);
    if (w.size() < 2) return Error("expect what?");
    const std::string& what = w[1];
    if (what == "rows") {
      e.kind = K::kRows;
      if (!(w.size() == 3 && w[2] == "none")) {
        Result<std::vector<std::vector<model::Value>>> rows = ParseRows(After(line, 2), Schema());
        if (!rows.ok()) return Error("expect rows: " + rows.status().message());
        e.rows = *std::move(rows);
      }
    } else if ((what == "row-count" || what == "files") && w.size() == 3) {
      e.kind = what == "files" ? K::kFiles : K::kRowCount;
      RLC_RETURN_IF_ERROR(ExpectNumber(w[2], &e.number));
    } else if (what == "dv-cardinalities") {
      e.kind = K::kDvCardinalities;
      RLC_RETURN_IF_ERROR(ExpectNumbers(w, 2, &e.numbers));
      if (!std::is_sorted(e.numbers.begin(), e.numbers.end())) {
        return Error("expect dv-cardinalities: list them ascending");
      }
    } else if (what == "dv" && w.size() >= 3 && w[2].back() == ':') {
      e.kind = K::kDv;
      RLC_RETURN_IF_ERROR(ExpectNumber(w[2].substr(0, w[2].size() - 1), &e.number));
      RLC_RETURN_IF_ERROR(ExpectNumbers(w, 3, &e.numbers));
    } else if (what == "missed-reconcile" && w.size() == 2) {
      e.kind = K::kMissedReconcile;
    } else {
      RLC_RETURN_IF_ERROR(ParseTxnExpect(w, e));
    }
    scenario_.expectations.push_back(std::move(e));
    return Status::Ok();
  }

  Scenario scenario_;
  std::vector<model::Column> schema_;
  bool partition_types_given_ = false;
  TxnSpec* raw_txn_ = nullptr;  // the raw transaction action lines attach to
  std::set<std::string> started_, committed_;
  int line_ = 0;
};

}  // namespace

std::string RowsText(const std::vector<std::vector<model::Value>>& rows) {
  std::string s;
  for (size_t i = 0; i < rows.size(); ++i) {
    s += i ? ", (" : "(";
    for (size_t j = 0; j < rows[i].size(); ++j) s += (j ? ", " : "") + model::ToString(rows[i][j]);
    s += ")";
  }
  return s;
}

std::vector<model::ColumnType> TableSpec::PartitionTypes() const {
  if (!partitioned) return {};
  std::vector<model::ColumnType> types = {partition_type};
  types.insert(types.end(), more_partition_types.begin(), more_partition_types.end());
  return types;
}

const TxnSpec* Scenario::Find(const std::string& name) const {
  for (const TxnSpec& t : txns) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

model::LogicalTable Scenario::StartingTable() const {
  model::LogicalTable t = model::MakeTable(table.PartitionTypes(), table.typed_column);
  t.schema[1].collation = table.value_collation;  // `value`
  t.session_offset_minutes = table.session_offset_minutes;
  if (table.isolation) t.properties.isolation_level = *table.isolation;
  t.properties.deletion_vectors_enabled = table.deletion_vectors == DeletionVectors::kOn;
  if (table.deletion_vectors == DeletionVectors::kAbsent)
    t.protocol_features.erase("deletionVectors");
  if (table.column_mapping) t.protocol_features.insert("columnMapping");
  for (const std::vector<model::Value>& row : table.rows) t.Insert(row);
  // A widened table's history starts at version 1, after the widening (TableOptions).
  if (table.x_widened_from) {
    t.version = 1;
    t.protocol_features.insert("typeWidening");
    t.properties.other["delta.enableTypeWidening"] = "true";
  }
  return t;
}

Result<Scenario> ParseScenario(std::string_view text, const std::string& file) {
  return Parser(file).Run(text);
}

std::string WriterText(const simulator::WriterQuirks& q) {
  using R = simulator::WriterQuirks::RemoveStats;
  std::string out;
  if (q.adds_first) out += " adds-first";
  if (q.remove_stats != R::kCopied) {
    out += std::string(" remove-stats ") + (q.remove_stats == R::kAbsent        ? "absent"
                                            : q.remove_stats == R::kLyingBounds ? "lying-bounds"
                                                                                : "lying-count");
  }
  if (q.miscounted_tags) out += " tags miscounted";
  if (q.malformed_tags) out += " tags malformed";
  if (q.malformed_stats) out += " stats malformed";
  if (q.empty_output) out += " empty-output on";
  if (q.ghost_removes) out += " removes ghost";
  if (q.no_data_change) out += " data-change false";
  if (q.half_truth) out += " half-truth";
  using RV = simulator::WriterQuirks::ReadVersion;
  if (q.read_version != RV::kHonest)
    out += std::string(" read-version ") + (q.read_version == RV::kAbsent ? "absent" : "stale");
  if (q.duplicate_add) out += " adds duplicated";
  if (q.readd_elsewhere) {
    out += " readds elsewhere";
    if (q.readd_which != 0) out += ":" + std::to_string(q.readd_which);
  }
  if (q.dv_update_elsewhere) out += " dv-updates elsewhere";
  for (const simulator::FieldLie& lie : q.field_lies)
    out += " lies " + simulator::FieldLieText(lie);
  return out;
}

// The `table` line, without its newline.
std::string TableLine(const TableSpec& t) {
  std::ostringstream out;
  out << "table" << (t.partitioned ? " partitioned" : "");
  if (t.partitioned && !t.more_partition_types.empty()) {
    out << " partition-types ";
    const std::vector<model::ColumnType> types = t.PartitionTypes();
    for (size_t i = 0; i < types.size(); ++i) out << (i ? "," : "") << model::TypeName(types[i]);
  } else if (t.partitioned && t.partition_type != model::ColumnType::kLong) {
    out << " partition-type " << model::TypeName(t.partition_type);
  }
  out << (t.typed_column ? std::string(" column-x ") + model::TypeName(*t.typed_column) : "")
      << (t.x_widened_from
              ? std::string(" column-x-widened-from ") + model::TypeName(*t.x_widened_from)
              : "")
      << " files " << t.files << " statistics " << (t.statistics ? "on" : "off")
      << " deletion-vectors "
      << (t.deletion_vectors == DeletionVectors::kOn    ? "on"
          : t.deletion_vectors == DeletionVectors::kOff ? "off"
                                                        : "absent")
      << " writes " << (t.merge_on_read ? "merge-on-read" : "copy-on-write");
  if (t.value_collation != model::Collation::kUtf8Binary)
    out << " value-collation " << model::CollationName(t.value_collation);
  if (t.isolation) out << " isolation " << model::IsolationLevelName(*t.isolation);
  out << " optimize-target " << t.optimize_target;
  if (!t.rows_readable) out << " rows unreadable";
  if (t.checker_faults > 0) out << " faults " << t.checker_faults;
  if (t.checkpoint_interval > 0) out << " checkpoints " << t.checkpoint_interval;
  if (t.checkpoint_layouts != TableSpec{}.checkpoint_layouts) {
    out << " checkpoint-layouts ";
    for (size_t i = 0; i < t.checkpoint_layouts.size(); ++i)
      out << (i > 0 ? "," : "") << parquet::LayoutName(t.checkpoint_layouts[i]);
  }
  if (t.session_offset_minutes != 0) out << " zone " << OffsetText(t.session_offset_minutes);
  if (t.zoned_partition_timestamps) out << " partition-timestamps zoned";
  if (t.column_mapping) out << " column-mapping name";
  return out.str();
}

std::string FormatScenario(const Scenario& s) {
  std::ostringstream out;
  if (!s.title.empty()) out << "scenario " << s.title << "\n";
  const TableSpec& t = s.table;
  out << TableLine(t) << "\n";
  for (const auto& row : t.rows) out << "rows " << RowsText({row}) << "\n";
  for (const auto& [op, line] : s.setup) out << "setup " << model::Describe(op) << "\n";
  for (const TxnSpec& txn : s.txns) {
    if (txn.operation) {
      out << "txn " << txn.name << " " << model::Describe(*txn.operation) << "\n";
    } else {
      out << "txn " << txn.name << " raw\n";
      for (const delta::Action& a : txn.raw_actions) out << delta::WriteActionLine(a) << "\n";
    }
    std::string flags;
    for (const std::string& f : txn.flags.ToAssignments()) {
      const std::string_view name = std::string_view(f).substr(conflict::kFlagPrefix.size());
      if (name.substr(0, std::string_view(conflict::kValueExactMaxBytesFlag).size()) ==
          conflict::kValueExactMaxBytesFlag) {
        if (txn.flags.value_exact_max_bytes != conflict::Flags{}.value_exact_max_bytes)
          flags += " " + std::string(name);
      } else if (name.size() > 5 && name.substr(name.size() - 5) == "=true") {
        flags += " " + std::string(name.substr(0, name.size() - 5));
      }
    }
    if (!flags.empty()) out << "flags " << txn.name << flags << "\n";
    const simulator::OptimizeOptions defaults;
    if (txn.optimize.layout != defaults.layout ||
        txn.optimize.target_rows != defaults.target_rows ||
        txn.optimize.capture != defaults.capture) {
      out << "optimize " << txn.name << " layout " << LayoutName(txn.optimize.layout);
      if (txn.optimize.target_rows > 0) out << " target " << txn.optimize.target_rows;
      out << " capture " << (txn.optimize.capture ? "on" : "off") << "\n";
    }
    if (txn.writer.any()) out << "writer " << txn.name << WriterText(txn.writer) << "\n";
    if (txn.reads_whole_table) out << "reads " << txn.name << " whole-table\n";
    for (const model::Predicate& p : txn.extra_reads)
      out << "reads " << txn.name << " where " << model::ToString(p) << "\n";
  }
  for (const Step& step : s.steps) {
    out << step.txn
        << (step.kind == Step::Kind::kStart    ? " starts"
            : step.kind == Step::Kind::kRebase ? " rebases"
                                               : " commits")
        << "\n";
  }
  for (const Expectation& e : s.expectations) out << e.text << "\n";
  return out.str();
}

}  // namespace rlc::scenario
