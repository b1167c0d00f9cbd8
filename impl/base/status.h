// Status and Result<T>: how impl/ reports expected failures.
//
// Concern: a failure that bad input, a missing file or an exceeded limit can cause is a value,
// never an exception and never a crash. A reconcile *abort* is not a Status: it is a verdict.
//
// Thread-safety: plain values; safe to copy across threads.
//
// Invariants:
//   1. Status::ok() iff code() == StatusCode::kOk, and then message() is empty.
//   2. A failed Status's message names where the failure is: a file, a version, a byte offset or a
//      field. Callers that add context prepend it with Status::WithContext.
//   3. Result<T> holds exactly one of a T or a failed Status.
#ifndef RLC_IMPL_BASE_STATUS_H_
#define RLC_IMPL_BASE_STATUS_H_

#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "impl/base/assert.h"

namespace rlc {

enum class StatusCode {
  kOk = 0,
  kCorrupt,          // bytes that break the Delta protocol or a format rule
  kUnsupported,      // well-formed input that rlc does not handle (e.g. a Parquet checkpoint)
  kInvalidArgument,  // a caller passed something that cannot be right
  kNotFound,         // a file or a version that does not exist
  kIoError,          // the operating system failed a read or a write
  kOverLimit,        // a bound from impl/base/limits.h was exceeded
  kAlreadyExists,    // a put-if-absent target exists already
};

// "Corrupt", "Unsupported", ...: the code's name as printed in messages and JSON.
std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {
    RLC_ASSERT(code != StatusCode::kOk);
  }

  static Status Ok() { return Status(); }
  static Status Corrupt(std::string m) { return {StatusCode::kCorrupt, std::move(m)}; }
  static Status Unsupported(std::string m) { return {StatusCode::kUnsupported, std::move(m)}; }
  static Status InvalidArgument(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status IoError(std::string m) { return {StatusCode::kIoError, std::move(m)}; }
  static Status OverLimit(std::string m) { return {StatusCode::kOverLimit, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "<context>: <message>", same code. An OK status stays OK.
  Status WithContext(std::string_view context) const;

  // "Corrupt: <message>", or "OK".
  std::string ToString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : state_(std::move(status)) {  // NOLINT: implicit by design
    RLC_ASSERT(!std::get<Status>(state_).ok());
  }

  bool ok() const { return std::holds_alternative<T>(state_); }

  // REQUIRES: ok()
  T& value() & {
    RLC_ASSERT(ok());
    return std::get<T>(state_);
  }
  const T& value() const& {
    RLC_ASSERT(ok());
    return std::get<T>(state_);
  }
  T&& value() && {
    RLC_ASSERT(ok());
    return std::get<T>(std::move(state_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  // OK when a value is held.
  Status status() const { return ok() ? Status() : std::get<Status>(state_); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace rlc

// Propagates a failed Status (or the Status of a failed Result) to the caller.
#define RLC_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::rlc::Status rlc_status_ = (expr);        \
    if (!rlc_status_.ok()) return rlc_status_; \
  } while (0)

#define RLC_CONCAT_INNER_(a, b) a##b
#define RLC_CONCAT_(a, b) RLC_CONCAT_INNER_(a, b)

// RLC_ASSIGN_OR_RETURN(auto x, MaybeX()); binds the value or returns the failure.
#define RLC_ASSIGN_OR_RETURN(lhs, expr) \
  RLC_ASSIGN_OR_RETURN_IMPL_(RLC_CONCAT_(rlc_result_, __LINE__), lhs, expr)
#define RLC_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                               \
  if (!tmp.ok()) return tmp.status();              \
  lhs = std::move(tmp).value()

#endif  // RLC_IMPL_BASE_STATUS_H_
