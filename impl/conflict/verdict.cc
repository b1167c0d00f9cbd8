#include "impl/conflict/verdict.h"

namespace rlc::conflict {

std::string ExceptionName(ConflictKind kind) {
  switch (kind) {
    case ConflictKind::kProtocolChanged:
      return "ProtocolChangedException";
    case ConflictKind::kMetadataChanged:
      return "MetadataChangedException";
    case ConflictKind::kConcurrentTransaction:
      return "ConcurrentTransactionException";
    case ConflictKind::kConcurrentAppend:
      return "ConcurrentAppendException";
    case ConflictKind::kConcurrentDeleteRead:
      return "ConcurrentDeleteReadException";
    case ConflictKind::kConcurrentDeleteDelete:
      return "ConcurrentDeleteDeleteException";
    case ConflictKind::kUnsupportedTableFeature:
      return "DeltaUnsupportedTableFeatureException";
  }
  return "UnknownConflictException";
}

std::string DeltaErrorClass(ConflictKind kind) {
  switch (kind) {
    case ConflictKind::kProtocolChanged:
      return "DELTA_PROTOCOL_CHANGED";
    case ConflictKind::kMetadataChanged:
      return "DELTA_METADATA_CHANGED";
    case ConflictKind::kConcurrentTransaction:
      return "DELTA_CONCURRENT_TRANSACTION";
    case ConflictKind::kConcurrentAppend:
      return "DELTA_CONCURRENT_APPEND";
    case ConflictKind::kConcurrentDeleteRead:
      return "DELTA_CONCURRENT_DELETE_READ";
    case ConflictKind::kConcurrentDeleteDelete:
      return "DELTA_CONCURRENT_DELETE_DELETE";
    case ConflictKind::kUnsupportedTableFeature:
      return "DELTA_UNSUPPORTED_FEATURES_FOR_WRITE";
  }
  return "DELTA_CONCURRENT_WRITE";
}

std::string DeltaSqlState(ConflictKind kind) {
  // Every concurrent-modification class is 2D521; a writer-feature refusal is 56038.
  return kind == ConflictKind::kUnsupportedTableFeature ? "56038" : "2D521";
}

namespace {

// Delta's sentence for the kind, with the abort's subject in its place.
std::string DeltaSentence(const Abort& a) {
  const std::string retry = "Please try the operation again.";
  switch (a.kind) {
    case ConflictKind::kProtocolChanged:
      return "The protocol version of the Delta table has been changed by a concurrent update. ";
    case ConflictKind::kMetadataChanged:
      return "The metadata of the Delta table has been changed by a concurrent update. " + retry;
    case ConflictKind::kConcurrentTransaction:
      return "This error occurs when multiple streaming queries are using the same checkpoint to "
             "write into this table. Did you run multiple instances of the same streaming query "
             "at the same time?";
    case ConflictKind::kConcurrentAppend:
      return "Files were added to " + a.delta_subject + " by a concurrent update. " +
             (a.delta_retry_advice.empty() ? retry : a.delta_retry_advice);
    case ConflictKind::kConcurrentDeleteRead:
      return "This transaction attempted to read one or more files that were deleted (for "
             "example " +
             a.delta_subject + ") by a concurrent update. " + retry;
    case ConflictKind::kConcurrentDeleteDelete:
      return "This transaction attempted to delete one or more files that were deleted (for "
             "example " +
             a.delta_subject + ") by a concurrent update. " + retry;
    case ConflictKind::kUnsupportedTableFeature:
      break;
  }
  return a.reason;
}

}  // namespace

std::string DeltaErrorMessage(const Abort& a) {
  if (a.kind == ConflictKind::kUnsupportedTableFeature) {
    return "[" + DeltaErrorClass(a.kind) + "] Unsupported Delta write feature: " + a.reason + ".";
  }
  std::string out =
      "[" + DeltaErrorClass(a.kind) + "] " + ExceptionName(a.kind) + ": " + DeltaSentence(a);
  if (a.conflicting_commit.has_value()) out += "\nConflicting commit: " + *a.conflicting_commit;
  out += "\nRefer to https://docs.delta.io/latest/concurrency-control.html for more details.";
  return out;
}

std::string Describe(const Abort& abort) {
  std::string s = ExceptionName(abort.kind) + " at version " +
                  std::to_string(abort.winner_version) + " (" + abort.winner_operation +
                  "): " + abort.reason;
  if (abort.path.has_value()) s += " [path " + *abort.path + "]";
  if (abort.partition.has_value()) s += " [partition " + *abort.partition + "]";
  return s;
}

}  // namespace rlc::conflict
