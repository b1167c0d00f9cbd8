// AddColumns: a batch of add actions as columns, the way a checkpoint's reader decodes them.
//
// Concern: a checkpoint holds millions of adds (docs/formats.md#checkpoints); building an AddFile
// for each one as it is read was most of a replay's time. A reader that decodes a checkpoint
// column by column hands its adds over as these plain views of its memory instead, and the
// snapshot's file table (file_table.h) keeps them as they are, building an AddFile only for a
// file someone asks about.
//
// Layout: Arrow's columnar memory layout, without Arrow's types (so that nothing above
// impl/parquet includes Arrow): a validity bitmap holds bit i (least significant bit first) of
// byte i / 8 for row i, 1 for a value and 0 for NULL, and no bitmap means no NULL; strings are
// int32 offsets into one byte buffer (row i spans [offsets[i], offsets[i + 1])); a map is int32
// offsets into its key and value columns. Every index is shifted by the column's `offset` (a
// slice of a larger array), as Arrow shifts it. A column whose pointers are null is absent from
// the file (as an optional field may be).
//
// Trust: the views are as good as the reader that made them; the reader vouches that every
// pointer covers `length` rows (offsets: length + 1) and every string offset lies within its
// buffer. What the rows say is not trusted: NULLs where the protocol requires a value, and DVs
// that do not validate, are the file table's to find (it then asks `slow_row` for the row's
// action through the general parse, which gives the same add or the same error as that action
// written as a JSON line would).
//
// Thread-safety: plain views; `owner` keeps the memory alive and is shared, never written.
#ifndef RLC_IMPL_DELTA_ADD_COLUMNS_H_
#define RLC_IMPL_DELTA_ADD_COLUMNS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "impl/base/status.h"
#include "impl/delta/actions.h"

namespace rlc::delta {

// A validity bitmap (or a boolean column's values): bit `offset + i` answers row i.
struct ColumnBits {
  const uint8_t* bits = nullptr;  // nullptr: every bit set
  int64_t offset = 0;

  bool Get(int64_t row) const {
    if (bits == nullptr) return true;
    const int64_t i = row + offset;
    return ((bits[i >> 3] >> (i & 7)) & 1) != 0;
  }
};

struct StringColumn {
  ColumnBits validity;
  const int32_t* offsets = nullptr;  // nullptr: the column is absent
  const char* data = nullptr;
  int64_t offset = 0;

  bool present() const { return offsets != nullptr; }
  bool IsNull(int64_t row) const { return !present() || !validity.Get(row); }
  std::string_view At(int64_t row) const {
    const int32_t begin = offsets[row + offset], end = offsets[row + offset + 1];
    return {data + begin, static_cast<size_t>(end - begin)};
  }
};

template <typename T>
struct ValueColumn {
  ColumnBits validity;
  const T* values = nullptr;  // nullptr: the column is absent
  int64_t offset = 0;

  bool present() const { return values != nullptr; }
  bool IsNull(int64_t row) const { return !present() || !validity.Get(row); }
  T At(int64_t row) const { return values[row + offset]; }
};

struct BoolColumn {
  ColumnBits validity;
  ColumnBits values;
  bool present = false;

  bool IsNull(int64_t row) const { return !present || !validity.Get(row); }
  bool At(int64_t row) const { return values.Get(row); }
};

// A map<string, string> column: row i's entries are keys/items [offsets[i], offsets[i + 1]).
struct StringMapColumn {
  ColumnBits validity;
  const int32_t* offsets = nullptr;  // nullptr: the column is absent
  int64_t offset = 0;
  StringColumn keys, items;

  bool present() const { return offsets != nullptr; }
  bool IsNull(int64_t row) const { return !present() || !validity.Get(row); }
  StringMap At(int64_t row) const;
};

// The deletionVector struct, field by field (maxRowIndex is not kept in checkpoints).
struct DvColumns {
  ColumnBits validity;
  bool present = false;
  StringColumn storage_type, path_or_inline_dv;
  ValueColumn<int32_t> offset, size_in_bytes;
  ValueColumn<int64_t> cardinality;

  bool IsNull(int64_t row) const { return !present || !validity.Get(row); }
};

struct AddColumns {
  int64_t length = 0;
  ColumnBits add;         // the add struct's own validity: a row without an add holds none
  std::string source;     // the file the batch is from, for messages
  int64_t first_row = 0;  // the batch's first row in that file, for messages
  StringColumn path;
  StringMapColumn partition_values;
  ValueColumn<int64_t> size, modification_time;
  BoolColumn data_change;
  StringColumn stats, clustering_provider;
  StringMapColumn tags;
  DvColumns deletion_vector;
  ValueColumn<int64_t> base_row_id, default_row_commit_version;
  std::shared_ptr<const void> owner;
  // Row `row`'s add through the general parse (its JSON line), errors naming the file and row.
  std::function<Result<Action>(int64_t row)> slow_row;
};

// Whether row `row` holds an add the columns give whole: every required field set and the DV, if
// any, complete and valid, each map giving each key once. Such a row's AddFile is exactly what the
// general parse would make.
bool IsDirectAdd(const AddColumns& columns, int64_t row);

// The AddFile of a direct row.
// REQUIRES: IsDirectAdd(columns, row).
AddFile AddAt(const AddColumns& columns, int64_t row);

}  // namespace rlc::delta

#endif  // RLC_IMPL_DELTA_ADD_COLUMNS_H_
