// libFuzzer target: ParseCommit on commits large enough for its document stream (a commit of
// 64 KiB or more reads most lines through On Demand's stream, a line alone only where the
// stream cannot prove it reads that line's one document), against the line-by-line reading.
//
// The input is placed among valid lines: after ~66 KiB of them, so that its lines come from the
// stream, and before 2 KiB more. (Where a stream's batch ends, 1 MiB in, is left to the unit
// test DisturbancesWhereTheStreamsBatchEndsParseAsAlone: a megabyte per input is too slow here.)
//
// Checks: ParseCommit of the whole returns what parsing each non-empty line alone returns
// (ParseActionLine, split on '\n', one trailing '\r' dropped): the same actions in order, or the
// first failing line's error, named by the same line and byte.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

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

// The line-by-line reading of `bytes`, which start at line `first_line` and byte `first_byte` of
// the file: the actions of the non-empty lines, appended to `out`, or the first error in context.
rlc::Status LineByLine(std::string_view bytes, size_t first_line, size_t first_byte,
                       std::vector<Action>* out) {
  size_t pos = 0;
  for (size_t line = first_line; pos <= bytes.size(); ++line) {
    size_t end = bytes.find('\n', pos);
    if (end == std::string_view::npos) end = bytes.size();
    std::string_view text = bytes.substr(pos, end - pos);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (!text.empty()) {
      Result<Action> action = rlc::delta::ParseActionLine(text);
      if (!action.ok()) {
        return action.status().WithContext("fuzz.json (version 9) line " + std::to_string(line) +
                                           " at byte " + std::to_string(first_byte + pos));
      }
      out->push_back(*std::move(action));
    }
    pos = end + 1;
  }
  return rlc::Status::Ok();
}

// Valid lines and their actions, read once.
struct Lines {
  explicit Lines(std::string text) : text(std::move(text)) {
    FUZZ_CHECK(LineByLine(this->text, 1, 0, &actions).ok());
  }
  std::string text;
  std::vector<Action> actions;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Lines kBefore(ValidLines(size_t{66} << 10, 0));
  static const Lines kAfter(ValidLines(size_t{2} << 10, 1 << 20));
  static const size_t kBeforeLines =
      static_cast<size_t>(std::count(kBefore.text.begin(), kBefore.text.end(), '\n'));
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string commit = kBefore.text + input + "\n" + kAfter.text;

  std::vector<Action> expected = kBefore.actions;
  const rlc::Status expected_status =
      LineByLine(input + "\n", kBeforeLines + 1, kBefore.text.size(), &expected);
  expected.insert(expected.end(), kAfter.actions.begin(), kAfter.actions.end());
  const Result<Commit> actual = rlc::delta::ParseCommit(commit, 9, "fuzz.json");
  if (actual.ok() != expected_status.ok() ||
      (!actual.ok() && actual.status().ToString() != expected_status.ToString())) {
    std::fprintf(stderr, "ParseCommit: %s\nline by line: %s\n", actual.status().ToString().c_str(),
                 expected_status.ToString().c_str());
  }
  FUZZ_CHECK(actual.ok() == expected_status.ok());
  if (!actual.ok()) {
    FUZZ_CHECK(actual.status().ToString() == expected_status.ToString());
    return 0;
  }
  FUZZ_CHECK(actual->actions == expected);
  return 0;
}
