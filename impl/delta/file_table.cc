#include "impl/delta/file_table.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <mutex>
#include <numeric>
#include <unordered_map>

#include "impl/base/assert.h"
#include "impl/delta/file_key.h"

namespace rlc::delta {

// The checkpoint's files: its batches, the rows of them that hold direct adds, an index from
// decoded path to row, and what is built lazily (the AddFiles asked for, the key order).
struct FileTable::Base {
  struct RowRef {
    uint32_t batch;
    uint32_t row;
  };

  std::vector<AddColumns> batches;
  std::vector<RowRef> rows;
  std::unordered_map<uint32_t, std::string> decoded;  // rows whose raw path holds escapes
  // Open addressing: (high half of the key's hash << 32) | (row + 1); 0 is an empty slot.
  std::vector<uint64_t> slots;
  uint64_t mask = 0;
  std::unique_ptr<std::atomic<value_type*>[]> entries;
  mutable std::once_flag sort_once;
  mutable std::vector<uint32_t> sorted;

  Base() = default;
  Base(const Base&) = delete;
  Base& operator=(const Base&) = delete;
  ~Base() {
    if (entries == nullptr) return;
    for (size_t i = 0; i < rows.size(); ++i) delete entries[i].load(std::memory_order_relaxed);
  }

  std::string_view RawPath(uint32_t r) const { return batches[rows[r].batch].path.At(rows[r].row); }
  std::string_view Key(uint32_t r) const {
    if (decoded.empty()) return RawPath(r);
    const auto it = decoded.find(r);
    return it == decoded.end() ? RawPath(r) : std::string_view(it->second);
  }

  static uint64_t Hash(std::string_view key) { return std::hash<std::string_view>{}(key); }

  void Reserve(size_t n) {
    size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    slots.assign(capacity, 0);
    mask = capacity - 1;
    rows.reserve(n);
  }

  // The row of `key`, or -1.
  int64_t Find(std::string_view key) const {
    if (slots.empty()) return -1;
    const uint64_t h = Hash(key);
    for (uint64_t i = h & mask;; i = (i + 1) & mask) {
      const uint64_t slot = slots[i];
      if (slot == 0) return -1;
      const auto row = static_cast<uint32_t>(slot & 0xffffffffu) - 1;
      if ((slot >> 32) == (h >> 32) && Key(row) == key) return row;
    }
  }

  // Indexes every row; the first row whose key an earlier row has, or -1. The slots are visited
  // in hash order, far apart in memory, so each is fetched a few rows ahead of its insert.
  int64_t IndexRows() {
    std::vector<uint64_t> hashes(rows.size());
    for (uint32_t r = 0; r < rows.size(); ++r) hashes[r] = Hash(Key(r));
    constexpr uint32_t kAhead = 16;
    for (uint32_t r = 0; r < rows.size(); ++r) {
      if (r + kAhead < rows.size()) __builtin_prefetch(&slots[hashes[r + kAhead] & mask], 1);
      if (!Insert(r, hashes[r])) return r;
    }
    return -1;
  }

  // False (and nothing inserted) when the row's key is there already.
  bool Insert(uint32_t row, uint64_t h) {
    for (uint64_t i = h & mask;; i = (i + 1) & mask) {
      const uint64_t slot = slots[i];
      if (slot == 0) {
        slots[i] = ((h >> 32) << 32) | (uint64_t{row} + 1);
        return true;
      }
      const auto other = static_cast<uint32_t>(slot & 0xffffffffu) - 1;
      if ((slot >> 32) == (h >> 32) && Key(other) == Key(row)) return false;
    }
  }

  const value_type& Entry(uint32_t r) const {
    std::atomic<value_type*>& slot = entries[r];
    if (value_type* made = slot.load(std::memory_order_acquire)) return *made;
    const RowRef ref = rows[r];
    auto* made = new value_type(std::string(Key(r)), AddAt(batches[ref.batch], ref.row));
    value_type* expected = nullptr;
    if (slot.compare_exchange_strong(expected, made, std::memory_order_acq_rel)) return *made;
    delete made;  // another thread built it first
    return *expected;
  }

  const std::vector<uint32_t>& Sorted() const {
    std::call_once(sort_once, [this] {
      std::vector<std::string_view> keys(rows.size());
      for (uint32_t r = 0; r < rows.size(); ++r) keys[r] = Key(r);
      sorted.resize(rows.size());
      std::iota(sorted.begin(), sorted.end(), 0u);
      std::sort(sorted.begin(), sorted.end(),
                [&](uint32_t a, uint32_t b) { return keys[a] < keys[b]; });
    });
    return sorted;
  }

