#include "impl/delta/raw_json.h"

namespace rlc::delta {

bool RawJsonValue(simdjson::ondemand::value& v, std::string* out) {
  namespace od = simdjson::ondemand;
  od::json_type type;
  if (v.type().get(type) != simdjson::SUCCESS) return false;
  std::string_view raw;
  simdjson::error_code error = simdjson::SUCCESS;
  if (type == od::json_type::object) {
    od::object obj;
    error = v.get_object().get(obj);
    if (!error) error = obj.raw_json().get(raw);
  } else if (type == od::json_type::array) {
    od::array arr;
    error = v.get_array().get(arr);
    if (!error) error = arr.raw_json().get(raw);
  } else {
    raw = WithoutTrailingWhitespace(v.raw_json_token());
  }
  if (error) return false;
  if (type == od::json_type::object || type == od::json_type::array) {
    thread_local simdjson::dom::parser validator;
    simdjson::dom::element ignored;
    if (validator.parse(raw.data(), raw.size()).get(ignored)) return false;
  }
  out->assign(raw);
  return true;
}

std::string_view WithoutTrailingWhitespace(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                           text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace rlc::delta
