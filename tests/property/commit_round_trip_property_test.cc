// Writing an action and parsing it back gives the same action, for arbitrary field contents
// (escapes, control characters, non-ASCII text, unknown fields, nulls).
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "impl/delta/commit_parser.h"
#include "impl/delta/commit_writer.h"
#include "impl/delta/composition_tags.h"
#include "impl/dv/z85.h"

namespace {

using namespace rlc::delta;

// rapidcheck's maybe() yields rc::Maybe; the actions use std::optional.
template <typename T>
rc::Gen<std::optional<T>> Opt(rc::Gen<T> gen) {
  return rc::gen::oneOf(rc::gen::just(std::optional<T>()), rc::gen::map(std::move(gen), [](T v) {
                          return std::optional<T>(std::move(v));
                        }));
}

rc::Gen<std::string> GenText() {
  // Delta logs are UTF-8 JSON: arbitrary ASCII (control characters included) plus fixed
  // multi-byte samples; invalid UTF-8 is rejected by the parser, as it must be.
  return rc::gen::oneOf(rc::gen::container<std::string>(rc::gen::inRange<char>(0, 127)),
                        rc::gen::element<std::string>("", "a\"b", "back\\slash", "tab\tnew\nline",
                                                      "caf\xC3\xA9", "\x01\x1F", "%20%25", "{}[]"));
}

rc::Gen<std::optional<std::string>> GenOptText() { return Opt(GenText()); }

rc::Gen<StringMap> GenMap() {
  return rc::gen::map(
      rc::gen::resize(
          4, rc::gen::container<std::vector<std::pair<std::string, std::optional<std::string>>>>(
                 rc::gen::pair(GenText(), GenOptText()))),
      [](std::vector<std::pair<std::string, std::optional<std::string>>> v) {
        // JSON object keys must be unique for a round trip to be defined.
        StringMap out;
        for (auto& [k, val] : v) {
          bool seen = false;
          for (auto& [k2, _] : out) seen = seen || k2 == k;
          if (!seen) out.emplace_back(k, val);
        }
        return out;
      });
}

rc::Gen<std::optional<rlc::dv::DvDescriptor>> GenDescriptor() {
  return Opt(rc::gen::map(
      rc::gen::tuple(rc::gen::element('u', 'i', 'p'), rc::gen::inRange<int32_t>(1, 1 << 20),
                     rc::gen::inRange<int32_t>(0, 1 << 20),
                     rc::gen::inRange<int64_t>(0, int64_t{1} << 40)),
      [](const std::tuple<char, int32_t, int32_t, int64_t>& t) {
        auto [type, offset, size, cardinality] = t;
        rlc::dv::DvDescriptor d;
        d.storage_type = type;
        d.size_bytes = size;
        d.cardinality = cardinality;
        if (type == 'u') {
          d.path_or_inline_dv = "ab" + rlc::dv::Z85Encode(std::string(16, char(offset & 0x7F)));
          d.offset = offset;
        } else if (type == 'i') {
          d.path_or_inline_dv = rlc::dv::Z85Encode(std::string(size_t(size % 64), 'x'));
        } else {
          d.path_or_inline_dv = "file:/tmp/dv%20" + std::to_string(offset) + ".bin";
          d.offset = offset;
        }
        return d;
      }));
}

rc::Gen<std::vector<UnknownField>> GenUnknown() {
  return rc::gen::map(rc::gen::inRange(0, 3), [](int n) {
    std::vector<UnknownField> fields;
    const char* raws[] = {"{\"x\":[1,2,{\"y\":null}]}", "-17", "\"text\"", "true", "[]", "1.5e3"};
    for (int i = 0; i < n; ++i)
      fields.push_back({"futureField" + std::to_string(i), raws[(i * 7 + n) % 6]});
    return fields;
  });
}

RC_GTEST_PROP(CommitRoundTrip, AddFileSurvivesWriteAndParse, ()) {
  AddFile a;
  a.path = *GenText();
  a.partition_values = *GenMap();
  a.size_bytes = *rc::gen::arbitrary<int64_t>();
  a.modification_time_ms = *rc::gen::arbitrary<int64_t>();
  a.data_change = *rc::gen::arbitrary<bool>();
  a.stats = *GenOptText();
  a.tags = *Opt(GenMap());
  a.deletion_vector = *GenDescriptor();
  a.base_row_id = *Opt(rc::gen::arbitrary<int64_t>());
  a.default_row_commit_version = *Opt(rc::gen::arbitrary<int64_t>());
  a.clustering_provider = *GenOptText();
  a.unknown_fields = *GenUnknown();
  const std::string line = WriteActionLine(a);
  auto parsed = ParseActionLine(line);
  if (!parsed.ok()) RC_FAIL(parsed.status().ToString());
  RC_ASSERT(std::get<AddFile>(*parsed) == a);
}

RC_GTEST_PROP(CommitRoundTrip, RemoveFileWithCompositionTagsSurvives, ()) {
  RemoveFile r;
  r.path = *GenText();
  r.deletion_timestamp_ms = *Opt(rc::gen::arbitrary<int64_t>());
  r.data_change = *rc::gen::arbitrary<bool>();
  r.extended_file_metadata = *Opt(rc::gen::arbitrary<bool>());
  r.partition_values = *Opt(GenMap());
  r.size_bytes = *Opt(rc::gen::arbitrary<int64_t>());
  r.stats = *GenOptText();
  r.deletion_vector = *GenDescriptor();
  r.unknown_fields = *GenUnknown();
  CompositionTag tag{*GenText(), *rc::gen::inRange<int64_t>(0, int64_t{1} << 40),
                     *rc::gen::inRange<int64_t>(0, int64_t{1} << 40)};
  StringMap tags = *GenMap();
  WriteCompositionTags(tag, &tags);
  r.tags = tags;
  auto parsed = ParseActionLine(WriteActionLine(r));
  if (!parsed.ok()) RC_FAIL(parsed.status().ToString());
  const RemoveFile& back = std::get<RemoveFile>(*parsed);
  RC_ASSERT(back == r);
  RC_ASSERT(ParseCompositionTags(*back.tags) == std::optional<CompositionTag>(tag));
}

RC_GTEST_PROP(CommitRoundTrip, CommitFileKeepsOrderAndUnknownActions, ()) {
  std::vector<Action> actions;
  const int n = *rc::gen::inRange(1, 6);
  for (int i = 0; i < n; ++i) {
    switch (*rc::gen::inRange(0, 4)) {
      case 0: {
        CommitInfo c;
        c.operation = *GenOptText();
        c.read_version = *Opt(rc::gen::inRange<int64_t>(0, 1000));
        c.is_blind_append = *Opt(rc::gen::arbitrary<bool>());
        c.unknown_fields = *GenUnknown();
        actions.push_back(c);
        break;
      }
      case 1: {
        Txn t;
        t.app_id = *GenText();
        t.version = *rc::gen::arbitrary<int64_t>();
        actions.push_back(t);
        break;
      }
      case 2:
        actions.push_back(UnknownAction{"sidecar", "{\"sidecar\":{\"path\":\"x\",\"n\":[1, 2]}}"});
        break;
      default: {
        DomainMetadata d;
        d.domain = *GenText();
        d.configuration = *GenText();
        d.removed = *rc::gen::arbitrary<bool>();
        actions.push_back(d);
      }
    }
  }
  auto commit = ParseCommit(WriteCommitFile(actions), 7, "generated.json");
  if (!commit.ok()) RC_FAIL(commit.status().ToString());
  RC_ASSERT(commit->actions == actions);
}

}  // namespace