  // The first position in key order whose key is not less than `key`.
  size_t LowerBound(std::string_view key) const {
    const std::vector<uint32_t>& order = Sorted();
    return static_cast<size_t>(
        std::partition_point(order.begin(), order.end(), [&](uint32_t r) { return Key(r) < key; }) -
        order.begin());
  }
};

namespace {

Status TwiceAdded(const std::string& source, std::string_view key) {
  return Status::Corrupt(source + ": two adds of path '" + std::string(key) + "'");
}

// A row the columns cannot give whole, through the general parse, into `loose`.
Status AddSlowRow(const AddColumns& batch, int64_t row, std::map<std::string, AddFile>& loose) {
  RLC_ASSIGN_OR_RETURN(Action action, batch.slow_row(row));
  auto* add = std::get_if<AddFile>(&action);
  if (add == nullptr)
    return Status::Corrupt(batch.source + ": the add column holds another action");
  std::string key = DecodedPath(add->path);
  if (loose.count(key) != 0) return TwiceAdded(batch.source, key);
  loose.emplace(std::move(key), std::move(*add));
  return Status::Ok();
}

}  // namespace

FileTable::FileTable() = default;
FileTable::FileTable(const FileTable&) = default;
FileTable::FileTable(FileTable&&) noexcept = default;
FileTable& FileTable::operator=(const FileTable&) = default;
FileTable& FileTable::operator=(FileTable&&) noexcept = default;
FileTable::~FileTable() = default;

Result<FileTable> FileTable::FromColumns(std::vector<AddColumns> batches,
                                         std::map<std::string, AddFile> loose) {
  auto base = std::make_shared<Base>();
  size_t length = 0;
  for (const AddColumns& b : batches) length += static_cast<size_t>(b.length);
  base->Reserve(length);
  base->batches = std::move(batches);
  for (uint32_t b = 0; b < base->batches.size(); ++b) {
    const AddColumns& batch = base->batches[b];
    for (int64_t row = 0; row < batch.length; ++row) {
      if (!batch.add.Get(row)) continue;
      if (!IsDirectAdd(batch, row)) {
        RLC_RETURN_IF_ERROR(AddSlowRow(batch, row, loose));
        continue;
      }
      base->rows.push_back({b, static_cast<uint32_t>(row)});
      const std::string_view raw = batch.path.At(row);
      if (std::memchr(raw.data(), '%', raw.size()) != nullptr) {
        const auto r = static_cast<uint32_t>(base->rows.size() - 1);
        base->decoded.emplace(r, DecodedPath(std::string(raw)));
      }
    }
  }
  if (const int64_t twice = base->IndexRows(); twice >= 0) {
    const auto row = static_cast<uint32_t>(twice);
    return TwiceAdded(base->batches[base->rows[row].batch].source, base->Key(row));
  }
  for (const auto& [key, add] : loose) {
    const int64_t row = base->Find(key);
    if (row >= 0) return TwiceAdded(base->batches[base->rows[row].batch].source, key);
  }
  FileTable table;
  if (!base->rows.empty()) {
    base->entries.reset(new std::atomic<value_type*>[base->rows.size()]());
    table.base_ = std::move(base);
  }
  table.top_ = Top(std::make_move_iterator(loose.begin()), std::make_move_iterator(loose.end()));
  return table;
}

size_t FileTable::size() const {
  return (base_ ? base_->rows.size() : 0) - removed_count_ + top_.size();
}

bool FileTable::Removed(uint32_t row) const {
  return !removed_.empty() && ((removed_[row >> 6] >> (row & 63)) & 1) != 0;
}

void FileTable::Remove(uint32_t row) {
  if (removed_.empty()) removed_.assign((base_->rows.size() + 63) / 64, 0);
  removed_[row >> 6] |= uint64_t{1} << (row & 63);
  ++removed_count_;
}

int64_t FileTable::LiveBaseRow(std::string_view decoded_path) const {
  if (!base_) return -1;
  const int64_t row = base_->Find(decoded_path);
  return row >= 0 && !Removed(static_cast<uint32_t>(row)) ? row : -1;
}

const FileTable::value_type* FileTable::Lookup(std::string_view decoded_path) const {
  const auto t = top_.find(decoded_path);
  if (t != top_.end()) return &*t;
  const int64_t row = LiveBaseRow(decoded_path);
  return row < 0 ? nullptr : &base_->Entry(static_cast<uint32_t>(row));
}

FileTable::const_iterator FileTable::begin() const {
  const_iterator it;
  it.table_ = this;
  it.base_at_ = 0;
  it.top_at_ = top_.begin();
  it.Settle();
  return it;
}

FileTable::const_iterator FileTable::end() const {
  const_iterator it;
  it.table_ = this;
  it.top_at_ = top_.end();
  return it;
}

FileTable::const_iterator FileTable::find(std::string_view decoded_path) const {
  const_iterator it = end();
  const auto t = top_.find(decoded_path);
  if (t != top_.end()) {
    it.top_at_ = t;
    it.current_ = &*t;
    return it;
  }
  const int64_t row = LiveBaseRow(decoded_path);
  if (row < 0) return it;
  it.top_at_ = top_.lower_bound(decoded_path);
  it.current_ = &base_->Entry(static_cast<uint32_t>(row));
  return it;
}

const AddFile& FileTable::at(std::string_view decoded_path) const {
  const value_type* e = Lookup(decoded_path);
  RLC_ASSERT(e != nullptr);
  return e->second;
}

std::pair<FileTable::const_iterator, bool> FileTable::emplace(std::string_view decoded_path,
                                                              AddFile&& add) {
  if (Lookup(decoded_path) != nullptr) return {find(decoded_path), false};
  std::string key(decoded_path);  // before the add moves: the key may be the add's own path
  const auto t = top_.emplace(std::move(key), std::move(add)).first;
  const_iterator it = end();
  it.top_at_ = t;
  it.current_ = &*t;
  return {it, true};
}

std::pair<FileTable::const_iterator, bool> FileTable::emplace(std::string_view decoded_path,
                                                              const AddFile& add) {
  return emplace(decoded_path, AddFile(add));
}

void FileTable::insert_or_assign(std::string_view decoded_path, AddFile&& add) {
  const int64_t row = LiveBaseRow(decoded_path);
  if (row >= 0) Remove(static_cast<uint32_t>(row));
  std::string key(decoded_path);  // before the add moves, as in emplace
  top_.insert_or_assign(std::move(key), std::move(add));
}

void FileTable::insert_or_assign(std::string_view decoded_path, const AddFile& add) {
  insert_or_assign(decoded_path, AddFile(add));
}

AddFile& FileTable::operator[](const std::string& decoded_path) {
  const auto t = top_.find(decoded_path);
  if (t != top_.end()) return t->second;
  const int64_t row = LiveBaseRow(decoded_path);
  AddFile add;
  if (row >= 0) {
    add = base_->Entry(static_cast<uint32_t>(row)).second;
    Remove(static_cast<uint32_t>(row));
  }
  return top_.emplace(decoded_path, std::move(add)).first->second;
}

size_t FileTable::erase(std::string_view decoded_path) {
  const auto t = top_.find(decoded_path);
  if (t != top_.end()) {
    top_.erase(t);
    return 1;
  }
  const int64_t row = LiveBaseRow(decoded_path);
  if (row < 0) return 0;
  Remove(static_cast<uint32_t>(row));
  return 1;
}

void FileTable::erase(const_iterator it) { erase(std::string_view(it->first)); }

bool operator==(const FileTable& a, const FileTable& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), b.end());
}

void FileTable::const_iterator::Settle() {
  const Base* base = table_->base_.get();
  const bool top_left = top_at_ != table_->top_.end();
  if (base != nullptr) {
    const std::vector<uint32_t>& order = base->Sorted();
    while (base_at_ < order.size() && table_->Removed(order[base_at_])) ++base_at_;
    if (base_at_ < order.size() &&
        (!top_left || base->Key(order[base_at_]) < std::string_view(top_at_->first))) {
      current_ = &base->Entry(order[base_at_]);
      return;
    }
  }
  current_ = top_left ? &*top_at_ : nullptr;
}

FileTable::const_iterator& FileTable::const_iterator::operator++() {
  if (current_ == nullptr) return *this;
  const Base* base = table_->base_.get();
  if (base_at_ == kUnknown) base_at_ = base ? base->LowerBound(current_->first) : 0;
  if (top_at_ != table_->top_.end() && current_ == &*top_at_) {
    ++top_at_;
  } else {
    ++base_at_;
  }
  Settle();
  return *this;
}

}  // namespace rlc::delta
