#include "impl/conflict/pending_transaction.h"

#include <simdjson.h>

#include "impl/delta/commit_parser.h"

namespace rlc::conflict {
namespace {

namespace od = simdjson::ondemand;

Status Expect(std::string_view field, std::string_view what) {
  return Status::InvalidArgument("pending transaction: field '" + std::string(field) +
                                 "': expected " + std::string(what));
}

Status ReadStrings(od::value v, std::string_view field, std::vector<std::string>* out) {
  od::array arr;
  if (v.get_array().get(arr)) return Expect(field, "an array of strings");
  for (auto element : arr) {
    std::string_view s;
    if (element.get_string().get(s)) return Expect(field, "an array of strings");
    out->emplace_back(s);
  }
  return Status::Ok();
}

Status ReadActions(od::value v, std::vector<delta::Action>* out) {
  od::array arr;
  if (v.get_array().get(arr)) return Expect("actions", "an array of Delta actions");
  size_t index = 0;
  for (auto element : arr) {
    od::object obj;
    std::string_view raw;
    if (element.get_object().get(obj) || obj.raw_json().get(raw)) {
      return Expect("actions[" + std::to_string(index) + "]", "an object");
    }
    Result<delta::Action> action = delta::ParseActionLine(raw);
    if (!action.ok())
      return action.status().WithContext("pending transaction: actions[" + std::to_string(index) +
                                         "]");
    out->push_back(std::move(action).value());
    ++index;
  }
  return Status::Ok();
}

Status ReadFlags(od::value v, Flags* flags) {
  od::object obj;
  if (v.get_object().get(obj)) return Expect("flags", "an object");
  for (auto entry : obj) {
    od::field f;
    std::string_view key;
    if (std::move(entry).get(f) || f.unescaped_key().get(key)) return Expect("flags", "an object");
    std::string name(key);
    od::value value = f.value();
    od::json_type type;
    if (value.type().get(type)) return Expect("flags." + name, "a value");
    std::string text;
    if (type == od::json_type::boolean) {
      bool b = false;
      if (value.get_bool().get(b)) return Expect("flags." + name, "a boolean");
      text = b ? "true" : "false";
    } else if (type == od::json_type::number) {
      int64_t n = 0;
      if (value.get_int64().get(n)) return Expect("flags." + name, "an integer");
      text = std::to_string(n);
    } else if (type == od::json_type::string) {
      std::string_view s;
      if (value.get_string().get(s)) return Expect("flags." + name, "a string");
      text = std::string(s);
    } else {
      return Expect("flags." + name, "a boolean, a number or a string");
    }
    RLC_RETURN_IF_ERROR(flags->Set(name, text).WithContext("pending transaction"));
  }
  return Status::Ok();
}

bool IsFileAction(const delta::Action& a) {
  return std::holds_alternative<delta::AddFile>(a) ||
         std::holds_alternative<delta::RemoveFile>(a) ||
         std::holds_alternative<delta::AddCdcFile>(a);
}

}  // namespace

bool PendingTransaction::IsBlindAppend() const {
  for (const delta::Action& a : actions) {
    if (IsFileAction(a) && !std::holds_alternative<delta::AddFile>(a)) return false;
  }
  return read_predicates.empty() && read_files.empty() && !read_whole_table;
}

bool PendingTransaction::IsMerge() const {
  for (const delta::Action& a : actions) {
    const auto* info = std::get_if<delta::CommitInfo>(&a);
    if (info != nullptr && info->operation == "MERGE") return true;
  }
  return false;
}

bool PendingTransaction::ChangesData() const {
  for (const delta::Action& a : actions) {
    if (const auto* add = std::get_if<delta::AddFile>(&a); add && add->data_change) return true;
    if (const auto* rm = std::get_if<delta::RemoveFile>(&a); rm && rm->data_change) return true;
    if (const auto* cdc = std::get_if<delta::AddCdcFile>(&a); cdc && cdc->data_change) return true;
  }
  return false;
}

bool PendingTransaction::ChangesMetadata() const {
  for (const delta::Action& a : actions) {
    if (std::holds_alternative<delta::Metadata>(a)) return true;
  }
  return false;
}

bool PendingTransaction::ChangesProtocol() const {
  for (const delta::Action& a : actions) {
    if (std::holds_alternative<delta::Protocol>(a)) return true;
  }
  return false;
}

Result<PendingTransaction> ParsePendingTransaction(std::string_view json) {
  simdjson::padded_string padded(json);
  thread_local od::parser parser;  // reused: a parser keeps its buffers between documents
  od::document doc;
  od::object obj;
  if (parser.iterate(padded).get(doc) || doc.get_object().get(obj)) {
    return Status::InvalidArgument("pending transaction: not a JSON object");
  }
  PendingTransaction txn;
  bool has_version = false, has_actions = false;
  for (auto entry : obj) {
    od::field f;
    std::string_view key_view;
    if (std::move(entry).get(f) || f.unescaped_key().get(key_view)) {
      return Status::InvalidArgument("pending transaction: malformed JSON");
    }
    const std::string key(key_view);
    od::value v = f.value();
    if (key == "readVersion") {
      if (v.get_int64().get(txn.read_version) || txn.read_version < 0) {
        return Expect(key, "a non-negative integer");
      }
      has_version = true;
    } else if (key == "readPredicates") {
      RLC_RETURN_IF_ERROR(ReadStrings(v, key, &txn.read_predicates));
    } else if (key == "readFiles") {
      RLC_RETURN_IF_ERROR(ReadStrings(v, key, &txn.read_files));
    } else if (key == "readAppIds") {
      RLC_RETURN_IF_ERROR(ReadStrings(v, key, &txn.read_app_ids));
    } else if (key == "writerFeatures") {
      RLC_RETURN_IF_ERROR(ReadStrings(v, key, &txn.writer_features));
    } else if (key == "readWholeTable") {
      if (v.get_bool().get(txn.read_whole_table)) return Expect(key, "true or false");
    } else if (key == "actions") {
      RLC_RETURN_IF_ERROR(ReadActions(v, &txn.actions));
      has_actions = true;
    } else if (key == "flags") {
      RLC_RETURN_IF_ERROR(ReadFlags(v, &txn.flags));
    } else {
      return Status::InvalidArgument("pending transaction: unknown field '" + key + "'");
    }
  }
  if (!has_version) return Expect("readVersion", "a required field");
  if (!has_actions) return Expect("actions", "a required field");
  return txn;
}

}  // namespace rlc::conflict
