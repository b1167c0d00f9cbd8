#include "cli/sample_table.h"

#include "impl/delta/actions.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/file_key.h"
#include "impl/delta/log.h"
#include "impl/dv/bitmap_codec.h"
#include "impl/dv/descriptor.h"
#include "impl/dv/dv_file.h"
#include "impl/dv/z85.h"

namespace rlc::cli {
namespace {

using delta::Action;

constexpr int64_t kTimestamp = 1764374400000;  // 2025-11-29, fixed so the table is reproducible

delta::AddFile MakeAdd(const std::string& region, const std::string& name, int64_t rows,
                       int64_t first_id) {
  delta::AddFile add;
  add.path = "region=" + region + "/" + name;
  add.partition_values = {{"region", region}};
  add.size_bytes = 64 + rows * 8;
  add.modification_time_ms = kTimestamp;
  add.data_change = true;
  add.stats = "{\"numRecords\":" + std::to_string(rows) +
              ",\"minValues\":{\"id\":" + std::to_string(first_id) +
              "},\"maxValues\":{\"id\":" + std::to_string(first_id + rows - 1) +
              "},\"nullCount\":{\"id\":0},\"tightBounds\":true}";
  return add;
}

delta::RemoveFile RemoveOf(const delta::AddFile& add) {
  return delta::RemoveFrom(add, kTimestamp, true);
}

delta::CommitInfo Info(const std::string& operation, int64_t read_version, bool blind) {
  delta::CommitInfo info;
  info.timestamp_ms = kTimestamp;
  info.operation = operation;
  if (read_version >= 0) info.read_version = read_version;
  info.isolation_level = "Serializable";
  info.is_blind_append = blind;
  return info;
}

// Writes `bitmaps` into one new DV file and returns their 'u' descriptors.
Result<std::vector<dv::DvDescriptor>> WriteDvFile(storage::Storage& storage,
                                                  const std::string& root,
                                                  const std::string& prefix,
                                                  const std::string& uuid,
                                                  std::vector<dv::RowBitmap> bitmaps) {
  std::vector<std::string> payloads;
  for (dv::RowBitmap& b : bitmaps) {
    b.RunOptimize();
    payloads.push_back(dv::EncodeBitmap(b));
  }
  std::vector<uint32_t> offsets;
  std::string file = dv::EncodeDvFile(payloads, &offsets);
  RLC_ASSIGN_OR_RETURN(std::string path_or_inline, dv::UuidPathOrInlineDv(prefix, uuid));
  std::vector<dv::DvDescriptor> descriptors;
  for (size_t i = 0; i < bitmaps.size(); ++i) {
    dv::DvDescriptor d;
    d.storage_type = 'u';
    d.path_or_inline_dv = path_or_inline;
    d.offset = int32_t(offsets[i]);
    d.size_bytes = int32_t(payloads[i].size());
    d.cardinality = int64_t(bitmaps[i].Cardinality());
    descriptors.push_back(d);
  }
  RLC_ASSIGN_OR_RETURN(std::string file_path, dv::ResolveDvFilePath(descriptors[0], root));
  RLC_RETURN_IF_ERROR(storage.PutIfAbsent(file_path, file));
  return descriptors;
}

dv::DvDescriptor InlineDv(const dv::RowBitmap& bitmap) { return dv::InlineDescriptor(bitmap); }

Status Commit(storage::Storage& storage, const std::string& root, int64_t version,
              const std::vector<Action>& actions) {
  return storage.PutIfAbsent(delta::LogDir(root) + "/" + delta::CommitFileName(version),
                             delta::WriteCommitFile(actions));
}

}  // namespace

int64_t ExpectedVersion::LiveRows() const {
  int64_t live = 0;
  for (const auto& [path, f] : files) live += f.num_records - int64_t(f.deleted.Cardinality());
  return live;
}

namespace {

// The sample's first three data files.
struct SampleFiles {
  delta::AddFile eu0 = MakeAdd("eu", "part-00000.bin", 100, 0);
  delta::AddFile us1 = MakeAdd("us", "part-00001.bin", 5000, 100);
  delta::AddFile us2 = MakeAdd("us", "part-00002.bin", 200000, 5100);
};

// What each version holds, as the writer knows it: appended as the versions are written.
struct Expected {
  std::vector<ExpectedVersion> versions;
  ExpectedVersion state;
  void Record(int64_t version) {
    state.version = version;
    versions.push_back(state);
  }
};

Status WriteVersion0(storage::Storage& storage, const std::string& root, const SampleFiles& f,
                     Expected& e) {
  const delta::AddFile &eu0 = f.eu0, &us1 = f.us1, &us2 = f.us2;
  ExpectedVersion& state = e.state;
  // v0: create the table with three files.
  delta::Protocol protocol;
  protocol.min_reader_version = 3;
  protocol.min_writer_version = 7;
  protocol.reader_features = std::vector<std::string>{"deletionVectors"};
  protocol.writer_features = std::vector<std::string>{"deletionVectors"};
  delta::Metadata metadata;
  metadata.id = "5a3c1e0b-7a51-4c4e-9a55-0d8a7b7c2f10";
  metadata.schema_string =
      "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,"
      "\"metadata\":{}},"
      "{\"name\":\"region\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}";
  metadata.partition_columns = {"region"};
  metadata.configuration = {{"delta.enableDeletionVectors", "true"}};
  metadata.created_time_ms = kTimestamp;
  RLC_RETURN_IF_ERROR(
      Commit(storage, root, 0, {Info("WRITE", -1, true), protocol, metadata, eu0, us1, us2}));
  state.files[eu0.path] = {100, {}};
  state.files[us1.path] = {5000, {}};
  state.files[us2.path] = {200000, {}};
  e.Record(0);

  return Status::Ok();
}

// v1 and v2: DVs in files of their own, one of them holding two.
Status WriteDvVersions(storage::Storage& storage, const std::string& root, const SampleFiles& f,
                       Expected& e) {
  const delta::AddFile &eu0 = f.eu0, &us2 = f.us2;
  ExpectedVersion& state = e.state;
  // v1: DELETE three rows of eu0; a prefixed UUID DV; the new add before the old remove, as
  // OSS Delta writes it.
  dv::RowBitmap eu0_v1{3, 17, 42};
  RLC_ASSIGN_OR_RETURN(
      auto d1, WriteDvFile(storage, root, "ab", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", {eu0_v1}));
  delta::AddFile eu0_with_dv = eu0;
  eu0_with_dv.deletion_vector = d1[0];
  RLC_RETURN_IF_ERROR(
      Commit(storage, root, 1, {Info("DELETE", 0, false), eu0_with_dv, RemoveOf(eu0)}));
  state.files[eu0.path].deleted = eu0_v1;
  e.Record(1);

  // v2: DELETE more of eu0 and a run plus a dense stripe of us2: two DVs in one file.
  dv::RowBitmap eu0_v2 = eu0_v1;
  eu0_v2.AddRange(50, 60);
  dv::RowBitmap us2_v2;
  us2_v2.AddRange(1000, 70000);                                 // run containers across two keys
  for (uint64_t r = 100000; r < 140000; r += 3) us2_v2.Add(r);  // a bitset container
  us2_v2.Add(199999);
  RLC_ASSIGN_OR_RETURN(
      auto d2,
      WriteDvFile(storage, root, "", "9c8b7a69-5847-4635-a241-302f1e0d9c8b", {eu0_v2, us2_v2}));
  delta::AddFile eu0_v2_add = eu0;
  eu0_v2_add.deletion_vector = d2[0];
  delta::AddFile us2_v2_add = us2;
  us2_v2_add.deletion_vector = d2[1];
  RLC_RETURN_IF_ERROR(Commit(
      storage, root, 2,
      {Info("DELETE", 1, false), eu0_v2_add, RemoveOf(eu0_with_dv), us2_v2_add, RemoveOf(us2)}));
  state.files[eu0.path].deleted = eu0_v2;
  state.files[us2.path].deleted = us2_v2;
  e.Record(2);

  return Status::Ok();
}

// v3 to v5: an inline DV, a whole file deleted, a blind append.
Status WriteLaterVersions(storage::Storage& storage, const std::string& root, const SampleFiles& f,
                          Expected& e) {
  const delta::AddFile& us1 = f.us1;
  ExpectedVersion& state = e.state;
  // v3: DELETE the first and last rows of us1, with an inline DV.
  dv::RowBitmap us1_v3{0, 4999};
  delta::AddFile us1_v3_add = us1;
  us1_v3_add.deletion_vector = InlineDv(us1_v3);
  RLC_RETURN_IF_ERROR(
      Commit(storage, root, 3, {Info("DELETE", 2, false), RemoveOf(us1), us1_v3_add}));
  state.files[us1.path].deleted = us1_v3;
  e.Record(3);

  // v4: DELETE every row of us1: the whole file goes.
  RLC_RETURN_IF_ERROR(Commit(storage, root, 4, {Info("DELETE", 3, false), RemoveOf(us1_v3_add)}));
  state.files.erase(us1.path);
  e.Record(4);

  // v5: a blind append.
  delta::AddFile eu3 = MakeAdd("eu", "part-00003.bin", 10, 300000);
  RLC_RETURN_IF_ERROR(Commit(storage, root, 5, {Info("WRITE", 4, true), eu3}));
  state.files[eu3.path] = {10, {}};
  e.Record(5);
  return Status::Ok();
}

}  // namespace

Result<std::vector<ExpectedVersion>> WriteSampleTable(storage::Storage& storage,
                                                      const std::string& root) {
  const SampleFiles files;
  Expected e;
  RLC_RETURN_IF_ERROR(WriteVersion0(storage, root, files, e));
  RLC_RETURN_IF_ERROR(WriteDvVersions(storage, root, files, e));
  RLC_RETURN_IF_ERROR(WriteLaterVersions(storage, root, files, e));
  return e.versions;
}

}  // namespace rlc::cli
