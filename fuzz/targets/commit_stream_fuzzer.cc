// libFuzzer target: ParseCommit on commits large enough for its document stream (a commit of
// 64 KiB or more reads most lines through On Demand's stream, a line alone only where the
// stream cannot prove it reads that line's one document), against the line-by-line reading.
//
// The input is placed among valid lines: after ~66 KiB of them (so its lines come from the
// stream) when its first byte is even, else so that it starts about where the stream's first
// batch ends (1 MiB in: the batch's last document is judged apart), and before 2 KiB more.
//
// Checks: ParseCommit of the whole returns what parsing each non-empty line alone returns
// (ParseActionLine, split on '\n', one trailing '\r' dropped): the same actions in order, or the
// first failing line's error, named by the same line and byte.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz/targets/fuzz_check.h"
#include "impl/delta/actions.h"
#include "impl/delta/commit_parser.h"

namespace {

using rlc::Result;
using rlc::delta::Action;
using rlc::delta::Commit;

// Valid lines (adds with statistics and a DV, removes, txns) of at least `bytes` bytes.
std::string ValidLines(size_t bytes, int first) {
  std::string out;
  for (int i = first; out.size() < bytes; ++i) {
    const std::string n = std::to_string(i);
    if (i % 3 == 0) {
      out +=
          R"({"remove":{"path":"part-)" + n + R"(.parquet","dataChange":true,"size":)" + n + "}}\n";
    } else if (i % 3 == 1) {
      out += R"({"txn":{"appId":"app-)" + n + R"(","version":)" + n + "}}\n";
    } else {
      out += R"({"add":{"path":"part-)" + n +
             R"(.parquet","partitionValues":{"p":"a"},"size":1,"modificationTime":2,)"
             R"("dataChange":true,"stats":"{\"numRecords\":)" +
             n +
             R"(}","deletionVector":{"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^",)"
             R"("offset":1,"sizeInBytes":36,"cardinality":2}}})"
             "\n";
    }
  }
  return out;
}

// The line-by-line reading: the actions of the non-empty lines, or the first error in context.
Result<Commit> LineByLine(std::string_view bytes) {
  Commit commit;
  commit.version = 9;
  size_t pos = 0;
  for (size_t line = 1; pos <= bytes.size(); ++line) {
    size_t end = bytes.find('\n', pos);
    if (end == std::string_view::npos) end = bytes.size();
    std::string_view text = bytes.substr(pos, end - pos);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (!text.empty()) {
      Result<Action> action = rlc::delta::ParseActionLine(text);
      if (!action.ok()) {
        return action.status().WithContext("fuzz.json (version 9) line " + std::to_string(line) +
                                           " at byte " + std::to_string(pos));
      }
      commit.actions.push_back(*std::move(action));
    }
    pos = end + 1;
  }
  return commit;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string kNearStart = ValidLines(size_t{66} << 10, 0);
  static const std::string kNearBatchEnd = ValidLines((size_t{1} << 20) - 200, 0);
  static const std::string kAfter = ValidLines(size_t{2} << 10, 1 << 20);
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const bool near_batch_end = size > 0 && (data[0] & 1) != 0;
  const std::string commit =
      (near_batch_end ? kNearBatchEnd : kNearStart) + std::string(input) + "\n" + kAfter;
  const Result<Commit> expected = LineByLine(commit);
  const Result<Commit> actual = rlc::delta::ParseCommit(commit, 9, "fuzz.json");
  if (actual.ok() != expected.ok() ||
      (!actual.ok() && actual.status().ToString() != expected.status().ToString())) {
    std::fprintf(stderr, "ParseCommit: %s\nline by line: %s\n", actual.status().ToString().c_str(),
                 expected.status().ToString().c_str());
  }
  FUZZ_CHECK(actual.ok() == expected.ok());
  if (!actual.ok()) {
    FUZZ_CHECK(actual.status().ToString() == expected.status().ToString());
    return 0;
  }
  FUZZ_CHECK(actual->actions == expected->actions);
  return 0;
}
