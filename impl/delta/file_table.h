// FileTable: a snapshot's active files, by decoded path: the map a log replay builds.
//
// Concern: holding a million files cheaply. A table read from a checkpoint keeps the checkpoint's
// adds as the reader decoded them (add_columns.h), shared and never copied, with an index from
// each decoded path to its row; an AddFile is built the first time someone asks for that file,
// and kept. What the commits after the checkpoint change sits on top: the files they add (or that
// a caller puts) in an ordered map, and the checkpoint's files they remove as marks. A table
// replayed from JSON alone has no base and is exactly that ordered map.
//
// The interface is the part of std::map<std::string, AddFile> the project uses, with the same
// meaning: keys are decoded paths, iteration is in key order (a table with a base sorts the
// base's keys the first time it is iterated in order), find/count/at look one key up, and
// emplace, insert_or_assign, operator[] and erase change the top. Elements are
// std::pair<const std::string, AddFile>, stable in memory while the table lives and the key is
// not erased. Iterators are invalidated by any change to the table (unlike std::map's).
//
// Invariants:
//   1. A key is at most once: in the top map or as an unremoved base row, never both.
//   2. Every base row holds a direct add (add_columns.h: IsDirectAdd), so its AddFile is the one
//      the general parse would make, with its DV validated.
//
// Thread-safety: a const FileTable may be read from several threads (the lazily built AddFiles
// and the base's key order are built once, safely); copies share the base, so copying is cheap.
#ifndef RLC_IMPL_DELTA_FILE_TABLE_H_
#define RLC_IMPL_DELTA_FILE_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "impl/base/status.h"
#include "impl/delta/actions.h"
#include "impl/delta/add_columns.h"

namespace rlc::delta {

class FileTable {
 public:
  using key_type = std::string;
  using mapped_type = AddFile;
  using value_type = std::pair<const std::string, AddFile>;
  class const_iterator;
  using iterator = const_iterator;

  FileTable();
  FileTable(const FileTable&);
  FileTable(FileTable&&) noexcept;
  FileTable& operator=(const FileTable&);
  FileTable& operator=(FileTable&&) noexcept;
  ~FileTable();

  // The table of the batches' adds and of `loose` (decoded path -> add: adds the batches could
  // not give, or that came from elsewhere in the same checkpoint). A batch row without a direct
  // add goes through its slow_row, whose error is returned. kCorrupt, naming the batch's source
  // and the path, when one decoded path is added twice.
  static Result<FileTable> FromColumns(std::vector<AddColumns> batches,
                                       std::map<std::string, AddFile> loose);

  size_t size() const;
  bool empty() const { return size() == 0; }

  const_iterator begin() const;
  const_iterator end() const;
  const_iterator find(std::string_view decoded_path) const;
  size_t count(std::string_view decoded_path) const { return Lookup(decoded_path) ? 1 : 0; }
  bool contains(std::string_view decoded_path) const { return Lookup(decoded_path) != nullptr; }
  // REQUIRES: the key is there.
  const AddFile& at(std::string_view decoded_path) const;

  // Inserts when the key is not there; {the key's element, whether inserted}. The arguments are
  // references, taken in order, so that `emplace(add.path, std::move(add))` keys by the path
  // before the add is moved (a by-value key could be built after the move, from an empty path).
  std::pair<const_iterator, bool> emplace(std::string_view decoded_path, AddFile&& add);
  std::pair<const_iterator, bool> emplace(std::string_view decoded_path, const AddFile& add);
  void insert_or_assign(std::string_view decoded_path, AddFile&& add);
  void insert_or_assign(std::string_view decoded_path, const AddFile& add);
  // The key's add, inserted empty when not there.
  AddFile& operator[](const std::string& decoded_path);
  size_t erase(std::string_view decoded_path);
  void erase(const_iterator it);

  // The same keys with equal adds.
  friend bool operator==(const FileTable& a, const FileTable& b);

 private:
  struct Base;
  using Top = std::map<std::string, AddFile, std::less<>>;

  // The key's element, or nullptr.
  const value_type* Lookup(std::string_view decoded_path) const;
  // The unremoved base row of the key, or -1.
  int64_t LiveBaseRow(std::string_view decoded_path) const;
  bool Removed(uint32_t row) const;
  void Remove(uint32_t row);

  std::shared_ptr<const Base> base_;  // nullptr: no base
  std::vector<uint64_t> removed_;     // a bit per base row removed; empty until the first
  size_t removed_count_ = 0;
  Top top_;

  friend class const_iterator;
};

// Iterates the keys in order: the base's sorted unremoved rows and the top map, merged.
class FileTable::const_iterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = FileTable::value_type;
  using difference_type = std::ptrdiff_t;
  using pointer = const value_type*;
  using reference = const value_type&;

  const_iterator() = default;
  reference operator*() const { return *current_; }
  pointer operator->() const { return current_; }
  const_iterator& operator++();
  const_iterator operator++(int) {
    const_iterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const const_iterator& a, const const_iterator& b) {
    return a.current_ == b.current_;
  }

 private:
  friend class FileTable;
  static constexpr size_t kUnknown = static_cast<size_t>(-1);

  // Skips removed base rows, then points at the smaller of the two heads (nullptr: none left).
  void Settle();

  const FileTable* table_ = nullptr;
  size_t base_at_ = kUnknown;  // position in the base's key order; kUnknown: found by key
  Top::const_iterator top_at_;
  const value_type* current_ = nullptr;  // nullptr: end
};

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_FILE_TABLE_H_
